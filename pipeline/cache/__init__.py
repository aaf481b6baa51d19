"""The chunk-result cache: a chunk's reading, reused whenever the same text is read the same way.

keys.py   what a reading depends on, hashed into its key (text, task, engine, prompts, settings)
entry.py  what is stored: a successful reading with offsets relative to its chunk
store.py  where it is stored: SQLite in the data directory, or PostgreSQL; LRU under a size cap
"""

from pipeline.cache.entry import CachedReading
from pipeline.cache.keys import CacheScope
from pipeline.cache.store import CacheStats, ChunkCache, open_chunk_cache

__all__ = ["CacheScope", "CacheStats", "CachedReading", "ChunkCache", "open_chunk_cache"]

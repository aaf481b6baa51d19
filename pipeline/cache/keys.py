"""Cache keys: a hash of everything a chunk's reading depends on, so nothing stale is ever hit.

A reading depends on the chunk's text, the task (the question, or the summary instructions
and length), the per-run engine hints (the built-in engine's corpus statistics), the engine
and its model, the prompts that ask for the reading, and the settings marked
`shapes_output` (pipeline/config.py). The chunk's position (its number, its document's
name) is left out on purpose: the prompt shows it only as a label, and leaving it out is
what lets an edited document reuse the readings of every chunk the edit did not touch.
Only whether the chunk starts its document is kept: a summary reads the title and lead there.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from pipeline import prompts
from pipeline.config import Settings
from pipeline.types import ChunkTask

FORMAT = 3
"""Bumped when what a cached reading means changes (how code turns a reply into a Finding);
2: readings keep their missing terms and how each quote reads (Evidence.display); 3: the
built-in engine's summary readings are tiered by structure (title, sections, releases)."""

MAP_PROMPTS = (
    "DATA_RULE",
    "MAP_ASK_SYSTEM",
    "MAP_ASK_USER",
    "MAP_SUMMARIZE_SYSTEM",
    "MAP_SUMMARIZE_USER",
    "SUMMARY_DEFAULT_INSTRUCTIONS",
    "MEMORY_INSTRUCTIONS",
)
"""The prompts (names in pipeline/prompts.py) that shape a chunk's reading."""


def prompt_version() -> str:
    """A hash of every prompt the map step sends: editing any of them changes every key."""
    return _digest([getattr(prompts, name) for name in MAP_PROMPTS])[:16]


@dataclass(frozen=True)
class CacheScope:
    """The part of every key that one built graph shares: engine, prompts, settings."""

    engine: str
    prefix: str

    @classmethod
    def of(cls, engine: str, settings: Settings) -> CacheScope:
        """`engine` names the engine and its model (Engine.cache_identity)."""
        prefix = _digest(
            {
                "format": FORMAT,
                "engine": engine,
                "prompts": prompt_version(),
                "settings": settings.output_fingerprint(),
            }
        )
        return cls(engine=engine, prefix=prefix)

    def key(self, task: ChunkTask) -> str:
        """The key of one chunk's reading under this scope.

        A chunk's page starts and heading path shape its reading (page furniture is left
        out, the model sees the path), so they are in the key when the chunk has them; a
        chunk without them keys as before.
        """
        chunk = task["chunk"]
        context = {name: chunk[name] for name in ("page_starts", "section") if chunk.get(name)}
        return _digest(
            {
                **context,
                "scope": self.prefix,
                "text": hashlib.sha256(task["chunk"]["text"].encode("utf-8")).hexdigest(),
                "task": task["task"],
                "question": task["question"],
                "instructions": task["instructions"],
                "words": task["words"],
                "hints": task["hints"],
                "starts_document": task["chunk"]["start"] == 0,
            }
        )


def _digest(value: Any) -> str:
    data = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()

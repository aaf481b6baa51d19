"""The built-in engine, no model: BM25 sentence retrieval, LexRank summaries, chat recall."""

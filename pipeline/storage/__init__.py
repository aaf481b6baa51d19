"""Where chat threads live: the checkpointer (SQLite or PostgreSQL) and per-thread turn locks."""

"""longdoc's HTTP API (FastAPI); built in its own issue, on top of pipeline.service."""

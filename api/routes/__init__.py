"""The API's routers: documents (ask, summarize), threads, health."""

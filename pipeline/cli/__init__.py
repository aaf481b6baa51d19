"""The `longdoc` command line: app.py (ask, summarize, serve), chat.py (the REPL), display.py."""

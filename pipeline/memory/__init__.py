"""Chat memory: which messages a turn's prompt holds and which fold into the running summary."""

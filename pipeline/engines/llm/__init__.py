"""Reading with a chat model: the engine, its providers, the call policy, the typed replies."""

"""The two ways to read documents: a chat model (llm/) or the built-in engine (extractive/).

base.py     the Engine protocol nodes call
meter.py    token usage of the model calls a node makes
factory.py  which engine the settings (or a caller's model) choose
"""

"""The LangGraph graph: wiring (build.py), state, chunking, collapse, and one module per node."""

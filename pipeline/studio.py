"""The graph `langgraph dev` and LangGraph Studio load (see langgraph.json).

Compiled without a checkpointer: the LangGraph server brings its own persistence and
refuses graphs that carry one. Settings come from LONGDOC_* and .env like everywhere else,
so `LONGDOC_PROVIDER=openai` makes Studio show the real model's runs.
"""

from __future__ import annotations

from pipeline.graph.build import build_graph

graph = build_graph()

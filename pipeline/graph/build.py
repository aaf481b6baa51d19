"""The longdoc graph, wiring only:

START -> route --(chat)-----> compress --(fold due: Send x N)--> fold_chunk --> fold --> recall
            |                     \\--(no fold)--------------------------------------> recall
            |                                                              recall --> chat -> END
            \\--(document)--> split --Send x N--> map_chunk --(findings +=)--> reduce -> END
"""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore

from pipeline.cache import CacheScope, open_chunk_cache
from pipeline.config import Settings
from pipeline.engines.factory import make_engine
from pipeline.engines.llm.embeddings import embedder as make_embedder
from pipeline.graph.nodes.chat import make_chat
from pipeline.graph.nodes.compress import NODE as FOLD_USAGE
from pipeline.graph.nodes.compress import make_compress, make_fold, send_fold_chunks
from pipeline.graph.nodes.map_chunk import make_map_chunk
from pipeline.graph.nodes.recall import make_recall
from pipeline.graph.nodes.reduce import make_reduce
from pipeline.graph.nodes.route import after_route, make_route
from pipeline.graph.nodes.split import make_split, send_chunks
from pipeline.graph.state import InputState, OutputState, State
from pipeline.graph.sync import both_ways
from pipeline.types import ChunkTask

Graph = CompiledStateGraph[Any, Any, Any, Any]


def build_graph(
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    *,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    store: BaseStore | None = None,
    embeddings: Embeddings | None = None,
) -> Graph:
    """The compiled graph; `model=None` reads with the configured (or built-in) engine.

    With a `store`, chat turns on a thread recall earlier messages from its index there
    (embedded by `embeddings`, or by LONGDOC_EMBEDDINGS when it names a provider).
    It runs with `ainvoke`/`astream` and, as a node of a sync parent graph, with
    `invoke`/`stream` (pipeline/graph/sync.py). Its defaults bound the Send fan-out
    (max_concurrency must be a top-level config key; LangGraph ignores it under
    `configurable`) and keep the step limit small.
    A caller's own config values override both.
    """
    settings = settings or Settings()
    engine = make_engine(model, settings)
    embedder = make_embedder(settings, embeddings)
    cache = open_chunk_cache(settings) if engine.cache_identity else None
    scope = CacheScope.of(engine.cache_identity, settings) if engine.cache_identity else None

    graph = StateGraph(State, input_schema=InputState, output_schema=OutputState)
    graph.add_node("route", both_ways(make_route(engine, settings)))
    graph.add_node("split", make_split(engine, settings))
    map_chunk = make_map_chunk(engine, cache=cache, scope=scope)
    graph.add_node("map_chunk", both_ways(map_chunk), input_schema=ChunkTask)
    graph.add_node("reduce", both_ways(make_reduce(engine, settings, embedder)))
    graph.add_node("compress", make_compress(engine, settings))
    fold_chunk = make_map_chunk(engine, FOLD_USAGE, cache=cache, scope=scope)
    graph.add_node("fold_chunk", both_ways(fold_chunk), input_schema=ChunkTask)
    graph.add_node("fold", both_ways(make_fold(engine, settings, embedder)))
    graph.add_node("recall", both_ways(make_recall(embedder, settings)))
    graph.add_node("chat", both_ways(make_chat(engine, embedder)))

    graph.add_edge(START, "route")
    graph.add_conditional_edges("route", after_route, ["split", "compress"])
    graph.add_conditional_edges("split", send_chunks, ["map_chunk"])
    graph.add_edge("map_chunk", "reduce")
    graph.add_edge("reduce", END)
    graph.add_conditional_edges("compress", send_fold_chunks, ["fold_chunk", "recall"])
    graph.add_edge("fold_chunk", "fold")
    graph.add_edge("fold", "recall")
    graph.add_edge("recall", "chat")
    graph.add_edge("chat", END)

    compiled = graph.compile(checkpointer=checkpointer, store=store, name="longdoc")
    return compiled.with_config(
        max_concurrency=settings.max_concurrency, recursion_limit=settings.recursion_limit
    )


async def abuild_graph(
    model: BaseChatModel | None = None,
    settings: Settings | None = None,
    *,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    store: BaseStore | None = None,
    embeddings: Embeddings | None = None,
) -> Graph:
    """build_graph in a worker thread: the first Databricks model imports for ~5 s, which
    would stall every other task on the caller's event loop."""
    return await asyncio.to_thread(
        build_graph, model, settings, checkpointer=checkpointer, store=store, embeddings=embeddings
    )

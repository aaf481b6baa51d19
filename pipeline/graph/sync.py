"""Async nodes that also run under `invoke`, so the graph can be a node of a sync parent graph.

LangGraph runs a node given only a coroutine function under `ainvoke` and refuses it
under `invoke` ("No synchronous function provided"). `both_ways` gives LangGraph the
pair it accepts for that, the same RunnableCallable it builds from a plain function
(its prebuilt ToolNode is one): `ainvoke` awaits the coroutine on the caller's loop,
`invoke` runs it to the end on its own loop, on the worker thread LangGraph gives each
task. Parallel map tasks stay bounded by `max_concurrency`: it sizes LangGraph's pool.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from langchain_core.runnables import Runnable
from langgraph._internal._runnable import RunnableCallable

T = TypeVar("T")


def both_ways(node: Callable[..., Coroutine[Any, Any, T]]) -> Runnable[Any, T]:
    """The async `node` as a runnable LangGraph can run with `invoke` or `ainvoke`.

    `wraps` gives `run` the node's signature, which LangGraph reads to pass the node its
    `config` and `runtime` (the recall index's store) under `invoke` as under `ainvoke`.
    """

    @functools.wraps(node)
    def run(*args: Any, **kwargs: Any) -> T:
        return run_to_end(node(*args, **kwargs))

    return RunnableCallable(run, node, name=node.__name__, trace=False)


def run_to_end(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` on a fresh event loop, keeping this thread's context (LangGraph's
    config, so progress events still reach the stream).

    A thread already running a loop (a notebook cell, a sync call made from async code)
    cannot start another, so there the coroutine runs on a short-lived worker thread.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    context = contextvars.copy_context()
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(context.run, asyncio.run, coroutine).result()

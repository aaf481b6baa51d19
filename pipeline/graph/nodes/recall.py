"""recall: the earlier messages relevant to the new one, from the thread's index in the store.

A node of its own between compress/fold and chat, rather than a step inside chat: it
runs after any fold (so "not in the kept window" means the window the prompt will
hold), it shows as its own span in traces and its own progress event, and chat stays
"reply to this prompt". Without a store (a graph compiled without one, e.g. a parent's
subgraph) it recalls nothing and chat works as before.

`remember` is how chat and reduce write a turn's messages to the index, before the
graph writes them to the history (see pipeline/memory/store.py for why that order).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from pipeline.config import Settings
from pipeline.engines.llm.embeddings import Embedder
from pipeline.graph.nodes import NodeFn
from pipeline.graph.state import State
from pipeline.memory.entries import message_entry
from pipeline.memory.recall import prompt_turns, search
from pipeline.memory.store import ThreadMemory
from pipeline.memory.window import prompt_tokens, visible
from pipeline.progress import emit


def make_recall(embedder: Embedder | None, settings: Settings) -> NodeFn:
    async def recall(state: State, config: RunnableConfig, runtime: Runtime[Any]) -> dict[str, Any]:
        thread_id = thread_of(config)
        none: dict[str, Any] = {"recall_hits": [], "recalled": []}
        if runtime.store is None or thread_id is None:
            return none
        history = state.get("messages", [])
        index = await ThreadMemory(runtime.store, thread_id, embedder).reconcile(history)
        k = settings.memory_recall_k
        if not k:
            return none
        question = state["question"]
        kept = {m.id for m in visible(history, state.get("summary_covers", [])) if m.id}
        vector = await embedder.embed_query(question) if embedder is not None else None
        hits = search(
            index,
            question,
            k + 1,  # one spare: the summary the prompt holds anyway is dropped below
            exclude=kept,
            query_vector=vector,
            embedder=embedder.id if embedder is not None else None,
        )
        summary = state.get("summary", "")
        current = [h for h in hits if h.entry.kind == "summary" and h.entry.content == summary]
        hits = [h for h in hits if h not in current][:k]
        turns = prompt_turns(hits, recall_room(summary, history, state, settings))
        emit("recall", recalled=len(turns))
        return {
            "recall_hits": [t.model_dump() for t in turns],
            "recalled": [t.message_id for t in turns],
        }

    return recall


def recall_room(
    summary: str, history: Sequence[BaseMessage], state: State, settings: Settings
) -> int:
    """Tokens recalled turns may take: what the summary, kept messages and the new one leave
    of memory_token_budget, at most memory_recall_token_budget, so the prompt never passes
    the budget. Right after a fold there is room (2,000 - ~400 = 1,600, capped at 1,000);
    on the turn before the next fold, little or none.
    """
    kept = visible(history, state.get("summary_covers", []))
    left = settings.memory_token_budget - prompt_tokens(summary, kept, state["question"])
    return max(0, min(settings.memory_recall_token_budget, left))


async def remember(
    runtime: Runtime[Any],
    config: RunnableConfig,
    embedder: Embedder | None,
    history: Sequence[BaseMessage],
    new: Sequence[BaseMessage],
) -> None:
    """Index this turn's `new` messages, which follow `history`, ahead of the history write."""
    thread_id = thread_of(config)
    if runtime.store is None or thread_id is None:
        return
    memory = ThreadMemory(runtime.store, thread_id, embedder)
    await memory.reconcile(history)
    entries = [message_entry(m, len(history) + i) for i, m in enumerate(new)]
    await memory.append(entries, confirmed=False)


def stamped(message: BaseMessage) -> BaseMessage:
    """The message with an id and the time it was written, so its index entry names both."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    kwargs = {**message.additional_kwargs, "created_at": now}
    return message.model_copy(
        update={"id": message.id or uuid.uuid4().hex, "additional_kwargs": kwargs}
    )


def thread_of(config: RunnableConfig) -> str | None:
    thread_id = config.get("configurable", {}).get("thread_id")
    return str(thread_id) if thread_id is not None else None

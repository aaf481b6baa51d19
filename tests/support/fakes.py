"""A deterministic fake chat model: every reply is a pure function of its prompt.

Send runs chunks concurrently, so a queue of canned replies would hand chunk 3's
reply to chunk 5; deriving each reply from the prompt keeps tests order-free.
It tells prompts apart by the labels pipeline/prompts.py defines (imported, never copied:
tests/unit/test_prompts.py checks each label is still in its prompt). Markers in the
document text make a chunk misbehave on purpose:

    FAIL_ALWAYS         every call reading this chunk raises a 500 (retried, then fails)
    RATE_LIMITED_ONCE   the first call for this prompt raises a 429 with Retry-After: 0
    BAD_JSON            the model's structured reply for this chunk is invalid, every time
    UNPARSABLE_ROUTE    (in the question) the router's reply is invalid, every time
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import os
import re
import signal
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from pydantic import ConfigDict, Field, PrivateAttr

from pipeline import prompts
from pipeline.text.tokens import count_tokens

_WORD = re.compile(r"[A-Za-z0-9]{3,}")
_STOP = {"the", "who", "what", "when", "where", "which", "how", "was", "are", "and", "does"}
_SENTENCE = re.compile(r"[^.!?。\n]+[.!?。]?")


class ProviderError(Exception):
    """Looks like an HTTP error from a provider SDK: status_code and response headers."""

    def __init__(
        self,
        status_code: int,
        retry_after: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code
        self.headers = dict(headers or {})
        if retry_after is not None:
            self.headers["retry-after"] = retry_after


class FakeChatModel(BaseChatModel):
    """Answers route, map, collapse, answer and chat prompts from their text alone."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    latency: float = 0.0
    """Seconds each call sleeps, to simulate a real model in benchmarks."""

    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _in_flight: int = PrivateAttr(0)
    _seen: set[str] = PrivateAttr(default_factory=set)
    peak_in_flight: int = 0

    def __getstate__(self) -> dict[Any, Any]:
        """Picklable (a Ray worker gets a copy): the lock stays behind, each copy makes its own."""
        state = super().__getstate__()
        private = dict(state.get("__pydantic_private__") or {})
        private.pop("_lock", None)
        return {**state, "__pydantic_private__": private}

    def __setstate__(self, state: dict[Any, Any]) -> None:
        super().__setstate__(state)
        self._lock = threading.Lock()

    calls: int = 0
    prompts: list[str] = Field(default_factory=list)
    fail_on: str = ""
    """Any prompt holding this text fails with a 500, every time (e.g. the memory instructions)."""

    @property
    def _llm_type(self) -> str:
        return "longdoc-fake"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        names = [
            getattr(t, "__name__", None) or t.get("title") or t["function"]["name"] for t in tools
        ]
        return self.bind(tool_names=names, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._reply(messages, kwargs.get("tool_names"))

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with self._lock:
            self._in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
        try:
            if self.latency:
                await asyncio.sleep(self.latency)
            return self._reply(messages, kwargs.get("tool_names"))
        finally:
            with self._lock:
                self._in_flight -= 1

    # ---- the pure part ----

    def _reply(self, messages: list[BaseMessage], tool_names: list[str] | None) -> ChatResult:
        prompt = "\n".join(str(m.content) for m in messages)
        with self._lock:
            self.calls += 1
            self.prompts.append(prompt)
            first_time = prompt not in self._seen
            self._seen.add(prompt)
        if "FAIL_ALWAYS" in prompt and prompts.EXCERPT_LABEL in prompt:
            raise ProviderError(500)
        if self.fail_on and self.fail_on in prompt:
            raise ProviderError(500)
        if "RATE_LIMITED_ONCE" in prompt and first_time:
            raise ProviderError(429, retry_after="0")
        if tool_names:
            name = tool_names[0]
            args = _STRUCTURED[name](prompt)
            message = AIMessage(
                content="",
                tool_calls=[{"name": name, "args": args, "id": f"call_{abs(hash(prompt))}"}],
            )
            output = str(args)
        else:
            output = chat_reply(prompt)
            message = AIMessage(content=output)
        tokens_in, tokens_out = count_tokens(prompt), count_tokens(output)
        message.usage_metadata = {
            "input_tokens": tokens_in,
            "output_tokens": tokens_out,
            "total_tokens": tokens_in + tokens_out,
        }
        return ChatResult(generations=[ChatGeneration(message=message)])


_QUESTION = re.compile(
    rf"(?:{re.escape(prompts.QUESTION_LABEL)}|{re.escape(prompts.MESSAGE_LABEL)})\s*\n?(.+)"
)


def question_of(prompt: str) -> str:
    match = _QUESTION.search(prompt)
    return match.group(1).strip() if match else ""


_NAME_WORD = re.compile(r"\b[A-Z][A-Za-z0-9-]+")


def other_entity(question: str, sentence: str) -> bool:
    """Whether the sentence puts another name where the question puts its own: 'Ashford
    warehouse' for 'the Riverside warehouse'. A sentence that just lacks the name ('Its
    chief engineer is Tomas Berg.' for 'who is the engineer of Robotics') may still be
    about it, as a model reading the rule would see."""
    body = question.split(" ", 1)[1] if " " in question else ""
    for match in _NAME_WORD.finditer(body):
        name, after = match.group(), re.match(r"\s+([a-z]+)", body[match.end() :])
        if name in sentence or after is None or after.group(1) in _STOP:
            continue
        if re.search(rf"\b[A-Z][A-Za-z0-9-]+\s+{after.group(1)}\b", sentence):
            return True
    return False


def keywords(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _STOP


def route_reply(prompt: str) -> dict[str, Any]:
    question = question_of(prompt).lower()
    if "unparsable_route" in question:
        return {"mode": "maybe"}
    chatty = question.startswith(("hi", "hello", "thanks", "thank you"))
    return {"mode": "chat" if chatty else "document", "reason": "fake router"}


def reading_reply(prompt: str) -> dict[str, Any]:
    excerpt = _fenced(prompt)
    if "BAD_JSON" in excerpt:
        return {"relevance": "very", "answer": None}
    if prompts.INSTRUCTIONS_LABEL in prompt:  # summarize: the excerpt's first sentence
        first = next((s.strip() for s in _SENTENCE.findall(excerpt) if s.strip()), "")
        return {"relevance": 10, "answer": first, "quotes": [first], "confidence": 4}
    question = question_of(prompt)
    wanted = keywords(question)
    # Like a model told prompts.OTHER_ENTITY_RULE, it skips sentences about another entity.
    # Without the rule in the prompt it reads by keywords alone, as the fake always did.
    ruled = prompts.OTHER_ENTITY_RULE in prompt
    for sentence in _SENTENCE.findall(excerpt):
        if ruled and (sentence.lstrip().startswith("#") or other_entity(question, sentence)):
            continue  # a heading answers nothing; another entity's fact is not this one's
        if wanted & keywords(sentence):
            quote = sentence.strip()
            return {"relevance": 8, "answer": quote, "quotes": [quote], "confidence": 4}
    return {"relevance": 0, "answer": "no information", "quotes": [], "confidence": 0}


def draft_reply(prompt: str) -> dict[str, Any]:
    notes = re.findall(r"^\[(\d+)\] \(confidence \d/5\) (.*)$", prompt, flags=re.MULTILINE)
    if prompts.MERGE_REQUEST in prompt:
        # Collapse: keep each note's first 40 characters, so merging always shrinks.
        text = " / ".join(answer[:40] for _, answer in notes)
    else:
        text = " ".join(answer for _, answer in notes)
    return {"answer": text or "no notes", "cited": [int(n) for n, _ in notes]}


def chat_reply(prompt: str) -> str:
    last = prompt.strip().splitlines()[-1] if prompt.strip() else ""
    return f"You said: {last}"


def _fenced(prompt: str) -> str:
    match = re.search(r"<document[^>]*>\n(.*)\n</document>", prompt, flags=re.DOTALL)
    return match.group(1) if match else ""


_STRUCTURED = {"Route": route_reply, "ChunkReading": reading_reply, "DraftAnswer": draft_reply}


class CountingChatModel(FakeChatModel):
    """A FakeChatModel that appends a line per call to $FAKE_CALL_LOG (for subprocess tests)."""

    def _reply(self, messages: list[BaseMessage], tool_names: list[str] | None) -> ChatResult:
        log = os.environ.get("FAKE_CALL_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as out:
                out.write("call\n")
        return super()._reply(messages, tool_names)


def counting_model() -> CountingChatModel:
    """LONGDOC_MODEL_FACTORY=tests.support.fakes:counting_model runs a CLI or server on the fake."""
    return CountingChatModel(latency=float(os.environ.get("FAKE_LATENCY", "0")))


class ClusterChatModel(CountingChatModel):
    """A CountingChatModel for batch runs spread over processes (Ray workers).

    $FAKE_INFLIGHT_FILE records the calls in flight across every process, the most ever
    seen and the processes that called (a JSON file updated under an exclusive lock). A
    chunk holding KILL_WORKER_ONCE kills its own process the first time any process reads
    it (a marker per chunk text in $FAKE_STATE_DIR), as a worker lost mid-file would.
    """

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        prompt = "\n".join(str(m.content) for m in messages)
        if "KILL_WORKER_ONCE" in prompt and prompts.EXCERPT_LABEL in prompt:
            marker = Path(os.environ["FAKE_STATE_DIR"]) / f"killed-{_digest(prompt)}"
            if not marker.exists():
                marker.write_text(str(os.getpid()))
                os.kill(os.getpid(), signal.SIGKILL)
        record_in_flight(+1)
        try:
            return await super()._agenerate(messages, stop, run_manager, **kwargs)
        finally:
            record_in_flight(-1)


def record_in_flight(change: int) -> None:
    path = os.environ.get("FAKE_INFLIGHT_FILE")
    if not path:
        return
    with open(path, "a+", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes
        handle.seek(0)
        state = json.loads(handle.read() or '{"now": 0, "peak": 0, "pids": []}')
        state["now"] += change
        state["peak"] = max(state["peak"], state["now"])
        state["pids"] = sorted({*state["pids"], os.getpid()})
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps(state))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cluster_model() -> ClusterChatModel:
    """LONGDOC_MODEL_FACTORY=tests.support.fakes:cluster_model for Ray worker tests."""
    return ClusterChatModel(latency=float(os.environ.get("FAKE_LATENCY", "0")))


# Words a real embedding model would place near each other; each group is one dimension.
_CONCEPTS = [
    {"name", "names", "named", "call", "called", "calls"},
    {"from", "hometown", "born", "live", "lives", "grew"},
    {"study", "studies", "student", "major", "degree"},
    {"boat", "boats", "sail", "sailing", "yacht"},
]
EMBEDDING_DIMS = 64


class FakeEmbeddings(Embeddings):
    """Embeddings that are a pure function of the text: synonym groups share a dimension,
    every other word hashes to one of the rest, so "what do people call me?" lands near
    "my name is Sean" as it would with a real model, and word order never matters."""

    calls: int = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [fake_vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        return fake_vector(text)


def fake_vector(text: str) -> list[float]:
    vector = [0.0] * EMBEDDING_DIMS
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in _STOP or len(word) < 3:
            continue
        concept = next((i for i, group in enumerate(_CONCEPTS) if word in group), None)
        if concept is None:
            digest = sum(ord(c) * (i + 1) for i, c in enumerate(word))
            concept = len(_CONCEPTS) + digest % (EMBEDDING_DIMS - len(_CONCEPTS))
        vector[concept] += 1.0
    return vector

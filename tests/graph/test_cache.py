"""The chunk-result cache: reuse of readings, what invalidates them, failures, size, surfaces."""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pipeline import Settings, aask, ask, prompts, stream_ask, summarize
from pipeline.cache import CachedReading, ChunkCache, open_chunk_cache
from pipeline.cache.store import SQLITE_FILE, SqliteDatabase
from pipeline.engines.extractive import engine as extractive_engine
from pipeline.types import Chunk
from tests.support import LONGDOC
from tests.support.fakes import FakeChatModel
from tests.support.http import client_for
from tests.support.shaped import REPORT

PLACES = ["Bergen", "Oslo", "Tromso", "Stavanger", "Bodo", "Alesund", "Narvik", "Molde"]
QUESTION = "Where did crane 7 lift boxes?"


def report(paragraphs: int = 24) -> str:
    """Distinct paragraphs of distinct sentences: every chunk is its own text."""
    return "\n\n".join(
        " ".join(
            f"Crane {p} lifted {p * 10 + s} boxes in {PLACES[(p + s) % len(PLACES)]} on day {s}."
            for s in range(6)
        )
        for p in range(paragraphs)
    )


def cached(**overrides: Any) -> Settings:
    """Small chunks, so a document is many readings; the cache on (the default)."""
    values: dict[str, Any] = {"chunk_size": 100, "chunk_overlap": 0, "retry_initial_s": 0.0}
    return Settings(**(values | overrides))


def map_calls(model: FakeChatModel) -> int:
    return sum(prompts.EXCERPT_LABEL in p for p in model.prompts)


def test_the_same_question_twice_reads_no_chunk_the_second_time() -> None:
    text, settings = report(), cached()
    first_model, second_model = FakeChatModel(), FakeChatModel()
    first = ask(text, QUESTION, model=first_model, settings=settings)
    second = ask(text, QUESTION, model=second_model, settings=settings)
    chunks = first.coverage.chunks
    assert chunks > 5
    assert map_calls(first_model) == chunks
    assert first.usage.cached_reads == 0
    assert map_calls(second_model) == 0
    assert second.usage.cached_reads == chunks == second.coverage.read
    assert second.usage.by_node["map_chunk"].calls == 0
    assert second.usage.cached_tokens == first.usage.by_node["map_chunk"].input_tokens + (
        first.usage.by_node["map_chunk"].output_tokens
    )
    assert second.answer == first.answer
    assert second.citations == first.citations


def test_a_cached_reading_reads_as_the_fresh_one_shown_whole_with_its_cautions() -> None:
    """The built-in engine's readings carry how each quote reads (a table row with its
    headers) and the asked names the evidence lacks; a hit must keep both."""
    table = {"id": "doc", "text": REPORT}
    question = "What was the order backlog at year end in 2024?"
    first, second = ask(table, question), ask(table, question)
    assert second.usage.cached_reads == second.coverage.read > 0
    assert second.answer.startswith("Order backlog at year end — 2024: 6,240")
    assert second.answer == first.answer
    register = "The Ashford warehouse opened in 1998. The Lakeside warehouse opened in 2006."
    misspelt = "When did the Ashfort warehouse open?"
    first, second = ask(register, misspelt), ask(register, misspelt)
    assert second.usage.cached_reads > 0
    assert second.missing_terms == first.missing_terms == ["Ashfort"]


async def test_cached_chunks_still_report_progress_marked_cached() -> None:
    text, settings = report(), cached()
    await aask(text, QUESTION, model=FakeChatModel(), settings=settings)
    events = [
        e
        async for e in stream_ask(text, QUESTION, model=FakeChatModel(), settings=settings)
        if isinstance(e, dict) and e["event"] == "chunk_done"
    ]
    assert events
    assert all(e["cached"] for e in events)
    assert sorted(e["done"] for e in events) == list(range(1, len(events) + 1))


def test_a_different_question_model_prompt_or_shaping_setting_never_hits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = report()
    ask(text, QUESTION, model=FakeChatModel(), settings=cached())

    def reads(
        question: str = QUESTION, model: FakeChatModel | None = None, **overrides: Any
    ) -> int:
        model = model or FakeChatModel()
        result = ask(text, question, model=model, settings=cached(**overrides))
        return result.usage.cached_reads

    assert reads("How many boxes did crane 3 lift?") == 0
    assert reads(min_relevance=5) == 0  # shapes_output
    assert reads(model=OtherModel()) == 0
    assert reads(call_timeout_s=5.0) > 0  # only how the run goes: still a hit
    monkeypatch.setattr(prompts, "MAP_ASK_SYSTEM", prompts.MAP_ASK_SYSTEM + " Be brief.")
    assert reads() == 0


def test_the_built_in_engines_readings_never_outlive_its_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its readings are what its code computes: after an upgrade or a fix, an entry made
    by the old code would serve the old answer."""
    text = report()
    ask(text, QUESTION)
    assert ask(text, QUESTION).usage.cached_reads > 0
    monkeypatch.setattr(extractive_engine, "code_version", lambda: "another-version")
    assert ask(text, QUESTION).usage.cached_reads == 0


class OtherModel(FakeChatModel):
    """Another model that happens to answer the same way."""

    @property
    def _llm_type(self) -> str:
        return "other-fake"


def test_summaries_are_cached_per_instructions_and_length() -> None:
    text, settings = report(), cached()

    def reads(**kwargs: Any) -> int:
        return summarize(
            text, model=FakeChatModel(), settings=settings, **kwargs
        ).usage.cached_reads

    assert reads(words=60) == 0
    assert reads(words=60) > 0
    assert reads(words=90) == 0
    assert reads(words=60, instructions="Focus on Bergen.") == 0


def test_a_failed_reading_is_never_cached() -> None:
    text = report() + "\n\nFAIL_ALWAYS this paragraph cannot be read."
    settings = cached(max_retries=0)
    first = ask(text, QUESTION, model=FakeChatModel(), settings=settings)
    assert len(first.coverage.failed) == 1
    model = FakeChatModel()
    second = ask(text, QUESTION, model=model, settings=settings)
    assert len(second.coverage.failed) == 1
    assert map_calls(model) == 1, "the failed chunk is asked again, the others are hits"
    assert second.usage.cached_reads == second.coverage.chunks - 1


def test_an_edited_paragraph_rereads_only_the_chunks_around_it() -> None:
    text, settings = report(60), cached()
    first = ask(text, QUESTION, model=FakeChatModel(), settings=settings)
    middle = text.index("Crane 30 ")
    edited = text[:middle] + "A new paragraph about the quay was added here.\n\n" + text[middle:]
    model = FakeChatModel()
    second = ask(edited, QUESTION, model=model, settings=settings)
    assert first.coverage.chunks > 20
    assert 1 <= map_calls(model) <= 3
    assert second.usage.cached_reads >= second.coverage.chunks - 3


def test_cache_off_stores_nothing(tmp_path: Path) -> None:
    text, settings = report(), cached(cache="off")
    ask(text, QUESTION, model=FakeChatModel(), settings=settings)
    model = FakeChatModel()
    result = ask(text, QUESTION, model=model, settings=settings)
    assert result.usage.cached_reads == 0
    assert map_calls(model) == result.coverage.chunks
    assert not (settings.data_dir / SQLITE_FILE).exists()


def test_a_corrupt_cache_file_is_skipped_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = cached(data_dir=tmp_path / "corrupt")
    settings.data_dir.mkdir()
    (settings.data_dir / SQLITE_FILE).write_bytes(b"this is not a database" * 100)
    with caplog.at_level(logging.WARNING, logger="pipeline.cache.store"):
        result = ask(report(), QUESTION, model=FakeChatModel(), settings=settings)
    assert "Crane 7" in result.answer
    assert result.coverage.read == result.coverage.chunks
    warnings = [r for r in caplog.records if "chunk cache" in r.getMessage()]
    assert len(warnings) == 1, "one warning per cause, not one per chunk"


def test_a_tampered_entry_is_a_miss_not_a_wrong_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    text, settings = report(), cached(data_dir=tmp_path / "tampered")
    first = ask(text, QUESTION, model=FakeChatModel(), settings=settings)
    with sqlite3.connect(settings.data_dir / SQLITE_FILE) as conn:
        conn.execute("UPDATE longdoc_chunk_cache SET value = replace(value, 'Crane', 'Plane')")
        conn.execute("UPDATE longdoc_chunk_cache SET value = '{' WHERE rowid % 2 = 0")
    with caplog.at_level(logging.WARNING, logger="pipeline.cache.store"):
        second = ask(text, QUESTION, model=FakeChatModel(), settings=settings)
    assert second.answer == first.answer
    assert second.citations == first.citations
    assert second.usage.cached_reads == 0
    assert caplog.records


def chunk(number: int) -> Chunk:
    text = f"Reading number {number} says the quay is long."
    return Chunk(id=0, document="d", start=0, end=len(text), text=text)


def reading(number: int) -> CachedReading:
    text = chunk(number)["text"]
    return CachedReading.model_validate(
        {
            "relevance": 5,
            "answer": text,
            "confidence": 3,
            "evidence": [{"start": 0, "end": len(text), "quote": text}],
        }
    )


async def test_past_the_size_cap_the_least_recently_used_readings_go(tmp_path: Path) -> None:
    entry = len("key10") + len(reading(10).model_dump_json())
    cap = 20 * entry
    cache = ChunkCache(SqliteDatabase(tmp_path / "cache.sqlite"), max_bytes=cap)
    for number in range(10, 20):
        await cache.put(f"key{number}", reading(number))
    assert await cache.get("key10", chunk(10)) is not None  # key10 is now the most recent
    for number in range(20, 34):  # 24 readings: past the cap of 20
        await cache.put(f"key{number}", reading(number))
        assert cache.stats().bytes <= cap + entry  # one put past the cap at most
    assert await cache.get("key10", chunk(10)) is not None, "recently used, so kept"
    assert await cache.get("key11", chunk(11)) is None, "least recently used, so dropped"
    assert await cache.get("key33", chunk(33)) is not None
    assert 15 <= cache.stats().entries <= 20


async def test_a_reading_hit_by_another_chunk_takes_that_chunks_place(tmp_path: Path) -> None:
    cache = ChunkCache(SqliteDatabase(tmp_path / "cache.sqlite"), max_bytes=10**6)
    await cache.put("k", reading(1))
    elsewhere = {**chunk(1), "id": 7, "document": "other", "start": 100, "end": 100 + 44}
    hit = await cache.get("k", Chunk(**elsewhere))  # type: ignore[typeddict-item]
    assert hit is not None
    finding = hit.finding(Chunk(**elsewhere))  # type: ignore[typeddict-item]
    assert finding.chunk == 7
    assert [(e.document, e.start, e.chunk) for e in finding.evidence] == [("other", 100, 7)]


async def test_the_api_shares_the_cache(tmp_path: Path) -> None:
    settings = cached()
    body = {"question": QUESTION, "documents": [{"id": "r", "text": report()}]}
    async with await client_for(settings) as http:
        first = (await http.post("/v1/ask", json=body)).json()
        second = (await http.post("/v1/ask", json=body)).json()
    assert first["usage"]["cached_reads"] == 0
    assert second["usage"]["cached_reads"] == second["coverage"]["chunks"] > 5
    assert second["answer"] == first["answer"]


@pytest.mark.slow
def test_cli_shows_and_clears_the_cache(tmp_path: Path) -> None:
    doc = tmp_path / "report.txt"
    doc.write_text(report(), encoding="utf-8")
    env = {**os.environ, "LONGDOC_DATA_DIR": str(tmp_path / "data")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(LONGDOC), *args], capture_output=True, text=True, env=env, timeout=120
        )

    assert run("ask", str(doc), QUESTION).returncode == 0
    shown = run("cache", "stats")
    assert shown.returncode == 0, shown.stderr
    assert str(tmp_path / "data" / SQLITE_FILE) in shown.stdout
    assert "readings 1" in shown.stdout
    assert run("ask", str(doc), QUESTION).returncode == 0
    assert "hits     1" in run("cache", "stats").stdout
    cleared = run("cache", "clear")
    assert cleared.returncode == 0
    assert "dropped 1 " in cleared.stdout
    assert "readings 0" in run("cache", "stats").stdout
    off = subprocess.run(
        [str(LONGDOC), "cache", "stats"],
        capture_output=True,
        text=True,
        env={**env, "LONGDOC_CACHE": "off"},
        timeout=60,
    )
    assert off.returncode == 1
    assert "off" in off.stderr


POSTGRES = os.environ.get("TEST_POSTGRES_URL")


@pytest.mark.slow
def test_postgres_cache_is_shared_by_processes(tmp_path: Path) -> None:
    if not POSTGRES:
        if os.environ.get("CI"):
            pytest.fail("TEST_POSTGRES_URL is unset: .ci/run should have started PostgreSQL")
        pytest.skip("no PostgreSQL here; .ci/run starts one and sets TEST_POSTGRES_URL")
    settings = cached(checkpoint_url=POSTGRES, data_dir=tmp_path)
    cache = open_chunk_cache(settings)
    assert cache is not None
    cache.clear()
    text = report() + f"\n\nA paragraph only this run has: {tmp_path.name}."
    (tmp_path / "doc.txt").write_text(text, encoding="utf-8")
    script = (
        "import sys; from pathlib import Path; from pipeline import Settings, ask;"
        "from tests.support.fakes import FakeChatModel;"
        f"r = ask(Path({str(tmp_path / 'doc.txt')!r}), {QUESTION!r}, model=FakeChatModel(),"
        f" settings=Settings(chunk_size=100, chunk_overlap=0, checkpoint_url={POSTGRES!r}));"
        "print(r.usage.cached_reads, r.coverage.chunks)"
    )
    child = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.split()[0] == "0"
    model = FakeChatModel()
    result = ask(text, QUESTION, model=model, settings=settings)
    assert result.usage.cached_reads == result.coverage.chunks == int(child.stdout.split()[1])
    assert map_calls(model) == 0
    assert not (tmp_path / SQLITE_FILE).exists(), "PostgreSQL, not a SQLite file"
    assert cache.stats().entries >= result.coverage.chunks

"""Chunks read in worker processes (Settings.reader_processes): the same answers, on real
worker processes, and a dead worker costs time, never an answer."""

from __future__ import annotations

import asyncio
import multiprocessing
import os

import pytest

from pipeline import Settings, ask, summarize
from pipeline.engines.extractive import readers
from tests.support import SAMPLES

# Six sample documents' worth of text in chunks of ~2,000 tokens: a dozen chunks, every
# one long enough to go to a worker.
LONG = "\n\n".join(
    (SAMPLES / name).read_text(encoding="utf-8") for name in ("annual_report.md", "user_manual.md")
)
QUESTIONS = [
    "Who founded the company in Bergen?",
    "Which port does the console's web interface listen on by default?",
    "What is the retail price of the Corvid 3 weather station?",  # not there
]


def _settings(processes: int) -> Settings:
    return Settings(extractive_chunk_size=2_000, reader_processes=processes, cache="off")


def _worker_pid(_: str) -> int:
    return os.getpid()


def _dies_in_a_worker(text: str) -> str:
    if multiprocessing.parent_process() is not None:
        os._exit(1)  # a worker killed mid-chunk, as the kernel's OOM killer would
    return f"read in place: {text}"


@pytest.mark.parametrize("question", QUESTIONS)
def test_answers_read_in_worker_processes_are_the_ones_read_in_place(question: str) -> None:
    in_place = ask(LONG, question, settings=_settings(1))
    readers.shutdown()
    in_workers = ask(LONG, question, settings=_settings(2))
    assert readers.running() == [2]  # the ask started a pool of two workers
    assert in_workers.coverage.chunks == in_place.coverage.chunks > 4
    assert in_workers.answer == in_place.answer
    assert in_workers.citations == in_place.citations


def test_a_summary_read_in_worker_processes_is_the_one_read_in_place() -> None:
    in_place = summarize(LONG, settings=_settings(1))
    in_workers = summarize(LONG, settings=_settings(2))
    assert in_workers.summary == in_place.summary
    assert in_workers.citations == in_place.citations


def test_long_chunks_go_to_a_worker_and_short_ones_stay() -> None:
    long, short = "x" * readers.MIN_CHARS, "x" * (readers.MIN_CHARS - 1)
    assert asyncio.run(readers.read(2, len(long), _worker_pid, long)) != os.getpid()
    assert asyncio.run(readers.read(2, len(short), _worker_pid, short)) == os.getpid()
    assert asyncio.run(readers.read(1, len(long), _worker_pid, long)) == os.getpid()


def test_a_dead_worker_costs_a_chunk_read_in_place_and_a_fresh_pool() -> None:
    broken = readers.pool(3)
    text = "y" * readers.MIN_CHARS
    assert asyncio.run(readers.read(3, len(text), _dies_in_a_worker, text)) == (
        f"read in place: {text}"
    )
    fresh = readers.pool(3)
    assert fresh is not None
    assert fresh is not broken
    assert asyncio.run(readers.read(3, len(text), _worker_pid, text)) != os.getpid()

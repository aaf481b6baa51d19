"""Bad input fails fast with an InputError that says what is wrong and how to fix it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline import ConfigError, InputError, Settings, TooLargeError, ask, build_graph
from tests.support.fakes import FakeChatModel


@pytest.mark.parametrize(
    ("documents", "message"),
    [
        ([], "no documents"),
        ("", "is empty"),
        ("   \n\t  ", "is empty"),
        (123, "not int"),
        ([b"bytes"], "not text"),
        ([{"id": "a"}], "has no text"),
        ([{"id": "a", "text": "x"}, {"id": "a", "text": "y"}], "share the id"),
        ("bad \ud800 surrogate", "lone surrogate"),
    ],
)
def test_bad_documents_are_refused_with_a_reason(
    documents: Any, message: str, model: FakeChatModel
) -> None:
    with pytest.raises(InputError, match=message) as caught:
        ask(documents, "What is this?", model=model)
    assert caught.value.hint
    assert model.calls == 0


@pytest.mark.parametrize("question", ["", "   "])
def test_empty_question_is_refused(question: str, model: FakeChatModel) -> None:
    with pytest.raises(InputError, match="question is empty"):
        ask("Some text.", question, model=model)
    assert model.calls == 0


def test_oversized_document_is_refused_before_any_model_call(model: FakeChatModel) -> None:
    settings = Settings(max_document_mb=0.001)  # 1,000 characters
    with pytest.raises(TooLargeError, match="over the limit"):
        ask("word " * 500, "What?", model=model, settings=settings)
    assert model.calls == 0


def test_too_many_chunks_is_refused(model: FakeChatModel) -> None:
    settings = Settings(chunk_size=50, chunk_overlap=0, max_chunks=3)
    with pytest.raises(TooLargeError, match="more than 3 chunks"):
        ask("A sentence of filler text. " * 200, "What?", model=model, settings=settings)


def test_overlong_question_is_refused(model: FakeChatModel) -> None:
    with pytest.raises(TooLargeError, match="question"):
        ask("Text.", "why " * 2000, model=model)


async def test_graph_called_directly_validates_its_input(model: FakeChatModel) -> None:
    graph = build_graph(model)
    with pytest.raises(InputError, match="is empty"):
        await graph.ainvoke({"question": "What?", "documents": [{"id": "a", "text": "  "}]})


def test_nul_and_control_characters_are_removed(model: FakeChatModel, settings: Settings) -> None:
    result = ask(
        "The keeper\x00 is Marta\x07 Lund.", "Who is the keeper?", model=model, settings=settings
    )
    assert "\x00" not in result.answer
    assert result.citations[0].quote == "The keeper is Marta Lund."


def test_paths_are_read_and_named_by_file(
    tmp_path: Path, model: FakeChatModel, settings: Settings
) -> None:
    path = tmp_path / "keeper.txt"
    path.write_text("The keeper is Marta Lund.", encoding="utf-16")
    result = ask(path, "Who is the keeper?", model=model, settings=settings)
    assert result.citations[0].document == "keeper.txt"


def test_binary_file_is_refused(tmp_path: Path, model: FakeChatModel) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(InputError, match="binary"):
        ask(path, "What?", model=model)


def test_missing_file_is_refused(tmp_path: Path, model: FakeChatModel) -> None:
    with pytest.raises(InputError, match="file not found"):
        ask(tmp_path / "nope.txt", "What?", model=model)


def test_settings_come_from_longdoc_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LONGDOC_CHUNK_SIZE", "500")
    monkeypatch.setenv("LONGDOC_MAX_CONCURRENCY", "3")
    settings = Settings()
    assert settings.chunk_size == 500
    assert settings.max_concurrency == 3


def test_settings_read_a_dotenv_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("LONGDOC_CHUNK_OVERLAP=7\n")
    assert Settings().chunk_overlap == 7


def test_overlap_must_be_smaller_than_chunk_size() -> None:
    with pytest.raises(ConfigError, match="chunk_overlap"):
        Settings(chunk_size=100, chunk_overlap=100)

"""Bad settings are a ConfigError naming the variable and what it accepts, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline import ConfigError, Settings, ask, build_graph


@pytest.mark.parametrize(
    ("variable", "value", "accepts"),
    [
        (
            "LONGDOC_PROVIDER",
            "foo",
            "one of extractive, openai, databricks, watsonx (default extractive)",
        ),
        ("LONGDOC_CHUNK_SIZE", "abc", "a whole number from 50 to 200000 (default 2000)"),
        ("LONGDOC_MAX_DOCUMENT_MB", "-1", "a number above 0 (default 20.0)"),
        ("LONGDOC_MAX_RETRIES", "11", "a whole number from 0 to 10 (default 3)"),
        ("LONGDOC_MEMORY_TRIGGER", "words", "one of tokens, messages (default tokens)"),
    ],
)
def test_bad_variable_is_a_config_error_naming_it_and_what_it_accepts(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, accepts: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as caught:
        Settings()
    assert caught.value.message.startswith(f"{variable}={value!r} is not valid")
    assert f"Set {variable} to {accepts}." in caught.value.hint


def test_every_bad_variable_is_named_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LONGDOC_PROVIDER", "foo")
    monkeypatch.setenv("LONGDOC_CHUNK_SIZE", "abc")
    with pytest.raises(ConfigError) as caught:
        Settings()
    assert "LONGDOC_PROVIDER" in caught.value.message
    assert "LONGDOC_CHUNK_SIZE" in caught.value.message


def test_bad_value_in_a_dotenv_file_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("LONGDOC_CHUNK_SIZE=big\n")  # tmp_path is the cwd
    with pytest.raises(ConfigError, match="LONGDOC_CHUNK_SIZE='big'"):
        Settings()


def test_settings_that_disagree_name_both_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LONGDOC_CHUNK_OVERLAP", "500")
    monkeypatch.setenv("LONGDOC_CHUNK_SIZE", "100")
    with pytest.raises(ConfigError, match=r"chunk_overlap \(500\) must be smaller than ") as caught:
        Settings()
    assert "Check LONGDOC_CHUNK_OVERLAP and LONGDOC_CHUNK_SIZE." in caught.value.hint


def test_secret_values_are_never_echoed(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError) as caught:
        Settings(checkpoint_url=["postgresql://user:hunter2@db/longdoc"])  # type: ignore[arg-type]
    assert "LONGDOC_CHECKPOINT_URL is not valid" in caught.value.message
    assert "hunter2" not in caught.value.message


def test_library_calls_that_read_the_environment_raise_config_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LONGDOC_PROVIDER", "foo")
    with pytest.raises(ConfigError, match="LONGDOC_PROVIDER"):
        ask("The keeper is Marta.", "Who is the keeper?")
    with pytest.raises(ConfigError, match="LONGDOC_PROVIDER"):
        build_graph()

"""Settings: every tunable of longdoc, read from LONGDOC_* variables and a .env file."""

from __future__ import annotations

import re
import types
import typing
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import (
    Field,
    JsonValue,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, SettingsConfigDict

from pipeline.errors import ConfigError

SHAPES_OUTPUT = "shapes_output"
ENV_PREFIX = "LONGDOC_"
# Never echoed in an error: a key, or a URL that may carry a password.
SECRET_SETTINGS = frozenset({"api_key", "api_keys", "checkpoint_url"})


def setting(default: Any, *, shapes_output: bool = False, **kwargs: Any) -> Any:
    """A settings field; `shapes_output=True` marks one that can change what an answer or a
    summary says, so batch outputs (and cached results) made under another value are stale.
    Timeouts, retries, limits and storage places only change how a run goes."""
    extra: dict[str, JsonValue] | None = {SHAPES_OUTPUT: True} if shapes_output else None
    return Field(default, json_schema_extra=extra, **kwargs)


class Settings(BaseSettings):
    """All longdoc settings. Build one and pass it in; nothing reads a global.

    `Settings(...)` raises ConfigError naming each bad variable and what it accepts, whether
    the value came from LONGDOC_*, .env or an argument.
    """

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_file=".env", extra="ignore", frozen=True
    )

    if not TYPE_CHECKING:  # at run time only, so type checkers keep each field's keyword

        def __init__(self, **values: Any) -> None:
            try:
                super().__init__(**values)
            except ValidationError as exc:
                raise settings_error(exc) from None

    provider: Literal["extractive", "openai", "databricks", "watsonx"] = setting(
        "extractive",
        description="Who reads: the built-in `extractive` engine (no model), any OpenAI-compatible "
        "server (`openai`), a Databricks serving endpoint (`databricks`), or IBM watsonx.ai "
        "(`watsonx`).",
        shapes_output=True,
    )
    model: str = setting(
        "",
        description="Chat model name (Databricks: serving endpoint name; watsonx: model id, e.g. "
        "ibm/granite-3-3-8b-instruct); needed by a provider.",
        shapes_output=True,
    )
    map_model: str = setting(
        "",
        description="Model that routes and reads each chunk; empty means `model`.",
        shapes_output=True,
    )
    reduce_model: str = setting(
        "",
        description="Model that collapses findings and writes answers; empty means `model`.",
        shapes_output=True,
    )
    base_url: str = setting(
        "",
        description="Server URL; empty falls back to OPENAI_BASE_URL (openai), DATABRICKS_HOST or "
        "WATSONX_URL.",
        shapes_output=True,
    )
    api_key: SecretStr | None = setting(
        None,
        description="API key; unset falls back to OPENAI_API_KEY, DATABRICKS_TOKEN or "
        "WATSONX_API_KEY.",
    )
    watsonx_project_id: str = setting(
        "",
        description="watsonx.ai project that runs the calls; empty falls back to "
        "WATSONX_PROJECT_ID.",
    )
    watsonx_space_id: str = setting(
        "",
        description="watsonx.ai deployment space, instead of a project; empty falls back to "
        "WATSONX_SPACE_ID.",
    )
    watsonx_auth_url: str = setting(
        "",
        description="Full URL that exchanges the watsonx API key for a token; empty: IBM Cloud "
        "IAM's, as the SDK picks it.",
    )
    watsonx_platform_url: str = setting(
        "",
        description="watsonx.ai data platform URL, for a LONGDOC_BASE_URL outside IBM Cloud's "
        "regions (a private gateway or a test server); empty: derived from the URL.",
    )
    temperature: float | None = setting(
        0.0,
        ge=0,
        le=2,
        description="Sampling temperature; 0 keeps readings repeatable, empty leaves it to the "
        "server (reasoning models accept no other).",
        shapes_output=True,
    )
    max_output_tokens: int | None = setting(
        None,
        ge=1,
        description="Most tokens one model reply may have; unset: the server's limit.",
        shapes_output=True,
    )
    structured_method: Literal["auto", "json_schema", "function_calling", "json_mode"] = setting(
        "auto",
        description="How typed replies are asked for; auto: json_schema on openai, "
        "function_calling on databricks and watsonx.",
        shapes_output=True,
    )

    chunk_size: int = setting(
        2000,
        ge=50,
        le=200_000,
        description="Target chunk size in tokens for the map step.",
        shapes_output=True,
    )
    chunk_overlap: int = setting(
        50,
        ge=0,
        description="Tokens shared by neighbouring chunks so no sentence is cut blind.",
        shapes_output=True,
    )
    max_concurrency: int = setting(
        8,
        ge=1,
        le=1024,
        description="Most model calls (and map tasks) in flight at once, per model endpoint; "
        "below it longdoc finds the provider's limit itself.",
    )
    tokens_per_minute: int | None = setting(
        None,
        ge=1,
        description="Prompt tokens per minute the model calls may send, per endpoint; unset: "
        "only the provider's 429s and rate-limit headers slow them down.",
    )
    reduce_token_budget: int = setting(
        6000,
        ge=200,
        description="Most tokens of findings the final answer may read; more is collapsed first.",
        shapes_output=True,
    )
    collapse_max_rounds: int = setting(
        4,
        ge=1,
        le=20,
        description="Most collapse rounds before findings are truncated to fit.",
        shapes_output=True,
    )
    min_relevance: int = setting(
        2,
        ge=0,
        le=10,
        description="Findings rated below this (0-10) are dropped before reduce.",
        shapes_output=True,
    )
    call_timeout_s: float = setting(
        60.0, gt=0, description="Seconds one model call may take before it counts as failed."
    )
    max_retries: int = setting(
        3,
        ge=0,
        le=10,
        description="Retries of a model call on 5xx, timeouts, drops and malformed replies; "
        "rate-limited retries (429, 503) are not counted.",
    )
    call_deadline_s: float = setting(
        300.0,
        gt=0,
        description="Seconds one model call may take from its first attempt, waiting out "
        "rate limits and retrying, before its chunk is reported failed.",
    )
    retry_initial_s: float = setting(
        0.5, ge=0, description="First retry delay in seconds; doubles each retry, with jitter."
    )
    retry_max_s: float = setting(
        30.0,
        ge=0,
        description="Longest backoff between retries; a server's Retry-After is always waited.",
    )
    max_document_mb: float = setting(
        20.0,
        gt=0,
        description="Largest total document size accepted, in millions of characters (every "
        "surface counts characters; HTTP bodies may hold 6 bytes per character).",
    )
    max_chunks: int = setting(5000, ge=1, description="Most chunks one request may split into.")
    max_question_chars: int = setting(
        4000, ge=1, description="Longest question accepted, in characters."
    )
    recursion_limit: int = setting(
        50, ge=10, description="LangGraph step limit per run; the graph needs about a dozen."
    )
    summary_words: int = setting(
        250, ge=20, le=5000, description="Target length of a summary, in words.", shapes_output=True
    )
    answer_sentences: int = setting(
        2,
        ge=1,
        le=10,
        description="Sentences the built-in engine puts in an answer.",
        shapes_output=True,
    )
    checkpoint_url: str | None = setting(
        None,
        description="postgresql://... or dynamodb://TABLE?region=... keeps chat threads in "
        "PostgreSQL or DynamoDB (the chunk cache: PostgreSQL only); unset: SQLite in data_dir.",
    )
    cache: Literal["on", "off"] = setting(
        "on",
        description="Chunk-result cache: `on` reuses a chunk's reading when its text, task, "
        "model, prompts and output settings all match; `off` reads every chunk afresh.",
    )
    cache_max_mb: float = setting(
        1024.0,
        gt=0,
        description="Largest size of the chunk cache, in megabytes; least recently used "
        "readings are dropped past it.",
    )
    ray_address: str = setting(
        "",
        description="Ray cluster for `summarize --executor ray` (host:port or auto); empty: "
        "start a local Ray instance.",
    )
    memory_trigger: Literal["tokens", "messages"] = setting(
        "tokens", description="What folds chat history into the summary: a token or message count."
    )
    memory_token_budget: int = setting(
        2000,
        ge=200,
        description="Tokens of summary, recalled turns and kept messages a chat prompt may hold.",
    )
    memory_max_messages: int = setting(
        20, ge=2, description="Messages a chat prompt may hold when memory_trigger=messages."
    )
    memory_keep_messages: int = setting(
        4, ge=0, description="Most recent messages always kept verbatim, never folded."
    )
    memory_summary_words: int = setting(
        150, ge=20, le=2000, description="Target length of the running chat summary, in words."
    )
    memory_recall_k: int = setting(
        8,
        ge=0,
        le=100,
        description="Earlier messages each chat turn recalls by relevance, beyond the kept "
        "ones; 0: none.",
    )
    memory_recall_token_budget: int = setting(
        1000,
        ge=50,
        description="Most tokens of recalled earlier turns in a chat prompt (within "
        "memory_token_budget: they take the room the summary and kept messages leave).",
    )
    embeddings: Literal["", "openai", "databricks"] = setting(
        "",
        description="Embeddings that join lexical recall of earlier turns: `openai` "
        "(any /v1/embeddings server), `databricks`; empty: lexical only.",
    )
    embeddings_model: str = setting(
        "",
        description="Embeddings model (Databricks: endpoint name); needed by LONGDOC_EMBEDDINGS.",
    )
    embeddings_base_url: str = setting(
        "", description="Embeddings server URL; empty: LONGDOC_BASE_URL and its fallbacks."
    )
    evidence_sentences: int = setting(
        3,
        ge=1,
        le=20,
        description="Ranked sentences the built-in engine cites with an answer (at least "
        "answer_sentences; the rest are runners-up the reader can check).",
        shapes_output=True,
    )
    extractive_chunk_size: int = setting(
        25_000,
        ge=50,
        le=1_000_000,
        description="Chunk size when the built-in engine reads, in tokens of 4 characters in "
        "every script (chunk_size is for models): its reading costs by characters, and big "
        "chunks only save per-chunk overhead.",
        shapes_output=True,
    )
    skim_above_mb: float = setting(
        1.0,
        ge=0,
        description="Size above which the built-in engine skims a document for a question, "
        "in millions of characters: it reads closely only the stretches where the question's "
        "terms gather (and the lead), so a 10 MB text costs little more than finding those "
        "terms; 0 reads every document whole (and one of 200,000 characters or less always "
        "is).",
        shapes_output=True,
    )
    reader_processes: int = setting(
        1,
        ge=0,
        le=256,
        description="Processes the built-in engine reads a long document's chunks in: 1 reads "
        "in the calling process, 0 one per core (`longdoc serve`'s, with one worker). A script "
        "that sets it must guard its entry point (`if __name__ == '__main__':`): workers "
        "import it.",
    )
    data_dir: Path = setting(
        Path(".longdoc"), description="Directory for chat threads and other local state."
    )
    pdf_max_pages: int = setting(2000, ge=1, description="Most pages read from one PDF.")
    load_timeout_s: float = setting(
        60.0,
        gt=0,
        description="Seconds of CPU one document may take to read (parse HTML, PDF, Word, ...) "
        "before it is refused.",
    )
    pdf_max_memory_mb: int = setting(
        2048, ge=256, description="Memory cap of the child process that parses a PDF, in MB."
    )
    api_keys: str = setting(
        "",
        description="Comma-separated keys the HTTP API accepts (Bearer or X-API-Key); empty: open.",
    )
    max_queued_requests: int = setting(
        128, ge=1, description="HTTP requests in progress at once; past this the API answers 429."
    )
    request_timeout_s: float = setting(
        600.0,
        gt=0,
        description="Seconds one HTTP request may run (loading its documents included) "
        "before it ends with 504.",
    )
    read_timeout_s: float = setting(
        15.0,
        gt=0,
        description="Seconds an HTTP client may take to send its headers, or pause while "
        "sending its body, before 408; also the grace before body_min_kb_s applies.",
    )
    body_min_kb_s: float = setting(
        10.0,
        gt=0,
        description="Slowest average pace, in KB/s, at which a request body may arrive once "
        "read_timeout_s has passed; slower is cut off with 408.",
    )
    max_header_kb: int = setting(
        64, ge=1, description="Largest HTTP request headers accepted, in KB; more gets 431."
    )
    max_headers: int = setting(
        100, ge=1, description="Most HTTP request headers accepted; more gets 431."
    )
    allowed_hosts: str = setting(
        "",
        description="Comma-separated Host names the API answers (`*`: any); empty: loopback "
        "names only while LONGDOC_API_KEYS is empty, any host once keys are set.",
    )
    allowed_origins: str = setting(
        "",
        description="Comma-separated web origins (https://app.example.com) allowed to call the "
        "API from a browser (CORS); empty: only the server's own page.",
    )
    shutdown_timeout_s: float = setting(
        30.0, ge=0, description="Seconds `longdoc serve` lets in-flight requests finish on stop."
    )
    model_factory: str = setting(
        "",
        description="`module:function` returning a LangChain chat model to use instead of "
        "`provider` (e.g. a custom model class); empty: use `provider`.",
        shapes_output=True,
    )

    @field_validator(
        "temperature", "max_output_tokens", "api_key", "tokens_per_minute", mode="before"
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        """`LONGDOC_TEMPERATURE=` (empty) means unset, as a .env file can only say it so."""
        return None if value == "" else value

    @model_validator(mode="after")
    def _overlap_below_size(self) -> Settings:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError(
                f"chunk_overlap ({self.chunk_overlap}) must be smaller than "
                f"chunk_size ({self.chunk_size})"
            )
        return self

    @classmethod
    def output_shaping(cls) -> frozenset[str]:
        """Names of the settings that shape outputs (marked `shapes_output=True` above)."""
        return frozenset(
            name
            for name, field in cls.model_fields.items()
            if isinstance(field.json_schema_extra, dict)
            and field.json_schema_extra.get(SHAPES_OUTPUT)
        )

    def output_fingerprint(self) -> dict[str, Any]:
        """The values of the settings that shape outputs, JSON-ready."""
        return self.model_dump(mode="json", include=set(self.output_shaping()))

    @property
    def max_document_chars(self) -> int:
        """The size limit in characters (1 MB counted as 1,000,000 characters)."""
        return int(self.max_document_mb * 1_000_000)


def settings_error(exc: ValidationError) -> ConfigError:
    """One ConfigError for every bad setting: `LONGDOC_X='v' is not valid: why`, and a hint
    saying what each accepts, e.g. "Set LONGDOC_CHUNK_SIZE to a whole number from 50 to
    200000 (default 2000)."
    """
    problems, hints = [], []
    for error in exc.errors():
        name = str(error["loc"][0]) if error["loc"] else ""
        if name not in Settings.model_fields:  # a check across fields, e.g. overlap < size
            message = error["msg"].removeprefix("Value error, ")
            problems.append(message)
            found = {n: re.search(rf"\b{n}\b", message) for n in Settings.model_fields}
            named = sorted((n for n in found if found[n]), key=lambda n: message.index(n))
            hints.append(f"Check {' and '.join(ENV_PREFIX + n.upper() for n in named)}.")
            continue
        variable = f"{ENV_PREFIX}{name.upper()}"
        problems.append(f"{variable}{_shown(name, error)} is not valid: {error['msg']}")
        hints.append(f"Set {variable} to {accepted(name)}.")
    return ConfigError(
        "; ".join(problems),
        hint=" ".join([*hints, "See .env.example for every setting."]),
    )


def _shown(name: str, error: ErrorDetails) -> str:
    if name in SECRET_SETTINGS or error["type"] == "missing":
        return ""
    value = repr(error["input"])
    return f"={value[:60]}{'...' if len(value) > 60 else ''}"


def accepted(name: str) -> str:
    """What a setting accepts, in words: its choices or type, its bounds and its default."""
    field = Settings.model_fields[name]
    optional = typing.get_origin(field.annotation) in (typing.Union, types.UnionType)
    kinds = [a for a in typing.get_args(field.annotation) if a is not type(None)]
    kind = kinds[0] if optional else field.annotation
    if typing.get_origin(kind) is Literal:
        what = "one of " + ", ".join(map(str, typing.get_args(kind)))
    else:
        what = _KIND_WORDS.get(kind, "text") + _bounds(field.metadata)
    if field.default not in (None, ""):
        what += f" (default {field.default})"
    elif optional:
        what += " (or empty for unset)"
    return what


_KIND_WORDS: dict[Any, str] = {
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    Path: "a path",
    SecretStr: "a secret",
}


def _bounds(metadata: list[Any]) -> str:
    """Field limits in words: ge=50 and le=200000 as " from 50 to 200000", gt=0 as " above 0"."""
    limits = {
        key: getattr(m, key) for m in metadata for key in ("ge", "le", "gt") if hasattr(m, key)
    }
    low, high, above = limits.get("ge"), limits.get("le"), limits.get("gt")
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f", at least {low}"
    if above is not None:
        return f" above {above}"
    if high is not None:
        return f", at most {high}"
    return ""

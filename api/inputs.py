"""Reading an ask or summarize request, JSON or multipart, into a Job the pipeline can run."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import anyio
from fastapi import Request
from pydantic import BaseModel, ValidationError
from starlette.datastructures import FormData, UploadFile

from api.bodies import Instructions, MessageRequest, Options, Words
from api.errors import describe_validation
from api.tasks import TaskEndpoint
from pipeline.config import Settings
from pipeline.documents import from_bytes
from pipeline.errors import ConfigError, InputError, UnsupportedTypeError
from pipeline.types import DocumentText

MAX_FILES = 100
M = TypeVar("M", bound=BaseModel)


@dataclass
class Job:
    """One request's work: what to read, which task to run on it, and the settings to use."""

    task: TaskEndpoint
    documents: Sequence[DocumentText | dict[str, Any]]
    """Uploads already loaded (DocumentTexts), or JSON documents as `{"id", "text"}` dicts."""
    settings: Settings
    params: dict[str, Any]
    """The task's own fields (`task.fields`): the question, or instructions and words."""
    include_documents: bool = False
    started: float = field(default_factory=time.perf_counter)
    load_ms: float = 0.0


async def read_job(request: Request, task: TaskEndpoint, settings: Settings) -> Job:
    """The request as a Job; InputError (422) or UnsupportedTypeError (415) when it is unusable."""
    started = time.perf_counter()
    if _body_kind(request) == "json":
        job = await _from_json(request, task, settings)
    else:
        job = await _from_form(request, task, settings)
    job.started = started
    job.load_ms = (time.perf_counter() - started) * 1000
    return job


def _body_kind(request: Request) -> Literal["json", "form"]:
    """JSON or multipart, from the content type; UnsupportedTypeError (415) for anything else."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "application/json":
        return "json"
    if content_type == "multipart/form-data":
        return "form"
    raise UnsupportedTypeError(
        f"the request body is {content_type or 'untyped'}",
        hint="Send application/json or multipart/form-data (see /docs).",
    )


async def _from_json(request: Request, task: TaskEndpoint, settings: Settings) -> Job:
    parsed = _validate(task.request, await request.body())
    return Job(
        task,
        parsed.document_list(),
        _with_options(settings, parsed.options),
        params={name: getattr(parsed, name) for name in task.fields},
        include_documents=parsed.include_documents,
    )


async def _read_form(request: Request) -> FormData:
    try:
        return await request.form(max_files=MAX_FILES, max_fields=20)
    except InputError:
        raise
    except Exception as exc:  # Starlette reports a malformed multipart body as a 400
        raise InputError(
            f"the multipart body could not be read: {getattr(exc, 'detail', exc)}",
            hint="Send one or more 'file' parts (see /docs).",
        ) from None


def _files(form: FormData) -> list[tuple[int, UploadFile | str]]:
    return list(enumerate(form.getlist("file"), start=1))


async def _upload(upload: UploadFile | str, index: int, settings: Settings) -> DocumentText:
    if isinstance(upload, UploadFile):
        raw, name = await upload.read(), upload.filename or f"file{index}"
    else:  # a plain form field named 'file' carries text
        raw, name = upload.encode("utf-8", "surrogatepass"), f"file{index}"
    # PDF parsing waits on a child process and HTML parsing is CPU work: off the loop.
    return await anyio.to_thread.run_sync(from_bytes, raw, name, settings)


async def _from_form(request: Request, task: TaskEndpoint, settings: Settings) -> Job:
    form = await _read_form(request)
    try:
        return await _job_from_form(form, task, settings)
    finally:
        await form.close()  # uploads spool to temporary files; remove them now


async def _job_from_form(form: FormData, task: TaskEndpoint, settings: Settings) -> Job:
    uploads = _files(form)
    if not uploads:
        raise InputError("no 'file' part was sent", hint="Attach documents as 'file' parts.")
    options = _field(form, "options")
    settings = _with_options(settings, _validate(Options, options) if options else None)
    documents = [await _upload(upload, index, settings) for index, upload in uploads]
    include_documents = _include_documents(_field(form, "include_documents"))
    params = {name: _TASK_FORM_FIELDS[name](_field(form, name)) for name in task.fields}
    return Job(task, documents, settings, params, include_documents)


class _FormValues(BaseModel):
    """Multipart text fields that need parsing, declared as the JSON body declares them,
    so limits and error messages match. Each is checked alone: the first bad one is reported."""

    include_documents: bool = False
    words: Words = None
    instructions: Instructions = None


def _include_documents(value: str | None) -> bool:
    return (
        _validate(_FormValues, {"include_documents": value}).include_documents if value else False
    )


def _question(value: str | None) -> str:
    if not value or not value.strip():
        raise InputError("the question is empty", hint="Send a 'question' field.")
    return value


def _words(value: str | None) -> int | None:
    return _validate(_FormValues, {"words": value}).words if value else None


def _instructions(value: str | None) -> str | None:
    return _validate(_FormValues, {"instructions": value}).instructions if value else None


# How each TaskEndpoint.fields entry is read from its multipart text field. An empty field counts
# as not sent, but a question is required.
_TASK_FORM_FIELDS: dict[str, Callable[[str | None], Any]] = {
    "question": _question,
    "instructions": _instructions,
    "words": _words,
}


async def read_message(
    request: Request, settings: Settings
) -> tuple[str, Sequence[DocumentText | dict[str, Any]] | None]:
    """A chat turn's message and attached documents (None when none), JSON or multipart."""
    if _body_kind(request) == "json":
        parsed = _validate(MessageRequest, await request.body())
        return parsed.message, parsed.document_list()
    form = await _read_form(request)
    try:
        message = _field(form, "message") or ""
        documents = [await _upload(upload, i, settings) for i, upload in _files(form)]
    finally:
        await form.close()
    return message, documents or None


def _field(form: FormData, name: str) -> str | None:
    value = form.get(name)
    if value is None or isinstance(value, str):
        return value
    raise InputError(f"'{name}' must be a text field, not a file")


def _validate(model: type[M], data: bytes | str | dict[str, Any]) -> M:
    try:
        if isinstance(data, dict):
            return model.model_validate(data)
        return model.model_validate_json(data)
    except ValidationError as exc:
        raise InputError(
            describe_validation(exc.errors()), hint="Check the request against /docs."
        ) from None


def _with_options(settings: Settings, options: Options | None) -> Settings:
    """The server's settings with the request's overrides, validated together."""
    overrides = options.model_dump(exclude_none=True) if options else {}
    if not overrides:
        return settings
    try:
        return Settings.model_validate({**settings.model_dump(), **overrides})
    except (ValidationError, ConfigError) as exc:  # Settings raises ConfigError (config.py)
        detail = exc.message if isinstance(exc, ConfigError) else describe_validation(exc.errors())
        raise InputError(
            f"invalid options: {detail}", hint="Check the options against /docs."
        ) from None

"""What a batch is made of: the files, the options they are summarized with, what happened."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pipeline.results import Usage

Format = Literal["md", "json"]
Status = Literal["done", "skipped", "failed"]
"""`skipped`: the output was already up to date (shown as "up to date")."""
Executor = Literal["local", "ray"]


@dataclass(frozen=True)
class BatchItem:
    """One source file and where its summary goes: local paths, or URLs (s3://...)."""

    source: str
    output: str
    renamed_from: str | None = None
    """The summary's earlier location, when this run moved it to `output` (set by run_batch)."""


@dataclass(frozen=True)
class Plan:
    """A batch's items, and the files of its folders that longdoc does not read."""

    items: list[BatchItem]
    ignored: list[str] = field(default_factory=list)


@dataclass
class FileOutcome:
    """What happened to one file in a batch run."""

    source: str
    output: str
    status: Status
    error: str | None = None
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    renamed_from: str | None = None
    """The summary's earlier path, when a rerun moved it to its current name."""


@dataclass
class BatchOptions:
    """What every file of a batch is summarized with."""

    fmt: Format = "md"
    instructions: str | None = None
    words: int | None = None
    force: bool = False
    concurrency: int = 2
    """Files in flight at once: in this process (local), or in each Ray worker."""
    executor: Executor = "local"
    ray_address: str = ""
    """The Ray cluster to run on (executor="ray"); empty: Settings.ray_address, else a new
    local Ray instance."""

"""What a batch is made of: the files, the options they are summarized with, what happened."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pipeline.results import Usage

Format = Literal["md", "json"]
Status = Literal["done", "skipped", "failed"]
"""`skipped`: the output was already up to date (shown as "up to date")."""


@dataclass(frozen=True)
class BatchItem:
    """One source file and where its summary goes."""

    source: Path
    output: Path


@dataclass(frozen=True)
class Plan:
    """A batch's items, and the files of its folders that longdoc does not read."""

    items: list[BatchItem]
    ignored: list[Path] = field(default_factory=list)


@dataclass
class FileOutcome:
    """What happened to one file in a batch run."""

    source: Path
    output: Path
    status: Status
    error: str | None = None
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    renamed_from: Path | None = None
    """The summary's earlier path, when a rerun moved it to its current name."""


@dataclass
class BatchOptions:
    """What every file of a batch is summarized with."""

    fmt: Format = "md"
    instructions: str | None = None
    words: int | None = None
    force: bool = False
    concurrency: int = 2

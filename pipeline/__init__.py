"""longdoc: answer questions over long documents with citations, by map-reduce on LangGraph."""

from pipeline.config import Settings
from pipeline.errors import (
    ConfigError,
    InputError,
    LongdocError,
    ModelError,
    ModelTimeoutError,
    NotFoundError,
    TooLargeError,
    UnsupportedTypeError,
)
from pipeline.graph import build_graph
from pipeline.schemas import AskResult, Citation, Coverage, Finding, SummaryResult, Usage
from pipeline.service import aask, ask, asummarize, summarize

__all__ = [
    "AskResult",
    "Citation",
    "ConfigError",
    "Coverage",
    "Finding",
    "InputError",
    "LongdocError",
    "ModelError",
    "ModelTimeoutError",
    "NotFoundError",
    "Settings",
    "SummaryResult",
    "TooLargeError",
    "UnsupportedTypeError",
    "Usage",
    "aask",
    "ask",
    "asummarize",
    "build_graph",
    "summarize",
]

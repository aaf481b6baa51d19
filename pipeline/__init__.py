"""longdoc: answer questions over long documents with citations, by map-reduce on LangGraph."""

from pipeline.config import Settings
from pipeline.errors import (
    BusyError,
    ConfigError,
    InputError,
    LongdocError,
    ModelError,
    ModelTimeoutError,
    NotFoundError,
    RequestTimeoutError,
    StorageError,
    TooLargeError,
    UnsupportedTypeError,
)
from pipeline.graph.build import build_graph
from pipeline.results import (
    AskResult,
    ChatResult,
    Citation,
    Coverage,
    SummaryResult,
    ThreadMessage,
    ThreadView,
    Usage,
)
from pipeline.service import aask, ask, asummarize, stream_ask, stream_summarize, summarize
from pipeline.threads import (
    achat,
    acreate_thread,
    adelete_thread,
    aget_thread,
    chat,
    create_thread,
    delete_thread,
    get_thread,
)
from pipeline.types import DocumentText, Finding

__all__ = [
    "AskResult",
    "BusyError",
    "ChatResult",
    "Citation",
    "ConfigError",
    "Coverage",
    "DocumentText",
    "Finding",
    "InputError",
    "LongdocError",
    "ModelError",
    "ModelTimeoutError",
    "NotFoundError",
    "RequestTimeoutError",
    "Settings",
    "StorageError",
    "SummaryResult",
    "ThreadMessage",
    "ThreadView",
    "TooLargeError",
    "UnsupportedTypeError",
    "Usage",
    "aask",
    "achat",
    "acreate_thread",
    "adelete_thread",
    "aget_thread",
    "ask",
    "asummarize",
    "build_graph",
    "chat",
    "create_thread",
    "delete_thread",
    "get_thread",
    "stream_ask",
    "stream_summarize",
    "summarize",
]

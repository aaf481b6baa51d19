"""longdoc: answer questions over long documents with citations, by map-reduce on LangGraph."""

from pipeline.config import Settings
from pipeline.errors import (
    ConfigError,
    InputError,
    LongdocError,
    ModelError,
    ModelTimeoutError,
    NotFoundError,
    StorageError,
    TooLargeError,
    UnsupportedTypeError,
)
from pipeline.graph import build_graph
from pipeline.schemas import (
    AskResult,
    ChatResult,
    Citation,
    Coverage,
    Finding,
    SummaryResult,
    ThreadMessage,
    ThreadView,
    Usage,
)
from pipeline.service import aask, ask, asummarize, summarize
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

__all__ = [
    "AskResult",
    "ChatResult",
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
    "summarize",
]

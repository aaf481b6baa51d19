"""One module per graph node; each exposes a factory that closes over the engine and settings."""

from collections.abc import Callable
from typing import Any

NodeFn = Callable[..., Any]
"""What each factory returns: LangGraph's node overloads accept any callable of the state."""

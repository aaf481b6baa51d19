"""Old import path of the types kept in chat threads: checkpoints written by longdoc 0.1 name
`pipeline.schemas.Finding` (and Evidence, CallUsage), and the serializer imports that path to
revive them. New code imports from pipeline.types; this module only keeps old threads readable.
"""

from pipeline.types import CallUsage, Evidence, Finding

__all__ = ["CallUsage", "Evidence", "Finding"]

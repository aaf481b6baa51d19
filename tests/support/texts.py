"""Sample documents written for the tests, each with the question it answers."""

from __future__ import annotations

FILLER = "Grey clouds drift over the quiet harbour. " * 40
"""Text that answers nothing: it pads a document into many chunks."""

ROBOTICS_REPORT = (
    "Halvorsen Robotics was founded in 1987 in Bergen. "
    + FILLER
    + "The chief executive is Ingrid Halvorsen. "
    + FILLER
    + "Revenue in 2024 reached 412 million kroner. "
    + FILLER
)
"""A long report of three facts far apart, for fan-out tests (~10 chunks at chunk_size=100)."""

KEEPER_IN_A_FAILING_CHUNK = FILLER + "FAIL_ALWAYS: the lighthouse keeper is Marta Lund. " + FILLER
"""The only answer to "Who is the lighthouse keeper?" sits in a chunk the fake model fails."""

ACME_NOTE = (
    "Acme Shipping was founded by Ada Lovelace in Bergen in 1987. "
    "The company builds autonomous survey boats. Revenue in 2024 was 40 million euros."
)
"""A three-sentence document for request tests, small enough for one chunk."""

ACME_QUESTION = "Who founded Acme Shipping?"

"""What the cache keeps of a chunk's reading: the Finding, placed relative to its chunk.

A Finding names its chunk and document and cites document offsets; the same text read
again may sit at another offset, in another chunk or document. So evidence is kept
relative to the chunk's start and placed again on the chunk that hits, and every quote is
checked against that chunk's text: an entry that does not fit is treated as corrupt.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from pipeline.types import CallUsage, Chunk, Evidence, Finding


class CachedQuote(BaseModel):
    """A quote at offsets relative to the chunk's start."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    quote: str
    score: float = 0.0
    display: str = ""
    """How the span reads (Evidence.display); chunk-local, so it holds wherever the text sits."""


class CachedReading(BaseModel):
    """A successful reading of one chunk, and what it cost when it was made."""

    relevance: int = Field(ge=0, le=10)
    answer: str
    rationale: str = ""
    confidence: int = Field(ge=0, le=5)
    evidence: list[CachedQuote] = Field(default_factory=list)
    calls: int = Field(0, ge=0, description="Model calls the reading took when it was made.")
    tokens: int = Field(0, ge=0, description="Input plus output tokens those calls used.")
    missing_terms: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, finding: Finding, chunk: Chunk, usage: list[CallUsage]) -> CachedReading:
        base = chunk["start"]
        return cls(
            relevance=finding.relevance,
            answer=finding.answer,
            rationale=finding.rationale,
            confidence=finding.confidence,
            evidence=[
                CachedQuote(
                    start=e.start - base,
                    end=e.end - base,
                    quote=e.quote,
                    score=e.score,
                    display=e.display,
                )
                for e in finding.evidence
            ],
            missing_terms=finding.missing_terms,
            calls=len(usage),
            tokens=sum(u.input_tokens + u.output_tokens for u in usage),
        )

    def fits(self, chunk: Chunk) -> bool:
        """Whether every quote is exactly the chunk's text at its offsets."""
        text = chunk["text"]
        return all(text[q.start : q.end] == q.quote for q in self.evidence)

    def finding(self, chunk: Chunk) -> Finding:
        """The reading as a Finding of `chunk` (call `fits` first)."""
        return Finding(
            chunk=chunk["id"],
            chunks=[chunk["id"]],
            relevance=self.relevance,
            answer=self.answer,
            evidence=[
                Evidence(
                    document=chunk["document"],
                    chunk=chunk["id"],
                    start=chunk["start"] + q.start,
                    end=chunk["start"] + q.end,
                    quote=q.quote,
                    score=q.score,
                    display=q.display,
                )
                for q in self.evidence
            ],
            rationale=self.rationale,
            confidence=self.confidence,
            missing_terms=self.missing_terms,
        )

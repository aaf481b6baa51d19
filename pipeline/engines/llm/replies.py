"""What a chat model is asked to return (structured output); code turns it into Findings."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ChunkReading(BaseModel):
    """A model's reading of one chunk; code turns `quotes` into located Evidence."""

    relevance: int = Field(
        ge=0, le=10, description="0 = unrelated to the question, 10 = answers it."
    )
    answer: str = Field(
        description="What this excerpt says about the question, or 'no information'."
    )
    quotes: list[str] = Field(
        default_factory=list, description="Short verbatim quotes copied exactly from the excerpt."
    )
    rationale: str = Field("", description="One sentence on why.")
    confidence: int = Field(0, ge=0, le=5, description="How sure you are, 0-5.")


class DraftAnswer(BaseModel):
    """A model's final answer; it cites finding numbers, code resolves them to spans."""

    answer: str = Field(description="The answer, in the language of the question.")
    cited: list[int] = Field(default_factory=list, description="Numbers of the notes relied on.")
    conflicts: list[str] = Field(
        default_factory=list, description="Disagreements between notes and how they were settled."
    )

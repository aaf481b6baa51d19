"""ExtractiveEngine: the Engine protocol with no model: BM25 retrieval, summaries by structure."""

from __future__ import annotations

import hashlib
import itertools
import math
import re
from collections.abc import Collection, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from pipeline.config import Settings
from pipeline.engines.extractive import (
    compare,
    conversation,
    lexrank,
    openers,
    outline,
    readers,
    skim,
)
from pipeline.engines.extractive.decisive import Decisive
from pipeline.engines.extractive.memory_notes import remembered_sentences
from pipeline.engines.extractive.passages import Passages
from pipeline.engines.extractive.releases import LATEST_ORDER
from pipeline.engines.extractive.retrieval import (
    Hit,
    Query,
    Ranked,
    asked_category,
    asks_for_list,
    asks_for_release,
    asks_for_several,
    best_hits,
    build_query,
    diverse_order,
    hold_rarest,
    score_sentences,
)
from pipeline.engines.meter import Meter
from pipeline.prompts import MEMORY_PREFIX
from pipeline.text.layout import without_marker
from pipeline.text.spans import evidence_at
from pipeline.types import (
    ChatPrompt,
    Chunk,
    ChunkTask,
    DocumentText,
    Draft,
    Evidence,
    Finding,
    Route,
    Task,
)

_SENTENCE_END = re.compile(r"[.!?:;。！？：；…][\"'”’)\]」』）]*$")

ENGLISH_CHARS_PER_TOKEN = 4.0
"""Characters a token of extractive_chunk_size stands for, in every script."""

RUNNER_UP_SHARE = 0.3
"""Least share of the best sentence's score a runner-up needs to be cited; on held-out
SQuAD questions no runner-up holding the answer scores below it (0.4 would lose 0.2%)."""


@cache
def code_version() -> str:
    """A hash of the code that makes this engine's readings: its own modules and the text
    readers below them. Its readings are what this code computes, so a cached reading made
    by another version of it (an upgrade, a fix) must never be served."""
    package = Path(__file__).parent
    sources = sorted([*package.glob("*.py"), *(package.parent.parent / "text").glob("*.py")])
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


class ExtractiveEngine:
    """Answers with the document's own best sentences and summarizes with its most central ones.

    Every answer is a quote, so it cannot say anything the documents do not; it makes
    no model calls, so usage stays zero and nothing leaves the machine.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        # Reading a chunk costs microseconds here, so big chunks only cut per-task overhead.
        self.chunk_size: int | None = settings.extractive_chunk_size
        # Its reading costs by characters, not tokens: chunks hold as many characters in any
        # script (Chinese text at ~0.8 characters a token made 5x as many chunks, each one a
        # task's overhead), at the English ratio the size was chosen at.
        self.chars_per_token: float | None = ENGLISH_CHARS_PER_TOKEN
        self.cache_identity: str | None = f"extractive:{code_version()}"
        self._cited = max(settings.evidence_sentences, settings.answer_sentences)
        # Each chunk offers twice the citations needed, so answer() can pick diverse ones.
        self._offered = 2 * self._cited

    async def route(
        self,
        question: str,
        documents: list[DocumentText],
        meter: Meter,
        history: Sequence[BaseMessage] = (),
    ) -> Route:
        kind = conversation.small_talk(question)
        if kind is not None:
            return Route(mode="chat", reason=f"the message is small talk ({kind})")
        if conversation.tells_about_user(question):
            return Route(mode="chat", reason="the message tells something about the user")
        if conversation.asks_about_user(question):
            least = min_coverage(self.settings.min_relevance)
            if conversation.recall(list(history), question, least) is not None:
                return Route(mode="chat", reason="the conversation answers it")
        return Route(mode="document", reason="a document is attached and the message asks about it")

    def prepare(self, documents: list[DocumentText], question: str, task: Task) -> dict[str, Any]:
        if task != "ask":
            return {}
        texts = [doc.text for doc in documents]
        skim_above = int(self.settings.skim_above_mb * 1_000_000)
        ids = [doc.id for doc in documents]
        return build_query(question, texts, ids, skim_above).hints()

    async def read_chunk(self, task: ChunkTask, meter: Meter) -> Finding:
        chunk = task["chunk"]
        if task["task"] == "remember":
            return self._remember_chunk(chunk)
        regions = task["hints"].get("regions", {}).get(chunk["document"])
        if regions is not None and task["task"] == "ask":
            part = skim.narrowed(chunk, regions)
            if part is None:
                return _skimmed_past(chunk)
            task = ChunkTask(**{**task, "chunk": part})
        processes = self.settings.reader_processes
        size = len(task["chunk"]["text"])  # a narrowed part may be short enough to read here
        return await readers.read(processes, size, read_chunk, task, self._offered)

    async def combine(self, findings: list[Finding], goal: str, meter: Meter) -> Finding:
        # Keep half the sentences, or as many as the largest input had if that is more:
        # two or more findings with evidence then always shrink (3 findings x 3 quotes ->
        # 5), and a summary's group of 7 chunks x 2 sections keeps 7 sections, not 2.
        findings = _naming(findings)
        pool = _distinct(e for f in findings for e in f.evidence)
        keep = max(max(len(f.evidence) for f in findings), math.ceil(len(pool) / 2))
        evidence = sorted(pool, key=lambda e: -e.score)[:keep]
        best = max(findings, key=lambda f: (f.relevance, f.confidence))
        return Finding(
            chunk=min(f.chunk for f in findings),
            chunks=sorted({c for f in findings for c in (f.chunks or [f.chunk])}),
            relevance=best.relevance,
            answer=evidence[0].reads if evidence else best.answer,
            evidence=evidence,
            rationale=f"best {len(evidence)} of {len(pool)} sentences from {len(findings)} notes",
            confidence=best.confidence,
            missing_terms=_missing_terms(findings, evidence),
        )

    async def answer(self, findings: list[Finding], question: str, meter: Meter) -> Draft:
        findings = _naming(findings)
        pool = _unrepeated(
            sorted(
                _distinct(e for f in findings for e in f.evidence),
                key=lambda e: (-e.score, e.start),
            )
        )
        if not pool:
            return Draft(text=findings[0].answer if findings else "")
        # Runners-up are cited only if they score at least RUNNER_UP_SHARE of the best: on
        # a 2-sentence document the other sentence borrows a little of the match's score
        # as its neighbour, and citing it would present an unrelated line as evidence.
        offered, pool = pool, [e for e in pool if e.score >= RUNNER_UP_SHARE * pool[0].score]
        order = diverse_order(
            question, [e.quote for e in pool], [e.score for e in pool], self._cited
        )
        ranked = [pool[i] for i in order]
        # A runner-up sentence joins the answer only if it scores at least half the best:
        # otherwise it is padding, and stays a citation the reader can check.
        shown = [
            e for e in ranked[: self.settings.answer_sentences] if e.score >= ranked[0].score / 2
        ]
        if len(shown) > 1 and "\n" in shown[0].reads:
            # A part on lines of its own (a list, or a lead-in and its example) answers
            # whole; another beside it must be about the same thing, or it reads as more of
            # it: rustc's linker flavours under the values of 'panic'. It stays a citation,
            # as does another part on lines of its own: two lists read as one ('But there
            # are also disadvantages:' after the list of advantages before it).
            same = hold_rarest(question, shown[0].reads, [e.reads for e in shown[1:]])
            kept = zip(shown[1:], same, strict=True)
            shown = [shown[0], *(e for e, keep in kept if keep and "\n" not in e.reads)]
        sides = compare.compared_sides(question)
        if sides:  # something said of each, however far below the best one side scores
            reads = [e.reads for e in offered]
            picks = compare.each_side(sides, [e.reads for e in shown], reads)
            extra = [offered[i] for i in picks]
            shown += extra
            ranked += [e for e in extra if e not in ranked]
            shown = [shown[i] for i in compare.arranged(sides, [e.reads for e in shown])]
        return Draft(
            text=_compose(_in_reading_order(shown)),
            evidence=ranked,
            missing_terms=_missing_terms(findings, shown),
        )

    async def summarize(
        self,
        findings: list[Finding],
        instructions: str,
        words: int,
        meter: Meter,
        *,
        task: Task = "summarize",
    ) -> Draft:
        # Documents in reading order: the order their first chunk came in.
        order: dict[str, int] = {}
        for finding in sorted(findings, key=lambda f: f.chunk):
            for item in finding.evidence:
                order.setdefault(item.document, len(order))
        pool = sorted(
            _distinct(e for f in findings for e in f.evidence),
            key=lambda e: (order[e.document], e.start),
        )
        if not pool:
            return Draft(text="")
        if task == "remember":  # chat memory ranks by the reader's own scores
            picked = lexrank.select(
                [e.quote for e in pool], [e.score for e in pool], words, local_share=1.0
            )
        else:  # tiered by structure in the map step (see outline.py)
            picked = outline.choose([e.reads for e in pool], [e.score for e in pool], words)
        if not picked:  # even the shortest sentence is over budget: cut the best one
            picked_evidence = [_cut(max(pool, key=lambda e: e.score), words)]
        else:
            picked_evidence = [pool[i] for i in sorted(picked)]  # back in document order
        return Draft(text=" ".join(e.reads for e in picked_evidence), evidence=picked_evidence)

    async def chat(self, prompt: ChatPrompt, meter: Meter) -> str:
        question = prompt.message.text
        if conversation.tells_about_user(question):
            return conversation.noted(question)
        history = _answerable(prompt)
        if conversation.small_talk(question) is None:
            least = min_coverage(self.settings.min_relevance)
            recalled = conversation.recall(history, question, least)
            if recalled is not None:
                return recalled
        return conversation.reply(question)

    def _remember_chunk(self, chunk: Chunk) -> Finding:
        kept = remembered_sentences(chunk["text"])
        return Finding(
            chunk=chunk["id"],
            chunks=[chunk["id"]],
            relevance=10 if kept else 0,
            answer="what the user said, their own facts first" if kept else "no information",
            evidence=[evidence_at(chunk, c.start, c.end, c.score) for c in kept],
            confidence=5 if kept else 0,
        )


def read_chunk(task: ChunkTask, offered: int) -> Finding:
    """One chunk's finding for an ask or a summary, offering up to `offered` sentences;
    module-level and pure, so a worker process can run it (readers.py)."""
    chunk = task["chunk"]
    if task["task"] == "summarize":
        return _summary_finding(chunk, lexrank.focus_terms(task["instructions"]))
    hints = task["hints"]
    query = (
        Query.from_hints(task["question"], hints)
        if hints
        else build_query(task["question"], [chunk["text"]])  # called outside the graph
    )
    passages = Passages.read(chunk["text"], chunk.get("page_starts", ()))
    newest = query.latest.get(chunk["document"])
    opens = chunk["start"] == 0
    if newest is not None:  # the question asks about the latest release
        hits = score_sentences(chunk["text"], query, passages, chunk["document"], opens=opens)
        start, end = (at - chunk["start"] for at in newest)
        ranked = _in_newest_release(hits, passages, start, end, offered)
    else:
        ranked = best_hits(chunk["text"], query, passages, offered, chunk["document"], opens=opens)
    best, coverage = ranked.best, ranked.coverage
    sides = compare.compared_sides(task["question"])
    if best and sides:
        best += _each_side(chunk, sides, query, passages, best)
    whole_list = asks_for_list(task["question"])
    release = newest is not None or asks_for_release(task["question"])
    category = asked_category(task["question"])
    several = asks_for_several(task["question"])
    evidence = [
        _shown(chunk, passages, hit, whole_list, release, category, several) for hit in best
    ]
    decisive = query.decisive
    return Finding(
        chunk=chunk["id"],
        chunks=[chunk["id"]],
        relevance=relevance(coverage),
        answer=evidence[0].reads if evidence else "no information",
        evidence=evidence,
        rationale=f"{ranked.count} sentences share terms with the question",
        confidence=min(5, round(5 * coverage)),
        missing_terms=_missing(decisive, best[0].lacking) if best else [],
    )


def _each_side(
    chunk: Chunk, sides: list[str], query: Query, passages: Passages, best: list[Hit]
) -> list[Hit]:
    """The best-scored units saying something of a compared side that none of `best` names
    (see compare.py): 'push' of push and push_str, whose sentences rank below push_str's."""
    text, opens = chunk["text"], chunk["start"] == 0
    hits = score_sentences(text, query, passages, chunk["document"], opens=opens)
    hits.sort(key=lambda h: (-h.score, h.start))

    # as each reads: a description says which option it is of with its term's name
    def reads(found: list[Hit]) -> list[str]:
        return [passages.show(passages.unit_at(h.start)).text for h in found]

    picks = compare.each_side(sides, reads(best), reads(hits))
    return [hits[i] for i in picks]


def _skimmed_past(chunk: Chunk) -> Finding:
    """The finding of a chunk a skimmed document's regions miss: it was not read closely."""
    return Finding(
        chunk=chunk["id"],
        chunks=[chunk["id"]],
        answer="no information",
        rationale="skimmed past: the question's terms gather elsewhere in the document",
        skimmed=True,
    )


def _summary_finding(chunk: Chunk, focus: frozenset[str]) -> Finding:
    # Only the chunk that starts its document holds the title and the lead.
    candidates = outline.summary_candidates(chunk["text"], focus, at_start=chunk["start"] == 0)
    return Finding(
        chunk=chunk["id"],
        chunks=[chunk["id"]],
        relevance=10 if candidates else 0,
        answer="the chunk's title, sections and central sentences"
        if candidates
        else "no information",
        evidence=[evidence_at(chunk, c.start, c.end, c.score, c.text) for c in candidates],
        rationale=f"{len(candidates)} candidates by structure",
        confidence=5 if candidates else 0,
    )


def _answerable(prompt: ChatPrompt) -> list[BaseMessage]:
    """What a turn may be answered from, each with its speaker: the summary, the recalled
    turns and the kept ones (a recalled summary holds the user's own sentences)."""
    summary = [SystemMessage(MEMORY_PREFIX + prompt.summary)] if prompt.summary else []
    recalled: list[BaseMessage] = [
        AIMessage(t.content) if t.role == "assistant" else HumanMessage(t.content)
        for t in prompt.recalled
    ]
    return [*summary, *recalled, *prompt.kept]


COVERAGE_FLOOR = 0.225
"""Coverage rated relevance 0; the default min_relevance=2 then needs coverage
0.225 + 0.775 x 1.5 / 10 = 0.34. On held-out SQuAD questions 97.2% of real questions
reach it and 7.0% of questions asked of an unrelated article do (0.32: 97.6% and 8.7%;
0.36: 96.0% and 5.8%; tests/bench/eval_qa.py --calibrate)."""


def relevance(coverage: float) -> int:
    """0-10 from the share of the question a chunk's best passage covers (Hit.coverage).

    Linear from COVERAGE_FLOOR (relevance 0) to 1.0 (10): 0.6 -> round(10 x 0.375 /
    0.775) = 5.
    """
    span = 1 - COVERAGE_FLOOR
    return max(0, min(10, int(10 * (coverage - COVERAGE_FLOOR) / span + 0.5)))


def min_coverage(min_relevance: int) -> float:
    """The least coverage `relevance` rates at `min_relevance`: 2 -> 0.34."""
    return COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * max(0.0, min_relevance - 0.5) / 10


def _missing(decisive: Decisive, lacking: tuple[str, ...]) -> list[str]:
    """The question's words the best passage lacks: names it holds only in the documents'
    near spelling ('Gandhi' for 'Ghandi'), names it does not hold at all, and rare words
    the documents never write ('encrypt')."""
    near = (decisive.words.get(t, t) for t in decisive.variants)
    return list(dict.fromkeys([*near, *lacking, *decisive.unwritten]))


def _missing_terms(findings: list[Finding], kept: list[Evidence]) -> list[str]:
    """The decisive words lacked by the findings whose evidence is `kept` (what the answer
    shows), in first-seen order: a twin's passage left out of the answer is no caution."""
    return list(
        dict.fromkeys(
            w for f in findings if any(e in kept for e in f.evidence) for w in f.missing_terms
        )
    )


def _in_newest_release(hits: list[Hit], passages: Passages, start: int, end: int, k: int) -> Ranked:
    """The `k` best units of the newest release (chunk offsets start..end) as the answers
    to a question about the latest release, in the changelog's order (releases.LATEST_ORDER)
    after any the question's words match; a sentence elsewhere that says 'latest' is about
    something else."""
    inside = [
        unit
        for unit, (s, e) in enumerate(passages.spans)
        if start <= s and e <= end and not passages.is_label(unit)
    ]
    matched = {hit.start: hit.score for hit in hits}
    found = []
    for rank, unit in enumerate(inside):
        s, e = passages.spans[unit]
        order = LATEST_ORDER * (1 - rank / len(inside))
        found.append(Hit(s, e, matched.get(s, 0.0) + order, 1.0))
    best = sorted(found, key=lambda h: -h.score)[:k]
    return Ranked(best, len(found), 1.0 if found else 0.0)


def _shown(
    chunk: Chunk,
    passages: Passages,
    hit: Hit,
    whole_list: bool,
    release: bool = False,
    category: Collection[str] = (),
    several: bool = False,
) -> Evidence:
    """Evidence for a scored unit, cited and shown whole: a list with its lead-in (a
    procedure's steps) when the question asks how to do something or for several things
    (then a paragraph's closing sentence with a list right under it too), else the unit
    with its term, headers, lead-in or the heading it points back to;
    after its release's heading when the question asks which release or when, and a table
    row after its section's heading when that names the `category` the question asks for."""
    unit = passages.unit_at(hit.start)
    lead_in = passages.reads_as(unit)  # a heading leads in from its section's first unit
    listed = passages.procedure(lead_in) if whole_list else None
    if listed is None and several:
        listed = passages.list_after(lead_in)
    if listed is None and passages.leads_list(lead_in):  # '... the following information:'
        listed = passages.procedure(lead_in)  # says nothing without its list
    if listed is None and passages.show(unit).text.endswith(":"):
        # ... as does a paragraph read on to a lead-in, from its first sentence: '--locked:
        # Asserts that ... Cargo will exit with an error when either of the following
        # scenarios arises:'
        listed = passages.read_on_to_list(unit)
    if listed is not None:
        shown = passages.under_heading(lead_in, listed)
    else:
        shown = passages.under_heading(unit, passages.show(unit))
    shown = (
        passages.in_release(unit, shown) if release else passages.in_section(unit, shown, category)
    )
    return evidence_at(chunk, shown.start, shown.end, hit.score, shown.text)


NEARBY_CHARS = 400
"""Most characters between a shown unit and one after it that points back to it (see
_in_reading_order): a paragraph or two."""


def _in_reading_order(shown: list[Evidence]) -> list[Evidence]:
    """The shown units best first, except that a unit opening with a word that points back
    comes after a shown unit just before it in the text: 'Search for files ... modified in
    the last twenty-four hours.' reads before 'This command works this way because ...'."""
    ordered: list[Evidence] = []
    for item in shown:
        at = len(ordered)
        while at > 0 and _reads_before(item, ordered[at - 1]):
            at -= 1
        ordered.insert(at, item)
    return ordered


def _reads_before(item: Evidence, other: Evidence) -> bool:
    close = item.document == other.document and 0 <= other.start - item.end <= NEARBY_CHARS
    return close and openers.points_back(other.reads)


def _compose(shown: list[Evidence]) -> str:
    """The answer text: each unit as it reads, once (a text can repeat a sentence word
    for word), a unit inside one already shown left out; steps on lines of their own."""
    parts: list[str] = []
    seen: set[str] = set()
    kept: list[Evidence] = []
    for item in shown:
        # without its number: '3. You may ...' is the lead-in an item shown before gave
        key = without_marker(" ".join(item.reads.lower().split()))
        inside = any(
            k.document == item.document and k.start <= item.start and item.end <= k.end
            for k in kept
        )
        if key in seen or inside or any(key in other for other in seen):
            continue
        seen.add(key)
        kept.append(item)
        parts.append(_without_shown_lead(item.reads, parts))
    if any("\n" in part for part in parts):
        return "\n\n".join(parts)
    # A unit that is no sentence (a table row, a term) ends the line, or the next sentence
    # would read as its continuation: "WARNING — Numeric value: 30 The WARNING level...".
    text = parts[0] if parts else ""
    for before, part in itertools.pairwise(parts):
        text += (" " if _SENTENCE_END.search(before) else "\n") + part
    return text


_LEAD_END = re.compile(r": |： ?")
"""Where a lead-in ends before the item it is shown with: a colon, full-width in CJK text."""


def _without_shown_lead(reads: str, shown: list[str]) -> str:
    """A list item less the lead-in an item shown before it already gave: two items of
    'You may convey ... in one of these ways:' read the lead once, then 'c) ...', 'e) ...';
    so does an item after its lead-in shown under its entry ('-v, --verbose: The progress
    indicator shows the following information:')."""
    for colon in reversed([found.end() for found in _LEAD_END.finditer(reads)]):
        lead = reads[:colon].rstrip()
        if any(without_marker(part).startswith(lead) or part.endswith(lead) for part in shown):
            return reads[colon:]
    return reads


def _naming(findings: list[Finding]) -> list[Finding]:
    r"""The findings less those lacking a question name that a finding naming them all
    outranks. Asked 'How do I fix E0499?' of the compiler's error pages, E0461's 'This
    error can be fixed by:' ranks below E0499's own page, lacks 'E0499', and would be cited
    beside it and bring its caution to a right answer. One that outranks every naming
    finding stays (scoring weighed its lack already): bash's '\j  the number of jobs
    currently managed by the shell' for 'What does \j display in the PS1 prompt?', under
    a PROMPTING section that names PS1 far above it."""
    naming = [_top(f) for f in findings if f.evidence and not f.missing_terms]
    if not naming:
        return findings
    best = max(naming)
    return [f for f in findings if not f.missing_terms or _top(f) > best]


def _top(finding: Finding) -> float:
    """The score of a finding's best evidence; 0 for none."""
    return max((e.score for e in finding.evidence), default=0.0)


def _distinct(evidence: Iterable[Evidence]) -> list[Evidence]:
    """Evidence without repeats: chunk overlap can offer the same sentence twice.

    Of overlapping spans in one document the higher-scored one is kept, or of two from one
    start the one that reads as the other and on, at the better score of the two: 'This
    hypothesis is called the Cobham–Edmonds thesis.' is shown after the sentence it names,
    and holds it. One sort and one sweep, so 10,000 candidates cost milliseconds.
    """
    kept: list[Evidence] = []
    for item in sorted(evidence, key=lambda e: (e.document, e.start, -e.end, -e.score)):
        last = kept[-1] if kept else None
        if last is not None and last.document == item.document and item.start < last.end:
            if item.start == last.start and last.reads.startswith(item.reads):  # reads on
                if item.score > last.score:
                    kept[-1] = last.model_copy(update={"score": item.score})
            elif item.score > last.score:
                kept[-1] = item
            continue
        kept.append(item)
    return kept


def _unrepeated(evidence: list[Evidence]) -> list[Evidence]:
    """`evidence` without a passage that reads as one before it: a note a manual repeats
    word for word in three places is one citation, not three the same."""
    seen: set[str] = set()
    kept = []
    for item in evidence:
        reading = " ".join(item.reads.split())
        if reading not in seen:
            seen.add(reading)
            kept.append(item)
    return kept


def _cut(item: Evidence, words: int) -> Evidence:
    """The first `words` words of a sentence, still an exact span of the document."""
    end = len(item.quote)
    seen = 0
    for index, char in enumerate(item.quote):
        if char.isspace() and index and not item.quote[index - 1].isspace():
            seen += 1
            if seen >= words:
                end = index
                break
    return item.model_copy(update={"end": item.start + end, "quote": item.quote[:end]})

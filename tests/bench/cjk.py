"""Japanese, Chinese and Korean long-document QA, and the plain BM25 baseline it is judged by.

Sets (read in place from ../shared/datasets/cjk-qa-articles, see its README): JSQuAD
(Japanese, whole articles), CMRC2018 (Simplified Chinese) and DRCD (Traditional
Chinese). CMRC and DRCD articles are short (~750 characters), so JOINED articles of the
same split, in a seeded order, make one long document (~3,700 characters): the others are
realistic distractors. The Korean set is ours (tests/bench/data/korean_qa.json).

The baseline is plain BM25 (k1 1.5, b 0.75, Lucene idf) over the same sentences, with
every character bigram of each CJK run and lowercase words as terms: no stopwords, no
context, no threshold. Its best sentence is compared with the engine's first cited
sentence; the engine's answer text (up to two units) with BM25's best sentences, as many as
the answer text holds (shown_sentences): each side then shows the reader as much.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pipeline.engines.extractive.sentences import sentence_spans
from pipeline.text.scripts import CJK

JOINED = 5
"""Articles per CMRC2018 / DRCD document."""
SETS = {"jsquad": "ja", "cmrc2018": "zh-Hans", "drcd": "zh-Hant"}
KOREAN = Path(__file__).resolve().parent / "data" / "korean_qa.json"
_TERM = re.compile(rf"([{CJK}]+)|([^\W_{CJK}]+)")


@dataclass(frozen=True)
class Question:
    doc_id: str
    question: str
    answers: list[str]


def load(folder: Path, name: str, split: str) -> tuple[dict[str, str], list[Question]]:
    """A set's documents by id and its questions of one split (dev or eval)."""
    if name == "korean":
        data = json.loads(KOREAN.read_text(encoding="utf-8"))
        docs = {d["doc_id"]: d["text"] for d in data["documents"]}
        return docs, [Question(q["doc_id"], q["question"], q["answers"]) for q in data["questions"]]
    base = folder / name
    articles = {}
    for line in (base / "docs.jsonl").read_text(encoding="utf-8").splitlines():
        doc = json.loads(line)
        if doc["split"] == split:
            articles[doc["doc_id"]] = doc["text"]
    rows = [json.loads(x) for x in (base / f"qa_{split}.jsonl").read_text().splitlines() if x]
    questions = [Question(r["doc_id"], r["question"], r["answers"]) for r in rows]
    if name == "jsquad":
        return articles, questions
    return _joined(articles, questions, seed=f"{name}-{split}")


def _joined(
    articles: dict[str, str], questions: list[Question], seed: str
) -> tuple[dict[str, str], list[Question]]:
    """Articles shuffled and joined JOINED at a time; each question asks its article's group."""
    order = sorted(articles)
    random.Random(seed).shuffle(order)
    docs: dict[str, str] = {}
    home: dict[str, str] = {}
    for start in range(0, len(order), JOINED):
        group = order[start : start + JOINED]
        doc_id = f"joined-{start // JOINED:03d}"
        docs[doc_id] = "\n\n".join(articles[a] for a in group)
        home.update((a, doc_id) for a in group)
    return docs, [Question(home[q.doc_id], q.question, q.answers) for q in questions]


def terms(text: str) -> list[str]:
    """The baseline's terms: character bigrams of CJK runs, lowercase other words."""
    out: list[str] = []
    for cjk, word in _TERM.findall(text):
        if word:
            out.append(word.lower())
        elif len(cjk) == 1:
            out.append(cjk)
        else:
            out.extend(cjk[i : i + 2] for i in range(len(cjk) - 1))
    return out


class PlainBM25:
    """BM25 over a document's sentences, built once per document."""

    def __init__(self, text: str, k1: float = 1.5, b: float = 0.75) -> None:
        self.sentences = [text[s:e] for s, e in sentence_spans(text)]
        self.tf = [Counter(terms(s)) for s in self.sentences]
        self.lengths = [sum(tf.values()) for tf in self.tf]
        self.average = sum(self.lengths) / max(1, len(self.lengths))
        self.df = Counter(t for tf in self.tf for t in tf)
        self.k1, self.b = k1, b

    def ranked(self, question: str, k: int = 3) -> list[str]:
        n = len(self.sentences)
        wanted = set(terms(question))
        idf = {t: math.log(1 + (n - self.df[t] + 0.5) / (self.df[t] + 0.5)) for t in wanted}
        scores = []
        for index, tf in enumerate(self.tf):
            norm = self.k1 * (1 - self.b + self.b * self.lengths[index] / self.average)
            score = sum(idf[t] * tf[t] * (self.k1 + 1) / (tf[t] + norm) for t in wanted if t in tf)
            if score > 0:
                scores.append((-score, index))
        return [self.sentences[i] for _, i in sorted(scores)[:k]]


def shown_sentences(answer: str) -> int:
    """Sentences in an answer text (at least one), by the splitter the baseline uses."""
    return max(1, len(sentence_spans(answer)))


def hit(answers: list[str], text: str) -> bool:
    """A gold answer occurs in `text`, ignoring spaces and full-width/half-width forms."""
    import unicodedata

    flat = unicodedata.normalize("NFKC", text).replace(" ", "")
    return any(unicodedata.normalize("NFKC", a).replace(" ", "") in flat for a in answers if a)

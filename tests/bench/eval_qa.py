"""QA quality of the built-in engine: SQuAD v1.1 dev articles and needle-in-a-haystack essays.

    python tests/bench/eval_qa.py [--datasets DIR] [--limit N] [--answer-sentences K]

Every question goes through `pipeline.ask` (the whole graph, default Settings unless
overridden). Scoring, with SQuAD answer normalization (lowercase, no punctuation, no
articles, single spaces):
- top-1: a normalized gold answer occurs in the answer text;
- top-3: a normalized gold answer occurs in one of the first three cited sentences.
The answer text holds up to `answer_sentences` sentences (default 2); `--answer-sentences 1`
gives the strict one-sentence figure. Datasets are read in place from ../shared/datasets
(or --datasets, or LONGDOC_DATASETS); nothing is copied into the repository.

Parameters were set on SQuAD questions that are NOT in the evaluated set (longdoc_qa_all
minus longdoc_qa, every 6th: 1,303 questions, see --dev): BM25 k1 and b, the IDF prior, the
context, pronoun, paragraph and heading shares, the answer-type bonus, the coverage power and
the word-family weight and the citation diversity in pipeline/engines/extractive/retrieval.py
(and the family prefix in terms.py), and the not-found threshold (`--calibrate`: how many
real questions clear it, and how many clear it when asked of another article, which should not).
Nothing is tuned to individual questions.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import string
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline import Settings, ask
from pipeline.engines.extractive import engine as extractive
from pipeline.engines.extractive import retrieval, terms

DEFAULT_DATASETS = Path(__file__).resolve().parents[3] / "shared" / "datasets"


def normalize(text: str) -> str:
    """SQuAD's answer normalization: 'The Denver Broncos!' -> 'denver broncos'."""
    text = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def score(question: dict[str, Any], text: str, settings: Settings) -> tuple[bool, bool]:
    result = ask({"id": question["doc_id"], "text": text}, question["question"], settings=settings)
    golds = [normalize(a) for a in question["answers"]]
    answer = normalize(result.answer)
    cited = [normalize(c.quote) for c in result.citations[:3]]
    top1 = any(g and g in answer for g in golds)
    top3 = any(g and g in quote for g in golds for quote in cited)
    return top1, top3


def evaluate_squad(folder: Path, settings: Settings, limit: int | None, dev: bool) -> None:
    docs = {d["doc_id"]: d["text"] for d in read_jsonl(folder / "docs.jsonl")}
    questions = read_jsonl(folder / "longdoc_qa.jsonl")
    if dev:  # held-out questions for setting parameters: never the evaluated ones
        evaluated = {q["id"] for q in questions}
        questions = [
            q for q in read_jsonl(folder / "longdoc_qa_all.jsonl") if q["id"] not in evaluated
        ]
        questions = questions[::6]
    questions = questions[:limit] if limit else questions
    started = time.perf_counter()
    top1 = top3 = 0
    for question in questions:
        one, three = score(question, docs[question["doc_id"]], settings)
        top1 += one
        top3 += three
    n = len(questions)
    seconds = time.perf_counter() - started
    label = "SQuAD dev (held-out tuning set)" if dev else "SQuAD v1.1 dev articles"
    print(f"{label}: {n} questions over {len(docs)} articles, {seconds:.0f} s")
    print(f"  top-1 (answer text)     {top1 / n:.3f}   target >= 0.80")
    print(f"  top-3 (cited sentences) {top3 / n:.3f}   target >= 0.90")


def calibrate(folder: Path, settings: Settings, limit: int | None) -> None:
    """Share of held-out questions answered (not "not found") on their own article and on
    the article 7 places on in id order, which cannot answer them."""
    docs = {d["doc_id"]: d["text"] for d in read_jsonl(folder / "docs.jsonl")}
    ids = sorted(docs)
    evaluated = {q["id"] for q in read_jsonl(folder / "longdoc_qa.jsonl")}
    questions = [
        q for q in read_jsonl(folder / "longdoc_qa_all.jsonl") if q["id"] not in evaluated
    ][::6][:limit]
    own = other = 0
    for q in questions:
        wrong = ids[(ids.index(q["doc_id"]) + 7) % len(ids)]
        for doc_id in (q["doc_id"], wrong):
            result = ask({"id": doc_id, "text": docs[doc_id]}, q["question"], settings=settings)
            if result.citations:
                own += doc_id == q["doc_id"]
                other += doc_id != q["doc_id"]
    n = len(questions)
    print(f"Not-found threshold (min_relevance={settings.min_relevance}), {n} held-out questions")
    print(f"  answered on their own article      {own / n:.3f}   (higher is better)")
    print(f"  answered on an unrelated article   {other / n:.3f}   (lower is better)")


def evaluate_needles(folder: Path, settings: Settings) -> None:
    docs = {d["doc_id"]: d["text"] for d in read_jsonl(folder / "docs.jsonl")}
    found: dict[tuple[int, int], list[bool]] = defaultdict(list)
    for question in read_jsonl(folder / "longdoc_qa.jsonl"):
        one, _ = score(question, docs[question["doc_id"]], settings)
        found[(question["context_words"], question["depth_percent"])].append(one)
    lengths = sorted({k[0] for k in found})
    depths = sorted({k[1] for k in found})
    print("Needles found in the answer text (sf + passkey per cell), target >= 0.98 everywhere")
    print("  words \\ depth " + " ".join(f"{d:>5}%" for d in depths) + "   all")
    for length in lengths:
        cells = [found[(length, d)] for d in depths]
        rate = sum(map(sum, cells)) / sum(map(len, cells))
        row = " ".join(f"{sum(c) / len(c):6.2f}" for c in cells)
        print(f"  {length:>13} {row}  {rate:.2f}")
    total = [x for cell in found.values() for x in cell]
    print(f"  overall {sum(total) / len(total):.3f} of {len(total)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--datasets",
        type=Path,
        default=Path(os.environ.get("LONGDOC_DATASETS", DEFAULT_DATASETS)),
        help="Folder holding squad-v1.1-dev-articles/ and paul-graham-essays-niah/.",
    )
    parser.add_argument("--limit", type=int, help="Evaluate only the first N SQuAD questions.")
    parser.add_argument("--answer-sentences", type=int, help="Override Settings.answer_sentences.")
    parser.add_argument("--dev", action="store_true", help="Score the held-out tuning questions.")
    parser.add_argument("--skip-needles", action="store_true")
    parser.add_argument(
        "--calibrate", action="store_true", help="Check the not-found threshold instead."
    )
    args = parser.parse_args()
    overrides = {"answer_sentences": args.answer_sentences} if args.answer_sentences else {}
    settings = Settings(**overrides)
    print(
        f"settings: answer_sentences={settings.answer_sentences} "
        f"evidence_sentences={settings.evidence_sentences} "
        f"min_relevance={settings.min_relevance} "
        f"extractive_chunk_size={settings.extractive_chunk_size} "
        f"chunk_overlap={settings.chunk_overlap}"
    )
    print(
        f"engine: k1={retrieval.K1} b={retrieval.B} prior={retrieval.PRIOR_SENTENCES} "
        f"context={retrieval.CONTEXT_WEIGHT} pronoun={retrieval.ANAPHOR_CONTEXT} "
        f"paragraph={retrieval.PARAGRAPH_WEIGHT} heading={retrieval.HEADING_CONTEXT} "
        f"type_boost={retrieval.TYPE_BOOST} coverage_power={retrieval.COVERAGE_POWER} "
        f"soft_weight={retrieval.SOFT_WEIGHT} soft_prefix={terms.SOFT_PREFIX} "
        f"diversity={retrieval.DIVERSITY} "
        f"runner_up_share={extractive.RUNNER_UP_SHARE}"
    )
    if args.calibrate:
        calibrate(args.datasets / "squad-v1.1-dev-articles", settings, args.limit)
        return
    evaluate_squad(args.datasets / "squad-v1.1-dev-articles", settings, args.limit, args.dev)
    if not args.skip_needles and not args.dev:
        evaluate_needles(args.datasets / "paul-graham-essays-niah", settings)


if __name__ == "__main__":
    main()

"""Answers on real documents, read as a user reads them: right, and clean.

    python tests/bench/eval_realdocs.py [--set main|fresh] [--split all|dev|eval] [--show]
                                        [--source]

tests/bench/realdocs/ holds whole public documents nobody wrote for longdoc (man pages,
licences, HTML library docs, changelogs, PDF reports, a long Markdown README; sources and
licences in its README.md) and questions whose answers were read in them. Every question
goes through `pipeline.ask` on its one document with default Settings.

- right: a gold answer occurs in the answer text (SQuAD normalization, with hyphenated line
  breaks undone on both sides); a `not_found` question is right when longdoc says the
  documents do not contain the answer.
- clean: the answer reads as prose: no hard-wrap artefact (a line break inside a sentence,
  runs of spaces between words, a word split at a line end), no fragment (a cited unit that
  starts or ends in the middle of a sentence of the source), no sentence shown twice.
  Not-found answers are clean by construction and are not counted.

`--split dev` is every other question of each document (for tuning), `--split eval` the rest.
`--show` prints every answer with its verdicts, for reading.
"""

from __future__ import annotations

import argparse
import json
import re
import string
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline import AskResult, Settings, ask
from pipeline.documents.load import load_documents
from pipeline.prompts import NOT_FOUND
from pipeline.types import DocumentText

HERE = Path(__file__).resolve().parent / "realdocs"
SHAPE_OF = {
    "bash.1.txt": "man page",
    "ssh.1.txt": "man page",
    "GPL-3.txt": "licence",
    "Apache-2.0.txt": "licence",
    "MPL-2.0.txt": "licence",
    "LGPL-2.1.txt": "licence",
    "python3.11-logging.html": "html docs",
    "grep-NEWS.txt": "changelog",
    "httpx-CHANGELOG.md": "changelog",
    "ltnews35.pdf": "pdf",
    "libtasn1.pdf": "pdf",
    "axios-README.md": "markdown",
    "bzip2.1.txt": "man page",
    "LGPL-3.txt": "licence",
    "responses-README.rst": "rst",
    "cargo-profiles.html": "html docs",
    "rustc-codegen-options.html": "html docs",
    "xz.1.txt": "man page",
    "rust-book-references.html": "html docs",
    "find.1.txt": "man page",
    "rustdoc-command-line-arguments.html": "html docs",
    "rust-book-strings.html": "html docs",
    "nodejs-net.md": "markdown",
    "nodejs-child_process.md": "markdown",
    "nodejs-events.md": "markdown",
    "nodejs-os.md": "markdown",
    "python-policy.html": "html docs",
    "vim-usr_04.txt": "vim help",
    "passwd.ja.1.txt": "man page",
    "Getopt-Long.pm": "perl pod",
}
SOURCES = {"bash.1.txt": "raw/bash.1", "ssh.1.txt": "raw/ssh.1", "xz.1.txt": "raw/xz.1"}
"""Man pages whose roff source is kept beside the rendered text (man(7), mdoc(7), man(7)):
`--source` asks their questions of the source, as a user who has only the .1 file would."""
QUESTION_SETS = {"main": "questions.jsonl", "fresh": "questions-fresh.jsonl"}
"""main: the set the engine was worked on; fresh: questions written afterwards on other
documents, to check the figure is not tuned to the main set."""

_SOFT_BREAK = re.compile(r"[‐-]\n[ \t]*")
_WRAP = re.compile(r"\S\n[ \t]*[a-z(]|\S[ \t]{2,}\S|[‐-]\n")
_FENCED = re.compile(r"```.*?```", re.DOTALL)
_ENDS = '.!?:;。！？"”’)]'
# A list item's marker: text after an item that ends '; or' starts the next item, not a
# sentence's second half, and an item that starts 'b) ...' is no fragment.
_MARKER = re.compile(r"(?:[-*•]|\(?[a-z0-9]{1,3}[.)])\s")
SHORT_LINE = 40
"""A line this short before a citation is a heading or a term, not the start of its sentence."""


def normalize(text: str) -> str:
    """SQuAD's normalization, after joining words hyphenated at a line end."""
    text = _SOFT_BREAK.sub("", text).lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def not_found(answer: str) -> bool:
    return any(answer.startswith(text[:40]) for text in NOT_FOUND.values())


def is_right(question: dict[str, Any], result: AskResult) -> bool:
    if question["kind"] == "not_found":
        return not_found(result.answer)
    answer = normalize(result.answer)
    return any(normalize(gold) in answer for gold in question["answers"])


def problems(result: AskResult, text: str) -> list[str]:
    """Why the answer does not read clean; empty when it does."""
    found: list[str] = []
    if _wrapped(_FENCED.sub("", result.answer)):
        found.append("hard-wrap")
    shown = [c for c in result.citations if normalize(c.quote) in normalize(result.answer)]
    for citation in shown:
        before = text[: citation.start].rstrip()
        after = text[citation.end :].lstrip()
        quote = citation.quote.strip()
        opens = before and before[-1] not in _ENDS and quote[:1].islower()
        if opens and not _starts_block(text, citation.start) and not _MARKER.match(quote):
            found.append("starts mid-sentence")
        closes = quote and quote[-1] not in _ENDS and after[:1].islower()
        paragraph_ends = re.match(r"[ \t]*\n[ \t]*\n", text[citation.end :]) is not None
        if closes and not _MARKER.match(after) and not paragraph_ends:
            found.append("ends mid-sentence")
    sentences = [normalize(s) for s in re.split(r"(?<=[.!?])\s+", result.answer) if s.strip()]
    if len(set(sentences)) < len(sentences):
        found.append("duplicate")
    return sorted(set(found))


def _wrapped(answer: str) -> bool:
    """A hard-wrap artefact in the answer; a line that opens with a list item's marker
    ('a) under this License, ...') is the list's next item, not a wrap."""
    for match in _WRAP.finditer(answer):
        newline = answer.find("\n", match.start(), match.end())
        if newline < 0 or not _MARKER.match(answer[newline + 1 :].lstrip(" \t")):
            return True
    return False


def _starts_block(text: str, start: int) -> bool:
    """The citation opens a line under a short line (a heading or a term such as 'EXIT
    STATUS' above 'ssh exits with ...'): it starts its sentence though lowercase."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip():
        return False
    previous = text[: max(0, line_start - 1)].rsplit("\n", 1)[-1].strip()
    return len(previous) < SHORT_LINE


def load(split: str, name: str = "main") -> list[dict[str, Any]]:
    source = HERE / QUESTION_SETS[name]
    questions = [json.loads(line) for line in source.open() if line.strip()]
    seen: dict[str, int] = defaultdict(int)
    chosen = []
    for question in questions:
        index = seen[question["doc"]]
        seen[question["doc"]] += 1
        if split == "all" or (split == "dev") == (index % 2 == 0):
            chosen.append(question)
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["all", "dev", "eval"], default="all")
    parser.add_argument("--show", action="store_true", help="Print every answer.")
    parser.add_argument("--kind", help="Only questions of this kind (fact, table, steps, ...).")
    parser.add_argument("--set", choices=sorted(QUESTION_SETS), default="main")
    parser.add_argument(
        "--source", action="store_true", help="Ask the man pages' questions of their roff source."
    )
    args = parser.parse_args()
    settings = Settings(cache="off")  # a cached reading would hide a change of the engine
    questions = [q for q in load(args.split, args.set) if not args.kind or q["kind"] == args.kind]
    if args.source:
        questions = [q for q in questions if q["doc"] in SOURCES]
    right: dict[str, list[bool]] = defaultdict(list)
    clean: dict[str, list[bool]] = defaultdict(list)
    loaded: dict[str, DocumentText] = {}
    started = time.perf_counter()
    for question in questions:
        # Each document is loaded once (a PDF's parse is the slow part), then asked as loaded.
        path = HERE / (SOURCES[question["doc"]] if args.source else question["doc"])
        if question["doc"] not in loaded:
            loaded[question["doc"]] = load_documents(path, settings)[0]
        document = loaded[question["doc"]]
        result = ask(document, question["question"], settings=settings)
        text = document.text
        shape = SHAPE_OF[question["doc"]] + (" source" if args.source else "")
        ok = is_right(question, result)
        right[shape].append(ok)
        issues = [] if not_found(result.answer) else problems(result, text)
        if not not_found(result.answer):
            clean[shape].append(not issues)
        if args.show or not ok or issues:
            verdict = ("right" if ok else "WRONG") + (f" [{', '.join(issues)}]" if issues else "")
            print(f"--- {question['doc']}: {question['question']}  -> {verdict}")
            if args.show or not ok or issues:
                print("   ", result.answer.replace("\n", "\n    ")[:600])
    seconds = time.perf_counter() - started
    print(f"\n{len(questions)} questions ({args.split}), {seconds:.0f} s")
    print(f"{'shape':<12} {'right':>10} {'clean':>10}")
    for shape in sorted(right):
        r, c = right[shape], clean[shape]
        print(f"{shape:<12} {sum(r):>4}/{len(r):<5} {sum(c):>4}/{len(c):<5}")
    all_right = [x for v in right.values() for x in v]
    all_clean = [x for v in clean.values() for x in v]
    print(
        f"{'overall':<12} {sum(all_right):>4}/{len(all_right):<5} {sum(all_clean):>4}/"
        f"{len(all_clean):<5}  right {sum(all_right) / len(all_right):.3f}  "
        f"clean {sum(all_clean) / max(1, len(all_clean)):.3f}   targets >= 0.85 / >= 0.95"
    )


if __name__ == "__main__":
    main()

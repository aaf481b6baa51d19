"""Built-in summaries of real documents, checked the way a reader looks at them.

    python tests/bench/eval_summaries.py [--words N] [--show]

Documents: the licences in /usr/share/common-licenses, man pages from /usr/share/man/man1
rendered to text (`MANWIDTH=80 man -P cat NAME`, into a temporary directory), changelogs and
NEWS files from /usr/share/doc (GNU ChangeLog, GNU NEWS, Debian changelog), and the HTML,
PDF, Markdown and changelog files of tests/bench/realdocs. Missing ones are skipped. Each
goes through `pipeline.summarize` with default Settings (cache off) and is checked for:

- opens: the summary opens with what the document is: its first cited span starts in the
  document's first 1,500 characters, and for a man page the summary's first word is the
  command's name (its NAME line).
- no dangling opener: no cited sentence opens with a pronoun or connective ("It", "This",
  "However", ...) unless the span cited just before it ends right before it (its antecedent
  is in the summary), "This/The <title word or document word>" aside.
- no code: no cited span inside a fenced block, no sentence that reads as code or a
  signature (a call with underscores or pointers, a prompt, '[Function]', braces).
- latest release (changelogs): the first version or date the file names in a release
  heading (found here by its own pattern) appears in the summary.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline import Settings, SummaryResult, summarize

REALDOCS = Path(__file__).resolve().parent / "realdocs"
LICENCES = ["Apache-2.0", "GPL-2", "GPL-3", "LGPL-2.1", "LGPL-3", "MPL-2.0", "Artistic", "GFDL-1.3"]
MAN_PAGES = ["ls", "grep", "tar", "find", "cp", "sed", "gzip", "curl", "ssh", "diff", "xargs"]
CHANGELOGS = [
    "/usr/share/doc/findutils/changelog.gz",
    "/usr/share/doc/binutils/changelog.gz",
    "/usr/share/doc/coreutils/NEWS.gz",
    "/usr/share/doc/diffutils/NEWS.gz",
    "/usr/share/doc/apt/changelog.gz",
    "/usr/share/doc/bc/changelog.Debian.gz",
]
REAL = {
    "python3.11-logging.html": "html",
    "libtasn1.pdf": "pdf",
    "ltnews35.pdf": "pdf",
    "axios-README.md": "markdown",
    "grep-NEWS.txt": "changelog",
    "httpx-CHANGELOG.md": "changelog",
}
OPENING_CHARS = 1500

_DANGLING = re.compile(
    r"(?:It|Its|They|Their|Them|These|Those|This|That|Such|He|She|His|Her|However|Also|But|"
    r"And|Or|So|Then|Thus|Hence|Therefore|Moreover|Furthermore|Likewise|Similarly|Instead|"
    r"Otherwise|Besides|Additionally|Finally|Here|In addition|For example)\b"
)
_SELF = re.compile(
    r"(?:This|The|These)\s+(?:[\w-]+\s+){0,2}?(?:manual|guide|document|licen[cs]e|page|file|"
    r"program|library|module|package|release|version|project|text)s?\b",
    re.IGNORECASE,
)
_SIGNATURE = re.compile(r"[A-Za-z]\w*_\w*\s*\([^)]*[,*]|[A-Za-z_]\w*\s*\*\s*[A-Za-z_]\w*\s*[,)]")
_CODE_LINE = re.compile(r"^(?:\$ |>>> |#include|\[Function\]|\[Macro\]|[{}=;])|[{};]\s*$")
# A release heading, written here independently of the engine: the version or date it names.
_RELEASE_LINE = re.compile(
    r"^(?:#+\s*\[?v?(?P<md>\d+\.\d+(?:\.\d+)*)"  # Markdown: '## 0.28.1 (...)'
    r"|\*\s.*?release\s+(?P<news>\d+\.\d+(?:\.\d+)*)"  # GNU NEWS outline
    r"|.*?(?:version|release)\s+(?P<plain>\d+\.\d+(?:\.\d+)*)"  # 'Noteworthy changes in release'
    r"|(?P<date>\d{4}-\d{2}-\d{2})\s"  # GNU ChangeLog entry
    r"|\S+ \((?P<deb>[^)]+)\) \S+;)",  # Debian changelog
    re.IGNORECASE,
)


def documents(work: Path) -> list[tuple[str, str, Path]]:
    """(name, shape, path) of every document found on this machine."""
    found: list[tuple[str, str, Path]] = []
    for name in LICENCES:
        path = Path("/usr/share/common-licenses") / name
        if path.exists():
            found.append((name, "licence", path))
    for name in MAN_PAGES:
        target = work / f"{name}.1.txt"
        rendered = subprocess.run(
            ["man", "-P", "cat", name],
            capture_output=True,
            text=True,
            env={**os.environ, "MANWIDTH": "80", "LC_ALL": "C.UTF-8"},
            check=False,
        )
        if rendered.returncode == 0 and rendered.stdout.strip():
            target.write_text(rendered.stdout)
            found.append((f"{name}(1)", "man page", target))
    for source in map(Path, CHANGELOGS):
        if source.exists():
            target = work / f"{source.parent.name}-{source.stem}.txt"
            target.write_bytes(gzip.decompress(source.read_bytes()))
            found.append((target.name, "changelog", target))
    for name, shape in REAL.items():
        if (REALDOCS / name).exists():
            found.append((name, shape, REALDOCS / name))
    return found


def latest_release(text: str) -> str | None:
    for line in text.splitlines()[:400]:
        match = _RELEASE_LINE.match(line.strip())
        if match:
            return next(v for v in match.groupdict().values() if v)
    return None


def problems(result: SummaryResult, text: str, shape: str, name: str) -> list[str]:
    """What a reader would object to; empty when the summary reads right."""
    found: list[str] = []
    cites = result.citations
    if not cites:
        return ["empty"]
    lead = len(text) - len(text.lstrip())
    if cites[0].start - lead > OPENING_CHARS:
        found.append("does not open with the document")
    if shape == "man page":
        command = name.split("(")[0]
        if result.summary.split()[0].strip(",").lower() != command.lower():
            found.append("does not open with the NAME line")
    fences = [m.span() for m in re.finditer(r"```.*?```", text, re.DOTALL)]
    for index, cite in enumerate(cites):
        quote = " ".join(cite.quote.split()).lstrip("-*• ")
        previous = cites[index - 1] if index else None
        joined = previous is not None and not text[previous.end : cite.start].strip()
        if _DANGLING.match(quote) and not _SELF.match(quote) and not joined:
            found.append(f"dangling opener: {quote[:50]!r}")
        if any(a <= cite.start < b for a, b in fences):
            found.append("inside a code block")
        if _SIGNATURE.search(quote) or _CODE_LINE.search(quote):
            found.append(f"code or signature: {quote[:60]!r}")
    if shape == "changelog":
        latest = latest_release(text)
        if latest is None:
            found.append("no release found by the bench")
        elif latest not in result.summary:
            found.append(f"latest release {latest} not named")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=250)
    parser.add_argument("--show", action="store_true", help="Print every summary.")
    args = parser.parse_args()
    settings = Settings(cache="off")
    passed: dict[str, list[bool]] = {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as work:
        for name, shape, path in documents(Path(work)):
            result = summarize(path, words=args.words, settings=settings, include_documents=True)
            assert result.documents is not None
            issues = problems(result, result.documents[0].text, shape, name)
            passed.setdefault(shape, []).append(not issues)
            if args.show or issues:
                verdict = "ok" if not issues else "; ".join(issues)
                print(f"--- {name} ({shape}): {verdict}")
                print("   ", result.summary[:700])
    seconds = time.perf_counter() - started
    print(f"\n{sum(map(len, passed.values()))} documents, {args.words} words, {seconds:.0f} s")
    for shape, oks in sorted(passed.items()):
        print(f"{shape:<10} {sum(oks):>3}/{len(oks)}")
    every = [ok for oks in passed.values() for ok in oks]
    share = sum(every) / len(every)
    print(f"{'overall':<10} {sum(every):>3}/{len(every)}  ({share:.2f} read right)")


if __name__ == "__main__":
    main()

"""Markdown written block by block, for the readers that turn markup into it (pod.py,
man.py, docx.py)."""

from __future__ import annotations

from pipeline.documents.html import MAX_INDENT


class Blocks:
    """Blocks joined by a blank line; one written `tight` joins the block before it, as an
    entry's description joins its term (the shape html.py writes for a `<dl>`)."""

    def __init__(self) -> None:
        self._blocks: list[str] = []

    def write(self, block: str, indent: int = 0, tight: bool = False) -> None:
        """`block` at `indent` (capped at MAX_INDENT: deep nesting must not grow the text)."""
        pad = " " * min(indent, MAX_INDENT)
        if self._blocks and not tight:
            self._blocks.append("")
        self._blocks.append("\n".join(pad + line if line else "" for line in block.split("\n")))

    def code(self, code: str, indent: int = 0, tight: bool = False) -> None:
        """Fenced code: its lines as they are, less the indent they share."""
        lines = code.expandtabs(8).split("\n")
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            return
        margin = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
        self.write("\n".join(["```", *(line[margin:] for line in lines), "```"]), indent, tight)

    def table(
        self, rows: list[list[str]], header: bool, indent: int = 0, tight: bool = False
    ) -> None:
        """A pipe table of `rows` (each a list of cell texts; '|' in a cell escaped), with a
        `|---|` rule under the first row when it is the header."""
        written = [
            "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows
        ]
        if header and written:
            written.insert(1, "|" + "---|" * len(rows[0]))
        if written:
            self.write("\n".join(written), indent, tight)

    def text(self) -> str:
        return "\n".join(self._blocks).strip("\n") + "\n" if self._blocks else ""

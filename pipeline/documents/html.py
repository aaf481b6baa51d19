"""The visible text of an HTML page: scripts, styles and markup dropped, blocks on lines."""

from __future__ import annotations

_BLOCKS = (
    "address article aside blockquote br dd div dl dt figcaption figure footer form h1 h2 h3 "
    "h4 h5 h6 header hr li main nav ol p pre section table td th tr ul"
).split()


def html_text(html: str) -> str:
    """The visible text of an HTML page: scripts, styles and markup dropped, blocks on lines."""
    from bs4 import BeautifulSoup  # imported late: only HTML needs it

    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup(["script", "style", "noscript", "template", "head"]):
        hidden.decompose()
    # Inline tags (<b>, <a>) stay inside their line; block tags start a new one.
    for block in soup.find_all(_BLOCKS):
        block.insert_before("\n")
        block.insert_after("\n")
    lines = (" ".join(line.split()) for line in soup.get_text().splitlines())
    return "\n".join(line for line in lines if line)

"""Turning what callers pass (strings, paths, dicts, uploaded bytes) into DocumentTexts.

load.py    inputs -> validated DocumentTexts: ids, size limit (the one place that checks)
budget.py  the limits a load runs under: cancellation, CPU seconds per document
sniff.py   the file type, told from content: PDF, Word, EPUB, HTML or text; others refused
decode.py  bytes -> str by BOM, else UTF-8, else the charset the file declares
html.py    the visible text of an HTML page as Markdown, in one linear pass
pod.py     Perl's POD (.pod files, and .pm files' documentation) as Markdown
roff.py    man pages in roff source as Markdown: requests, macros, conditions (escapes:
           roff_escapes.py); man.py writes the man(7) macros, mdoc.py the BSD mdoc(7) ones
blocks.py  the Markdown blocks (paragraphs, code, tables) pod.py, roff.py and docx.py write
zipped.py  ZIP-packaged documents: which (Word, EPUB) and their parts, read within limits
docx.py    a Word document as Markdown: headings, lists, tables, footnotes
epub.py    an EPUB book as Markdown: its chapters in reading order, read by html.py
pdf.py     PDF text with page starts, parsed in a capped child process (pdf_worker.py,
           which reads a page drawn across two columns column by column)
"""

from pipeline.documents.load import (
    DocumentBytes,
    DocumentLike,
    Documents,
    aload_documents,
    from_bytes,
    load_documents,
    read_file,
)

__all__ = [
    "DocumentBytes",
    "DocumentLike",
    "Documents",
    "aload_documents",
    "from_bytes",
    "load_documents",
    "read_file",
]

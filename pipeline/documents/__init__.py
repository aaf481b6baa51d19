"""Turning what callers pass (strings, paths, dicts, uploaded bytes) into DocumentTexts.

load.py    inputs -> validated DocumentTexts: ids, size limit (the one place that checks)
sniff.py   the file type, told from content: PDF, HTML or text; binary formats refused
decode.py  bytes -> str by BOM, else UTF-8
html.py    the visible text of an HTML page
pdf.py     PDF text with page starts, parsed in a capped child process (pdf_worker.py)
"""

from pipeline.documents.load import DocumentLike, Documents, from_bytes, load_documents, read_file

__all__ = ["DocumentLike", "Documents", "from_bytes", "load_documents", "read_file"]

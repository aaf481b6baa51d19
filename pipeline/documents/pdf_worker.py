"""Child-process PDF text extraction, run as a script so a hostile PDF cannot hurt the server.

Reads the PDF bytes on stdin and writes one JSON object on stdout:
`{"pages": [str, ...]}` or `{"error": code, ...}`, the code one of "encrypted", "malformed",
"too_many_pages", "too_many_chars" or "too_much_memory" (pdf.py turns each into an error).
It caps its own address space first, so a decompression bomb dies here with MemoryError
(or is killed) instead of taking the server's memory, and its CPU time (SIGXCPU); the
parent caps wall time and characters, and kills it when its request is cancelled.
It is started by file path, not `-m pipeline...`, so it never imports the heavy pipeline
package (langgraph, numpy) and starts in a fraction of a second.
"""

from __future__ import annotations

import contextlib
import io
import json
import resource
import sys
from typing import Any


def _limit(megabytes: int, cpu_s: int) -> None:
    """Cap this process's memory and CPU time: past either the kernel stops it."""
    limit = megabytes * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):  # a lower hard limit already applies
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))


def extract(raw: bytes, max_pages: int, max_chars: int) -> dict[str, Any]:
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError, PdfReadError, PyPdfError

    try:
        reader = PdfReader(io.BytesIO(raw))
        if reader.is_encrypted and not reader.decrypt(""):
            return {"error": "encrypted"}
        if len(reader.pages) > max_pages:
            return {"error": "too_many_pages", "pages": len(reader.pages)}
        pages: list[str] = []
        total = 0
        for page in reader.pages:
            text = page.extract_text() or ""
            total += len(text)
            if total > max_chars:
                return {"error": "too_many_chars", "chars": total}
            pages.append(text)
    except FileNotDecryptedError:
        return {"error": "encrypted"}
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return {"error": "malformed", "detail": f"{type(exc).__name__}: {exc}"[:300]}
    return {"pages": pages}


def main() -> None:
    max_pages, max_chars, memory_mb, cpu_s = (int(arg) for arg in sys.argv[1:5])
    _limit(memory_mb, cpu_s)
    raw = sys.stdin.buffer.read()
    try:
        result = extract(raw, max_pages, max_chars)
    except MemoryError:
        result = {"error": "too_much_memory"}
    except RecursionError:
        result = {"error": "malformed", "detail": "nesting too deep"}
    sys.stdout.write(json.dumps(result))


if __name__ == "__main__":
    main()

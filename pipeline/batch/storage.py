"""Where a batch reads and writes: local paths, or fsspec URLs (s3://, gs://, ...) of any store.

Local paths (and file:// URLs) need nothing extra. Other URLs go through fsspec and the
store's own package (s3fs for s3://), installed with `pip install 'longdoc[ray]'`.
Outputs are always written whole: on disk through a temporary file and a rename, on an
object store as one PUT of the rendered bytes (never an open file that an error halfway
would still commit).
"""

from __future__ import annotations

import glob
import os
import posixpath
import tempfile
from pathlib import Path, PurePosixPath
from typing import Any

from pipeline.documents.sniff import looks_like_text
from pipeline.errors import ConfigError, InputError

SUFFIXES = (
    ".txt", ".md", ".markdown", ".rst", ".html", ".htm", ".xhtml", ".pdf", ".docx", ".epub",
    ".pod", ".man",
)  # fmt: skip
TEMP_MARK = ".longdoc-tmp-"
HEAD_BYTES = 4096


def is_remote(location: str) -> bool:
    """Whether `location` is a URL of a store other than the local disk."""
    return "://" in location and not location.startswith("file://")


def local(location: str) -> str:
    """A local location as a plain path (file:///a/b -> /a/b)."""
    return location.removeprefix("file://")


def name(location: str) -> str:
    """The file name at the end of a path or URL."""
    return posixpath.basename(location.rstrip("/")) if is_remote(location) else Path(location).name


def join(folder: str, relative: str) -> str:
    """`relative` (a POSIX path) under `folder`, a path or a URL."""
    if is_remote(folder):
        return folder.rstrip("/") + "/" + relative
    return str(Path(local(folder)) / relative)


def filesystem(url: str) -> tuple[Any, str]:
    """The fsspec filesystem of `url` and the path within it; ConfigError if it needs a package."""
    try:
        import fsspec
    except ImportError:
        raise ConfigError(
            f"{url.split('://')[0]}:// locations need fsspec",
            hint="pip install 'longdoc[ray]' (fsspec and s3fs); gs:// also needs gcsfs.",
        ) from None
    try:
        fs, path = fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as exc:
        raise ConfigError(
            f"cannot open {url}: {exc}"[:300],
            hint="Install the package for that store (s3fs comes with longdoc[ray]).",
        ) from None
    return fs, str(path)


def read_bytes(location: str) -> bytes:
    if is_remote(location):
        fs, path = filesystem(location)
        data: bytes = fs.cat_file(path)
        return data
    return Path(local(location)).read_bytes()


def read_head(location: str) -> str | None:
    """The first 4 KB of a file as text (one ranged read on a store), or None if absent."""
    try:
        head = _head_bytes(location)
    except FileNotFoundError:
        return None
    return head.decode("utf-8", "replace")  # a multibyte character cut at 4 KB is harmless


def _head_bytes(location: str) -> bytes:
    if is_remote(location):
        fs, path = filesystem(location)
        head: bytes = fs.cat_file(path, start=0, end=HEAD_BYTES)
        return head
    with open(local(location), "rb") as handle:
        return handle.read(HEAD_BYTES)


def write_whole(location: str, text: str) -> None:
    """Write `text` so readers see the old file or the whole new one, never a part."""
    data = text.encode("utf-8")
    if is_remote(location):
        fs, path = filesystem(location)
        fs.pipe_file(path, data)  # one PUT below the multipart threshold (50 MiB)
        return
    target = Path(local(location))
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}{TEMP_MARK}")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, 0o644)  # mkstemp makes 0600; outputs are ordinary files
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def remove_stale_temps(folder: str) -> int:
    """Delete temporary files a killed run left behind in a local folder; returns how many."""
    if is_remote(folder):
        return 0  # a store gets whole objects only: nothing is ever left half-written
    root = Path(local(folder))
    stale = list(root.rglob(f"*{TEMP_MARK}*")) if root.exists() else []
    for temp in stale:
        temp.unlink(missing_ok=True)
    return len(stale)


def discover(
    inputs: list[str], out_dir: str | None = None
) -> tuple[list[tuple[str, str]], list[str]]:
    """(file, root) pairs from files, folders (recursive) and globs, sorted, no repeats; and
    the files of those folders that are not a type longdoc reads (e.g. a PNG), sorted.

    `root` is what the output path is made relative to, so `docs/a/x.md` given as
    `docs` lands in `OUT/a/x.summary.md`. Files under `out_dir` are earlier outputs,
    never sources, so a rerun with `--out docs/summaries` does not summarize summaries.
    """
    found: dict[str, str] = {}
    ignored: set[str] = set()
    outputs = _folder_key(out_dir) if out_dir is not None else None

    def is_source(location: str) -> bool:
        # The folder holding the file decides, not where a symlinked file points.
        return outputs is None or not _folder_key(parent(location)).startswith(outputs)

    for raw in inputs:
        pairs, skipped = _discover_remote(raw) if is_remote(raw) else _discover_local(local(raw))
        for file, root in pairs:
            if is_source(file):
                found.setdefault(file, root)
        ignored.update(file for file in skipped if is_source(file))
    return sorted(found.items()), sorted(ignored)


def _folder_key(location: str) -> str:
    """`location` in one spelling, ending in "/", so a prefix test tells what is inside it."""
    if is_remote(location):
        return location.rstrip("/") + "/"
    return str(Path(local(location)).resolve()).rstrip("/") + "/"


def parent(location: str) -> str:
    """The folder holding a file, as a path or a URL."""
    if is_remote(location):
        return posixpath.dirname(location.rstrip("/"))
    return str(Path(local(location)).parent)


def exists(location: str) -> bool:
    if is_remote(location):
        fs, path = filesystem(location)
        return bool(fs.exists(path))
    return Path(local(location)).exists()


def move(source: str, target: str) -> None:
    """Move a file within one store: a rename on disk, a copy then delete on an object store
    (which has no rename; a run killed between the two leaves both, and the next run's
    check of the target's stamp finds it current)."""
    if is_remote(source):
        fs, path = filesystem(source)
        fs.mv(path, filesystem(target)[1])
        return
    Path(local(target)).parent.mkdir(parents=True, exist_ok=True)
    os.replace(local(source), local(target))


def relative(file: str, root: str) -> str:
    """`file`'s path under `root`, POSIX style; its name alone when it is the root."""
    if is_remote(file):
        inner = file[len(root) :].lstrip("/") if file.startswith(root) else ""
        return inner or name(file)
    path, base = Path(file), Path(root)
    return (path.relative_to(base) if path != base else Path(path.name)).as_posix()


def _discover_local(raw: str) -> tuple[list[tuple[str, str]], list[str]]:
    matches = sorted(glob.glob(raw, recursive=True)) if glob.has_magic(raw) else [raw]
    if not matches:
        raise InputError(f"no files match {raw!r}", hint="Check the pattern or the path.")
    pairs, ignored = [], []
    for match in matches:
        # Absolute but not resolved: a symlinked file keeps its own name and its place under
        # the folder, even when it points outside it.
        path = Path(os.path.abspath(match))
        if path.is_dir():
            for file in sorted(p for p in path.rglob("*") if p.is_file()):
                if file.name.startswith("."):
                    continue
                if _readable(str(file)):
                    pairs.append((str(file), str(path)))
                else:
                    ignored.append(str(file))
        elif path.exists():
            pairs.append((str(path), str(path.parent)))
        else:
            raise InputError(f"file not found: {path}", hint="Check the path.")
    return pairs, ignored


def _discover_remote(raw: str) -> tuple[list[tuple[str, str]], list[str]]:
    fs, path = filesystem(raw)
    fs.invalidate_cache()  # listings cached by an earlier call may miss new files
    scheme = raw.split("://", 1)[0]

    def url(inner: str) -> str:
        return f"{scheme}://{inner.lstrip('/')}"

    if glob.has_magic(path):
        matches = sorted(fs.glob(path))
        if not matches:
            raise InputError(f"no files match {raw!r}", hint="Check the pattern or the URL.")
        root = url(path.split("*")[0].rsplit("/", 1)[0])
        return [(url(m), root) for m in matches], []
    if fs.isdir(path):
        files = [f for f in sorted(fs.find(path)) if not posixpath.basename(f).startswith(".")]
        folder = url(path.rstrip("/"))
        readable = {f: _readable(url(f)) for f in files}
        pairs = [(url(f), folder) for f in files if readable[f]]
        return pairs, [url(f) for f in files if not readable[f]]
    if fs.exists(path):
        return [(url(path), url(posixpath.dirname(path)))], []
    raise InputError(f"file not found: {raw}", hint="Check the URL and its credentials.")


def _readable(location: str) -> bool:
    """Whether a file of a folder is of a type longdoc reads (text, Markdown, HTML, PDF,
    Word, EPUB, POD; a man page's `.1` is a section number, read as text).

    The name says so for most files. README, LICENSE or LGPL-2.1 have no document suffix
    (`.1` is a version), so their first 4 KB decide: text is read, anything else is not.
    """
    file_name = posixpath.basename(location)
    if file_name.lower().endswith(SUFFIXES):
        return True
    if type_suffix(file_name):
        return False
    try:
        return looks_like_text(_head_bytes(location))
    except OSError:
        return False


def type_suffix(file_name: str) -> str:
    """The suffix that names a file's type: `.pdf` of `report.pdf`, none of `README`, nor of
    `LGPL-2.1` or `MPL-2.0`, whose digits are a version."""
    suffix = PurePosixPath(file_name).suffix
    return "" if suffix[1:].isdigit() else suffix

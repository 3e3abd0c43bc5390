"""Writing a command's output files safely.

* :func:`check_target` is called before any long work: the output location can be written
  (not a file where a directory is needed, an existing and writable nearest folder).
* :func:`write_files` writes every file into a temporary directory next to the target and
  moves them into place only when all were written: a failed write leaves nothing behind.
  It never writes over an input file (``inputs``), and over an existing file only with
  ``force``.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..errors import RSTKitError


def _nearest_existing(path: Path) -> Path:
    path = path.absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_target(path: Path, directory: bool) -> None:
    """Raise an RSTKitError now if ``path`` cannot become an output directory (``directory``)
    or file: a file where a directory is needed, a missing folder under a file, or no write
    permission where it would be created."""
    if path.exists():
        if directory and not path.is_dir():
            raise RSTKitError("output exists and is a file, not a directory", str(path))
        if not os.access(path, os.W_OK | (os.X_OK if path.is_dir() else 0)):
            raise RSTKitError("output is not writable (read-only)", str(path))
        if not path.is_dir() and not os.access(path.absolute().parent, os.W_OK | os.X_OK):
            raise RSTKitError(f"cannot write in {path.absolute().parent} (read-only)", str(path))
        return
    folder = _nearest_existing(path.parent)
    if not folder.is_dir():
        raise RSTKitError(f"cannot create the output: {folder} is a file, not a directory", str(path))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise RSTKitError(f"cannot create the output: {folder} is not writable (read-only)", str(path))


def _is_input(path: Path, inputs: Iterable[Path]) -> bool:
    """Whether ``path`` is one of ``inputs`` or lies in an input directory (links resolved)."""
    resolved = path.resolve()
    return any(resolved == item or (item.is_dir() and resolved.is_relative_to(item))
               for item in (i.resolve() for i in inputs))


def plain_name(name: str, where: str | None) -> str:
    """``name`` if it is a plain file name (no folder part, not ``.``/``..``), else an RSTKitError."""
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
        raise RSTKitError(f"cannot name an output file after the document id {name!r}", where)
    return name


def _permissions(path: Path, mode: int) -> None:
    """Give a freshly created temporary file or directory the permissions a normal one would get."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, mode & ~umask)


def write_files(target: Path, files: Mapping[str, str], *, into_directory: bool, force: bool,
                inputs: Iterable[Path] = ()) -> None:
    """Write ``files`` (``{name: text}``) into the directory ``target``, or the one text into
    the file ``target`` (``into_directory=False``); all or nothing.

    Never over a file of ``inputs`` (or in an input directory) even with ``force``; over an
    existing file only with ``force`` (``fixes=("force",)`` otherwise).
    """
    inputs = list(inputs)
    if into_directory:
        paths = {target / plain_name(name, str(target)): text for name, text in files.items()}
    else:
        ((_, text),) = files.items()
        paths = {target: text}
    existing = [p for p in paths if p.exists()]
    for path in existing:
        if _is_input(path, inputs):
            raise RSTKitError("refusing to write over an input file (the output overlaps the input)", str(path))
    if existing and not force:
        names = ", ".join(p.name for p in existing[:5]) + (" ..." if len(existing) > 5 else "")
        raise RSTKitError(f"{len(existing)} output file(s) exist already: {names}", str(target), fixes=("force",))
    if into_directory:
        _write_directory(target, paths)
    else:
        _write_file(target, paths[target])


def _created_parents(folder: Path) -> list[Path]:
    """Make ``folder``'s missing parents; the ones made, deepest last."""
    missing = []
    parent = folder.absolute()
    while not parent.exists():
        missing.append(parent)
        parent = parent.parent
    for path in reversed(missing):
        path.mkdir()
    return list(reversed(missing))


def _remove_created(created: list[Path]) -> None:
    for path in reversed(created):
        try:
            path.rmdir()
        except OSError:
            pass


def _write_directory(target: Path, paths: Mapping[Path, str]) -> None:
    fresh = not target.exists()
    created: list[Path] = []
    staging = None
    current = target
    try:
        created = _created_parents(target.parent) if fresh else []
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp",
                                        dir=target.parent if fresh else target))
        for current, text in paths.items():
            (staging / current.name).write_text(text, encoding="utf-8")
        current = target
        if fresh:
            _permissions(staging, 0o777)
            staging.rename(target)
        else:
            for current in paths:
                os.replace(staging / current.name, current)
            staging.rmdir()
    except OSError as exc:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        _remove_created(created)
        raise RSTKitError(f"cannot write: {exc.strerror or exc}", str(current)) from None


def _write_file(target: Path, text: str) -> None:
    created: list[Path] = []
    handle = None
    try:
        created = _created_parents(target.parent)
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        handle = Path(name)
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
        if target.exists():  # a replaced file keeps its permissions
            os.chmod(handle, target.stat().st_mode & 0o7777)
        else:
            _permissions(handle, 0o666)
        os.replace(handle, target)
    except OSError as exc:
        if handle is not None:
            handle.unlink(missing_ok=True)
        _remove_created(created)
        raise RSTKitError(f"cannot write: {exc.strerror or exc}", str(target)) from None

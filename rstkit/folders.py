"""The one walk through input folders: every file under a folder, or a clear word why not.

:func:`walk_files` lists the regular files under a folder (recursively, hidden files and folders
left out, in path order). Nothing is dropped in silence: a symbolic link to a folder is followed
(a link that leads back to a folder it lies in is a cycle, reported), and an entry that cannot be
read (a folder without permission, a broken link) or is no regular file (a FIFO, a socket, a
device) is a *problem*, a :class:`~rstkit.errors.CorpusError` naming it, returned beside the
files so that the caller decides: an error, or (``skip_errors``) a listed warning.
:func:`node_kind` says what a path is, for messages.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .errors import CorpusError

#: what a file-system node that is not a regular file or a folder is, for messages
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a directory"),
          (stat.S_ISREG, "a regular file"))


def node_kind(path: str | os.PathLike) -> str:
    """What ``path`` is, in words: ``a FIFO (named pipe)``, ``a directory``, ``a broken symbolic
    link``, ``missing`` ... (links are followed)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a broken symbolic link" if os.path.islink(path) else "missing"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def not_regular(path: str | os.PathLike) -> CorpusError:
    """The error for reading ``path`` as a file when it is none (missing, a FIFO, a folder ...)."""
    kind = node_kind(path)
    if kind == "missing":
        return CorpusError("no such file", str(path))
    return CorpusError(f"not a regular file: it is {kind} (rstkit reads regular files)", str(path))


@dataclass
class Listing:
    """The regular files under a folder, and the entries that could not be listed or read."""

    files: list[Path] = field(default_factory=list)
    problems: list[CorpusError] = field(default_factory=list)


def walk_files(directory: str | os.PathLike, *, recursive: bool = True) -> Listing:
    """The regular files under ``directory`` (its subfolders too with ``recursive``), hidden files
    and folders left out, sorted as their relative paths' parts sort (``a/z`` before ``a-b``),
    and every entry that is left out for another reason as a problem (see the module's text).

    >>> [p.name for p in walk_files("corpora/sample/gold").files][:2]
    ['sample_bread.dis', 'sample_harbour.dis']
    """
    root = Path(directory)
    listing = Listing()
    found = [((*parts, name), folder / name) for folder, parts, name in _files_under(root, recursive, listing.problems)]
    found.sort(key=lambda item: item[0])
    listing.files = [path for _, path in found]
    listing.problems.sort(key=lambda error: error.path or "")
    return listing


def holds_file(directory: str | os.PathLike, wanted: Callable[[str], bool]) -> bool:
    """Whether :func:`walk_files` of ``directory`` lists a file whose name is ``wanted``, found without
    listing the folder whole: the first such file ends the walk (what ``eval`` asks of every input
    folder: does it hold DISRPT files?)."""
    return any(wanted(name) for _, _, name in _files_under(Path(directory), True, []))


def _files_under(root: Path, recursive: bool, problems: list[CorpusError]
                 ) -> Iterator[tuple[Path, tuple[str, ...], str]]:
    """The walk itself: the regular files under ``root`` as (their folder, its parts relative to ``root``, their
    name), folder by folder as it goes; every entry left out for another reason added to ``problems``."""
    try:
        root_key = _key(os.stat(root))
    except OSError as exc:
        problems.append(CorpusError(f"cannot read directory: {exc.strerror or exc}", str(root)))
        return
    # (folder, its parts relative to root, the folders it lies in by (device, inode))
    pending: list[tuple[Path, tuple[str, ...], dict[tuple[int, int], Path]]] = [(root, (), {root_key: root})]
    while pending:
        folder, parts, ancestors = pending.pop()
        try:
            with os.scandir(folder) as entries:
                listed = [e for e in entries if not e.name.startswith(".")]
        except OSError as exc:
            problems.append(CorpusError(f"cannot read directory: {exc.strerror or exc}", str(folder)))
            continue
        for entry in listed:
            try:
                if not entry.is_symlink() and entry.is_file(follow_symlinks=False):
                    yield folder, parts, entry.name
                    continue
                mode_stat = os.stat(entry.path)  # a link is followed; a folder needs its identity
            except FileNotFoundError:
                problems.append(CorpusError("broken symbolic link: it points to nothing", str(folder / entry.name)))
                continue
            except OSError as exc:
                problems.append(CorpusError(f"cannot read: {exc.strerror or exc}", str(folder / entry.name)))
                continue
            if stat.S_ISREG(mode_stat.st_mode):
                yield folder, parts, entry.name
            elif stat.S_ISDIR(mode_stat.st_mode):
                if not recursive:
                    continue
                key, path = _key(mode_stat), folder / entry.name
                if key in ancestors:
                    problems.append(CorpusError(
                        f"symbolic link cycle: this folder is {ancestors[key]}, which it lies in; not entered",
                        str(path)))
                    continue
                pending.append((path, (*parts, entry.name), {**ancestors, key: path}))
            else:
                problems.append(not_regular(folder / entry.name))


def _key(status: os.stat_result) -> tuple[int, int]:
    return status.st_dev, status.st_ino

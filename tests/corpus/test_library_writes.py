"""Issue 34 ("atomic writing outside output.py"): what the library writes itself (a training
checkpoint, cache entries, a model unpacked from its archive) goes through rstkit.output's two
helpers, which put a file or a folder in place whole or not at all.

Expectations are about the file system afterwards (which names exist, with which bytes).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from rstkit.errors import RSTKitError
from rstkit.output import new_folder, replacing_file


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_replacing_file_puts_the_whole_file_in_place_only_at_the_end(tmp_path):
    target = tmp_path / "cache" / "entry.npy"  # the parent is made
    with replacing_file(target) as stream:
        stream.write(b"first half ")
        assert not target.exists()  # nothing under the name while it is written
        stream.write(b"second half")
    assert target.read_bytes() == b"first half second half"
    assert names(target.parent) == ["entry.npy"]  # no temporary file left


def test_replacing_file_keeps_the_old_file_and_its_mode_until_the_new_one_is_complete(tmp_path):
    target = tmp_path / "checkpoint.pt"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    with pytest.raises(ValueError), replacing_file(target) as stream:
        stream.write(b"new, but")
        raise ValueError("the writer failed")
    assert target.read_bytes() == b"old" and names(tmp_path) == ["checkpoint.pt"]
    with replacing_file(target) as stream:
        stream.write(b"new")
    assert target.read_bytes() == b"new" and (target.stat().st_mode & 0o777) == 0o640


def test_replacing_file_interrupted_leaves_nothing(tmp_path):
    target = tmp_path / "new" / "entry.npz"
    with pytest.raises(KeyboardInterrupt), replacing_file(target) as stream:
        stream.write(b"part")
        raise KeyboardInterrupt
    assert names(tmp_path) == []  # neither the file nor the parent made for it


def test_replacing_file_that_cannot_be_written_is_an_error_naming_it(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    with pytest.raises(RSTKitError) as error, replacing_file(blocker / "entry.npy") as stream:
        stream.write(b"x")
    assert error.value.message.startswith("cannot write: ")


def test_new_folder_appears_whole_under_its_name(tmp_path):
    target = tmp_path / "models" / "tiny-0123"
    with new_folder(target) as staging:
        (staging / "weights.bin").write_bytes(b"w")
        (staging / "sub").mkdir()
        (staging / "sub" / "config.json").write_text("{}")
        assert not target.exists()
        assert staging.parent == target.parent  # one file system: the rename is atomic
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*")) == [
        "sub", "sub/config.json", "weights.bin"]
    assert names(target.parent) == ["tiny-0123"]


def test_new_folder_that_fails_leaves_nothing(tmp_path):
    target = tmp_path / "tiny-0123"
    with pytest.raises(RSTKitError), new_folder(target) as staging:
        (staging / "weights.bin").write_bytes(b"w")
        raise RSTKitError("checksum differs")
    assert names(tmp_path) == []


def test_new_folder_keeps_one_another_process_put_in_place_meanwhile(tmp_path):
    target = tmp_path / "tiny-0123"
    with new_folder(target) as staging:
        (staging / "weights.bin").write_bytes(b"mine")
        target.mkdir()
        (target / "weights.bin").write_bytes(b"theirs")
    assert (target / "weights.bin").read_bytes() == b"theirs" and names(tmp_path) == ["tiny-0123"]

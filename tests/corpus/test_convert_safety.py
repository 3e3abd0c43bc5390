"""Output paths of ``rstkit convert`` and ``rstkit draw``: checked before the work, never over an
input, never over existing files without ``--force`` (convert), all or nothing.

Every expectation is about the file system: which files exist afterwards, with which bytes.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rstkit.cli import main

PROJECT = Path(__file__).resolve().parents[1].parent
GOLD = PROJECT / "corpora" / "sample" / "gold"
IDS = sorted(p.name.removesuffix(".dis") for p in GOLD.glob("*.dis"))


def run(capsys, *argv) -> tuple[int, str]:
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:
        status = exc.code
    return status, capsys.readouterr().err


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones included) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def corpus(tmp_path) -> Path:
    """A copy of the sample gold corpus (4 .dis documents)."""
    shutil.copytree(GOLD, tmp_path / "gold")
    return tmp_path / "gold"


# -- never over the input ---------------------------------------------------------------------------
@pytest.mark.parametrize("force", [False, True])
def test_convert_never_writes_over_its_input_directory(corpus, capsys, force):
    before = snapshot(corpus)
    status, err = run(capsys, "convert", corpus, corpus, "--to", "dis", *(["--force"] if force else []))
    assert status == 2 and "input" in err
    assert snapshot(corpus) == before


@pytest.mark.parametrize("force", [False, True])
def test_convert_never_writes_over_its_input_file(corpus, capsys, force):
    source = corpus / "sample_bread.dis"
    before = source.read_bytes()
    status, err = run(capsys, "convert", source, source, "--to", "dis", *(["--force"] if force else []))
    assert status == 2 and str(source) in err
    assert source.read_bytes() == before


def test_convert_never_writes_over_an_input_reached_by_a_link(corpus, tmp_path, capsys):
    link = tmp_path / "link"
    link.symlink_to(corpus, target_is_directory=True)
    before = snapshot(corpus)
    assert run(capsys, "convert", corpus, link, "--to", "dis", "--force")[0] == 2
    assert snapshot(corpus) == before


def test_draw_never_writes_over_its_input(corpus, tmp_path, capsys):
    source = tmp_path / "tree.txt"  # a .dis tree under a name the text drawing would take
    shutil.copy(corpus / "sample_bread.dis", source)
    status, err = run(capsys, "draw", source, "--from", "dis", "-o", source)
    assert status == 2 and "input" in err
    assert source.read_bytes() == (corpus / "sample_bread.dis").read_bytes()


# -- existing output -----------------------------------------------------------------------------------
def test_convert_keeps_existing_files_unless_forced(corpus, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "sample_bread.rs3").write_text("mine", encoding="utf-8")
    (out / "unrelated.txt").write_text("keep", encoding="utf-8")
    status, err = run(capsys, "convert", corpus, out, "--to", "rs3")
    assert status == 2 and err.rstrip().endswith("(use --force)") and "sample_bread.rs3" in err
    assert snapshot(out) == {"sample_bread.rs3": b"mine", "unrelated.txt": b"keep"}
    assert run(capsys, "convert", corpus, out, "--to", "rs3", "--force")[0] == 0
    assert sorted(snapshot(out)) == sorted([f"{i}.rs3" for i in IDS] + ["unrelated.txt"])
    assert (out / "sample_bread.rs3").read_text(encoding="utf-8").startswith("<rst>")


def test_convert_to_an_existing_file_needs_force(corpus, tmp_path, capsys):
    target = tmp_path / "one.rsd"
    target.write_text("mine", encoding="utf-8")
    assert run(capsys, "convert", corpus / "sample_bread.dis", target, "--to", "rsd")[0] == 2
    assert target.read_text(encoding="utf-8") == "mine"
    assert run(capsys, "convert", corpus / "sample_bread.dis", target, "--to", "rsd", "--force")[0] == 0
    assert target.read_text(encoding="utf-8") != "mine"


def test_draw_replaces_its_own_earlier_drawing(corpus, tmp_path, capsys):
    out = tmp_path / "tree.svg"
    out.write_text("old", encoding="utf-8")
    assert run(capsys, "draw", corpus / "sample_bread.dis", "-o", out)[0] == 0
    assert out.read_text(encoding="utf-8").startswith("<svg")


# -- the output location is checked before the work ----------------------------------------------------
def test_a_file_where_a_directory_is_needed_is_reported_before_reading(corpus, tmp_path, capsys):
    """SRC holds a broken document too: the error is about DST, so DST was checked first."""
    (corpus / "broken.dis").write_text("( Root", encoding="utf-8")
    target = tmp_path / "out.txt"
    target.write_text("mine", encoding="utf-8")
    status, err = run(capsys, "convert", corpus, target, "--to", "rs3")
    assert status == 2 and err.startswith(f"rstkit: error: {target}: ") and "not a directory" in err
    assert "broken.dis" not in err and target.read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize("command", [["convert", "{src}", "{out}", "--to", "rs3"], ["draw", "{src}", "-o", "{out}"]])
def test_an_output_below_a_file_is_reported(corpus, tmp_path, capsys, command):
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    out = tmp_path / "plain" / "sub" / "x.svg"
    argv = [corpus / "sample_bread.dis" if a == "{src}" else out if a == "{out}" else a for a in command]
    status, err = run(capsys, *argv)
    assert status == 2 and "is a file, not a directory" in err


def test_several_drawings_need_a_directory(corpus, tmp_path, capsys):
    target = tmp_path / "drawings"
    target.write_text("mine", encoding="utf-8")
    status, err = run(capsys, "draw", corpus, "--format", "svg", "-o", target)
    assert status == 2 and "not a directory" in err and target.read_text(encoding="utf-8") == "mine"
    out = tmp_path / "svgs"
    assert run(capsys, "draw", corpus, "--format", "svg", "-o", out)[0] == 0
    assert sorted(snapshot(out)) == [f"{i}.svg" for i in IDS]


def test_read_only_output_is_reported_before_reading(corpus, tmp_path, capsys, monkeypatch):
    """os.access is what the check asks (root passes it for real, so it is simulated here;
    tests/cli/test_cli_errors.py runs real permission checks without root's privileges)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == locked else real_access(p, mode))
    (corpus / "broken.dis").write_text("( Root", encoding="utf-8")
    for argv in (["convert", corpus, locked / "out", "--to", "rs3"], ["draw", corpus, "-o", locked / "x.txt"],
                 ["convert", corpus, locked, "--to", "rs3"]):
        status, err = run(capsys, *argv)
        assert status == 2 and "read-only" in err and "broken.dis" not in err, err
    assert list(locked.iterdir()) == []


# -- all or nothing -------------------------------------------------------------------------------------
def _fail_on_third_write(monkeypatch) -> None:
    calls = []
    real_write = Path.write_bytes

    def write_bytes(self, *args, **kwargs):
        calls.append(self)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", str(self))
        return real_write(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)


def test_a_failed_write_leaves_no_new_directory(corpus, tmp_path, capsys, monkeypatch):
    out = tmp_path / "new" / "deeper" / "out"
    _fail_on_third_write(monkeypatch)
    status, err = run(capsys, "convert", corpus, out, "--to", "rs3")
    assert status == 2 and "No space left on device" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gold"]  # not even the parents it made


def test_a_failed_write_leaves_an_existing_directory_as_it_was(corpus, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("keep", encoding="utf-8")
    _fail_on_third_write(monkeypatch)
    assert run(capsys, "convert", corpus, out, "--to", "rs3")[0] == 2
    assert snapshot(out) == {"keep.txt": b"keep"}  # no converted file, no staging folder


def test_a_conversion_error_writes_nothing(corpus, tmp_path, capsys):
    out = tmp_path / "out"
    status, err = run(capsys, "convert", corpus, out, "--to", "rs3", "--labels", "gum")
    assert status == 2 and "unknown to label map 'gum'" in err
    assert not out.exists()


def test_written_files_get_ordinary_permissions(corpus, tmp_path, capsys):
    umask = os.umask(0o022)
    try:
        assert run(capsys, "convert", corpus, tmp_path / "out", "--to", "rs3")[0] == 0
        assert run(capsys, "convert", corpus / "sample_bread.dis", tmp_path / "one.rs3", "--to", "rs3")[0] == 0
    finally:
        os.umask(umask)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o755
    assert (tmp_path / "one.rs3").stat().st_mode & 0o777 == 0o644
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


# -- draw's output names ----------------------------------------------------------------------------------
def test_draw_to_an_extension_it_cannot_write(corpus, tmp_path, capsys):
    status, err = run(capsys, "draw", corpus / "sample_bread.dis", "-o", tmp_path / "x.png")
    assert status == 2 and ".png" in err
    for ext in (".txt", ".svg", ".html", ".htm"):
        assert ext in err
    assert not (tmp_path / "x.png").exists()


def test_draw_extension_and_format_must_agree(corpus, tmp_path, capsys):
    status, err = run(capsys, "draw", corpus / "sample_bread.dis", "--format", "svg", "-o", tmp_path / "x.html")
    assert status == 2 and "--format svg" in err
    assert run(capsys, "draw", corpus / "sample_bread.dis", "--format", "svg", "-o", tmp_path / "x.drawing")[0] == 0
    assert (tmp_path / "x.drawing").read_text(encoding="utf-8").startswith("<svg")

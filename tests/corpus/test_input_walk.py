"""Issue 26, findings 3 and 13 (inputs): a folder is read completely or the command says what it
left out. Linked folders are followed (a cycle is reported), an unreadable folder is an error
naming it (``--skip-errors``: a warning naming it), and a FIFO is called a FIFO.

The expected document lists are the files placed in each test, listed by hand.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.cli import main
from rstkit.folders import holds_file, walk_files
from tests.support.cli_run import without_privileges

PROJECT = Path(__file__).resolve().parents[1].parent
SAMPLE = PROJECT / "corpora" / "sample"


def run(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def linked(tmp_path) -> tuple[Path, Path]:
    """gold/ holds sample_bread.dis and ``sub``, a link to a folder holding sample_harbour.dis;
    pred/ holds the sample predictions of both."""
    gold, elsewhere, pred = tmp_path / "gold", tmp_path / "elsewhere", tmp_path / "pred"
    for folder in (gold, elsewhere, pred):
        folder.mkdir()
    shutil.copy(SAMPLE / "gold" / "sample_bread.dis", gold)
    shutil.copy(SAMPLE / "gold" / "sample_harbour.dis", elsewhere)
    (gold / "sub").symlink_to(elsewhere, target_is_directory=True)
    for doc in ("sample_bread", "sample_harbour"):
        shutil.copy(SAMPLE / "pred" / f"{doc}.dis", pred)
    return gold, pred


def test_eval_reads_a_linked_subfolder(linked, capsys):
    gold, pred = linked
    status, out, _ = run(capsys, "eval", gold, pred, "--format", "json")
    assert status == 0
    assert [d["doc_id"] for d in json.loads(out)["documents"]] == ["sample_bread", "sample_harbour"]


def test_stats_and_convert_read_a_linked_subfolder(linked, tmp_path, capsys):
    gold, _ = linked
    status, out, _ = run(capsys, "stats", gold, "--format", "json")
    assert status == 0 and json.loads(out)["documents"] == 2
    assert run(capsys, "convert", gold, tmp_path / "out", "--to", "rsd")[0] == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["sample_bread.rsd", "sample_harbour.rsd"]


def test_a_link_cycle_is_reported_not_followed_forever(linked, capsys):
    gold, pred = linked
    (gold / "loop").symlink_to(gold, target_is_directory=True)
    status, _, err = run(capsys, "eval", gold, pred)
    assert status == 2 and f"{gold / 'loop'}: symbolic link cycle" in err
    status, out, err = run(capsys, "eval", gold, pred, "--skip-errors", "--format", "json")
    assert status == 0 and "symbolic link cycle" in err and str(gold / "loop") in err
    assert [d["doc_id"] for d in json.loads(out)["documents"]] == ["sample_bread", "sample_harbour"]


def test_an_unreadable_subfolder_is_an_error_naming_it(tmp_path):
    prefix = without_privileges()
    if prefix is None:
        pytest.skip("running as root without setpriv: permissions cannot be tested")
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    shutil.copytree(SAMPLE / "gold", gold)
    shutil.copytree(SAMPLE / "pred", pred)
    locked = gold / "locked"
    locked.mkdir()
    for doc in ("sample_library", "sample_note"):
        shutil.move(gold / f"{doc}.dis", locked / f"{doc}.dis")
    locked.chmod(0)
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}

    def rstkit(*argv):
        return subprocess.run([*prefix, sys.executable, "-m", "rstkit", *map(str, argv)], capture_output=True,
                              text=True, env=env, check=False)
    try:
        results = {name: rstkit(*argv) for name, argv in {
            "eval": ["eval", gold, pred], "stats": ["stats", gold],
            "convert": ["convert", gold, tmp_path / "out", "--to", "rsd"],
            "skip": ["eval", gold, pred, "--skip-errors", "--missing", "skip", "--format", "json"]}.items()}
    finally:
        locked.chmod(0o755)
    for name in ("eval", "stats", "convert"):
        result = results[name]
        assert result.returncode == 2 and f"{locked}: cannot read directory: Permission denied" in result.stderr, \
            (name, result.stderr)
        assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()
    skipped = results["skip"]
    assert skipped.returncode == 0 and str(locked) in skipped.stderr and "warning" in skipped.stderr
    assert [d["doc_id"] for d in json.loads(skipped.stdout)["documents"]] == ["sample_bread", "sample_harbour"]


def test_a_fifo_is_called_a_fifo(tmp_path, capsys):
    fifo = tmp_path / "fifo.dis"
    os.mkfifo(fifo)
    status, _, err = run(capsys, "stats", fifo)
    assert status == 2 and f"{fifo}: " in err and "FIFO" in err and "no such file" not in err, err
    folder = tmp_path / "gold"
    shutil.copytree(SAMPLE / "gold", folder)
    os.mkfifo(folder / "pipe.dis")
    status, _, err = run(capsys, "eval", folder, SAMPLE / "pred")
    assert status == 2 and f"{folder / 'pipe.dis'}: " in err and "FIFO" in err, err


def test_a_broken_link_in_a_folder_is_reported(tmp_path, capsys):
    folder = tmp_path / "gold"
    shutil.copytree(SAMPLE / "gold", folder)
    (folder / "gone.dis").symlink_to(tmp_path / "nowhere.dis")
    status, _, err = run(capsys, "eval", folder, SAMPLE / "pred")
    assert status == 2 and f"{folder / 'gone.dis'}: broken symbolic link" in err, err


# -- the walk against its definition, on random folder trees -------------------------------------------------
NAMES = st.sampled_from(["a", "b", "a-b", "B", ".h", "x.dis", ".x.dis", "a.dis", "z"])
RELATIVE = st.lists(NAMES, min_size=1, max_size=3).map(tuple)


@settings(max_examples=60, deadline=None)
@given(inside=st.lists(RELATIVE, max_size=8), outside=st.lists(RELATIVE, max_size=5),
       link=st.sampled_from(["linked", "a", ".hidden-link"]))
def test_walk_lists_what_its_definition_lists(tmp_path_factory, inside, outside, link):
    """Files are made at the relative paths drawn (a path whose folder part is already a file, or
    whose name is already a folder, is dropped); a folder outside is linked in as ``link``. The
    expected listing is computed from the drawn paths alone: every path without a hidden part,
    the linked folder's under ``link`` unless that name is hidden or taken, sorted by parts."""
    base = tmp_path_factory.mktemp("walk")
    root, other = base / "root", base / "other"

    def make(folder: Path, paths: list[tuple[str, ...]]) -> set[tuple[str, ...]]:
        folder.mkdir()
        made: set[tuple[str, ...]] = set()
        for parts in paths:
            prefixes = {parts[:i] for i in range(1, len(parts))}
            if prefixes & made or any(m[:len(parts)] == parts for m in made):
                continue  # a file where a folder is needed, or a folder where a file is
            (folder.joinpath(*parts)).parent.mkdir(parents=True, exist_ok=True)
            folder.joinpath(*parts).write_text("")
            made.add(parts)
        return made

    files_in, files_out = make(root, inside), make(other, outside)
    taken = {parts[0] for parts in files_in}
    expected = {p for p in files_in if not any(part.startswith(".") for part in p)}
    if link not in taken:
        (root / link).symlink_to(other, target_is_directory=True)
        if not link.startswith("."):
            expected |= {(link, *p) for p in files_out if not any(part.startswith(".") for part in p)}
    listing = walk_files(root)
    assert listing.problems == []
    assert listing.files == [root.joinpath(*p) for p in sorted(expected)]
    for name in ("x.dis", "a.dis", "a", "B", "z", ".h", ".x.dis"):  # a file of that name listed, found alike
        assert holds_file(root, name.__eq__) == any(p[-1] == name for p in expected)
    assert holds_file(root, lambda name: name.endswith(".dis")) == any(p[-1].endswith(".dis") for p in expected)


def test_what_holds_file_passes_over(linked, tmp_path):
    """Entries the walk reports instead of listing: a FIFO, a broken link, a link cycle, a hidden file."""
    gold, _ = linked
    folder = tmp_path / "odd"
    folder.mkdir()
    os.mkfifo(folder / "pipe.tok")
    (folder / "gone.tok").symlink_to(tmp_path / "nowhere.tok")
    (folder / ".hidden.tok").write_text("")
    (folder / "loop").symlink_to(folder, target_is_directory=True)
    assert not holds_file(folder, lambda name: name.endswith(".tok"))
    (folder / "sub").mkdir()
    (folder / "sub" / "real.tok").write_text("")
    assert holds_file(folder, lambda name: name.endswith(".tok"))
    assert holds_file(gold, "sample_harbour.dis".__eq__)  # through the linked subfolder
    assert not holds_file(tmp_path / "missing", bool)

"""Issue 26, findings 1, 2, 4, 5, 6 and 13 (outputs): no command writes over its inputs, over another
output, or replaces a link, FIFO or device; two runs into one folder cannot both succeed; output
names are folders when they end with ``/`` and never hidden or shared; a text the output format
cannot hold is refused before the work.

Every expectation is about the file system (which files exist afterwards, with which bytes) or the
one-line error, derived from the command line by hand.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rstkit.cli import main

PROJECT = Path(__file__).resolve().parents[1].parent
GOLD = PROJECT / "corpora" / "sample" / "gold"
IDS = sorted(p.name.removesuffix(".dis") for p in GOLD.glob("*.dis"))


def run(capsys, *argv) -> tuple[int, str]:
    capsys.readouterr()
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:
        status = exc.code
    return status, capsys.readouterr().err


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones included) with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def corpus(tmp_path) -> Path:
    shutil.copytree(GOLD, tmp_path / "x")
    return tmp_path / "x"


# -- finding 1: parse x x overwrote the gold files ----------------------------------------------------
@pytest.mark.parametrize("where", ["same", "inside", "around"])
def test_parse_never_writes_over_or_into_its_input(corpus, capsys, where):
    pytest.importorskip("torch")  # the command looks for the parser extra before its options
    before = snapshot(corpus)
    if where == "same":
        source, out = corpus, corpus
    elif where == "inside":
        source, out = corpus, corpus / "out"
    else:  # the input folder inside the output folder
        source, out = corpus, corpus.parent
    status, err = run(capsys, "parse", source, out, "--model", "scratch", "--force")
    assert status == 2 and "refusing to write" in err and err.count("\n") == 1, err
    assert snapshot(corpus) == before


def test_parse_keeps_existing_outputs_unless_forced(corpus, tmp_path, capsys):
    pytest.importorskip("torch")  # the command looks for the parser extra before its options
    out = tmp_path / "pred"
    out.mkdir()
    (out / "sample_bread.dis").write_text("mine", encoding="utf-8")
    status, err = run(capsys, "parse", corpus, out, "--model", "scratch")
    assert status == 2 and err.rstrip().endswith("(use --force)") and "sample_bread.dis" in err
    assert snapshot(out) == {"sample_bread.dis": b"mine"}
    assert run(capsys, "parse", corpus, out, "--model", "scratch", "--force")[0] == 0
    assert sorted(snapshot(out)) == [f"{i}.dis" for i in IDS]
    assert (out / "sample_bread.dis").read_text(encoding="utf-8") != "mine"


# -- finding 2: --gold-out equal to the output ----------------------------------------------------------
@pytest.fixture
def split_corpus(tmp_path) -> Path:
    """A directory corpus with a test split (splits.tsv: ``doc_id<TAB>split``)."""
    root = tmp_path / "corpus"
    shutil.copytree(GOLD, root)
    (root / "splits.tsv").write_text("".join(f"{i}\ttest\n" for i in IDS), encoding="utf-8")
    return root


@pytest.mark.parametrize("gold_out", ["pg", "pg/gold"])
def test_gold_out_may_not_overlap_the_predictions(split_corpus, tmp_path, capsys, gold_out):
    pytest.importorskip("torch")  # the command looks for the parser extra before its options
    status, err = run(capsys, "parse", split_corpus, tmp_path / "pg", "--split", "test", "--gold-out",
                      tmp_path / gold_out, "--model", "scratch")
    assert status == 2 and "overlap" in err and err.count("\n") == 1, err
    assert not (tmp_path / "pg").exists()


def test_gold_out_and_predictions_side_by_side(split_corpus, tmp_path, capsys):
    pytest.importorskip("torch")  # the command looks for the parser extra before its options
    status, _ = run(capsys, "parse", split_corpus, tmp_path / "pred", "--split", "test", "--gold-out",
                    tmp_path / "gold", "--model", "scratch")
    assert status == 0
    assert snapshot(tmp_path / "gold") == {f"{i}.dis": (GOLD / f"{i}.dis").read_bytes() for i in IDS}
    assert sorted(snapshot(tmp_path / "pred")) == [f"{i}.dis" for i in IDS]


# -- finding 4: links, FIFOs and devices are written through, not replaced --------------------------------
def test_draw_writes_through_a_link_and_keeps_it(corpus, tmp_path, capsys):
    real = tmp_path / "real.svg"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    assert run(capsys, "draw", corpus / "sample_bread.dis", "-o", link)[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8").startswith("<svg")


def test_convert_force_writes_through_a_link(corpus, tmp_path, capsys):
    real = tmp_path / "real.rsd"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.rsd"
    link.symlink_to(real)
    assert run(capsys, "convert", corpus / "sample_bread.dis", link, "--to", "rsd", "--force")[0] == 0
    assert link.is_symlink() and real.read_text(encoding="utf-8") != "old"


def _read_fifo(path: Path, into: list[bytes]) -> threading.Thread:
    thread = threading.Thread(target=lambda: into.append(path.read_bytes()), daemon=True)
    thread.start()
    return thread


def test_draw_writes_into_a_fifo(corpus, tmp_path, capsys):
    fifo = tmp_path / "pipe.svg"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = _read_fifo(fifo, received)
    assert run(capsys, "draw", corpus / "sample_bread.dis", "-o", fifo)[0] == 0
    reader.join(10)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert received and received[0].startswith(b"<svg")


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_draw_to_a_device_keeps_the_device(corpus, tmp_path, capsys):
    """A private copy of /dev/null (character device 1, 3), never the system's own."""
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    assert run(capsys, "draw", corpus / "sample_bread.dis", "-o", null, "--format", "svg")[0] == 0
    assert stat.S_ISCHR(os.lstat(null).st_mode)
    link = tmp_path / "stdout"  # as /dev/stdout is a link to a device or a pipe
    link.symlink_to(null)
    assert run(capsys, "draw", corpus / "sample_bread.dis", "-o", link, "--format", "svg")[0] == 0
    assert link.is_symlink() and stat.S_ISCHR(os.lstat(null).st_mode)


def test_draw_to_a_stream_of_the_process_writes_into_its_file(corpus, tmp_path):
    """``-o /proc/self/fd/N`` (what ``/dev/stdout`` leads to) where the descriptor N is open on a file,
    as a shell's redirection opens one: the drawing goes into that open file, which keeps its only
    name; a replaced file would leave the descriptor on a nameless empty one."""
    target = tmp_path / "redirected.svg"
    with open(target, "wb") as stream:
        fd = stream.fileno()
        result = subprocess.run([sys.executable, "-m", "rstkit", "draw", str(corpus / "sample_bread.dis"), "-o",
                                 f"/proc/self/fd/{fd}", "--format", "svg"], pass_fds=(fd,), capture_output=True,
                                env={**os.environ, "PYTHONPATH": str(PROJECT)}, check=False)
        assert result.returncode == 0, result.stderr
        assert os.fstat(fd).st_nlink == 1 and os.fstat(fd).st_ino == os.stat(target).st_ino
    assert target.read_bytes().startswith(b"<svg")


def test_a_link_in_an_output_folder_is_not_replaced(corpus, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere.rs3"
    elsewhere.write_text("keep", encoding="utf-8")
    (out / "sample_bread.rs3").symlink_to(elsewhere)
    status, err = run(capsys, "convert", corpus, out, "--to", "rs3", "--force")
    assert status == 2 and "symbolic link" in err
    assert (out / "sample_bread.rs3").is_symlink() and elsewhere.read_text(encoding="utf-8") == "keep"
    assert snapshot(out) == {"sample_bread.rs3": b"keep"}


# -- finding 5: two converts into one empty folder ---------------------------------------------------------
@pytest.mark.slow  # two processes racing
def test_two_concurrent_converts_into_one_folder_do_not_both_succeed(tmp_path):
    """The two runs write different texts under the same names (binarized or not): at most one
    exits 0, and the folder holds exactly one run's files, all of them."""
    subprocess.run([sys.executable, str(PROJECT / "benchmarks" / "make_corpus.py"), str(tmp_path / "syn"),
                    "--docs", "300", "--edus", "12"], check=True, capture_output=True)
    source = tmp_path / "syn" / "gold"
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    for trial in range(3):
        out = tmp_path / f"out{trial}"
        out.mkdir()
        commands = [[sys.executable, "-m", "rstkit", "convert", str(source), str(out), "--to", "dis", *extra]
                    for extra in ([], ["--binarize", "right"])]
        runs = [subprocess.Popen(c, env=env, stderr=subprocess.PIPE, text=True) for c in commands]
        statuses = [(r.wait(120), r.stderr.read()) for r in runs]  # type: ignore[union-attr]
        assert sorted(s for s, _ in statuses) == [0, 2], statuses  # the folder was empty: one run wins
        files = snapshot(out)
        assert len(files) == 300 and not [n for n in files if n.startswith(".")]
        winner = next(i for i, (s, _) in enumerate(statuses) if s == 0)
        reference = tmp_path / f"alone{trial}"
        subprocess.run(commands[winner][:5] + [str(reference)] + commands[winner][6:], env=env, check=True)
        assert files == snapshot(reference)
        assert any("exist already" in err for _, err in statuses)


# -- finding 6: output names -----------------------------------------------------------------------------------
def test_convert_into_a_folder_inside_the_input_is_refused(corpus, capsys):
    before = snapshot(corpus)
    status, err = run(capsys, "convert", corpus, corpus / "out", "--to", "rs3")
    assert status == 2 and "refusing to write" in err
    assert snapshot(corpus) == before and not (corpus / "out").exists()


def test_a_trailing_slash_means_a_folder(corpus, tmp_path, capsys):
    assert run(capsys, "convert", corpus / "sample_bread.dis", f"{tmp_path / 'out'}/", "--to", "dis")[0] == 0
    assert (tmp_path / "out").is_dir()
    assert sorted(snapshot(tmp_path / "out")) == ["sample_bread.dis"]
    assert run(capsys, "draw", corpus / "sample_bread.dis", "-o", f"{tmp_path / 'drawn'}/", "--format", "svg")[0] == 0
    assert sorted(snapshot(tmp_path / "drawn")) == ["sample_bread.svg"]


def test_hidden_document_id_from_a_doc_map(tmp_path, capsys):
    """braud_coling files do not name their documents: the --doc-map gives the id ``.hidden``."""
    from rstkit.convert import convert_documents
    from rstkit.corpus import read_documents

    files = convert_documents(read_documents(GOLD / "sample_bread.dis"), "braud_coling", binarize="right")
    source = tmp_path / "in"
    source.mkdir()
    (source / "doc.txt").write_text(next(iter(files.values())), encoding="utf-8")
    doc_map = tmp_path / "map.tsv"
    doc_map.write_text("doc.txt\t.hidden\n", encoding="utf-8")
    status, err = run(capsys, "convert", source, tmp_path / "out", "--from", "braud_coling", "--to", "dis",
                      "--doc-map", doc_map)
    assert status == 2 and "'.hidden.dis'" in err and "would be hidden" in err and "'.hidden'" in err, err
    assert not (tmp_path / "out").exists()


def test_segment_outputs_that_collide_name_both_sources(tmp_path, capsys):
    source = tmp_path / "texts"
    source.mkdir()
    (source / "a.txt").write_text("One sentence here.\n", encoding="utf-8")
    (source / "a.md").write_text("Another one there.\n", encoding="utf-8")
    status, err = run(capsys, "segment", source, tmp_path / "out", "--glob", "*", "--model", tmp_path / "no-model")
    assert status == 2 and str(source / "a.txt") in err and str(source / "a.md") in err and "'a.edus'" in err, err
    assert not (tmp_path / "out").exists()


# -- finding 13: a NUL in the text, refused before the work ---------------------------------------------------
def test_parse_refuses_text_the_format_cannot_hold_before_any_work(tmp_path, capsys):
    """The segmenter and the model named do not exist: the error comes before either is loaded."""
    pytest.importorskip("torch")  # the command looks for the parser extra before its options
    text = tmp_path / "t.txt"
    text.write_text("First line is fine.\nSecond has a \0 in it.\n", encoding="utf-8")
    status, err = run(capsys, "parse", text, tmp_path / "o", "--to", "rs3", "--segmenter", tmp_path / "no-seg",
                      "--model", tmp_path / "no-model")
    # line 2, column 14 ("Second has a " is 13 characters), offset 20 + 13 = 33: counted by hand
    assert status == 2 and err.startswith(f"rstkit: error: {text}:2: column 14 (offset 33): U+0000") and \
        err.count("\n") == 1, err
    assert not (tmp_path / "o").exists()


def test_parse_refuses_edus_the_format_cannot_hold_before_any_work(tmp_path, capsys):
    pytest.importorskip("torch")  # the command looks for the parser extra before its options
    edus = tmp_path / "t.edus"
    edus.write_text("one EDU\nanother \x01 EDU\n", encoding="utf-8")
    status, err = run(capsys, "parse", edus, tmp_path / "o", "--to", "rs3", "--model", tmp_path / "no-model")
    assert status == 2 and f"{edus}: document 't', EDU 2" in err and "U+0001" in err, err


def test_train_never_writes_its_model_into_the_corpus(corpus, capsys):
    pytest.importorskip("torch")  # the command looks for the parser extra before its options
    before = snapshot(corpus)
    status, err = run(capsys, "train", "--corpus", corpus, "-o", corpus / "model", "--epochs", "1")
    assert status == 2 and "refusing to write" in err and err.count("\n") == 1, err
    assert snapshot(corpus) == before and not (corpus / "model").exists()


def test_output_names_checked_one_by_one():
    """Each rule of check_names on a hand-made case: folder parts only where nested names are
    wanted, ``..`` never, hidden names and shared names refused naming their sources."""
    from rstkit.errors import ManyErrors, RSTKitError
    from rstkit.output import check_names

    check_names([("a.dis", "one"), ("b.dis", "two")])
    check_names([("sub/a.edus", "one")], nested=True)
    for names, nested, words in [([("sub/a.dis", "doc 'sub/a'")], False, ["'sub/a.dis'", "doc 'sub/a'"]),
                                 ([("../a.edus", "x")], True, ["'../a.edus'"]),
                                 ([(".h.dis", "document '.h'")], False, ["would be hidden", "document '.h'"]),
                                 ([("a.edus", "t/a.txt"), ("a.edus", "t/a.md")], True, ["t/a.txt", "t/a.md"])]:
        with pytest.raises(RSTKitError) as caught:
            check_names(names, nested=nested)
        assert all(w in str(caught.value) for w in words), str(caught.value)
    with pytest.raises(ManyErrors):
        check_names([(".a.dis", "one"), (".b.dis", "two")])

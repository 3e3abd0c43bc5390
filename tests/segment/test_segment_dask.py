"""``rstkit segment --engine dask``: a local cluster gives the files a local run gives, plain text
and DISRPT alike, and ``--resume`` redoes only what is missing. Expected: the local run's files."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("distributed")

from rstkit.cli import main
from rstkit.corpus import read_tree
from tests.segment.test_segment_disrpt import CONLLU
from tests.support.cli_run import run_main
from tests.support.tiny_segmenter import save_tiny_segmenter

pytestmark = [pytest.mark.gum, pytest.mark.slow]


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_directory_segments_on_two_workers_as_it_does_here(gum_dir, tmp_path, capsys):
    model = save_tiny_segmenter(tmp_path / "model")
    given = tmp_path / "in"
    (given / "sub").mkdir(parents=True)
    for i, doc_id in enumerate(["GUM_bio_byron", "GUM_news_crane", "GUM_academic_art"]):
        tree = read_tree(gum_dir / "lisp_nary" / f"{doc_id}.dis", lenient=True)
        (given / ("sub" if i else "") / f"{doc_id}.txt").write_text(" ".join(e.text for e in tree.edus))
    (given / "d1.conllu").write_text(CONLLU, encoding="utf-8")
    assert main(["segment", str(given), str(tmp_path / "local"), "--segmenter", model, "-q"]) == 0
    expected = files(tmp_path / "local")
    assert len(expected) == 4
    out = tmp_path / "dask"
    status, err = run_main(["segment", str(given), str(out), "--segmenter", model, "--engine", "dask",
                            "--workers", "2", "--batch-size", "1"], capsys)
    assert status == 0 and "4 file(s) done on Dask (2 worker(s), 4 batch(es)" in err
    assert files(out) == expected
    (out / "sub" / "GUM_news_crane.edus").unlink()
    status, err = run_main(["segment", str(given), str(out), "--segmenter", model, "--engine", "dask",
                            "--workers", "1", "--resume"], capsys)
    assert status == 0 and "--resume: 3 of 4 file(s) already done" in err and "1 file(s) done on Dask" in err
    assert files(out) == expected


def test_cluster_options_need_the_engine_and_a_directory(tmp_path, capsys):
    text = tmp_path / "a.txt"
    text.write_text("Hello there.")
    status, err = run_main(["segment", str(text), str(tmp_path / "o"), "--batch-size", "2"], capsys)
    assert status == 2 and "--batch-size needs --engine dask" in err
    status, err = run_main(["segment", str(text), str(tmp_path / "o"), "--engine", "dask"], capsys)
    assert status == 2 and "--engine dask segments the files of a directory" in err

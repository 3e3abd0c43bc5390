"""Issue 36 ("no silent waits"), for ``rstkit train`` and ``rstkit train-segmenter``: every phase
that can take more than a few seconds reports progress on stderr (off a terminal: a line every
``rstkit.progress.EVERY`` seconds, set to 0 here so that each phase shows at once), in the order
the phases run; ``-q`` shows none of it; ``-v`` ends with the total time, start-up included.

Both commands run the one training loop (rstkit.training), so their epoch lines have one form.
"""
from __future__ import annotations

import json
import re
import shutil

import pytest

pytest.importorskip("torch")

from rstkit import progress
from rstkit.cli import main

TINY = {"model": {"hidden": 8, "span_dim": 8, "mlp_dim": 8}, "encoder": {"embedding_dim": 8, "hidden": 8}}
TOTAL = re.compile(r"rstkit: (train|train-segmenter): exit status 0, [0-9.]+s of CPU in the command, "
                   r"[0-9.]+s in all \(start-up included\)")


@pytest.fixture()
def every_report_due(monkeypatch):
    monkeypatch.setattr(progress, "EVERY", 0.0)


def phases(err: str) -> list[str]:
    """The names of the phases reported, in order, each once (``read train: 1/2 doc (0s)`` -> ``read train``)."""
    names = [m.group(1) for m in re.finditer(r"^(?!rstkit)([^:\n]+): \d+/\d+ \w+ \(\d+s\)$", err, re.MULTILINE)]
    return list(dict.fromkeys(names))


@pytest.fixture()
def tiny_gum(gum_dir, tmp_path):
    """A GUM-like checkout: two short documents to train on, one for dev, test and test2."""
    corpus = tmp_path / "gum"
    (corpus / "dependencies").mkdir(parents=True)
    (corpus / "lisp_nary").mkdir()
    for doc in ("GUM_news_worship", "GUM_news_stampede", "GENTLE_poetry_road"):
        shutil.copy(gum_dir / "dependencies" / f"{doc}.rsd", corpus / "dependencies")
    (corpus / "splits.md").write_text("".join(f"## {split}\n\n  * GENTLE_poetry_road\n\n" for split in
                                              ("dev", "test", "test2"))
                                      + "## train\n\n  * GUM_news_worship\n  * GUM_news_stampede\n")
    return corpus


@pytest.mark.gum
def test_train_segmenter_reports_every_phase(tiny_gum, tmp_path, capsys, every_report_due):
    argv = ["train-segmenter", "--corpus-root", str(tiny_gum), "-o", str(tmp_path / "model"), "--epochs", "1",
            "--hidden", "8", "--word-dim", "8", "--char-filters", "8", "--layers", "1", "--jobs", "1"]
    assert main([*argv, "-v"]) == 0
    err = capsys.readouterr().err
    assert phases(err) == [
        "read train", "read dev",
        "prepare training texts", "prepare training texts without paragraph breaks",
        "epoch 1", "segment dev", "segment dev without paragraph breaks",
        "tune the threshold on dev",
        "score dev gold-flat", "score dev gold", "score dev raw", "score dev raw-flat",  # each split read again
        "read test", "score test gold-flat", "score test gold", "score test raw", "score test raw-flat",
        "read test2", "score test2 gold-flat", "score test2 gold", "score test2 raw", "score test2 raw-flat"]
    lines = err.splitlines()
    epoch = next(line for line in lines if line.startswith("rstkit train-segmenter: epoch 1: "))
    assert re.fullmatch(r"rstkit train-segmenter: epoch 1: loss \d+\.\d{4}, dev F1 \d+\.\d\d \(flat \d+\.\d\d\) "
                        r"\(best\), \d+s", epoch)
    assert TOTAL.fullmatch(lines[-1]), lines[-1]
    assert main([*argv, "-q", "--resume", "--epochs", "2"]) == 0  # quiet: the scores table only
    assert capsys.readouterr().err == ""


@pytest.mark.gum
def test_train_reports_every_phase(gum_dir, tmp_path, capsys, every_report_due):
    argv = ["train", "--corpus", str(gum_dir), "-o", str(tmp_path / "model"), "--epochs", "1", "--max-docs", "2",
            "--max-dev-docs", "1", "--batch-size", "1", "--device", "cpu", "--jobs", "1",
            "--options", json.dumps(TINY)]
    assert main([*argv, "-v"]) == 0
    err = capsys.readouterr().err
    assert phases(err) == ["read", "read boundaries", "prepare training inputs", "prepare dev inputs", "epoch 1",
                           "parse"]
    lines = err.splitlines()
    assert [line.split(" (")[0] for line in lines if line.startswith("epoch 1: ")] == ["epoch 1: 1/2 batch",
                                                                                       "epoch 1: 2/2 batch"]
    epoch = next(line for line in lines if line.startswith("rstkit train: epoch 1: "))
    assert re.fullmatch(r"rstkit train: epoch 1: loss \d+\.\d{4}, dev parseval-micro S [\d.]+ N [\d.]+ R [\d.]+ "
                        r"F [\d.]+ \(best\), \d+s", epoch)
    assert TOTAL.fullmatch(lines[-1]), lines[-1]
    assert main([*argv, "-q", "--resume", "--epochs", "2"]) == 0
    assert capsys.readouterr().err == ""

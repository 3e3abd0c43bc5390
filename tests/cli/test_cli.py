"""The command line: stats, convert, eval contracts; errors as one line with a non-zero exit."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rstkit.cli import main
from rstkit.corpus import read_documents

PROJECT = Path(__file__).resolve().parents[1].parent
SAMPLE = PROJECT / "corpora" / "sample"


def rstkit(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rstkit", *map(str, args)], check=False, capture_output=True,
                          text=True)


def test_stats_gum(gum_dir):
    nary = rstkit("stats", gum_dir / "lisp_nary", "--format", "json")
    assert nary.returncode == 2  # an input error, counts of the readable documents still printed
    stats = json.loads(nary.stdout)
    assert (stats["documents"], stats["edus"]) == (280, 34878)
    assert len(stats["errors"]) == 1 and stats["errors"][0]["line"] == 60
    assert "GENTLE_syllabus_techtonica.dis:60: declares (span 49 266) over children covering 22-266" in nary.stderr
    assert nary.stderr.rstrip().endswith("(use --lenient)")
    lenient = rstkit("stats", gum_dir / "lisp_nary", "--format", "json", "--lenient")
    assert lenient.returncode == 0
    assert (json.loads(lenient.stdout)["documents"], json.loads(lenient.stdout)["edus"]) == (281, 35144)
    assert "repaired" in lenient.stderr


def test_eval_json_contract(capsys):
    assert main(["eval", str(SAMPLE / "gold"), str(SAMPLE / "pred"), "--metric", "parseval", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["scores"]) == {"S", "N", "R", "F"}
    assert all(isinstance(v, float) for v in out["scores"].values())
    assert out["signature"].startswith("rstkit:metric=parseval|avg=micro")
    assert out["n_documents"] == 4 and len(out["documents"]) == 4
    assert any("one-EDU" in w for w in out["warnings"])


def test_eval_all_formats_agree(capsys):
    args = ["eval", str(SAMPLE / "gold"), str(SAMPLE / "pred"), "--metric", "all", "--labels", "rstdt18"]
    assert main([*args, "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)  # one object per (metric, average, system)
    assert [(o["metric"], o["average"], o["system"]) for o in payload] == [("rst-parseval", "micro", "pred"),
                                                                          ("parseval", "micro", "pred"),
                                                                          ("dependency", "micro", "pred")]
    f_rst = payload[0]["scores"]["F"]
    for fmt in ("text", "markdown", "latex"):
        assert main([*args, "--format", fmt]) == 0
        text = capsys.readouterr().out
        assert "rstkit:metric=rst-parseval" in text and f"{f_rst:.2f}" in text
    assert main([*args, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 4 + 4 + 11  # a row per measure: S N R F twice, then the 11 dependency measures
    first_f = next(r for r in rows if r["metric"] == "rst-parseval" and r["measure"] == "F")
    assert float(first_f["f1"]) == f_rst and first_f["signature"].startswith("rstkit:")


def test_eval_several_systems_with_ci(capsys):
    assert main(["eval", str(SAMPLE / "gold"), str(SAMPLE / "pred"), str(SAMPLE / "gold"), "--names", "parser,oracle",
                 "--ci", "0.9", "--n-bootstrap", "200", "--n-trials", "200", "--format", "json"]) == 0
    systems = json.loads(capsys.readouterr().out)  # one object per system
    assert [s["system"] for s in systems] == ["parser", "oracle"]
    assert systems[1]["scores"]["F"] == 100.0 and "paired_tests" in systems[1]
    low, high = systems[0]["ci"]["S"]
    assert low <= systems[0]["scores"]["S"] <= high


def test_eval_errors_are_one_line(tmp_path, capsys):
    pred = tmp_path / "pred"
    pred.mkdir()
    (pred / "sample_bread.dis").write_text((SAMPLE / "pred" / "sample_bread.dis").read_text())
    assert main(["eval", str(SAMPLE / "gold"), str(pred)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "have no prediction" in err[0] and "sample_harbour" in err[0]
    assert main(["eval", str(SAMPLE / "gold"), str(pred), "--missing", "skip"]) == 0


def test_eval_edu_mismatch_names_both_files(tmp_path, capsys):
    short = tmp_path / "sample_bread.dis"
    short.write_text("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )"
                     " ( Satellite (leaf 2) (rel2par background) (text _!b_!) ) )")
    gold = SAMPLE / "gold" / "sample_bread.dis"
    assert main(["eval", str(gold), str(short)]) == 2
    err = capsys.readouterr().err
    assert str(gold) in err and str(short) in err and "6 EDUs" in err and "has 2" in err
    assert main(["eval", str(gold), str(short), "--lenient", "--format", "json"]) == 0
    assert "lenient=yes" in json.loads(capsys.readouterr().out)["signature"]


def test_convert_directory_binarized_and_relabelled(tmp_path):
    out = tmp_path / "out"
    assert main(["convert", str(SAMPLE / "gold"), str(out), "--to", "dis", "--binarize", "right",
                 "--labels", "rstdt18"]) == 0
    converted = read_documents(out)
    assert set(converted) == set(read_documents(SAMPLE / "gold"))
    assert all(t.is_binary() for t in converted.values())
    assert converted["sample_harbour"].root.children[1].relation == "cause"


def test_unknown_label_via_cli(tmp_path, capsys):
    assert main(["eval", str(SAMPLE / "gold"), str(SAMPLE / "pred"), "--labels", "gum"]) == 2
    assert "unknown to label map 'gum'" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["stats", "/no/such/path"], ["eval", "/no/gold", "/no/pred"]])
def test_missing_paths(argv, capsys):
    assert main(argv) == 2
    assert "no such file" in capsys.readouterr().err

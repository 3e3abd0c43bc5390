"""The label maps an audit tries come from the data (``gum`` for GUM's labels, ``rstdt18`` for RST-DT's);
``--labels a,b`` names them instead. Expected numbers are derived by hand, or by the scorer under an explicit
label map (an evaluation, not the audit)."""
from __future__ import annotations

import json
import re
import warnings
from itertools import count, product
from pathlib import Path

import pytest

from rstkit.audit import audit_published, parse_published
from rstkit.cli import main
from rstkit.corpus import read_documents, read_tree
from rstkit.formats import dumps
from rstkit.labels import get_label_map, label_maps_for
from rstkit.metrics import EvalConfig, score_documents
from rstkit.transform import binarize
from rstkit.tree import EDU, SATELLITE, Node, RSTTree

SAMPLE = Path(__file__).resolve().parents[2] / "corpora" / "sample"

#: gold with GUM's fine labels; the prediction with GUM's classes, one relation wrong (context for causal)
GOLD = "(Root 1-4 (N:span 1-3 (N:span 1-2 (N:joint-list 1) (N:joint-list 2)) (S:elaboration-additional 3)) " \
       "(S:causal-cause 4))"
PRED = "(Root 1-4 (N:span 1-3 (N:span 1-2 (N:joint 1) (N:joint 2)) (S:elaboration 3)) (S:context 4))"
# Original Parseval decisions: gold (1-4 NS causal-cause) (1-3 NS elaboration-additional) (1-2 NN joint-list),
# predicted (1-4 NS context) (1-3 NS elaboration) (1-2 NN joint): every span and nuclearity right, S = N = 100;
# under gum 1-3 and 1-2 match, R = F = 2/3 = 66.7; under raw no label matches (R = 0); rstdt18 knows neither
# causal-cause, joint-list, joint nor context (kept by the educe variants, an error in the right ones) and maps
# both elaborations to elaboration: R = 1/3. RST-Parseval under gum: 5 of 6 tuples (EDU 4's relation wrong) = 83.3.
PUBLISHED = "S=100.0 N=100.0 R=66.7 F=66.7"


def tree(line: str) -> RSTTree:
    root = RSTTree.fromstring(line).root
    return RSTTree.fromstring(line, tuple(EDU(i, f"word{i} more{i}") for i in range(1, root.end + 1)), "doc")


def test_label_maps_come_from_the_labels():
    assert label_maps_for(["span", "joint-list", "elaboration-additional", "joint"]) == ["gum"]  # joint-list: GUM's
    assert label_maps_for(["span", "List", "elaboration-additional"]) == ["rstdt18"]  # List: RST-DT's
    assert label_maps_for(["causal-cause", "List"]) == ["gum", "rstdt18"]
    assert label_maps_for(["elaboration-additional", "attribution"]) == ["rstdt18"]  # both know both: rstdt18
    sample = [n.relation for d in ("gold", "pred") for t in read_documents(SAMPLE / d).values() for n in t.nodes()
              if n.relation]
    assert label_maps_for(sample) == ["rstdt18"]  # the sample's audit is what it was


def test_maps_agree_where_no_label_tells_them_apart():
    """Where no label is known to one map alone, rstdt18 stands for both: on the labels both know, the two maps
    make the same classes (two labels share a class under one exactly when they share one under the other)."""
    gum, rstdt18 = get_label_map("gum"), get_label_map("rstdt18")
    both = [label for label in {*gum.table, *rstdt18.table} if gum.lookup(label) and rstdt18.lookup(label)]
    assert "purpose" in both and "elaboration-additional" in both
    for a, b in product(both, both):
        assert (gum.lookup(a) == gum.lookup(b)) == (rstdt18.lookup(a) == rstdt18.lookup(b)), (a, b)


def test_an_audit_of_gum_labels_tries_gum():
    gold, pred = {"doc": tree(GOLD)}, {"doc": tree(PRED)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = audit_published(gold, pred, parse_published(PUBLISHED))
    # one document, binary trees: every average and every gold binarization give parseval's numbers under gum
    assert sorted(m.scored.variant.name for m in result.exact) == sorted(
        f"parseval/{a}/gum/{b}" for a in ("micro", "macro", "dplp") for b in ("right", "rst-eval", "right_mixed",
                                                                              "none"))
    assert {m.scored.variant.labels for m in result.matches} == {"gum", "raw"}
    assert not any("do not meet" in w for w in result.warnings)  # the raw variants' labels: an axis, not a warning
    narrowed = audit_published(gold, pred, parse_published(PUBLISHED), label_maps=("rstdt18",))
    assert narrowed.exact == [] and {m.scored.variant.labels for m in narrowed.matches} == {"rstdt18", "raw"}


def test_cli_audit_of_gum_labels(capsys, tmp_path):
    (tmp_path / "gold.dis").write_text(dumps(tree(GOLD), "dis"), encoding="utf-8")
    (tmp_path / "pred.dis").write_text(dumps(tree(PRED), "dis"), encoding="utf-8")
    files = [str(tmp_path / "gold.dis"), str(tmp_path / "pred.dis")]
    assert main(["audit", *files, "--published", PUBLISHED, "--format", "json"]) == 0
    captured = capsys.readouterr()
    payload = json.loads(captured.out)
    assert len(payload["exact_matches"]) == 12 and payload["matches"][0]["variant"] == "parseval/micro/gum/right"
    assert payload["warnings"] == [] and "do not meet" not in captured.err
    assert main(["audit", *files, "--published", PUBLISHED, "--format", "json", "--labels", "rstdt18"]) == 0
    narrowed = json.loads(capsys.readouterr().out)
    assert narrowed["exact_matches"] == [] and {m["labels"] for m in narrowed["matches"]} == {"rstdt18", "raw"}
    assert main(["audit", *files, "--published", PUBLISHED, "--format", "json", "--labels", "gum,rstdt18"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert {m["labels"] for m in both["matches"]} == {"gum", "rstdt18", "raw"} and len(both["exact_matches"]) == 12


@pytest.mark.gum
def test_gum_test_documents_with_a_parsers_classes(gum_dir):
    """A published number computed with ``--labels gum`` (here: rstkit's evaluation under labels='gum', the
    path the README's GUM table takes) on GUM documents against predictions in GUM's classes."""
    test_ids = re.findall(r"\* (\S+)", (gum_dir / "splits.md").read_text().split("## test\n")[1].split("##")[0])
    smallest = sorted(test_ids, key=lambda d: (gum_dir / "lisp_nary" / f"{d}.dis").stat().st_size)[:4]
    gold = {d: read_tree(gum_dir / "lisp_nary" / f"{d}.dis") for d in smallest}
    classes = get_label_map("gum")
    # a parser's output: binary trees in GUM's classes, every third satellite's relation swapped for context
    satellites = count()
    pred = {d: (flat := binarize(classes.apply(t), "right")).with_root(_swap_satellites(flat.root, satellites))
            for d, t in gold.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = score_documents(gold, pred, EvalConfig(metric="parseval", labels="gum")).scores
        published = parse_published(" ".join(f"{m}={scores[m]:.2f}" for m in "SNRF"))
        assert scores["R"] < 100  # the swap costs relations
        result = audit_published(gold, pred, published)
        narrowed = audit_published(gold, pred, published, label_maps=("rstdt18",))
    assert "parseval/micro/gum/right" in [m.scored.variant.name for m in result.exact]
    assert narrowed.exact == []


def _swap_satellites(node: Node, counter: count) -> Node:
    children = tuple(_swap_satellites(c, counter) for c in node.children)
    relation = node.relation
    if node.nuclearity == SATELLITE and next(counter) % 3 == 0 and relation != "context":
        relation = "context"
    return Node(node.start, node.end, node.nuclearity, relation, children)

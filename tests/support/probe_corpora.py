"""Tiny corpora written for the probe tests: a directory with splits.tsv and a fake RST-DT release."""
from __future__ import annotations

from pathlib import Path

from rstkit.formats.dis import dumps_dis
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, RSTTree, internal, leaf


def two_edu_doc(doc_id: str, first: str, second: str, pair: str, relation: str) -> RSTTree:
    """A document of two EDUs joined by one relation (pair NS, SN or NN)."""
    if pair == "NN":
        kids = [leaf(1, NUCLEUS, relation), leaf(2, NUCLEUS, relation)]
    elif pair == "NS":
        kids = [leaf(1, NUCLEUS, SPAN), leaf(2, SATELLITE, relation)]
    else:
        kids = [leaf(1, SATELLITE, relation), leaf(2, NUCLEUS, SPAN)]
    return RSTTree(internal(ROOT, None, kids), (EDU(1, first), EDU(2, second)), doc_id)


def five_edu_doc(doc_id: str) -> RSTTree:
    """``Root(N 1-3 (S1 attribution, N2, S3 Elaboration-additional), S 4-5 circumstance (N4, N5 Same-Unit))``.

    Right-heavy binarization turns the ``S N S`` node into ``(S1, (N2, S3))``, so the
    instances, in pre-order, are ``1-3|4-5`` NS-Background (circumstance is in RST-DT's
    Background class), ``1|2-3`` SN-Attribution, ``2|3`` NS-Elaboration and ``4|5``
    NN-Same-unit.
    """
    sns = internal(NUCLEUS, SPAN, [leaf(1, SATELLITE, "attribution"), leaf(2, NUCLEUS, SPAN),
                                   leaf(3, SATELLITE, "Elaboration-additional")])
    same_unit = internal(SATELLITE, "circumstance", [leaf(4, NUCLEUS, "Same-Unit"), leaf(5, NUCLEUS, "Same-Unit")])
    texts = ["Officials said", "the plant will close", "which employs 300 people", "when the contract",
             "ends in May"]
    return RSTTree(internal(ROOT, None, [sns, same_unit]), tuple(EDU(i, t) for i, t in enumerate(texts, 1)),
                   doc_id)


FIVE_EDU_INSTANCES = [((1, 3), (4, 5), "NS-Background"), ((1, 1), (2, 3), "SN-Attribution"),
                      ((2, 2), (3, 3), "NS-Elaboration"), ((4, 4), (5, 5), "NN-Same-unit")]


def write_directory_corpus(root: Path, splits: dict[str, list[RSTTree]]) -> Path:
    """``root/<doc>.dis`` files and a ``splits.tsv`` naming each document's split."""
    root.mkdir(parents=True, exist_ok=True)
    lines = []
    for split, trees in splits.items():
        for tree in trees:
            (root / f"{tree.doc_id}.dis").write_text(dumps_dis(tree), encoding="utf-8")
            lines.append(f"{tree.doc_id}\t{split}")
    (root / "splits.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def write_fake_rstdt(root: Path, training: list[RSTTree], test: list[RSTTree]) -> Path:
    """An RST-DT-like layout: ``root/data/RSTtrees-WSJ-main-1.0/{TRAINING,TEST}/<id>.out.dis``."""
    main = root / "data" / "RSTtrees-WSJ-main-1.0"
    for folder, trees in (("TRAINING", training), ("TEST", test)):
        (main / folder).mkdir(parents=True, exist_ok=True)
        for tree in trees:
            (main / folder / f"{tree.doc_id}.out.dis").write_text(dumps_dis(tree), encoding="utf-8")
    return root


MARKERS = ("because", "then", "said")


def markers(texts: list[str]) -> list[list[float]]:
    """A deterministic encoder: which of :data:`MARKERS` each text contains."""
    return [[float(m in t.split()) for m in MARKERS] for t in texts]


def marker_corpus(root: Path) -> Path:
    """Two-EDU documents whose second EDU's marker gives the label, except where noted.

    train: 3 NS-Explanation (because), 3 NN-Sequence (then), 2 SN-Attribution (said);
    dev: one of each; test: one of each, one ``because`` labelled NN-Sequence (a marker
    classifier gets it wrong) and one NS-Purpose (a label never seen in training).
    """
    def explanation(d):
        return two_edu_doc(d, "it rained", "because it was cold", "NS", "explanation")

    def sequence(d, marker="then"):
        return two_edu_doc(d, "we ate", f"{marker} we left", "NN", "sequence")

    def attribution(d):
        return two_edu_doc(d, "he said", "it works", "SN", "attribution")

    splits = {
        "train": [explanation("tr1"), explanation("tr2"), explanation("tr3"), sequence("tr4"), sequence("tr5"),
                  sequence("tr6"), attribution("tr7"), attribution("tr8")],
        "dev": [explanation("dv1"), sequence("dv2"), attribution("dv3")],
        "test": [explanation("te1"), sequence("te2"), attribution("te3"), sequence("te4", "because"),
                 two_edu_doc("te5", "we left", "to sleep", "NS", "purpose")],
    }
    return write_directory_corpus(root, splits)

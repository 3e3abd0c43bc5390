"""The corpus-kind registry: each kind's recognition, splits, default label map and boundary source;
named corpora from a directory given or an environment variable only, with errors that say what
was tried. The corpora are written here (tiny, by hand); the real GUM checkout where present."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rstkit.corpus import (
    CORPUS_KINDS,
    DIRECTORY,
    GUM,
    NAMED_CORPORA,
    RSTDT,
    RSTDT_DOUBLE,
    gum_corpus,
    open_corpus,
    read_documents,
    resolve_corpus,
)
from rstkit.errors import CorpusError
from rstkit.formats.dis import dumps_dis
from rstkit.formats.rsd import dumps_rsd
from rstkit.labels import label_map_names
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, RSTTree, internal, leaf

PROJECT = Path(__file__).resolve().parents[1].parent


def doc(doc_id: str) -> RSTTree:
    """Three EDUs in three sentences (1, 2, 3) and two paragraphs (1, 1, 2)."""
    edus = (EDU(1, "Prices fell .", sentence=1, paragraph=1), EDU(2, "Oil rose .", sentence=2, paragraph=1),
            EDU(3, "Traders were calm .", sentence=3, paragraph=2))
    inner = internal(NUCLEUS, SPAN, [leaf(1, NUCLEUS, SPAN), leaf(2, SATELLITE, "causal-cause")])
    return RSTTree(internal(ROOT, None, [inner, leaf(3, SATELLITE, "elaboration-additional")]), edus, doc_id)


def write_gum(root: Path, splits: dict[str, list[str]]) -> Path:
    """A GUM-like checkout: splits.md, lisp_nary/*.dis (no sentences) and dependencies/*.rsd (both indices)."""
    (root / "lisp_nary").mkdir(parents=True)
    (root / "dependencies").mkdir()
    md = ["# Splits", ""]
    for split, ids in splits.items():
        md += [f"## {split}", "", *(f"  * {d}" for d in ids), ""]
        for d in ids:
            bare = replace(doc(d), edus=tuple(replace(e, sentence=None, paragraph=None) for e in doc(d).edus))
            (root / "lisp_nary" / f"{d}.dis").write_text(dumps_dis(bare), encoding="utf-8")
            (root / "dependencies" / f"{d}.rsd").write_text(dumps_rsd(doc(d)), encoding="utf-8")
    (root / "splits.md").write_text("\n".join(md), encoding="utf-8")
    return root


def write_rstdt(root: Path) -> Path:
    main = root / "RSTtrees-WSJ-main-1.0"
    for folder, ids in (("TRAINING", ["wsj_0618", "wsj_0700"]), ("TEST", ["wsj_0602"])):
        (main / folder).mkdir(parents=True)
        for d in ids:
            (main / folder / f"{d}.out.dis").write_text(dumps_dis(doc(d)), encoding="utf-8")
    return root


@pytest.fixture
def gum(tmp_path) -> Path:
    return write_gum(tmp_path / "gum", {"train": ["GUM_a", "GUM_b"], "dev": ["GUM_c"], "test": ["GUM_d"]})


def test_the_registry_lists_four_kinds_with_known_label_maps():
    assert list(CORPUS_KINDS) == ["gum", "rstdt", "rstdt-double", "directory"]
    assert {k.key: k.label_map for k in CORPUS_KINDS.values()} == {
        "gum": "gum", "rstdt": "rstdt18", "rstdt-double": "rstdt18", "directory": "raw"}
    assert {k.label_map for k in CORPUS_KINDS.values()} <= set(label_map_names())
    assert {name: kind.variable for name, kind in NAMED_CORPORA.items()} == {"gum": "RSTKIT_GUM",
                                                                           "rstdt": "RSTKIT_RSTDT"}


def test_gum_kind(gum):
    corpus = open_corpus(gum)
    assert corpus.kind is GUM and corpus.name == "gum/lisp_nary"
    assert corpus.splits() == ["train", "dev", "test"] and corpus.doc_ids("train") == ["GUM_a", "GUM_b"]
    assert (GUM.boundaries.folder, GUM.boundaries.format) == ("dependencies", "rsd")
    assert [e.sentence for e in corpus.documents("dev")["GUM_c"].edus] == [None, None, None]
    source = corpus.boundary_corpus()
    assert source is not None and source.name == "gum/dependencies" and source.split_ids == corpus.split_ids
    edus = read_documents(source.path("GUM_c"))["GUM_c"].edus
    assert [(e.sentence, e.paragraph) for e in edus] == [(1, 1), (2, 1), (3, 2)]  # as doc() sets them


def test_gum_without_dependencies_has_no_boundary_corpus(gum):
    for f in (gum / "dependencies").iterdir():
        f.unlink()
    (gum / "dependencies").rmdir()
    assert open_corpus(gum).boundary_corpus() is None


def test_rstdt_kinds(tmp_path):
    root = write_rstdt(tmp_path / "release")
    corpus = open_corpus(root)
    assert corpus.kind is RSTDT and corpus.kind.label_map == "rstdt18"
    assert corpus.splits() == ["train", "dev", "test", "training"]
    assert corpus.doc_ids("dev") == ["wsj_0618"] and corpus.doc_ids("test") == ["wsj_0602"]
    assert RSTDT.boundaries.folder is None and corpus.boundary_corpus() is None
    double = tmp_path / "double" / "RSTtrees-WSJ-double-1.0"
    double.mkdir(parents=True)
    (double / "wsj_0602.out.dis").write_text(dumps_dis(doc("wsj_0602")), encoding="utf-8")
    corpus = open_corpus(double)
    assert corpus.kind is RSTDT_DOUBLE and corpus.splits() == ["double"] and corpus.kind.label_map == "rstdt18"


def test_directory_kind(tmp_path):
    for d in ("a", "b"):
        (tmp_path / f"{d}.dis").write_text(dumps_dis(doc(d)), encoding="utf-8")
    corpus = open_corpus(tmp_path)
    assert corpus.kind is DIRECTORY and corpus.kind.label_map == "raw" and corpus.splits() == []
    (tmp_path / "splits.tsv").write_text("a\ttrain\nb\ttest\n", encoding="utf-8")
    corpus = open_corpus(tmp_path)
    assert corpus.splits() == ["train", "test"] and corpus.doc_ids("test") == ["b"]
    assert corpus.boundary_corpus() is None


def test_named_corpus_from_the_environment(gum, monkeypatch):
    monkeypatch.setenv("RSTKIT_GUM", str(gum))
    corpus = resolve_corpus("gum")
    assert corpus.kind is GUM and corpus.root == gum


def test_a_directory_given_wins_over_the_environment(gum, tmp_path, monkeypatch):
    monkeypatch.setenv("RSTKIT_GUM", str(tmp_path / "elsewhere"))
    assert resolve_corpus("gum", gum).root == gum


def test_named_corpus_errors_say_what_was_tried(gum, tmp_path, monkeypatch):
    monkeypatch.delenv("RSTKIT_RSTDT", raising=False)
    with pytest.raises(CorpusError, match=r"where is the rstdt corpus\? \$RSTKIT_RSTDT is not set"):
        resolve_corpus("rstdt")
    monkeypatch.setenv("RSTKIT_RSTDT", str(tmp_path / "absent"))
    with pytest.raises(CorpusError, match=r"\$RSTKIT_RSTDT is not a directory") as info:
        resolve_corpus("rstdt")
    assert info.value.path == str(tmp_path / "absent")
    with pytest.raises(CorpusError, match="the directory given is not a directory"):
        resolve_corpus("rstdt", tmp_path / "absent")
    monkeypatch.setenv("RSTKIT_RSTDT", str(gum))  # a directory, but not an RST-DT release
    with pytest.raises(CorpusError, match=r"not an RST-DT release.*\(the rstdt corpus, from \$RSTKIT_RSTDT\)"):
        resolve_corpus("rstdt")


def test_no_fallback_relative_to_the_working_directory(tmp_path, monkeypatch):
    write_gum(tmp_path / "shared" / "corpora" / "gum", {"train": ["GUM_a"]})
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.delenv("RSTKIT_GUM", raising=False)
    with pytest.raises(CorpusError, match="RSTKIT_GUM is not set"):
        resolve_corpus("gum")


def test_installed_code_names_no_development_layout():
    offenders = [str(p.relative_to(PROJECT)) for p in (PROJECT / "rstkit").rglob("*.py")
                 if "shared/corpora" in p.read_text(encoding="utf-8")
                 or '"shared" / "corpora"' in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_any_other_name_is_a_path(gum):
    assert resolve_corpus(str(gum)).kind is GUM
    with pytest.raises(CorpusError, match="not a directory"):
        resolve_corpus("no-such-corpus-here")


def test_the_real_gum_checkout(gum_dir):
    corpus = gum_corpus(gum_dir)
    assert corpus.kind is GUM and corpus.splits() == ["dev", "test", "test2", "train"]
    source = corpus.boundary_corpus()
    assert source is not None and set(source.files) == set(corpus.files)
    doc_id = corpus.doc_ids("dev")[0]
    edus = read_documents(source.path(doc_id))[doc_id].edus
    assert all(e.sentence is not None and e.paragraph is not None for e in edus)

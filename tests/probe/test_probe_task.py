"""The DiscoEval instances: counts, spans, labels, masked documents, splits of GUM, RST-DT and directories."""
from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings

from rstkit.corpus import gum_corpus, open_corpus, resolve_corpus, rstdt_dev_ids
from rstkit.errors import CorpusError, LabelError, RSTKitWarning
from rstkit.labels import get_label_map
from rstkit.probe.corpora import check_published_sizes
from rstkit.probe.task import build_task, has_readable_text, label_name, tree_instances
from rstkit.tree import EDU, ROOT, RSTTree, leaf
from tests.support.probe_corpora import (
    FIVE_EDU_INSTANCES,
    five_edu_doc,
    two_edu_doc,
    write_directory_corpus,
    write_fake_rstdt,
)
from tests.support.strategies import rst_trees

RSTDT18 = get_label_map("rstdt18")
GUM = get_label_map("gum")


def test_instances_of_a_nary_tree_after_right_heavy_binarization():
    got = [(i.left, i.right, i.label) for i in tree_instances(five_edu_doc("d"), RSTDT18)]
    assert got == FIVE_EDU_INSTANCES


@pytest.mark.parametrize("pair, relation, label", [
    ("NS", "Elaboration-additional", "NS-Elaboration"),
    ("SN", "attribution", "SN-Attribution"),
    ("NN", "Same-Unit", "NN-Same-unit"),
    ("NN", "TextualOrganization", "NN-Textual"),
    ("SN", "manner", "SN-Manner-means"),
])
def test_labels_are_the_pair_and_the_capitalized_rstdt18_class(pair, relation, label):
    assert [i.label for i in tree_instances(two_edu_doc("d", "a", "b", pair, relation), RSTDT18)] == [label]


def test_gum_labels_use_gum_classes():
    assert label_name("NS", "elaboration-additional", GUM) == "NS-Elaboration"
    assert label_name("NN", "same-unit", GUM) == "NN-Same-unit"
    assert label_name("SN", "context-circumstance", GUM) == "SN-Context"


def test_an_unknown_relation_is_a_label_error_naming_the_node():
    with pytest.raises(LabelError, match=r"d \(EDUs 1-2\).*no-such-relation"):
        tree_instances(two_edu_doc("d", "a", "b", "NS", "no-such-relation"), RSTDT18)


def test_a_multinuclear_node_of_span_nuclei_is_a_label_error():
    with pytest.raises(LabelError, match="children NN has no relation, only 'span'"):
        tree_instances(two_edu_doc("d", "a", "b", "NN", "span"), RSTDT18)


@settings(max_examples=60, deadline=None)
@given(rst_trees(min_edus=1, max_edus=14, patterns="any"))
def test_one_instance_per_internal_node_of_the_binary_tree(tree):
    instances = tree_instances(tree, RSTDT18)
    assert len(instances) == tree.n_edus - 1
    spans = set()
    for i in instances:
        assert i.left[0] <= i.left[1] < i.right[0] <= i.right[1]
        assert i.right[0] == i.left[1] + 1
        spans.add((i.left[0], i.right[1]))
        assert i.label[:2] in ("NS", "SN", "NN") and i.label[2] == "-"
    if instances:
        assert instances[0].left[0] == 1 and instances[0].right[1] == tree.n_edus  # the root comes first
    assert len(spans) == len(instances)  # each internal node once


@pytest.mark.parametrize("texts, readable", [
    (["__ ____ _____ !", "___ ,"], False),
    (["", ""], False),
    (["____", "It rained ."], True),
    (["42"], True),
])
def test_readable_text(texts, readable):
    tree = two_edu_doc("d", "x", "y", "NS", "elaboration")
    tree = tree.__class__(tree.root, tuple(EDU(i, t) for i, t in enumerate(texts, 1)), "d")
    assert has_readable_text(tree) is readable


def _directory(tmp_path, dev=True, masked=False):
    train = [two_edu_doc(f"tr{i}", "It rained", "because it was cold", "NS", "explanation") for i in range(2)]
    train.append(five_edu_doc("tr9"))
    splits = {"train": train, "test": [five_edu_doc("te1")]}
    if dev:
        splits["dev"] = [two_edu_doc("dv1", "__ ___", "_____", "NN", "joint") if masked else five_edu_doc("dv1"),
                         five_edu_doc("dv2")]
    return write_directory_corpus(tmp_path / "corpus", splits)


def test_build_task_on_a_directory_with_splits_tsv(tmp_path):
    corpus = open_corpus(_directory(tmp_path))
    task = build_task(corpus, get_label_map(corpus.kind.label_map))
    assert task.label_map == "raw"
    assert {name: len(s.instances) for name, s in task.splits.items()} == {"train": 6, "dev": 8, "test": 4}
    assert task.splits["dev"].n_documents == 2 and task.splits["dev"].n_edus == 10
    assert task.labels() == ["NN-Same-unit", "NS-Circumstance", "NS-Elaboration-additional", "NS-Explanation",
                             "SN-Attribution"]


def test_masked_documents_are_left_out_with_a_warning_unless_asked(tmp_path):
    corpus = open_corpus(_directory(tmp_path, masked=True))
    with pytest.warns(RSTKitWarning, match=r"dev: 1 document\(s\) without readable text left out \(dv1\)"):
        task = build_task(corpus, RSTDT18)
    assert task.excluded == {"train": [], "dev": ["dv1"], "test": []}
    assert len(task.splits["dev"].instances) == 4
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kept = build_task(corpus, RSTDT18, include_masked=True)
    assert len(kept.splits["dev"].instances) == 5


def test_a_corpus_without_a_dev_split_is_refused(tmp_path):
    with pytest.raises(CorpusError, match="needs splits train, dev, test.*lacks dev"):
        build_task(open_corpus(_directory(tmp_path, dev=False)), RSTDT18)


def test_a_split_of_one_edu_documents_is_refused(tmp_path):
    one = RSTTree(leaf(1, ROOT, None), (EDU(1, "Hello ."),), "one")
    root = write_directory_corpus(tmp_path / "c", {"train": [five_edu_doc("a")], "dev": [one],
                                                   "test": [five_edu_doc("b")]})
    with pytest.raises(CorpusError, match="split 'dev' has no internal node"):
        build_task(open_corpus(root), RSTDT18)


def test_the_published_rstdt_validation_list():
    published = [
        "0618", "0621", "0622", "0634", "0672", "0683", "1104", "1115", "1118", "1131", "1147", "1154", "1166",
        "1167", "1172", "1181", "1193", "1309", "1310", "1323", "1332", "1349", "1360", "1371", "1374", "1377",
        "1397", "1399", "1963", "2308", "2340", "2350", "2352", "2364", "2391",
    ]
    assert rstdt_dev_ids() == [f"wsj_{n}" for n in published]


def test_fake_rstdt_by_name_through_the_environment(tmp_path, monkeypatch):
    training = [five_edu_doc("wsj_0600"), five_edu_doc("wsj_0601"), five_edu_doc("wsj_0618"),
                two_edu_doc("wsj_1104", "a", "b", "NN", "List")]
    root = write_fake_rstdt(tmp_path / "rstdt", training, [five_edu_doc("wsj_0602")])
    monkeypatch.setenv("RSTKIT_RSTDT", str(root))
    corpus = resolve_corpus("rstdt")
    assert corpus.kind.label_map == "rstdt18"
    task = build_task(corpus, RSTDT18)
    assert sorted(task.splits["train"].texts) == ["wsj_0600", "wsj_0601"]
    assert sorted(task.splits["dev"].texts) == ["wsj_0618", "wsj_1104"]
    assert {n: len(s.instances) for n, s in task.splits.items()} == {"train": 8, "dev": 5, "test": 4}
    assert task.labels() == ["NN-Joint", "NN-Same-unit", "NS-Background", "NS-Elaboration", "SN-Attribution"]
    with pytest.warns(RSTKitWarning, match="8/5/4 train/dev/test instances"):
        assert check_published_sizes(task) is False
    for split, n in (("train", 17051), ("dev", 2045), ("test", 2308)):
        task.splits[split].instances = task.splits[split].instances[:1] * n
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_published_sizes(task) is True


def test_a_named_corpus_that_is_absent_names_its_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("RSTKIT_GUM", str(tmp_path / "nowhere"))
    with pytest.raises(CorpusError, match="set RSTKIT_GUM"):
        resolve_corpus("gum")


def test_gum_by_name_through_the_environment_only(gum_dir, tmp_path, monkeypatch):
    (tmp_path / "shared" / "corpora").mkdir(parents=True)
    (tmp_path / "shared" / "corpora" / "gum").symlink_to(gum_dir)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.delenv("RSTKIT_GUM", raising=False)
    with pytest.raises(CorpusError, match="RSTKIT_GUM is not set"):  # no ../shared/corpora/gum fallback
        resolve_corpus("gum")
    monkeypatch.setenv("RSTKIT_GUM", str(gum_dir))
    corpus = resolve_corpus("gum")
    assert corpus.name == "gum/lisp_nary" and corpus.kind.label_map == "gum"


GUM_LABELS = [
    "NN-Adversative", "NN-Joint", "NN-Restatement", "NN-Same-unit", "NS-Adversative", "NS-Attribution",
    "NS-Causal", "NS-Context", "NS-Contingency", "NS-Elaboration", "NS-Evaluation", "NS-Explanation", "NS-Mode",
    "NS-Organization", "NS-Purpose", "NS-Restatement", "NS-Topic", "SN-Adversative", "SN-Attribution",
    "SN-Causal", "SN-Context", "SN-Contingency", "SN-Evaluation", "SN-Explanation", "SN-Mode",
    "SN-Organization", "SN-Purpose", "SN-Topic",
]


@pytest.fixture(scope="module")
def gum_task(gum_dir):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        task = build_task(gum_corpus(gum_dir), GUM)
    task.warnings = [str(w.message) for w in caught]
    return task


@pytest.mark.gum
def test_gum_instance_counts(gum_task):
    sizes = {n: (s.n_documents, s.n_edus, len(s.instances)) for n, s in gum_task.splits.items()}
    assert sizes == {"train": (177, 23013, 22836), "dev": (30, 3634, 3604), "test": (30, 3518, 3488)}
    for split in gum_task.splits.values():  # n - 1 instances per document
        assert len(split.instances) == split.n_edus - split.n_documents


@pytest.mark.gum
def test_gum_reddit_documents_are_the_masked_ones(gum_task):
    assert {n: len(d) for n, d in gum_task.excluded.items()} == {"train": 14, "dev": 2, "test": 2}
    assert all("_reddit_" in d for docs in gum_task.excluded.values() for d in docs)
    assert len(gum_task.warnings) == 3


@pytest.mark.gum
def test_gum_label_set(gum_task):
    assert gum_task.labels() == GUM_LABELS
    assert sorted({i.label for i in gum_task.splits["train"].instances}) == GUM_LABELS

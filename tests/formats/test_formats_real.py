"""Real parser output (tests/data/real/<parser>/, each with the command that produced it) read by rstkit.

Expected values come from outside rstkit: the parser's own log (EDU and sentence counts), the
input texts (words, paragraphs), and hand reading of the files (the ferry tree's top split).
"""
from __future__ import annotations

import json
import re
import shutil
import warnings
from pathlib import Path

import pytest

from rstkit.cli import main
from rstkit.corpus import read_documents
from rstkit.errors import RSTKitWarning
from rstkit.formats.detect import detect_format
from rstkit.labels import RSTDT18_CANONICAL as RSTDT_CLASSES
from tests.support.expected_warnings import warns_exactly

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
TEXTS = REAL / "texts"
FENG = REAL / "feng"


def _feng_log() -> dict[str, tuple[int, int]]:
    """``{doc: (sentences, EDUs)}`` from the parser's own stdout (parser_log.txt)."""
    counts: dict[str, tuple[int, int]] = {}
    sentences = edus = 0
    for line in (FENG / "parser_log.txt").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"Processing sentence 0 out of (\d+)", line):
            sentences = int(m.group(1))
        elif m := re.match(r"Segmented into (\d+) EDUs", line):
            edus = int(m.group(1))
        elif m := re.search(r"/(\w+)\.txt\.tree\.$", line):
            counts[m.group(1)] = (sentences, edus)
    return counts


FENG_LOG = _feng_log()


@pytest.fixture(scope="module")
def feng_docs():
    return read_documents(FENG, "feng")


def test_every_real_feng_file_is_read_with_ids_without_txt(feng_docs):
    assert sorted(FENG_LOG) == ["ferry", "garden", "library", "market", "short"]
    assert sorted(feng_docs) == sorted(FENG_LOG)


@pytest.mark.parametrize("doc", sorted(FENG_LOG))
def test_real_feng_edus_and_sentences_match_the_parser_log(feng_docs, doc):
    tree = feng_docs[doc]
    sentences, edus = FENG_LOG[doc]
    assert tree.n_edus == edus
    assert max(e.sentence for e in tree.edus) == sentences


@pytest.mark.parametrize("doc", sorted(FENG_LOG))
def test_real_feng_texts_are_the_input_words(feng_docs, doc):
    """The EDUs, joined, are the input text (the parser only adds spaces between tokens), markers gone."""
    tree = feng_docs[doc]
    source = (TEXTS / f"{doc}.txt").read_text(encoding="utf-8")
    assert "".join(tree.edu_texts()).replace(" ", "") == "".join(source.split())
    assert not any(re.search(r"<[sSpP]>", t) for t in tree.edu_texts())
    paragraphs = [p for p in re.split(r"\n\s*\n", source) if p.strip()]
    assert max(e.paragraph for e in tree.edus) == len(paragraphs)


@pytest.mark.parametrize("doc", sorted(FENG_LOG))
def test_real_feng_trees_are_binary_with_rstdt_classes(feng_docs, doc):
    tree = feng_docs[doc]
    assert all(node.arity == 2 for node in tree.internal_nodes())
    assert {n.relation for n in tree.nodes() if n is not tree.root} <= set(RSTDT_CLASSES) | {"span"}


def test_real_feng_top_split_read_by_hand(feng_docs):
    """ferry.txt.tree opens with
    (Elaboration[N][S] (Elaboration[N][S] <paragraphs 1-2: EDUs 1-9>) <paragraph 3: 10-13>)."""
    root = feng_docs["ferry"].root
    assert [(c.start, c.end, c.nuclearity, c.relation) for c in root.children] == [
        (1, 9, "N", "span"), (10, 13, "S", "elaboration")]
    assert feng_docs["short"].root.is_leaf
    market = feng_docs["market"]
    assert market.edu_texts()[1] == "( which opened in 1998 )"  # raw brackets inside a leaf
    assert market.edu_texts()[2] == 'sells " local " cheese , bread and honey !'  # '!' inside a leaf
    assert market.edu_texts()[7:9] == ["What happens", "when it rains ?"]  # two leaves on one line


def test_real_feng_directory_is_detected():
    assert detect_format(FENG) == "feng"


def _scores(capsys, *args: str) -> list[dict]:
    assert main(["eval", *args, "--metric", "all", "--format", "json"]) == 0
    return [result["scores"] for result in json.loads(capsys.readouterr().out)]


def test_eval_scores_real_feng_output_against_its_converted_copy(tmp_path, capsys):
    gold = tmp_path / "gold"
    assert main(["convert", str(FENG), str(gold), "--from", "feng", "--to", "dis"]) == 0
    assert sorted(p.name for p in gold.iterdir()) == [f"{d}.dis" for d in sorted(FENG_LOG)]
    capsys.readouterr()
    for scores in _scores(capsys, str(gold), str(FENG), "--pred-format", "feng"):
        assert all(value == 100.0 for value in scores.values())


def test_eval_reads_real_feng_files_saved_without_their_extension(tmp_path, capsys):
    """Files renamed to <doc>.txt carry no .tree: an explicit format reads every file, and says so."""
    pred = tmp_path / "pred"
    pred.mkdir()
    for doc in FENG_LOG:
        shutil.copy(FENG / f"{doc}.txt.tree", pred / f"{doc}.txt")
    with pytest.warns(RSTKitWarning, match=r"read all 5 as feng: ferry.txt, garden.txt"):
        documents = read_documents(pred, "feng")
    assert sorted(documents) == sorted(FENG_LOG)
    with warns_exactly({}):
        for scores in _scores(capsys, str(FENG), str(pred), "--gold-format", "feng", "--pred-format", "feng"):
            assert all(value == 100.0 for value in scores.values())


# -- isanlp: rs3 written by isanlp's own exporter from the Feng trees (tests/data/real/isanlp/README.md) --
ISANLP = REAL / "isanlp"


def test_real_isanlp_rs3_reads_back_the_trees_given_to_the_exporter(feng_docs):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RSTKitWarning)  # nothing to repair or flag in these
        documents = read_documents(ISANLP, "isanlp")
    assert sorted(documents) == sorted(feng_docs)
    for doc_id, tree in documents.items():
        assert tree.root == feng_docs[doc_id].root
        assert tree.edu_texts() == feng_docs[doc_id].edu_texts()


@pytest.mark.parametrize("doc", ["market", "short"])
def test_real_isanlp_file_is_detected(doc):
    assert detect_format(ISANLP / f"{doc}.rs3") == "isanlp"


def test_isanlp_span_strings_with_entropy_read_as_dmrst(feng_docs):
    """The span strings given to isanlp_rst's DUConverter carry ';entropy=' scores, which are dropped."""
    with pytest.warns(RSTKitWarning, match="no file is named as dmrst files are: read all 5 as dmrst"):
        documents = read_documents(ISANLP / "spans", "dmrst")
    assert {d: t.root for d, t in documents.items()} == {d: t.root for d, t in feng_docs.items()}

"""Corpus readers: directories, RST-DT layout (fake, written here), GUM splits, document ids."""
from __future__ import annotations

import pytest

from rstkit.corpus import open_corpus, read_documents, rstdt_corpus, rstdt_dev_ids, rstdt_double_corpus, rstdt_test_ids
from rstkit.errors import CorpusError, ManyErrors
from rstkit.formats import doc_id_from_path

DOC = """( Root (span 1 2)
  ( Nucleus (leaf 1) (rel2par span) (text _!Prices fell.<P>_!) )
  ( Satellite (leaf 2) (rel2par elaboration-additional) (text _!Traders were calm.<P>_!) )
)
"""


@pytest.mark.parametrize("name, doc_id", [("wsj_0600.out.dis", "wsj_0600"), ("file1.dis", "file1"),
                                          ("GUM_news_iodine.rs4", "GUM_news_iodine"), ("x.rsd", "x"),
                                          ("wsj_1101.out.edus", "wsj_1101")])
def test_document_ids(name, doc_id):
    assert doc_id_from_path(f"/some/dir/{name}") == doc_id


def test_manifests():
    assert len(rstdt_test_ids()) == 38 and len(set(rstdt_test_ids())) == 38
    assert len(rstdt_dev_ids()) == 35 and "wsj_0618" in rstdt_dev_ids()
    assert not set(rstdt_test_ids()) & set(rstdt_dev_ids())


@pytest.fixture
def fake_rstdt(tmp_path):
    main = tmp_path / "data" / "RSTtrees-WSJ-main-1.0"
    for split, ids in (("TRAINING", ["wsj_0618", "wsj_0700", "file1"]), ("TEST", ["wsj_0602", "wsj_1189"])):
        (main / split).mkdir(parents=True)
        for doc_id in ids:
            name = f"{doc_id}.dis" if doc_id.startswith("file") else f"{doc_id}.out.dis"
            (main / split / name).write_text(DOC)
            (main / split / name.replace(".dis", "")).write_text("raw text")
    double = tmp_path / "data" / "RSTtrees-WSJ-double-1.0"
    double.mkdir(parents=True)
    (double / "wsj_0602.out.dis").write_text(DOC)
    return tmp_path


def test_rstdt_layout(fake_rstdt):
    corpus = rstdt_corpus(fake_rstdt)
    assert corpus.doc_ids("test") == ["wsj_0602", "wsj_1189"]
    assert corpus.doc_ids("dev") == ["wsj_0618"]
    assert corpus.doc_ids("train") == ["file1", "wsj_0700"]
    assert corpus.doc_ids("training") == ["file1", "wsj_0618", "wsj_0700"]
    docs = corpus.documents("test")
    assert list(docs) == ["wsj_0602", "wsj_1189"]
    assert docs["wsj_0602"].edus[1].paragraph == 2
    assert open_corpus(fake_rstdt).name == "rstdt"
    assert set(read_documents(fake_rstdt)) == {"file1", "wsj_0618", "wsj_0700", "wsj_0602", "wsj_1189"}
    assert rstdt_double_corpus(fake_rstdt).doc_ids("double") == ["wsj_0602"]
    with pytest.raises(CorpusError, match="no split 'validation'"):
        corpus.doc_ids("validation")


def test_not_an_rstdt_release(tmp_path):
    with pytest.raises(CorpusError, match="not an RST-DT release"):
        rstdt_corpus(tmp_path)


def test_directory_reports_every_bad_file(tmp_path):
    (tmp_path / "good.dis").write_text(DOC)
    (tmp_path / "bad1.dis").write_text(DOC.replace("(leaf 2)", "(leaf 3)"))
    (tmp_path / "bad2.dis").write_text(DOC[:-3])
    with pytest.raises(ManyErrors) as info:
        read_documents(tmp_path)
    assert sorted(e.path.rsplit("/", 1)[-1] for e in info.value.errors) == ["bad1.dis", "bad2.dis"]
    errors = []
    assert list(read_documents(tmp_path, skip_errors=True, errors=errors)) == ["good"]
    assert len(errors) == 2


def test_missing_path(tmp_path):
    with pytest.raises(CorpusError, match="no such file"):
        read_documents(tmp_path / "nope")


def test_gum_splits(gum_dir):
    corpus = open_corpus(gum_dir)
    sizes = {split: len(corpus.doc_ids(split)) for split in corpus.splits()}
    assert sizes == {"train": 191, "dev": 32, "test": 32, "test2": 26}
    assert "GUM_news_homeopathic" in corpus.doc_ids("dev")
    assert sum(sizes.values()) == 281


@pytest.mark.gum
def test_splits_joined_by_plus_are_their_union(gum_dir):
    # splits.md lists 191 train and 32 dev documents, no document in both: 223, train's first
    corpus = open_corpus(gum_dir)
    joined = corpus.doc_ids("train+dev")
    assert len(joined) == 223 and joined == corpus.doc_ids("train") + corpus.doc_ids("dev")
    assert corpus.doc_ids("dev+dev") == corpus.doc_ids("dev")  # each document once
    with pytest.raises(CorpusError, match=r"no split 'valid'; splits: dev, test, test2, train \(several joined by "
                                          r"\+, e.g. train\+dev\)"):
        corpus.doc_ids("train+valid")

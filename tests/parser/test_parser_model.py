"""rstkit.parser with torch: train -> parse -> eval end to end at a tiny size, model
directories, decoding, bad input. Skipped when torch is not installed."""
from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from rstkit.cli import main
from rstkit.corpus import gum_corpus, read_documents
from rstkit.errors import FormatError, RSTKitError, RSTKitWarning
from rstkit.metrics import EvalConfig, score_documents
from rstkit.parser.api import Parser
from rstkit.parser.config import TrainConfig
from rstkit.parser.decode import decode
from rstkit.parser.inputs import read_parse_inputs
from rstkit.parser.modeldir import ModelDirError, read_config
from rstkit.parser.train import train
from rstkit.tree import EDU, ROOT, validate
from tests.support.expected_warnings import warns_exactly

TINY = ('{"model": {"hidden": 16, "span_dim": 16, "mlp_dim": 16, "span_diff": true}, '
        '"encoder": {"embedding_dim": 16, "hidden": 16}}')
CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def tiny_model(gum_dir, tmp_path_factory) -> Path:
    """One short epoch on a handful of GUM documents, through the CLI."""
    out = tmp_path_factory.mktemp("model")
    status = main(["train", "--corpus", str(gum_dir), "--out", str(out), "--epochs", "1", "--max-docs", "3",
                   "--max-dev-docs", "2", "--device", "cpu", "--threads", "1", "--options", TINY])
    assert status == 0
    return out


def _gum_dev(gum_dir, n: int):
    corpus = gum_corpus(gum_dir)
    return {d: corpus.documents("dev")[d] for d in corpus.doc_ids("dev")[:n]}


@pytest.mark.gum
def test_train_parse_eval_end_to_end(gum_dir, tiny_model, tmp_path, capsys):
    config = read_config(tiny_model)
    assert config["label_map"] == "gum" and config["encoder"] == "scratch"
    assert set(config["relations"]) <= {"joint", "elaboration", "context", "organization", "adversative",
                                        "explanation", "attribution", "same-unit", "causal", "evaluation",
                                        "purpose", "restatement", "contingency", "mode", "topic"}
    inputs = tmp_path / "in"
    inputs.mkdir()
    gold_ids = gum_corpus(gum_dir).doc_ids("test")[:2]
    for doc_id in gold_ids:
        shutil.copy(gum_dir / "lisp_nary" / f"{doc_id}.dis", inputs)
    pred_dir = tmp_path / "pred"
    assert main(["parse", str(inputs), str(pred_dir), "--model", str(tiny_model), "--device", "cpu"]) == 0
    assert sorted(p.name for p in pred_dir.iterdir()) == sorted(f"{d}.dis" for d in gold_ids)
    gold, pred = read_documents(inputs), read_documents(pred_dir)
    for doc_id, tree in pred.items():
        validate(tree)
        assert tree.is_binary() and tree.edu_texts() == gold[doc_id].edu_texts()
    scores = score_documents(gold, pred, EvalConfig(metric="parseval", labels="gum")).scores
    assert 0.0 <= scores["F"] <= scores["S"] <= 100.0 and scores["S"] > 0.0
    capsys.readouterr()
    assert main(["eval", str(inputs), str(pred_dir), "--labels", "gum"]) == 0
    assert "S" in capsys.readouterr().out


@pytest.mark.gum
def test_parse_a_corpus_split_and_score_it_strictly(gum_dir, tiny_model, tmp_path, capsys):
    """``--split`` reads a GUM checkout's split (EDUs from .rsd) and ``--gold-out`` copies its
    gold .dis files, so that ``rstkit eval`` needs no --lenient and no --missing."""
    checkout = tmp_path / "gum"
    ids = gum_corpus(gum_dir).doc_ids("test")[:2]
    for folder, ext in (("lisp_nary", "dis"), ("dependencies", "rsd")):
        (checkout / folder).mkdir(parents=True)
        for doc_id, name in ((ids[0], ids[0]), (ids[1], ids[1]), (ids[0], "GUM_extra_doc")):
            shutil.copy(gum_dir / folder / f"{doc_id}.{ext}", checkout / folder / f"{name}.{ext}")
    (checkout / "splits.md").write_text("## test\n" + "".join(f"  * {d}\n" for d in ids)
                                        + "## train\n  * GUM_extra_doc\n")
    pred, gold = tmp_path / "pred", tmp_path / "gold"
    assert main(["parse", str(checkout), str(pred), "--split", "test", "--gold-out", str(gold),
                 "--model", str(tiny_model), "--device", "cpu"]) == 0
    assert sorted(p.name for p in pred.iterdir()) == sorted(p.name for p in gold.iterdir()) == \
        sorted(f"{d}.dis" for d in ids)
    predicted = read_documents(pred)
    assert predicted[ids[1]].edu_texts() == read_documents(gold)[ids[1]].edu_texts()
    capsys.readouterr()
    assert main(["eval", str(gold), str(pred), "--labels", "gum"]) == 0
    assert "lenient=no" in capsys.readouterr().out
    assert main(["parse", str(checkout), str(tmp_path / "x"), "--gold-out", str(gold),
                 "--model", str(tiny_model)]) == 2
    assert main(["parse", str(checkout), str(tmp_path / "x"), "--split", "nope", "--model", str(tiny_model)]) == 2


@pytest.mark.gum
def test_beam_one_is_greedy_and_wider_beams_give_valid_trees(gum_dir, tiny_model):
    ensemble = Parser.load(tiny_model, device="cpu").ensemble
    docs = [ensemble.parser_input(d, t.edus) for d, t in _gum_dev(gum_dir, 3).items()]
    greedy = decode(ensemble, docs, CPU, beam=1, batch_docs=2)
    assert decode(ensemble, docs, CPU, beam=1, batch_docs=3) == greedy  # batching changes nothing
    wide = decode(ensemble, docs, CPU, beam=4)
    assert list(wide) == list(greedy)
    for tree in wide.values():
        validate(tree)
        assert tree.is_binary()


@pytest.mark.gum
def test_one_edu_and_very_long_documents(tiny_model):
    parser = Parser.load(tiny_model, device="cpu")
    one = (EDU(1, "Hello .", 1, 1),)
    long = tuple(EDU(i, f"Clause number {i} , and so on .", i, 1) for i in range(1, 321))
    trees = parser.parse([one, long], beam=2)
    assert trees[0].root.is_leaf and trees[0].root.nuclearity == ROOT
    validate(trees[1])
    assert trees[1].n_edus == 320 and trees[1].is_binary()


@pytest.mark.gum
def _changed_copy(model_dir: Path, where: Path, change: dict) -> Path:
    shutil.rmtree(where, ignore_errors=True)
    shutil.copytree(model_dir, where)
    config = json.loads((where / "config.json").read_text())
    config.update(change)
    (where / "config.json").write_text(json.dumps(config))
    return where


@pytest.mark.gum
def test_incompatible_model_directories_are_clear_errors(tiny_model, tmp_path):
    with pytest.raises(ModelDirError, match="not a parser model directory"):
        Parser.load(tmp_path, device="cpu")
    with pytest.raises(ModelDirError, match="not 'rstdt18'"):
        Parser.load(tiny_model, device="cpu", label_map="rstdt18")
    for change, message in [({"model_format": 99}, "model format 99"),
                            ({"model_format": 1, "encoder": "minilm"}, "format-1 minilm models used sentence"),
                            ({"relations": ["elaboration", "background-weird"]}, "not classes of label map"),
                            ({"label_map": "nonsense"}, "unknown label map"),
                            ({"model_options": {"hiden": 3}}, "bad model options")]:
        with pytest.raises(ModelDirError if "options" not in message else RSTKitError, match=message):
            Parser.load(_changed_copy(tiny_model, tmp_path / "broken", change), device="cpu")
    assert main(["parse", str(tiny_model), str(tmp_path / "x"), "--model", str(tmp_path)]) == 2


@pytest.mark.gum
def test_models_of_other_versions_load_when_their_format_is_readable(tiny_model, tmp_path, gum_dir):
    """A model directory's format, not the rstkit version that wrote it, decides: format 1
    (rstkit 0.1's scratch models, the same network) and format 2 load whatever the version."""
    docs = list(_gum_dev(gum_dir, 1).values())
    with pytest.warns(RSTKitWarning, match="no sentence boundaries: inferred from punctuation"):  # .dis documents
        expected = Parser.load(tiny_model, device="cpu").parse(docs)
    for change in ({"rstkit_version": "0.0.7"}, {"rstkit_version": "7.3.0"}, {"model_format": 1}):
        parser = Parser.load(_changed_copy(tiny_model, tmp_path / "old", change), device="cpu")
        with pytest.warns(RSTKitWarning, match="no sentence boundaries: inferred from punctuation"):
            assert parser.parse(docs) == expected


def test_parse_inputs_in_line_formats_and_bad_documents(tmp_path):
    (tmp_path / "a.edus").write_text("First EDU ,\nsecond one .\n\n")
    (tmp_path / "b.txt").write_text("Only one EDU .\n")
    docs = {d.doc_id: d.edus for d in read_parse_inputs(tmp_path)}
    assert [e.text for e in docs["a"]] == ["First EDU ,", "second one ."] and len(docs["b"]) == 1
    (tmp_path / "empty.txt").write_text("\n\n")
    with pytest.raises(FormatError, match="has no EDUs"):
        read_parse_inputs(tmp_path)
    with pytest.raises(RSTKitError, match="no such file"):
        read_parse_inputs(tmp_path / "missing")


@pytest.mark.gum
def test_document_without_edu_text_is_rejected(tiny_model, tmp_path):
    dis = "( Root (span 1 2)\n  ( Nucleus (leaf 1) (rel2par span) (text _!_!) )\n" \
          "  ( Satellite (leaf 2) (rel2par elaboration) (text _!_!) )\n)\n"
    (tmp_path / "blank.dis").write_text(dis)
    with pytest.raises(FormatError, match="no EDU text"):
        read_parse_inputs(tmp_path / "blank.dis")
    assert main(["parse", str(tmp_path / "blank.dis"), str(tmp_path / "out"), "--model", str(tiny_model)]) == 2


@pytest.mark.gum
def test_unknown_labels_and_resume(gum_dir, tmp_path):
    corpus = gum_corpus(gum_dir)
    docs = {d: corpus.documents("dev")[d] for d in corpus.doc_ids("dev")[:2]}
    sizes = json.loads(TINY)
    config = TrainConfig(label_map="rstdt18", epochs=1, device="cpu", threads=1, model_options=sizes["model"],
                         encoder_options=sizes["encoder"])
    with pytest.raises(RSTKitError, match="unknown to label map 'rstdt18'"):
        train(docs, docs, tmp_path / "m", config)
    config = replace(config, label_map="gum")
    first = train(docs, docs, tmp_path / "m", config)
    assert first["epoch"] == 1 and len(first["history"]) == 1
    config = replace(config, epochs=2)
    with warns_exactly({}):
        second = train(docs, docs, tmp_path / "m", config, resume=True)
    assert second["epoch"] == 2 and [h["epoch"] for h in second["history"]] == [1, 2]
    with pytest.raises(RSTKitError, match="cannot resume"):
        train(docs, docs, tmp_path / "other", config, resume=True)


@pytest.mark.gum
def test_gum_training_documents_get_rsd_boundaries(gum_dir):
    from rstkit.boundaries import with_boundaries
    from rstkit.parser.inputs import read_training_trees

    corpus = gum_corpus(gum_dir)
    tree = read_training_trees(corpus, corpus.doc_ids("dev")[:1])[corpus.doc_ids("dev")[0]]
    assert all(e.sentence is not None and e.paragraph is not None for e in tree.edus)
    assert tree.edus[-1].sentence > 1
    other = tuple(EDU(e.index, e.text + "x", 1, 1) for e in tree.edus)
    assert with_boundaries(tree, other) is tree  # texts differ: nothing copied


@pytest.mark.gum
def test_seeds_train_an_ensemble_whose_log_probabilities_are_averaged(gum_dir, tmp_path):
    from rstkit.parser.ensemble import ModelEnsemble

    out = tmp_path / "ensemble"
    assert main(["train", "--corpus", str(gum_dir), "--out", str(out), "--epochs", "1", "--max-docs", "2",
                 "--max-dev-docs", "1", "--device", "cpu", "--threads", "1", "--seeds", "3,4", "--options", TINY]) == 0
    config = read_config(out)
    assert config["kind"] == "ensemble" and config["members"] == ["seed3", "seed4"]
    assert read_config(out / "seed4")["info"]["train_config"]["seed"] == 4
    parser = Parser.load(out, device="cpu")
    first, second = parser.ensemble.members
    docs = list(_gum_dev(gum_dir, 1).values())
    with pytest.warns(RSTKitWarning, match="no sentence boundaries: inferred from punctuation"):  # a .dis document
        trees = parser.parse(docs)
    assert trees[0].edu_texts() == docs[0].edu_texts()
    # averaged log-probabilities, renormalised, computed here member by member
    ensemble = parser.ensemble
    doc = ensemble.parser_input("d", docs[0].edus)
    from rstkit.parser.transition import SHIFT, Action, ParserState

    state = ParserState(len(doc.edus))
    for _ in range(3):
        state.apply(Action(SHIFT))
    views = [(doc.boundaries, [state.view()])]
    rows = torch.tensor([0])
    together = ensemble.log_probs(ensemble.encode([doc], CPU), rows, views, CPU)
    singles = [ModelEnsemble([m]) for m in (first, second)]
    alone = [s.log_probs(s.encode([s.parser_input("d", docs[0].edus)], CPU), rows, views, CPU) for s in singles]
    for name in ("action", "pair", "relation"):
        mean = (getattr(alone[0], name) + getattr(alone[1], name)) / 2
        assert torch.allclose(getattr(together, name), torch.log_softmax(mean, -1), atol=1e-6)
    with pytest.raises(SystemExit):
        main(["train", "--corpus", "x", "--out", str(tmp_path / "y"), "--seeds", "1,1"])  # not distinct

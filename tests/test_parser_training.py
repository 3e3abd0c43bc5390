"""Training control of rstkit.parser: early stopping, how training ended, the learning-rate
schedule, and the span endpoint differences. Tiny networks on two GUM documents."""
from __future__ import annotations

import json
from itertools import pairwise

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tqdm")

from rstkit.corpus import gum_corpus
from rstkit.parser import train as training
from rstkit.parser.encoders import MiniLMEncoder
from rstkit.parser.model import EncodedDocuments, ParserModel
from rstkit.parser.train import TrainConfig, lr_factor, train

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
    monkeypatch.setattr(training, "dev_scores", lambda gold, pred, labels: {"S": 0.0, "N": 0.0, "R": 0.0,
                                                                             "F": remaining.pop(0)})


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
    assert info["best_epoch"] == state["best_epoch"] and len(info["dev_f_by_epoch"]) == expected_last


@pytest.mark.gum
def test_training_that_keeps_improving_runs_all_epochs(two_docs, tmp_path, monkeypatch):
    _scripted_dev(monkeypatch, [1.0, 2.0, 3.0])
    config = TrainConfig(epochs=3, patience=1, device="cpu", threads=1, schedule="cosine",
                         model_options={**SIZES["model"], "span_diff": True}, encoder_options=SIZES["encoder"])
    state = train(two_docs, two_docs, tmp_path, config)
    assert state["epoch"] == 3 and state["stopped"] == "epochs" and state["best_epoch"] == 3


def test_cosine_schedule_decays_from_one_to_the_floor():
    config = TrainConfig(epochs=10, schedule="cosine", min_lr_ratio=0.05)
    factor = lr_factor(config, steps_per_epoch=7)
    values = [factor(step) for step in range(71)]
    assert values[0] == pytest.approx(1.0) and values[-1] == pytest.approx(0.05)
    assert values[35] == pytest.approx(0.525)
    assert all(a >= b for a, b in pairwise(values))
    assert lr_factor(TrainConfig(schedule="constant"), 7)(50) == 1.0


def test_unknown_schedule_is_a_clear_error(two_docs, tmp_path):
    from rstkit.errors import RSTKitError

    with pytest.raises(RSTKitError, match="unknown learning-rate schedule 'linear'"):
        train(two_docs, two_docs, tmp_path, TrainConfig(schedule="linear", device="cpu"))


def test_span_differences_are_sums_over_the_span():
    """f_end - f_start-1 and b_start - b_end+1 equal the BiLSTM directions' differences at
    the span's edges, with zeros before the first and after the last EDU of each document."""
    model = ParserModel(MiniLMEncoder(dim=4), ["elaboration"], hidden=3, span_diff=True)
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
    chosen_pair, chosen_relation = best_labels(pair, relation)
    joint = torch.log_softmax(pair, -1)[:, :, None] + torch.log_softmax(relation, -1)
    for k in range(50):
        assert joint[k, chosen_pair[k], chosen_relation[k]] == joint[k].max()
    shared = relation[:, :1].expand(-1, 3, -1)  # relation scores that ignore the pair
    independent = best_labels(pair, shared)
    assert (independent[0] == pair.argmax(-1).numpy()).all()
    assert (independent[1] == shared[:, 0].argmax(-1).numpy()).all()


def test_state_arrays_of_three_and_five_context_items():
    from rstkit.parser.features import Boundaries
    from rstkit.parser.model import StateArrays
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


@pytest.mark.gum
def test_relation_given_pair_and_wide_context_train_and_parse(two_docs, tmp_path):
    from rstkit.parser.data import prepare
    from rstkit.parser.decode import decode
    from rstkit.parser.modeldir import load_model_dir

    config = TrainConfig(epochs=1, device="cpu", threads=1, encoder_options=SIZES["encoder"],
                         model_options={**SIZES["model"], "relation_given_pair": True, "context": 5})
    train(two_docs, two_docs, tmp_path, config)
    model, spec, _ = load_model_dir(tmp_path, torch.device("cpu"))
    assert model.pair_embedding is not None and model.context == 5
    docs = [prepare(d, t.edus, model.encoder) for d, t in two_docs.items()]
    trees = decode(model, docs, torch.device("cpu"))
    relations = {n.relation for t in trees.values() for n in t.root.postorder() if n.relation}
    assert relations <= set(spec.relations) | {"span"}

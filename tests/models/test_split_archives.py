"""Models published as a zip archive split across packages (rstkit.archives): a tiny archive made
here, split in three parts, each "installed" as a package of its own (a dist-info folder with its
RECORD on sys.path, found through importlib.metadata as the real parts are); the ``mpnet``
encoder's missing-extra error. No real archive is read."""
from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from rstkit import archives
from rstkit.archives import SplitArchive, missing_parts, unpacked
from rstkit.errors import RSTKitError
from tests.support.mpnet_parts import PARTS, hide_mpnet_parts

FILES = {"config.json": b'{"model_type": "tiny"}\n', "model.safetensors": bytes(range(256)) * 40,
         "sub/vocab.txt": b"a\nb\n"}


def _zip_bytes(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        for name, content in files.items():
            zipped.writestr(name, content)
    return buffer.getvalue()


def _install(site: Path, package: str, part_name: str, content: bytes) -> None:
    """``package`` as pip leaves it: its files under ``site`` and a dist-info listing them."""
    folder = package.replace("-", "_")
    (site / folder / "input").mkdir(parents=True)
    (site / folder / "input" / part_name).write_bytes(content)
    info = site / f"{folder}-0.0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.0.1\n")
    (info / "RECORD").write_text(f"{folder}/input/{part_name},,\n{info.name}/METADATA,,\n")


def _split(data: bytes, n: int) -> list[bytes]:
    size = -(-len(data) // n)
    return [data[i * size:(i + 1) * size] for i in range(n)]


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """A SplitArchive over a zip of FILES in folder ``tiny-model/``, its three parts installed."""
    data = _zip_bytes({f"tiny-model/{name}": content for name, content in FILES.items()})
    site = tmp_path / "site"
    packages = tuple(f"rstkit-test-tiny-part-{n:03d}" for n in (1, 2, 3))
    for number, (package, part) in enumerate(zip(packages, _split(data, 3)), 1):
        _install(site, package, f"tiny.zip.{number:03d}", part)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("RSTKIT_CACHE", str(tmp_path / "cache"))
    # the expected checksums are hashlib's over the bytes made here, not rstkit's
    return SplitArchive(packages=packages, archive="tiny.zip", folder="tiny-model", extra="tiny",
                        archive_sha256=hashlib.sha256(data).hexdigest(), weights="model.safetensors",
                        weights_sha256=hashlib.sha256(FILES["model.safetensors"]).hexdigest())


def _cache_entries(tmp_path: Path) -> list[str]:
    models = tmp_path / "cache" / "models"
    return sorted(p.name for p in models.iterdir()) if models.is_dir() else []


def test_the_parts_join_and_unpack_once_into_the_cache(tiny, tmp_path, monkeypatch):
    folder = unpacked(tiny)
    assert folder.name == "tiny-model" and folder.is_relative_to(tmp_path / "cache" / "models")
    assert {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()} == FILES
    assert _cache_entries(tmp_path) == [folder.parent.name]  # no staging folder, no joined archive left

    def no_second_join(*args):
        raise AssertionError("joined again")

    monkeypatch.setattr(archives, "_join", no_second_join)
    assert unpacked(tiny) == folder


def test_a_missing_part_names_its_package_and_the_extra(tiny, tmp_path):
    absent = replace(tiny, packages=(*tiny.packages[:2], "rstkit-test-not-installed"))
    assert missing_parts(tiny) == []
    assert missing_parts(absent) == ["rstkit-test-not-installed"]
    with pytest.raises(RSTKitError, match=r"rstkit-test-not-installed \(pip install 'rstkit\[tiny\]'\)"):
        unpacked(absent)
    assert _cache_entries(tmp_path) == []


def test_a_part_that_differs_fails_the_archive_checksum_and_leaves_nothing(tiny, tmp_path):
    wrong = replace(tiny, archive_sha256="0" * 64)
    with pytest.raises(RSTKitError, match=f"sha256 of the joined parts is {tiny.archive_sha256}, expected 0{{64}}"):
        unpacked(wrong)
    assert _cache_entries(tmp_path) == []


def test_weights_are_checked_after_unpacking_and_on_every_use(tiny, tmp_path):
    with pytest.raises(RSTKitError, match="sha256 of the weights"):
        unpacked(replace(tiny, weights_sha256="1" * 64))
    assert _cache_entries(tmp_path) == []
    folder = unpacked(tiny)
    (folder / "model.safetensors").write_bytes(b"damaged")
    with pytest.raises(RSTKitError, match=r"sha256 of the weights is .*; delete .* to unpack it again") as error:
        unpacked(tiny)
    assert error.value.path == str(folder / "model.safetensors")


def test_an_interrupted_unpack_leaves_nothing_and_the_next_call_unpacks(tiny, tmp_path, monkeypatch):
    real_extract = zipfile.ZipFile.extract
    calls = []

    def interrupted(self, member, path=None, pwd=None):
        calls.append(member)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_extract(self, member, path, pwd)

    monkeypatch.setattr(zipfile.ZipFile, "extract", interrupted)
    with pytest.raises(KeyboardInterrupt):
        unpacked(tiny)
    assert _cache_entries(tmp_path) == []  # neither the model folder nor the staging folder
    monkeypatch.setattr(zipfile.ZipFile, "extract", real_extract)
    assert (unpacked(tiny) / "sub" / "vocab.txt").read_bytes() == FILES["sub/vocab.txt"]


def test_members_outside_the_model_folder_are_refused(tmp_path, monkeypatch):
    data = _zip_bytes({"tiny-model/config.json": b"{}", "../escape.txt": b"x"})
    site = tmp_path / "site"
    _install(site, "rstkit-test-evil-part-001", "evil.zip.001", data)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("RSTKIT_CACHE", str(tmp_path / "cache"))
    evil = SplitArchive(packages=("rstkit-test-evil-part-001",), archive="evil.zip", folder="tiny-model", extra="x",
                        archive_sha256=hashlib.sha256(data).hexdigest(), weights="config.json",
                        weights_sha256=hashlib.sha256(b"{}").hexdigest())
    with pytest.raises(RSTKitError, match="unexpected member '../escape.txt'"):
        unpacked(evil)
    assert _cache_entries(tmp_path) == [] and not (tmp_path / "escape.txt").exists()


def test_the_mpnet_encoder_without_its_packages_names_the_extra(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    from rstkit.parser.encoder_names import check_encoder
    from rstkit.pretrained import missing_packages, model_directory

    hide_mpnet_parts(monkeypatch, tmp_path)
    assert missing_packages("mpnet").endswith(" and ".join(PARTS))
    message = f"needs the packages {', '.join(PARTS)} \\(pip install 'rstkit\\[mpnet\\]'\\)"
    for call in (lambda: model_directory("mpnet"), lambda: check_encoder("mpnet")):
        with pytest.raises(RSTKitError, match=message):
            call()
    assert not (tmp_path / "cache").exists()


@pytest.mark.slow  # imports transformers and torch, runs a tiny MPNet
def test_the_mpnet_encoder_reads_its_unpacked_archive_with_transformers(tmp_path, monkeypatch):
    """``mpnet`` on a tiny random MPNet packed, split and "installed" here: unpacked from the parts,
    read by transformers (MPNet's relative position buckets are not rstkit's plain-torch BERT), and
    each word piece's states equal one transformers run over the window that owns it (windows of
    24 - 2 positions, 3/4 apart, as for the BERT in tests/parser/test_pretrained.py)."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from rstkit import pretrained
    from tests.support.tiny_transformer import make_tiny_bert

    model = make_tiny_bert(tmp_path / "build" / "tiny-mpnet", mpnet=True)
    data = _zip_bytes({f"tiny-mpnet/{p.relative_to(model)}": p.read_bytes() for p in model.rglob("*") if p.is_file()})
    site = tmp_path / "site"
    packages = ("rstkit-test-mpnet-part-001", "rstkit-test-mpnet-part-002")
    for number, (package, part) in enumerate(zip(packages, _split(data, 2)), 1):
        _install(site, package, f"tiny-mpnet.zip.{number:03d}", part)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("RSTKIT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(pretrained, "MPNET_ARCHIVE", SplitArchive(
        packages=packages, archive="tiny-mpnet.zip", folder="tiny-mpnet", extra="mpnet",
        archive_sha256=hashlib.sha256(data).hexdigest(), weights="model.safetensors",
        weights_sha256=hashlib.sha256((model / "model.safetensors").read_bytes()).hexdigest()))
    torch.set_num_threads(1)
    encoder = pretrained.PretrainedEncoder.load("mpnet")
    assert type(encoder.transformer).__name__ == "MPNetModel"
    assert encoder.transformer.config.model_type == "mpnet" and encoder.window == 24

    text = "The cats sat on the mat, and then it left because it was tired. " * 3
    ids, _ = encoder.tokenize(text)
    states = encoder.encode(text).layers
    n = len(ids)
    starts = list(range(0, n - 22 + 1, round(22 * 0.75)))
    starts += [n - 22] if starts[-1] + 22 < n else []
    reference = transformers.MPNetModel.from_pretrained(str(model)).eval()
    cls, sep = encoder.tokenizer.cls_token_id, encoder.tokenizer.sep_token_id
    for piece in range(n):
        margins = [min(piece - s, s + 21 - piece) if s <= piece < s + 22 else -1 for s in starts]
        start = starts[margins.index(max(margins))]
        window = torch.tensor([[cls, *ids[start:start + 22], sep]])
        with torch.no_grad():
            expected = torch.stack(reference(input_ids=window, output_hidden_states=True).hidden_states)
        assert np.allclose(states[:, piece], expected[:, 0, 1 + piece - start].half().float().numpy(), atol=1e-6)

"""rstkit.models: one toolkit for the parser's and the segmenter's model folders (issue 25)."""
from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from rstkit.errors import RSTKitError
from rstkit.models import (
    SHIPPED,
    ModelDirError,
    TrainSettings,
    locate,
    read_config,
    read_weights,
    shipped,
    shipped_model_dir,
    weights_bytes,
    write_model_dir,
)
from rstkit.parser.api import Parser
from rstkit.parser.config import TrainConfig
from rstkit.segment.segmenter import DEFAULT_MODEL, FALLBACK_MODEL, Segmenter
from rstkit.segment.train import SegmenterTrainConfig


def test_one_list_of_shipped_models_serves_both_kinds():
    assert shipped("parser") == ("minilm", "mpnet", "scratch")
    assert shipped("segmenter") == ("segmenter", "segmenter-base")
    assert (DEFAULT_MODEL, FALLBACK_MODEL) == ("segmenter", "segmenter-base")
    package = Path(__file__).resolve().parents[2] / "rstkit" / "data" / "models"
    for name in SHIPPED:
        assert shipped_model_dir(name).resolve() == package / name
        assert (package / name / "config.json").is_file()


def test_a_model_is_named_or_a_folder(tmp_path, monkeypatch):
    with pytest.raises(ModelDirError, match=r"no shipped segmenter model of that name \(shipped: segmenter, "
                                            r"segmenter-base\)") as info:
        locate("segmentr", "segmenter")
    assert info.value.path == "segmentr"
    with pytest.raises(ModelDirError, match="no shipped parser model of that name"):
        locate("segmenter", "parser")  # a segmenter's name is no parser
    with pytest.raises(ModelDirError, match="no shipped parser model 'segmenter'"):
        shipped_model_dir("segmenter", "parser")
    assert locate("scratch", "parser") == shipped_model_dir("scratch")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scratch").mkdir()  # a folder of that name wins over the shipped model
    assert locate("scratch", "parser") == Path("scratch")


def test_config_errors_name_the_folder_or_file_and_line(tmp_path):
    with pytest.raises(ModelDirError, match="not a parser model directory \\(no config.json\\)") as info:
        read_config(tmp_path, "parser")
    assert info.value.path == str(tmp_path)
    (tmp_path / "config.json").write_text('{\n "a": 1,\n "b": }\n')
    with pytest.raises(ModelDirError, match="unreadable config") as info:
        read_config(tmp_path, "segmenter")
    assert (info.value.path, info.value.line) == (str(tmp_path / "config.json"), 3)
    (tmp_path / "config.json").write_text("[1, 2]\n")
    with pytest.raises(ModelDirError, match="not a JSON object"):
        read_config(tmp_path, "segmenter")


def test_weights_are_float16_on_disk_and_float32_back(tmp_path):
    state = {"w": torch.tensor([0.1, 1 / 3], dtype=torch.float32), "steps": torch.tensor([7], dtype=torch.int64)}
    write_model_dir(tmp_path, {"model.pt": weights_bytes(state), "config.json": "{}\n"})
    stored = torch.load(tmp_path / "model.pt", weights_only=True)
    assert stored["w"].dtype == torch.float16 and stored["steps"].dtype == torch.int64
    back = read_weights(tmp_path)
    assert back["w"].dtype == torch.float32
    assert back["w"].tolist() == torch.tensor([0.1, 1 / 3]).half().float().tolist()
    assert back["steps"].tolist() == [7]
    (tmp_path / "model.pt").write_bytes(b"not a model")
    with pytest.raises(ModelDirError, match="unreadable weights") as info:
        read_weights(tmp_path)
    assert info.value.path == str(tmp_path / "model.pt")


def test_a_folder_is_written_at_once_and_keeps_other_files(tmp_path):
    (tmp_path / "checkpoint.pt").write_bytes(b"kept")
    (tmp_path / "config.json").write_text("old\n")
    write_model_dir(tmp_path, {"config.json": json.dumps({"new": True}) + "\n", "vocab.txt": "a\n"})
    assert json.loads((tmp_path / "config.json").read_text()) == {"new": True}
    assert (tmp_path / "checkpoint.pt").read_bytes() == b"kept" and (tmp_path / "vocab.txt").read_text() == "a\n"


@pytest.mark.parametrize("settings, name", [
    ({"epochs": 0}, "epochs"), ({"patience": 1.5}, "patience"), ({"lr": -1}, "lr"), ({"lr": float("nan")}, "lr"),
    ({"seed": "13"}, "seed"), ({"batch_size": 0}, "batch_size"), ({"window": True}, "window"),
    ({"lr_decay": 0}, "lr_decay"), ({"lr_decay": 1.5}, "lr_decay"), ({"flat_probability": 2}, "flat_probability"),
    ({"word_dropout": -0.1}, "word_dropout"), ({"max_docs": 0}, "max_docs"), ({"min_word_count": 0}, "min_word_count"),
    ({"pretrained_layers": ()}, "pretrained_layers"), ({"net": {"hiden": 8}}, "network option 'hiden'"),
])
def test_segmenter_settings_are_checked_when_made(settings, name):
    with pytest.raises(RSTKitError, match=name):
        SegmenterTrainConfig(**settings)


def test_both_training_settings_share_every_runs_settings():
    assert issubclass(TrainConfig, TrainSettings) and issubclass(SegmenterTrainConfig, TrainSettings)
    assert (TrainConfig().epochs, SegmenterTrainConfig().epochs) == (30, 20)  # each model's own default
    assert TrainConfig("rstdt18").label_map == "rstdt18"  # the parser's first setting stays positional
    with pytest.raises(RSTKitError, match="epochs must be an integer >= 1"):
        TrainConfig(epochs=0)
    with pytest.raises(RSTKitError, match="epochs must be an integer >= 1"):
        SegmenterTrainConfig(epochs=0)


def test_parser_and_segmenter_load_and_train_alike():
    def parameters(function):
        return [(p.name, p.kind) for p in inspect.signature(function).parameters.values()]

    positional, keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY
    assert parameters(Parser.load)[0] == parameters(Segmenter.load)[0] == ("model", positional)
    assert parameters(Parser.train)[:4] == parameters(Segmenter.train)[:4] == [
        ("train_docs", positional), ("dev_docs", positional), ("config", positional), ("out", keyword)]


def test_old_spellings_are_errors(tmp_path):
    """0.1.0's old spellings (never released): an error saying what is wrong, no DeprecationWarning."""
    import rstkit.segment.train as segment_train
    from tests.support.tiny_segmenter import save_tiny_segmenter

    with pytest.raises(AttributeError, match="has no attribute 'TrainConfig'"):
        segment_train.TrainConfig  # noqa: B018  # its name is SegmenterTrainConfig
    save_tiny_segmenter(tmp_path / "m")
    assert Segmenter.load(tmp_path / "m").source == Segmenter.load(model=tmp_path / "m").source == str(tmp_path / "m")
    with pytest.raises(TypeError, match="unexpected keyword argument 'path'"):
        Segmenter.load(path=tmp_path / "m")
    assert not hasattr(segment_train, "train")  # the one entry is Segmenter.train

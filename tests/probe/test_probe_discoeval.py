"""The DiscoEval task end to end: exact accuracies on a tiny corpus, the CLI, GUM's majority baseline."""
from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from rstkit.cli import main
from rstkit.corpus import open_corpus
from rstkit.labels import get_label_map
from rstkit.probe import ClassifierConfig, Encoder, build_task, run_discoeval
from rstkit.probe.classifier import label_ids, majority_label, subtree_features
from rstkit.probe.errors import ProbeError
from rstkit.probe.task import Instance
from tests.support.probe_corpora import five_edu_doc, marker_corpus, markers, two_edu_doc, write_fake_rstdt

#: the test encoder, a module:function spec that discoeval imports
MARKERS_SPEC = "tests.support.probe_corpora:markers"

MARKERS = Encoder("markers-v1", markers)
CONFIG = ClassifierConfig(c_grid=(0.001, 10.0))


@pytest.fixture
def marker_task(tmp_path):
    return build_task(open_corpus(marker_corpus(tmp_path / "markers")), get_label_map("raw"))


def test_exact_accuracy_with_a_deterministic_encoder(marker_task):
    result = run_discoeval(marker_task, MARKERS, CONFIG)
    assert result.chosen_c == 10.0
    assert result.dev.accuracy == 100.0 and result.dev.n_instances == 3
    assert result.test.accuracy == 60.0 and result.test.n_instances == 5  # 3 of 5: a contradiction, an unseen label
    assert result.test.per_label == {"NN-Sequence": (1, 2), "NS-Explanation": (1, 1), "NS-Purpose": (0, 1),
                                     "SN-Attribution": (1, 1)}
    assert result.labels == ["NN-Sequence", "NS-Explanation", "SN-Attribution"]
    assert result.train == {"n_instances": 8, "n_documents": 8, "n_edus": 16}


def test_runs_are_reproducible(marker_task):
    first = run_discoeval(marker_task, MARKERS, CONFIG).as_dict()
    second = run_discoeval(marker_task, MARKERS, CONFIG).as_dict()
    first.pop("timing"), second.pop("timing")
    assert first == second


def test_majority_baseline_is_exact(marker_task):
    result = run_discoeval(marker_task, None, CONFIG)
    # NN-Sequence and NS-Explanation tie (3 each) in train: the first in sorted order wins
    assert result.classifier == "majority" and result.chosen_c is None
    assert result.dev.accuracy == pytest.approx(100 / 3) and result.test.accuracy == 40.0
    assert "|encoder=none|subtree=none|features=none|clf=majority|" in result.signature


def test_signature_names_every_setting(marker_task):
    sig = run_discoeval(marker_task, MARKERS, CONFIG).signature
    assert sig.startswith("rstkit:task=discoeval-rst|corpus=markers|docs=8/3/5|inst=8/3/5|")
    for part in ("|labels=nuc+raw:Capitalized|", "|bin=right|", "|encoder=markers-v1|", "|subtree=mean|",
                 "|clf=logreg(multinomial,lbfgs,std,C={0.001,10}@dev,max_iter=1000)|", "|seed=1|"):
        assert part in sig


def test_a_training_split_with_one_label_is_refused(tmp_path):
    docs = [two_edu_doc(f"d{i}", "a", "because b", "NS", "explanation") for i in range(3)]
    from tests.support.probe_corpora import write_directory_corpus

    root = write_directory_corpus(tmp_path / "one", {"train": docs[:1], "dev": docs[1:2], "test": docs[2:]})
    task = build_task(open_corpus(root), get_label_map("raw"))
    with pytest.raises(ProbeError, match="1 distinct label"):
        run_discoeval(task, MARKERS, CONFIG)


def test_subtree_vectors_are_means_of_edu_vectors():
    rng = np.random.default_rng(0)
    vectors = {"d": rng.standard_normal((6, 4)).astype(np.float32)}
    instances = [Instance("d", (1, 3), (4, 6), "x"), Instance("d", (2, 2), (3, 5), "y")]
    features = subtree_features(instances, vectors)
    r = vectors["d"][2:5].mean(0)
    np.testing.assert_allclose(features[1], np.concatenate([vectors["d"][1], r, vectors["d"][1] * r,
                                                            np.abs(vectors["d"][1] - r)]), rtol=1e-5)
    left, r = vectors["d"][0:3].mean(0), vectors["d"][3:6].mean(0)
    np.testing.assert_allclose(features[0], np.concatenate([left, r, left * r, np.abs(left - r)]), rtol=1e-5)


def test_label_ids_and_majority():
    assert label_ids(["b", "z", "a"], ["a", "b"]).tolist() == [1, -1, 0]
    assert majority_label(["b", "a", "b", "a", "c"]) == "a"
    assert majority_label(["c", "b", "c"]) == "c"


def _cli_json(capsys, *argv):
    assert main(["discoeval", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_json_with_a_user_encoder_and_the_cache(tmp_path, capsys):
    root = marker_corpus(tmp_path / "markers")
    cache = tmp_path / "cache"
    out = _cli_json(capsys, "--corpus", str(root), "--encoder", MARKERS_SPEC, "--c-grid", "0.001,10",
                    "--cache-dir", str(cache))
    assert out["dev"]["accuracy"] == 100.0 and out["dev"]["n_instances"] == 3
    assert out["test"]["accuracy"] == 60.0 and out["test"]["n_instances"] == 5
    assert out["test"]["per_label"]["NN-Sequence"] == {"n": 2, "correct": 1, "accuracy": 50.0}
    assert out["chosen_c"] == 10.0 and "|encoder=tests.support.probe_corpora:markers|" in out["signature"]
    assert out["timing"]["texts_encoded"] == out["timing"]["texts"] == 9  # distinct EDU texts
    assert len(list(cache.rglob("*.npz"))) == 1
    again = _cli_json(capsys, "--corpus", str(root), "--encoder", MARKERS_SPEC, "--c-grid", "0.001,10",
                      "--cache-dir", str(cache))
    assert again["timing"]["texts_encoded"] == 0 and again["test"] == out["test"]


def test_cli_text_report(tmp_path, capsys):
    root = marker_corpus(tmp_path / "markers")
    assert main(["discoeval", "--corpus", str(root), "--encoder", MARKERS_SPEC, "--c-grid", "10",
                 "--no-cache"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == ["dev", "3", "6", "3", "100.00"]
    assert lines[3].split() == ["test", "5", "10", "5", "60.00"]
    assert ["NS-Purpose", "0", "-", "1", "0.0"] in [line.split() for line in lines]
    assert lines[-1].startswith("rstkit:task=discoeval-rst|")


def test_cli_errors_are_one_line(tmp_path, capsys):
    root = marker_corpus(tmp_path / "markers")
    assert main(["discoeval", "--corpus", str(root), "--encoder", "nope"]) == 2
    assert "rstkit: error: encoder 'nope' is neither built in" in capsys.readouterr().err
    assert main(["discoeval", "--corpus", str(tmp_path / "absent"), "--encoder", "bow"]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_cli_on_a_fake_rstdt_with_bow(tmp_path, monkeypatch, capsys):
    training = [five_edu_doc(d) for d in ("wsj_0600", "wsj_0601", "wsj_0603", "wsj_0618")]
    training.append(two_edu_doc("wsj_0604", "it fell", "because rates rose", "NS", "explanation-argumentative"))
    root = write_fake_rstdt(tmp_path / "rstdt", training, [five_edu_doc("wsj_0602")])
    monkeypatch.setenv("RSTKIT_RSTDT", str(root))
    with warnings.catch_warnings():
        warnings.simplefilter("always")  # the test configuration ignores rstkit's warnings
        assert main(["discoeval", "--corpus", "rstdt", "--encoder", "bow", "--format", "json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert ("rstkit: warning: rstdt: 13/4/4 train/dev/test instances, DiscoEval published 17,051/2,045/2,308"
            in captured.err)
    assert out["train"]["n_instances"] == 13 and out["dev"]["n_instances"] == 4 and out["test"]["n_instances"] == 4
    assert "|corpus=rstdt|docs=4/1/1|inst=13/4/4|" in out["signature"]
    assert out["labels"] == ["NN-Same-unit", "NS-Background", "NS-Elaboration", "NS-Explanation", "SN-Attribution"]


@pytest.mark.gum
def test_gum_majority_baseline(gum_dir, capsys):
    out = _cli_json(capsys, "--corpus", str(gum_dir), "--encoder", "majority")
    assert out["dev"]["n_instances"] == 3604 and out["test"]["n_instances"] == 3488
    assert out["dev"]["accuracy"] == pytest.approx(100 * 670 / 3604)  # NN-Joint
    assert out["test"]["accuracy"] == pytest.approx(100 * 679 / 3488)
    assert out["excluded_documents"]["train"][0] == "GUM_reddit_bobby"

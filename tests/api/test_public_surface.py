"""The public surface as a researcher meets it (issue 25): at most 40 names grouped by task, no
function hiding a module, one ``evaluate``, one spelling per setting; the old spellings of 0.1.0, which
was never released, are gone (issue 34), each an error that says what is wrong."""
from __future__ import annotations

import importlib
import pkgutil
import types
import warnings
from pathlib import Path

import pytest

import rstkit
import rstkit.metrics
from rstkit.audit import audit_paper, audit_published, load_paper, parse_published
from rstkit.corpus import read_documents
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.significance import bootstrap_ci
from rstkit.report import render
from tests.support.public import public_names

SAMPLE = "corpora/sample"


@pytest.fixture(scope="module")
def sample():
    """The sample corpus without its one-EDU document (whose note is a warning of its own)."""
    gold, pred = read_documents(f"{SAMPLE}/gold"), read_documents(f"{SAMPLE}/pred")
    return ({d: t for d, t in gold.items() if t.n_edus > 1}, {d: t for d, t in pred.items() if t.n_edus > 1})


def test_all_is_short_and_every_name_resolves_without_warning():
    assert len(rstkit.__all__) <= 40 and len(set(rstkit.__all__)) == len(rstkit.__all__)
    assert {"Parser", "Segmenter", "evaluate", "loads", "dumps", "audit_published"} <= set(rstkit.__all__)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name, value in public_names().items():
            assert value is not None, name


def test_no_public_function_hides_a_module():
    import rstkit.audit as audit_module
    import rstkit.convert as convert_module

    assert isinstance(audit_module, types.ModuleType) and isinstance(convert_module, types.ModuleType)
    assert rstkit.audit is audit_module and rstkit.convert is convert_module
    assert isinstance(rstkit.metrics.pipeline, types.ModuleType)
    for name, value in public_names().items():  # no public name is a function whose submodule has the same name
        assert isinstance(value, types.ModuleType) or f"rstkit.{name}" not in __import__("sys").modules, name


def packages() -> list[str]:
    """Every package of rstkit, from the source tree (the facade ``rstkit`` included)."""
    root = Path(rstkit.__file__).parent
    return sorted(".".join(("rstkit", *p.parent.relative_to(root).parts)) for p in root.rglob("__init__.py"))


@pytest.mark.parametrize("package", packages())
def test_no_attribute_of_a_package_hides_a_submodule(package):
    """No function, class or other value of a package has the name of one of its submodules: Python looks
    at the attribute first (``import rstkit.segment.tokenize as m`` gave the function ``tokenize``), and
    importing the submodule later rebinds the attribute, so the name meant one thing or the other by
    import order. The attribute is read as a user reads it, after importing the package alone (a lazy
    ``__getattr__`` answers too)."""
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as exc:  # a package of an extra (torch) on a machine without it
        if (exc.name or "rstkit").partition(".")[0] == "rstkit":
            raise
        pytest.skip(f"{package} needs {exc.name}")
    hidden = []
    for info in pkgutil.iter_modules(module.__path__):
        try:
            value = getattr(module, info.name)
        except AttributeError:  # not imported yet, and no lazy attribute of that name
            continue
        if not (isinstance(value, types.ModuleType) and value.__name__ == f"{package}.{info.name}"):
            hidden.append(f"{package}.{info.name} is hidden by a {type(value).__name__}")
    assert hidden == []


@pytest.mark.parametrize("module, old", [
    *[("rstkit", name) for name in ("loads_dis", "dumps_dis", "loads_rs3", "dumps_rs3", "loads_rsd", "dumps_rsd",
                                    "get_format", "canonical_label", "render_audit", "render_paper")],
    ("rstkit.audit", "audit"), ("rstkit.convert", "convert"), ("rstkit.convert", "prepare"),
    ("rstkit.metrics", "evaluate"), ("rstkit.pretrained", "default_cache_dir"),
    ("rstkit.probe.cache", "default_cache_dir"),
])
def test_old_names_are_gone(module, old):
    """0.1.0's old names (never released): an AttributeError naming the name, no DeprecationWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match=f"has no attribute '{old}'"):
            getattr(importlib.import_module(module), old)


def test_audit_and_convert_are_modules_not_functions(sample):
    gold, pred = sample
    for module in (rstkit.audit, rstkit.convert):
        with pytest.raises(TypeError, match="'module' object is not callable"):
            module(gold, pred)


def test_audit_paper_takes_gold_and_pred_first(sample):
    gold, pred = sample
    paper = load_paper("morey2017")
    assert audit_paper(gold, pred, paper, "je14-dplp").recomputed
    with pytest.raises(TypeError, match=r"audit_paper\(gold, pred, paper, parser\) takes a Paper third"):
        audit_paper(paper, "je14-dplp", gold, pred)  # type: ignore[arg-type]  # 0.1.0's old order


def test_audit_and_convert_take_an_evalconfig(sample):
    gold, pred = sample
    published = parse_published("S=68.3 N=61.7 F=57.5")
    config = EvalConfig(labels="rstdt18", missing="error")
    assert (audit_published(gold, pred, published, config=config).as_dict()
            == audit_published(gold, pred, published, label_maps=("rstdt18",), unknown_labels="error").as_dict())
    compat = EvalConfig(compat="rst-eval", metric="rst-parseval")
    assert (rstkit.convert_documents(gold, "dis", config=compat)
            == rstkit.convert_documents(gold, "dis", binarize="rst-eval", labels=compat.labels))


def test_one_evaluate_holding_every_configuration(sample):
    gold, pred = sample
    configs = [EvalConfig(metric="parseval"), EvalConfig(metric="rst-parseval", average="macro")]
    evaluation = rstkit.evaluate(gold, pred, configs)
    assert not isinstance(evaluation, rstkit.EvalResult)
    assert [r.config for r in evaluation.results] == configs
    assert evaluation.result("rst-parseval").scores == score_documents(gold, pred, configs[1]).scores
    single = rstkit.evaluate(gold, pred, configs[0])
    expected = score_documents(gold, pred, configs[0]).scores
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # one configuration reads as its result, without a warning
        assert single.scores == expected
    with pytest.raises(AttributeError, match=r"2 configurations, each with its own; pick one: "
                                             r"\.result\(metric, average\)\.scores"):
        evaluation.scores  # noqa: B018  # not the first one's


def test_one_spelling_per_setting(sample):
    gold, pred = sample
    evaluation = rstkit.evaluate(gold, pred, EvalConfig(metric="parseval"))
    assert evaluation.render(format="json") == evaluation.render("json")
    result = evaluation.results[0]
    with pytest.raises(TypeError, match="unexpected keyword argument 'fmt'"):
        evaluation.render(fmt="json")  # 0.1.0's old spellings: format=, n_bootstrap=
    with pytest.raises(TypeError, match="unexpected keyword argument 'n_samples'"):
        result.bootstrap(confidence=0.9, n_samples=50, seed=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'n_samples'"):
        result.paired_tests(0, n_samples=50)
    with pytest.raises(TypeError, match="unexpected keyword argument 'n_samples'"):
        bootstrap_ci(result.systems[0].counts, "micro", n_samples=50)
    with pytest.raises(TypeError, match="unexpected keyword argument 'fmt'"):
        render(evaluation.report(), fmt="json")


@pytest.mark.parametrize("format", ["dis", "rs3", "rsd"])
def test_loads_and_dumps_take_a_format(sample, format):
    tree = sample[0]["sample_library"]
    text = rstkit.dumps(tree, format)
    assert [e.text for e in rstkit.loads(text, format).edus] == [e.text for e in tree.edus]
    assert rstkit.dumps(rstkit.loads(text, format), format) == text


def test_config_names_that_explain_themselves():
    """0.1.0's EvalConfig.with_ and Statistics.used (never released) are gone: replace and for_run."""
    from rstkit.metrics.config import Statistics

    assert not hasattr(EvalConfig, "with_") and not hasattr(Statistics, "used")

"""``--metric signals`` (docs/metrics/erst.md): eRST signals keyed by the extents of the relation they
signal, T (type), S (+ subtype), K (+ exact tokens) and tok (anchor-token overlap), multiset matching
per document.

The oracle shares no code with rstkit: the ``.rs4`` files read with ``xml.etree`` (node extents as in
test_secondary_edges's oracle), signals and anchor tokens counted with ``collections.Counter``.
"""
from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from rstkit import evaluate
from rstkit.errors import RSTKitError
from rstkit.metrics import EvalConfig
from rstkit.metrics.registry import METRICS

from ..support.cli_run import run_main, run_main_out
from .test_secondary_edges import SMALL, WORKED, oracle_extents
from .test_secondary_edges import check_against_oracle as against_oracle

MEASURES = ("T", "S", "K", "tok")


def oracle_counts(gold: Path, pred: Path) -> dict[str, tuple[int, int, int]]:
    """(matched, gold, predicted) of T, S, K and tok for one document."""
    def read(path: Path) -> dict[str, Counter]:
        body = ET.parse(path).getroot().find("body")
        assert body is not None
        extents = oracle_extents(body)
        edges = {e.get("id"): (*extents[e.get("source") or ""], *extents[e.get("target") or ""])
                 for e in body.iter("secedge")}
        out: dict[str, Counter] = {m: Counter() for m in MEASURES}
        for signal in body.iter("signal"):
            source = signal.get("source") or ""
            key = edges[source] if source in edges else (*extents[source], 0, 0)
            kind, sub = signal.get("type") or "", signal.get("subtype") or ""
            tokens = tuple(int(t) for t in (signal.get("tokens") or "").split(",") if t)
            out["T"][(key, kind)] += 1
            out["S"][(key, kind, sub)] += 1
            out["K"][(key, kind, sub, tokens)] += 1
            for token in tokens:
                out["tok"][(key, kind, sub, token)] += 1
        return out

    g, p = read(gold), read(pred)
    return {m: (sum((g[m] & p[m]).values()), sum(g[m].values()), sum(p[m].values())) for m in MEASURES}


def rstkit_counts(gold: Path, pred: Path, **options) -> dict[str, dict[str, tuple[int, int, int]]]:
    result = evaluate(gold, pred, EvalConfig(metric="signals"), **options).result()
    return {r["doc_id"]: {m: (r[m]["matched"], r[m]["gold"], r[m]["pred"]) for m in MEASURES}
            for r in result.document_counts()}


def test_worked_example_scores_as_derived_by_hand():
    # docs/metrics/erst.md: small, gold 5 signals / 6 anchor tokens, pred 7 / 6; T matches 4-5 dm, 5
    # graphical, 2 semantic, edge 5->1 semantic, edge 2->3 dm min(1, 2) = 1 -> 5; S loses node 5 (dash vs
    # colon) -> 4; K also loses node 2 ({7} vs {7, 12}) -> 3; tok: 15, 7, 1, 22 -> 4. plain: nothing predicted.
    want = {"small": {"T": (5, 5, 7), "S": (4, 5, 7), "K": (3, 5, 7), "tok": (4, 6, 6)},
            "plain": {"T": (0, 5, 0), "S": (0, 5, 0), "K": (0, 5, 0), "tok": (0, 6, 0)}}
    assert rstkit_counts(WORKED / "gold", WORKED / "pred") == want
    assert rstkit_counts(WORKED / "gold", WORKED / "pred", jobs=2) == want  # rows packed by reading processes
    for name, counts in want.items():
        assert oracle_counts(WORKED / "gold" / f"{name}.rs4", WORKED / "pred" / f"{name}.rs4") == counts
    micro = evaluate(WORKED / "gold", WORKED / "pred", EvalConfig(metric="signals")).result()
    # micro F1 = 2 matched / (gold + pred): T 10/17, S 8/17, K 6/17, tok 8/18
    assert micro.scores == pytest.approx({"T": 1000 / 17, "S": 800 / 17, "K": 600 / 17, "tok": 800 / 18})
    assert micro.precision == pytest.approx({"T": 500 / 7, "S": 400 / 7, "K": 300 / 7, "tok": 400 / 6})
    assert micro.recall == pytest.approx({"T": 50.0, "S": 40.0, "K": 30.0, "tok": 400 / 12})
    # macro F1: small's F1 (10/12, 8/12, 6/12, 8/12) and plain's 0, halved
    assert micro.with_average("macro").scores == pytest.approx(
        {"T": 500 / 12, "S": 400 / 12, "K": 300 / 12, "tok": 400 / 12})


def mutated(path: Path, rng: random.Random, out: Path) -> None:
    """``path`` with its signals mutated at random (dropped, duplicated, retyped, subtype changed, tokens
    cut or changed, moved to another node), some added; nodes renumbered (ids offset by 1000)."""
    tree = ET.parse(path)
    body = tree.getroot().find("body")
    assert body is not None
    ids = [e.get("id") or "" for e in body if e.tag in ("segment", "group")]
    signals = body.find("signals")
    if signals is None:
        signals = ET.SubElement(body, "signals")
    kinds = sorted({(s.get("type") or "", s.get("subtype") or "") for s in signals} | {("dm", "dm")})
    for signal in list(signals):
        roll = rng.random()
        tokens = [t for t in (signal.get("tokens") or "").split(",") if t]
        if roll < 0.15:
            signals.remove(signal)
        elif roll < 0.3:
            signals.append(ET.Element("signal", dict(signal.attrib)))
        elif roll < 0.4:
            signal.set("type", rng.choice(kinds)[0])
        elif roll < 0.5:
            signal.set("subtype", rng.choice(kinds)[1])
        elif roll < 0.6:
            signal.set("tokens", ",".join(tokens[:rng.randint(0, len(tokens))]))
        elif roll < 0.7:
            signal.set("tokens", ",".join([*tokens, "1"]))
        elif roll < 0.8:
            signal.set("source", rng.choice(ids))
    for _ in range(rng.randint(0, 3)):
        kind, sub = rng.choice(kinds)
        signals.append(ET.Element("signal", {"source": rng.choice(ids), "type": kind, "subtype": sub,
                                             "tokens": rng.choice(["", "1", "1,2"])}))
    offset = {i: str(int(i) + 1000) for i in ids}
    for e in body:
        if e.tag in ("segment", "group"):
            e.set("id", offset[e.get("id") or ""])
            if e.get("parent") is not None:
                e.set("parent", offset[e.get("parent") or ""])
    for edge in body.iter("secedge"):
        edge.set("source", offset[edge.get("source") or ""])
        edge.set("target", offset[edge.get("target") or ""])
    for signal in signals:
        if signal.get("source") in offset:
            signal.set("source", offset[signal.get("source") or ""])
    tree.write(out, encoding="unicode")


def check_against_oracle(sources: list[Path], tmp_path: Path, seed: int) -> None:
    against_oracle(sources, tmp_path, seed, mutate=mutated, oracle=oracle_counts, scored=rstkit_counts)


@pytest.mark.parametrize("seed", range(8))
def test_counts_agree_with_the_oracle_on_mutated_small_files(tmp_path, seed):
    check_against_oracle([SMALL, WORKED / "pred" / "small.rs4", SMALL], tmp_path, seed)


@pytest.mark.gum
@pytest.mark.parametrize("seed", range(2))
def test_counts_agree_with_the_oracle_on_mutated_gum_files(gum_dir, tmp_path, seed):
    files = sorted((gum_dir / "rstweb").glob("*.rs4"))
    check_against_oracle(random.Random(seed).sample(files, 10), tmp_path, seed)


@pytest.mark.gum
@pytest.mark.slow
def test_gum_against_itself_scores_100(gum_dir):
    source = gum_dir / "rstweb"
    files = sorted(source.glob("*.rs4"))
    signals = {f.stem: [s.get("tokens") or "" for s in ET.parse(f).getroot().iter("signal")] for f in files}
    assert sum(map(len, signals.values())) == 40156
    both = evaluate(source, source, [EvalConfig(metric="signals", average=a) for a in ("micro", "macro")])
    micro, macro = both.results
    assert micro.scores == {m: 100.0 for m in MEASURES}
    # macro: a document with nothing to count (no signal; for tok, no anchor token) scores 0
    n = len(files)
    with_signals = sum(1 for s in signals.values() if s)
    with_tokens = sum(1 for s in signals.values() if any(s))
    assert macro.scores == pytest.approx({"T": 100 * with_signals / n, "S": 100 * with_signals / n,
                                          "K": 100 * with_signals / n, "tok": 100 * with_tokens / n})


def test_not_a_tree_family_refused_with_aligned_edus_and_per_relation(capsys):
    assert "signals" not in METRICS
    with pytest.raises(RSTKitError, match="cannot score aligned EDUs"):
        EvalConfig(metric="signals", edus="aligned")
    argv = ["eval", str(WORKED / "gold"), str(WORKED / "pred"), "--metric", "signals"]
    status, err = run_main([*argv, "--edus", "aligned"], capsys)
    assert status == 2
    assert err == ("rstkit: error: --metric signals cannot be scored with --edus aligned (it keys what it scores "
                   "by the gold's EDUs); score it with --edus gold\n")
    status, err = run_main([*argv, "--per-relation"], capsys)
    assert (status, err) == (2, "rstkit: error: signals has no relations to report (--per-relation)\n")


def test_cli_text_and_json_with_signature(capsys):
    argv = ["eval", str(WORKED / "gold"), str(WORKED / "pred"), "--metric", "signals"]
    status, out, _ = run_main_out(argv, capsys)
    assert status == 0
    assert "T      S      K    tok" in out and "58.82  47.06  35.29  44.44" in out
    assert "signature: rstkit:metric=signals|avg=micro|signals=relation-extents-multiset|edus=gold|" in out
    status, out, _ = run_main_out([*argv, "--format", "json"], capsys)
    payload = json.loads(out)
    assert status == 0 and payload["signature"].startswith("rstkit:metric=signals|avg=micro|")
    assert payload["scores"] == pytest.approx({"T": 1000 / 17, "S": 800 / 17, "K": 600 / 17, "tok": 800 / 18})

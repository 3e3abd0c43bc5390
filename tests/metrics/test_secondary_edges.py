"""``--metric secondary-edges`` (docs/metrics/erst.md): eRST secondary edges keyed by their EDU
extents, U and R, multiset matching per document.

The oracle here shares no code with rstkit: it reads ``.rs4`` files with ``xml.etree``, gives each
node its EDU extent from the ``parent`` links (a segment's EDU number is its position among the
segments; a node covers its own EDU, if a segment, and every element below it), and counts matches
with ``collections.Counter`` intersections.
"""
from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from rstkit import evaluate
from rstkit.errors import RSTKitError, RSTKitWarning
from rstkit.metrics import EvalConfig
from rstkit.metrics.registry import METRICS

from ..support.cli_run import run_main, run_main_out

WORKED = Path(__file__).resolve().parents[1] / "data" / "worked" / "erst"
SMALL = Path(__file__).resolve().parents[1] / "data" / "formats" / "erst_small.rs4"


# -- the oracle -------------------------------------------------------------------------------
def oracle_extents(body: ET.Element) -> dict[str, tuple[int, int]]:
    """Every node id of an rs3/rs4 body with its EDU extent, from the XML alone."""
    elements = [e for e in body if e.tag in ("segment", "group")]
    edu = {e.get("id"): n for n, e in enumerate((e for e in elements if e.tag == "segment"), start=1)}
    below: dict[str | None, list[str]] = {}
    for e in elements:
        below.setdefault(e.get("parent"), []).append(e.get("id") or "")

    def covered(node: str) -> list[int]:
        found, todo = [], [node]
        while todo:
            current = todo.pop()
            if current in edu:
                found.append(edu[current])
            todo += below.get(current, [])
        return found

    return {node: (min(edus), max(edus)) for node in (e.get("id") or "" for e in elements)
            if (edus := covered(node))}


def oracle_edges(path: Path) -> Counter[tuple[int, int, int, int, str]]:
    """The file's secondary edges as a multiset of (source start, source end, target start, target
    end, relation), extents computed from the XML alone."""
    body = ET.parse(path).getroot().find("body")
    assert body is not None
    extents = oracle_extents(body)

    def extent(node: str) -> tuple[int, int]:
        return extents[node]

    edges: Counter[tuple[int, int, int, int, str]] = Counter()
    for edge in body.iter("secedge"):
        source, target = extent(edge.get("source") or ""), extent(edge.get("target") or "")
        edges[(*source, *target, edge.get("relname") or "")] += 1
    return edges


def oracle_counts(gold: Path, pred: Path) -> dict[str, tuple[int, int, int]]:
    """(matched, gold, predicted) of U and R for one document."""
    g, p = oracle_edges(gold), oracle_edges(pred)

    def unlabelled(edges: Counter) -> Counter:
        out: Counter = Counter()
        for (a, b, c, d, _), n in edges.items():
            out[(a, b, c, d)] += n
        return out

    total_g, total_p = sum(g.values()), sum(p.values())
    return {"U": (sum((unlabelled(g) & unlabelled(p)).values()), total_g, total_p),
            "R": (sum((g & p).values()), total_g, total_p)}


def rstkit_counts(gold: Path, pred: Path, **settings) -> dict[str, dict[str, tuple[int, int, int]]]:
    """Per document, (matched, gold, predicted) of U and R as rstkit counts them."""
    result = evaluate(gold, pred, EvalConfig(metric="secondary-edges", **settings)).result()
    return {record["doc_id"]: {m: (record[m]["matched"], record[m]["gold"], record[m]["pred"]) for m in ("U", "R")}
            for record in result.document_counts()}


# -- the worked example (docs/metrics/erst.md) ----------------------------------------------------
def test_worked_example_scores_as_derived_by_hand():
    # small: gold 5->1 cause, 2->3 contrast; pred (nodes numbered 11-17) 5->1 elaboration, 2->3 contrast
    # twice, 4-5 -> 1-3 cause. U: pair (5,1) min(1,1)=1, pair (2,3) min(1,2)=1 -> 2 of gold 2, pred 4.
    # R: (5,1,cause) vs elaboration -> 0, (2,3,contrast) min(1,2)=1 -> 1 of 2, 4.
    # plain: gold the same two edges, pred none -> 0 of 2, 0.
    counts = rstkit_counts(WORKED / "gold", WORKED / "pred")
    assert counts == {"plain": {"U": (0, 2, 0), "R": (0, 2, 0)},
                      "small": {"U": (2, 2, 4), "R": (1, 2, 4)}}
    micro = evaluate(WORKED / "gold", WORKED / "pred", EvalConfig(metric="secondary-edges")).result()
    # micro U: 2/4 both ways -> P = R = F1 = 50; R: 1/4 -> 25
    assert micro.precision == pytest.approx({"U": 50.0, "R": 25.0})
    assert micro.recall == pytest.approx({"U": 50.0, "R": 25.0})
    assert micro.scores == pytest.approx({"U": 50.0, "R": 25.0})
    macro = micro.with_average("macro")
    # macro U: P (2/4 + 0)/2 = 25, R (2/2 + 0)/2 = 50, F1 (2/3 + 0)/2 = 33.33;
    # R: P (1/4 + 0)/2 = 12.5, R (1/2 + 0)/2 = 25, F1 (1/3 + 0)/2 = 16.67
    assert macro.precision == pytest.approx({"U": 25.0, "R": 12.5})
    assert macro.recall == pytest.approx({"U": 50.0, "R": 25.0})
    assert macro.scores == pytest.approx({"U": 100 / 3, "R": 50 / 3})


def test_worked_example_per_relation_and_confusion():
    result = evaluate(WORKED / "gold", WORKED / "pred", EvalConfig(metric="secondary-edges")).result()
    # cause: gold one per document, pred 4-5 -> 1-3, no match; contrast: gold 2, pred 2 (small), matched
    # 1; elaboration: pred 1 only
    rows = {r["label"]: (r["gold"], r["pred"], r["matched"]) for r in result.relations().rows()}
    assert rows == {"cause": (2, 1, 0), "contrast": (2, 2, 1), "elaboration": (0, 1, 0)}
    # the confusion pairs the (source, target) pairs each side holds once: (5,1) cause -> elaboration;
    # small's (2,3) is held twice by the prediction and left out
    assert result.confusion().most_confused() == [("cause", "elaboration", 1)]


def test_rows_sent_back_by_reading_processes_count_the_same():
    # with jobs=2 the documents come back prepared, their rows packed as int32 bytes
    result = evaluate(WORKED / "gold", WORKED / "pred", EvalConfig(metric="secondary-edges"), jobs=2).result()
    assert [(r["doc_id"], r["U"]["matched"], r["R"]["matched"], r["U"]["pred"]) for r in result.document_counts()] \
        == [("plain", 0, 0, 0), ("small", 2, 1, 4)]


def test_oracle_reads_the_worked_example_as_derived():
    assert oracle_counts(WORKED / "gold" / "small.rs4", WORKED / "pred" / "small.rs4") == {
        "U": (2, 2, 4), "R": (1, 2, 4)}


# -- against the oracle, on mutated predictions ------------------------------------------------
def mutated(path: Path, rng: random.Random, out: Path) -> None:
    """``path`` with its secondary edges mutated at random: some dropped, duplicated, relabelled,
    retargeted to another node or reversed, new ones added; nodes renumbered (ids offset by 1000)."""
    tree = ET.parse(path)
    body = tree.getroot().find("body")
    assert body is not None
    ids = [e.get("id") or "" for e in body if e.tag in ("segment", "group")]
    relations = sorted({e.get("relname") or "" for e in body.iter("secedge")} | {"cause", "contrast"})
    secedges = body.find("secedges")
    if secedges is None:
        secedges = ET.SubElement(body, "secedges")
    for signals in body.findall("signals"):
        body.remove(signals)
    for edge in list(secedges):
        roll = rng.random()
        if roll < 0.2:
            secedges.remove(edge)
        elif roll < 0.35:
            secedges.append(ET.Element("secedge", dict(edge.attrib)))
        elif roll < 0.5:
            edge.set("relname", rng.choice(relations))
        elif roll < 0.6:
            edge.set("target", rng.choice(ids))
        elif roll < 0.7:
            source, target = edge.get("source") or "", edge.get("target") or ""
            edge.set("source", target)
            edge.set("target", source)
    for _ in range(rng.randint(0, 3)):
        source, target = rng.sample(ids, 2) if len(ids) > 1 else (ids[0], ids[0])
        if source != target:
            secedges.append(ET.Element("secedge", {"source": source, "target": target,
                                                   "relname": rng.choice(relations)}))
    offset = {i: str(int(i) + 1000) for i in ids}
    for e in body:
        if e.tag in ("segment", "group"):
            e.set("id", offset[e.get("id") or ""])
            if e.get("parent") is not None:
                e.set("parent", offset[e.get("parent") or ""])
    for n, edge in enumerate(secedges):
        edge.set("source", offset[edge.get("source") or ""])
        edge.set("target", offset[edge.get("target") or ""])
        edge.set("id", f"e{n}")
    tree.write(out, encoding="unicode")


def check_against_oracle(sources: list[Path], tmp_path: Path, seed: int, *, mutate=None, oracle=None,
                         scored=None) -> None:
    """Gold copies of ``sources`` and predictions mutated from them (``mutate``, seeded): the oracle's
    per-document counts (``oracle``) equal rstkit's (``scored``); secondary edges' own by default, the
    signals' tests pass theirs."""
    mutate, oracle, scored = mutate or mutated, oracle or oracle_counts, scored or rstkit_counts
    rng = random.Random(seed)
    gold_dir, pred_dir = tmp_path / f"gold{seed}", tmp_path / f"pred{seed}"
    gold_dir.mkdir()
    pred_dir.mkdir()
    names = [f"d{n}_{source.stem}" for n, source in enumerate(sources)]
    for name, source in zip(names, sources):
        (gold_dir / f"{name}.rs4").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        mutate(source, rng, pred_dir / f"{name}.rs4")
    want = {name: oracle(gold_dir / f"{name}.rs4", pred_dir / f"{name}.rs4") for name in names}
    assert scored(gold_dir, pred_dir) == want


@pytest.mark.parametrize("seed", range(8))
def test_counts_agree_with_the_oracle_on_mutated_small_files(tmp_path, seed):
    check_against_oracle([SMALL, WORKED / "pred" / "small.rs4", SMALL], tmp_path, seed)


@pytest.mark.gum
@pytest.mark.parametrize("seed", range(2))
def test_counts_agree_with_the_oracle_on_mutated_gum_files(gum_dir, tmp_path, seed):
    files = sorted((gum_dir / "rstweb").glob("*.rs4"))
    picked = random.Random(seed).sample(files, 12)
    family = gum_dir / "rstweb" / "GUM_conversation_family.rs4"  # two edges between the same two nodes
    check_against_oracle([*picked, family], tmp_path, seed)


# -- GUM -------------------------------------------------------------------------------------
@pytest.mark.gum
@pytest.mark.slow
def test_gum_against_itself_and_with_half_of_each_documents_edges_removed(gum_dir, tmp_path):
    source = gum_dir / "rstweb"
    files = sorted(source.glob("*.rs4"))
    assert len(files) == 281
    edges = {f.stem: sum(1 for _ in ET.parse(f).getroot().iter("secedge")) for f in files}
    assert sum(edges.values()) == 1363
    # macro: a document with no edge on either side scores 0 (zero_division), the others 100; a warning counts them
    with_edges = sum(1 for n in edges.values() if n)
    nothing = rf"secondary-edges: {281 - with_edges} document\(s\) in which neither gold nor rstweb has anything"
    with pytest.warns(RSTKitWarning, match=nothing):
        itself = evaluate(source, source, [EvalConfig(metric="secondary-edges", average=a) for a in ("micro", "macro")])
    micro, macro = itself.results
    assert micro.scores == {"U": 100.0, "R": 100.0}
    assert macro.scores == pytest.approx({"U": 100 * with_edges / 281, "R": 100 * with_edges / 281})

    half = tmp_path / "half"
    half.mkdir()
    # half of each document's n edges removed, the first of them: floor(n / 2) and ceil(n / 2) in turn
    # where n is odd, so that the rounding of the documents evens out
    removed: dict[str, int] = {}
    odd_seen = 0
    for f in files:
        n = edges[f.stem]
        removed[f.stem] = n // 2 + (odd_seen % 2 if n % 2 else 0)
        odd_seen += n % 2
    for f in files:
        tree = ET.parse(f)
        for secedges in tree.getroot().iter("secedges"):
            doomed = list(secedges)[:removed[f.stem]]
            for edge in doomed:
                secedges.remove(edge)
        for signals in tree.getroot().iter("signals"):  # signals of removed edges would name nothing
            for signal in list(signals):
                if "-" in (signal.get("source") or ""):
                    signals.remove(signal)
        tree.write(half / f.name, encoding="unicode")
    kept = sum(n - removed[name] for name, n in edges.items())
    with pytest.warns(RSTKitWarning, match=f"{281 - with_edges} document"):  # the same documents as above
        result = evaluate(source, half, EvalConfig(metric="secondary-edges")).result()
    assert result.recall == pytest.approx({"U": 100 * kept / 1363, "R": 100 * kept / 1363})
    assert result.precision == {"U": 100.0, "R": 100.0}
    # 50 within rounding of per-document counts: floors and ceilings in turn keep the total within half an
    # edge of 1363 / 2 (GUM: 682 kept, recall 50.04)
    assert abs(result.recall["U"] - 50) <= 100 * 0.5 / 1363 + 1e-9


def test_a_document_with_nothing_to_score_is_named_in_a_warning(tmp_path):
    # gold = prediction: the worked example's small.rs4 (2 edges) and plain.rs4 with its edges and signals
    # taken out. Micro: 2/2 = 100. Macro: small 100, plain 0 (no edge on either side: zero_division),
    # (100 + 0) / 2 = 50 -- and a warning names plain, so the 50 is not silent
    folder = tmp_path / "gold"
    folder.mkdir()
    (folder / "small.rs4").write_text((WORKED / "gold" / "small.rs4").read_text(encoding="utf-8"), encoding="utf-8")
    plain = ET.parse(WORKED / "gold" / "plain.rs4")
    for parent in list(plain.getroot().iter()):
        for child in list(parent):
            if child.tag in ("secedges", "signals"):
                parent.remove(child)
    plain.write(folder / "plain.rs4", encoding="unicode")
    with pytest.warns(RSTKitWarning, match=r"1 document\(s\) in which neither gold nor gold has .*: plain$"):
        result = evaluate(folder, folder, [EvalConfig(metric="secondary-edges", average=a) for a in ("micro", "macro")])
    micro, macro = result.results
    assert micro.scores == {"U": 100.0, "R": 100.0} and macro.scores == {"U": 50.0, "R": 50.0}


# -- settings and the command line -------------------------------------------------------------
def test_not_a_tree_family_and_refused_with_aligned_edus(capsys):
    assert "secondary-edges" not in METRICS
    with pytest.raises(RSTKitError, match="cannot score aligned EDUs"):
        EvalConfig(metric="secondary-edges", edus="aligned")
    status, err = run_main(["eval", str(WORKED / "gold"), str(WORKED / "pred"), "--metric", "secondary-edges",
                            "--edus", "aligned"], capsys)
    assert status == 2
    assert err == ("rstkit: error: --metric secondary-edges cannot be scored with --edus aligned (it keys what it "
                   "scores by the gold's EDUs); score it with --edus gold\n")


def test_cli_text_and_json_with_signature(capsys):
    argv = ["eval", str(WORKED / "gold"), str(WORKED / "pred"), "--metric", "secondary-edges"]
    status, out, _ = run_main_out(argv, capsys)
    assert status == 0
    assert "      U      R" in out and "  50.00  25.00" in out
    assert "signature: rstkit:metric=secondary-edges|avg=micro|edges=extents-multiset|edus=gold|labels=raw|" in out
    status, out, _ = run_main_out([*argv, "--format", "json"], capsys)
    assert status == 0
    payload = json.loads(out)
    assert payload["scores"] == {"U": 50.0, "R": 25.0}
    assert payload["signature"].startswith("rstkit:metric=secondary-edges|avg=micro|edges=extents-multiset|")


def test_relations_go_through_the_label_map(tmp_path):
    # edge relations that differ only in case: raw keeps them apart; rstdt18 lowercases and maps both to
    # the class cause (contrast likewise to contrast), so the prediction's edges match R
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    gold.mkdir()
    pred.mkdir()
    text = SMALL.read_text(encoding="utf-8")
    (gold / "d.rs4").write_text(text, encoding="utf-8")
    (pred / "d.rs4").write_text(text.replace('relname="cause"/>', 'relname="Cause"/>'), encoding="utf-8")
    assert rstkit_counts(gold, pred)["d"]["R"] == (1, 2, 2)  # raw: Cause is not cause
    assert rstkit_counts(gold, pred, labels="rstdt18", unknown_labels="keep")["d"]["R"] == (2, 2, 2)

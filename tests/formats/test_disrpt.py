"""DISRPT segmentation files and their scoring (``--metric segmentation``).

Expected values come from two places that share no code with rstkit: counts worked out by hand
on tiny files (the arithmetic is in the comments), and :func:`oracle_counts` below, a second
reading of the files written here from the official scorer's rules (``utils/disrpt_eval_2024.py``
in disrpt/sharedtask2025: lines starting with ``#`` and blank lines skipped, ids holding ``-`` or
``.`` skipped, ``Seg=B-seg`` in the last column a boundary, with ``-nb`` every token with id 1 none;
a true positive where both sides mark a token).
"""
from __future__ import annotations

import json
import tempfile
import warnings
from itertools import cycle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import GUM
from rstkit.cli import main
from rstkit.errors import EDUMismatchError, FormatError, RSTKitError, WriteError
from rstkit.evaluation import evaluate
from rstkit.formats.disrpt import read_disrpt, with_boundaries, write_conllu, write_tok
from rstkit.formats.rsd import loads_rsd
from rstkit.metrics import EvalConfig
from rstkit.report import token_scores

GOLD_CONLLU = """\
# newdoc id = docA
# sent_id = docA-1
1\tThe\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg
2\tcat\t_\t_\t_\t_\t_\t_\t_\tSeg=O
3-4\tdidn't\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg
3\tdid\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No|Seg=B-seg
4\tn't\t_\t_\t_\t_\t_\t_\t_\tSeg=O
5\tsleep\t_\t_\t_\t_\t_\t_\t_\t_

# sent_id = docA-2
1\tBut\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg
2\tit\t_\t_\t_\t_\t_\t_\t_\tSeg=O
2.1\tdid\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg
3\tran\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg

# newdoc id = docB
# sent_id = docB-1
1\tYes\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg
2\t,\t_\t_\t_\t_\t_\t_\t_\tSeg=O
3\tsure\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg

"""
# the same tokens; boundaries on The, cat, But, ran | sure (the MWT and empty-node lines count nothing)
PRED_CONLLU = (GOLD_CONLLU.replace("2\tcat\t_\t_\t_\t_\t_\t_\t_\tSeg=O", "2\tcat\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg")
               .replace("SpaceAfter=No|Seg=B-seg", "SpaceAfter=No|Seg=O")
               .replace("1\tYes\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg", "1\tYes\t_\t_\t_\t_\t_\t_\t_\tSeg=O"))


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def run_json(argv: list[str], capsys) -> dict:
    capsys.readouterr()
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


# -- hand-derived values ----------------------------------------------------------------------------
def test_hand_counted_micro_and_no_sentence_initial(tmp_path, capsys) -> None:
    gold, pred = write(tmp_path / "g.conllu", GOLD_CONLLU), write(tmp_path / "p.conllu", PRED_CONLLU)
    out = run_json(["eval", gold, pred, "--metric", "segmentation"], capsys)
    # tokens: docA 5 + 3, docB 3 = 11; gold: The did But ran | Yes sure = 6; pred: The cat But ran | sure = 5;
    # matched: The But ran | sure = 4 -> P 4/5, R 4/6, F1 2*4/(5+6) = 8/11
    assert out["counts"] == {"tokens": 11, "gold": 6, "pred": 5, "matched": 4}
    assert out["scores"]["P"] == pytest.approx(80.0)
    assert out["scores"]["R"] == pytest.approx(400 / 6)
    assert out["scores"]["F1"] == pytest.approx(800 / 11)
    assert out["signature"].startswith("rstkit:metric=segmentation|avg=micro|seg=disrpt|docinit=counted|")
    nb = run_json(["eval", gold, pred, "--metric", "segmentation", "--no-sentence-initial"], capsys)
    # sentence-initial tokens The, But, Yes dropped: gold did ran sure = 3, pred cat ran sure = 3, matched ran sure
    assert nb["counts"] == {"tokens": 11, "gold": 3, "pred": 3, "matched": 2}
    assert nb["scores"]["F1"] == pytest.approx(200 / 3)
    assert "sentinit=dropped" in nb["signature"]


def test_hand_counted_macro(tmp_path, capsys) -> None:
    gold, pred = write(tmp_path / "g.conllu", GOLD_CONLLU), write(tmp_path / "p.conllu", PRED_CONLLU)
    out = run_json(["eval", gold, pred, "--metric", "segmentation", "--average", "macro"], capsys)
    # docA: 3 of 4 gold, 3 of 4 pred -> P = R = F1 = 0.75; docB: 1 of 2 gold, 1 of 1 pred -> P 1, R 0.5, F1 2/3
    assert out["scores"]["P"] == pytest.approx(87.5)
    assert out["scores"]["R"] == pytest.approx(62.5)
    assert out["scores"]["F1"] == pytest.approx(100 * (0.75 + 2 / 3) / 2)


def test_no_boundary_at_all_scores_zero(tmp_path, capsys) -> None:
    gold = write(tmp_path / "g.tok", "# newdoc id = d\n1\ta\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg\n"
                                     "2\tb\t_\t_\t_\t_\t_\t_\t_\tSeg=O\n")
    pred = write(tmp_path / "p.tok", "# newdoc id = d\n1\ta\t_\t_\t_\t_\t_\t_\t_\tSeg=O\n"
                                     "2\tb\t_\t_\t_\t_\t_\t_\t_\t_\n")
    out = run_json(["eval", gold, pred, "--metric", "segmentation"], capsys)
    assert out["scores"] == {"P": 0.0, "R": 0.0, "F1": 0.0}
    assert out["counts"] == {"tokens": 2, "gold": 1, "pred": 0, "matched": 0}


def test_directories_are_matched_by_newdoc_id(tmp_path, capsys) -> None:
    (tmp_path / "gold").mkdir()
    (tmp_path / "pred").mkdir()
    write(tmp_path / "gold" / "all.conllu", GOLD_CONLLU)
    doc_b = PRED_CONLLU.index("# newdoc id = docB")
    write(tmp_path / "pred" / "1.conllu", PRED_CONLLU[doc_b:])  # the documents in other files, other order
    write(tmp_path / "pred" / "2.conllu", PRED_CONLLU[:doc_b])
    out = run_json(["eval", str(tmp_path / "gold"), str(tmp_path / "pred"), "--metric", "segmentation"], capsys)
    assert out["counts"] == {"tokens": 11, "gold": 6, "pred": 5, "matched": 4}


# -- errors --------------------------------------------------------------------------------------------
def test_no_sentence_initial_on_tok_is_an_error(tmp_path, capsys) -> None:
    tok = write(tmp_path / "g.tok", "# newdoc id = d\n1\ta\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg\n")
    assert main(["eval", tok, tok, "--metric", "segmentation", "--no-sentence-initial"]) == 2
    assert "needs sentences (.conllu files)" in capsys.readouterr().err


def test_token_mismatch_names_document_and_token(tmp_path, capsys) -> None:
    gold = write(tmp_path / "g.conllu", GOLD_CONLLU)
    pred = write(tmp_path / "p.conllu", PRED_CONLLU.replace("\tsleep\t", "\tslept\t"))
    assert main(["eval", gold, pred, "--metric", "segmentation"]) == 2
    err = capsys.readouterr().err
    assert "document 'docA'" in err and "token 5: 'sleep' in gold, 'slept' in prediction" in err
    with pytest.raises(EDUMismatchError, match="texts differ too"):
        evaluate(gold, pred, EvalConfig(metric="segmentation", lenient=True))


def test_lenient_aligns_tokens_by_characters_and_says_so(tmp_path) -> None:
    gold = write(tmp_path / "g.conllu", GOLD_CONLLU)
    # "sleep" split into "sl" + "eep", a boundary on "eep": one more predicted, nothing more matched
    split = PRED_CONLLU.replace("5\tsleep\t_\t_\t_\t_\t_\t_\t_\t_",
                                "5\tsl\t_\t_\t_\t_\t_\t_\t_\t_\n6\teep\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg")
    pred = write(tmp_path / "p.conllu", split)
    with pytest.raises(EDUMismatchError, match="token 5: 'sleep' in gold, 'sl' in prediction"):
        evaluate(gold, pred, EvalConfig(metric="segmentation"))
    with pytest.warns(Warning, match="aligned by characters"):
        result = evaluate(gold, pred, EvalConfig(metric="segmentation", lenient=True))
    assert token_scores(result)[1] == {"tokens": 11, "gold": 6, "pred": 6, "matched": 4}


@pytest.mark.parametrize(("line", "message"), [
    ("1\ta\t_\t_\t_\t_\t_\t_\tSeg=B-seg", "10 tab-separated columns"),
    ("x\ta\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg", "is not a number"),
    ("1\ta\t_\t_\t_\t_\t_\t_\t_\tSeg=X", "a segmentation label is Seg=B-seg, Seg=O or Seg=I-seg"),
    ("1\ta\t_\t_\t_\t_\t_\t_\t_\tBeginSeg=No", "or BeginSeg=Yes"),
    ("1\ta\t_\t_\t_\t_\t_\t_\t_\tSeg=B-Conn", "labels a discourse connective"),
    ("1\ta\t_\t_\t_\t_\t_\t_\t_\tConn=B-conn", "labels a discourse connective"),
    ("1\ta\t_\t_\t_\t_\t_\t_\t_\tSeg=O|Conn=O", "2 segmentation labels"),
    ("1\ta\t_\t_\t_\t_\t_\t_\t_\tBeginSeg=Yes", "mixes two segmentation labellings"),  # line 2 has Seg=O
])
def test_bad_lines_name_file_and_line(tmp_path, line, message) -> None:
    path = write(tmp_path / "bad.tok", f"# newdoc id = d\n1\tb\t_\t_\t_\t_\t_\t_\t_\tSeg=O\n{line}\n")
    with pytest.raises(FormatError, match=message) as caught:
        read_disrpt(path)
    assert caught.value.path == path and caught.value.line == 3


def test_a_segmentation_is_not_scored_as_a_tree(tmp_path) -> None:
    gold = write(tmp_path / "g.conllu", GOLD_CONLLU)
    with pytest.raises(RSTKitError, match="only --metric segmentation scores it"):
        evaluate(gold, gold, EvalConfig(metric="parseval"))


# -- round trips -------------------------------------------------------------------------------------
RSD = ("1\tRain fell ,\t0\t_\t_\tsid=1\t2\telaboration_r\t_\t_\n"
       "2\tand the streets flooded .\t0\t_\t_\tsid=1\t0\tROOT\t_\t_\n"
       "3\tNobody came .\t0\t_\t_\tsid=2\t2\tresult_r\t_\t_\n")


def test_rsd_to_tok_and_conllu_gives_back_its_edus(tmp_path, capsys) -> None:
    tree = loads_rsd(RSD, doc_id="tiny")
    for suffix, writer in ((".tok", write_tok), (".conllu", write_conllu)):
        (document,) = read_disrpt(write(tmp_path / f"tiny{suffix}", writer(tree))).documents
        assert [e.text for e in document.edus()] == [e.text for e in tree.edus]
    (conllu,) = read_disrpt(tmp_path / "tiny.conllu").documents
    assert conllu.sentence_starts == (True,) + (False,) * 7 + (True, False, False)  # sid 1: 8 tokens, sid 2: 3
    # the tree scored as a segmentation against its own DISRPT file: every boundary matched
    rsd = write(tmp_path / "tiny.rsd", RSD)
    out = run_json(["eval", rsd, str(tmp_path / "tiny.conllu"), "--metric", "segmentation",
                    "--no-sentence-initial"], capsys)
    assert out["counts"] == {"tokens": 11, "gold": 1, "pred": 1, "matched": 1}  # "and" is the one inside a sentence


def test_convert_writes_tok_and_conllu(tmp_path) -> None:
    rsd = write(tmp_path / "tiny.rsd", RSD)
    assert main(["convert", rsd, str(tmp_path / "out.tok"), "--to", "tok"]) == 0
    assert (tmp_path / "out.tok").read_text(encoding="utf-8").splitlines()[:3] == [
        "# newdoc id = tiny", "1\tRain\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg", "2\tfell\t_\t_\t_\t_\t_\t_\t_\tSeg=O"]


GUM_TEST = GUM / "dependencies" / "GUM_voyage_socotra.rsd"


@pytest.mark.skipif(not GUM_TEST.exists(), reason="needs a GUM checkout")
def test_gum_rsd_round_trip(tmp_path) -> None:
    from rstkit import read_tree

    tree = read_tree(GUM_TEST)
    (document,) = read_disrpt(write(tmp_path / "d.conllu", write_conllu(tree))).documents
    assert [e.text for e in document.edus()] == [" ".join(e.text.split()) for e in tree.edus]
    assert [e.sentence for e in document.edus()] == [e.sentence for e in tree.edus]  # GUM's sids are 1, 2, 3...


# -- a second counting, on hypothesis-made files ----------------------------------------------------------
def oracle_counts(gold: str, pred: str, no_sentence_initial: bool) -> tuple[int, int, int, int]:
    """``(tokens, gold, pred, matched)`` by the official scorer's rules (module docstring)."""
    def labels(text: str) -> list[tuple[str, bool]]:
        out = []
        for line in text.split("\n"):
            if line.startswith("#") or line == "":
                continue
            cells = line.split("\t")
            if "-" in cells[0] or "." in cells[0]:
                continue
            boundary = "Seg=B-seg" in cells[-1] and not (no_sentence_initial and cells[0] == "1")
            out.append((cells[1], boundary))
        return out

    g, p = labels(gold), labels(pred)
    assert [t for t, _ in g] == [t for t, _ in p]
    return (len(g), sum(b for _, b in g), sum(b for _, b in p),
            sum(a and b for (_, a), (_, b) in zip(g, p)))


WORD = st.text(alphabet="abcXY,.'", min_size=1, max_size=4)


@st.composite
def documents(draw) -> list[list[list[tuple[str, bool, bool]]]]:
    """Documents of sentences of (word, gold boundary, predicted boundary)."""
    token = st.tuples(WORD, st.booleans(), st.booleans())
    sentence = st.lists(token, min_size=1, max_size=6)
    return draw(st.lists(st.lists(sentence, min_size=1, max_size=4), min_size=1, max_size=3))


def render(docs, side: int, conllu: bool, extras: list[int]) -> str:
    """A file of ``docs`` with side ``side``'s boundaries; ``extras`` (drawn numbers) place
    multi-word-token and empty-node lines, carrying a Seg=B-seg that must not count, and MISC items
    (``_`` for Seg=O, but on a document's first token: a document without any label is an error)."""
    lines = []
    pick = cycle(extras)  # as many as the tokens need
    for d, doc in enumerate(docs):
        lines.append(f"# newdoc id = doc{d}")
        number = 0
        for s, sentence in enumerate(doc):
            if conllu:
                number = 0
                lines.append(f"# sent_id = doc{d}-{s + 1}")
            for word, *marks in sentence:
                number += 1
                kind = next(pick) % 5
                if kind == 0:
                    lines.append(f"{number}-{number + 1}\t{word}{word}\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg")
                label = "Seg=B-seg" if marks[side] else "Seg=O"
                misc = {1: f"SpaceAfter=No|{label}", 2: f"{label}|Other=1"}.get(kind, label)
                if kind == 3 and not marks[side] and (s, number) != (0, 1):
                    misc = "_"
                lines.append(f"{number}\t{word}\t_\t_\t_\t_\t_\t_\t_\t{misc}")
                if kind == 4:
                    lines.append(f"{number}.1\t{word}\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg")
            if conllu:
                lines.append("")
        if not conllu:
            lines.append("")
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None)
@given(documents(), st.lists(st.integers(0, 9), min_size=1, max_size=8), st.booleans(), st.booleans(),
       st.sampled_from(["micro", "macro"]))
def test_counts_equal_a_second_counting(docs, extras, conllu, drop, average) -> None:
    drop = drop and conllu
    gold, pred = render(docs, 0, conllu, extras), render(docs, 1, conllu, extras[::-1])
    suffix = ".conllu" if conllu else ".tok"
    with tempfile.TemporaryDirectory() as folder:
        gold_path = write(Path(folder) / f"gold{suffix}", gold)
        pred_path = write(Path(folder) / f"pred{suffix}", pred)
        config = EvalConfig(metric="segmentation", average=average,
                            sentence_initial="dropped" if drop else "counted")
        result = evaluate(gold_path, pred_path, config)
    tokens, n_gold, n_pred, matched = oracle_counts(gold, pred, drop)
    scores, counts = token_scores(result)
    assert counts == {"tokens": tokens, "gold": n_gold, "pred": n_pred, "matched": matched}
    if average == "micro":
        p = 100 * matched / n_pred if n_pred else 0.0
        r = 100 * matched / n_gold if n_gold else 0.0
        assert scores["P"] == pytest.approx(p) and scores["R"] == pytest.approx(r)
        assert scores["F1"] == pytest.approx(2 * p * r / (p + r) if p + r else 0.0)


@settings(max_examples=60, deadline=None)
@given(documents(), st.lists(st.integers(0, 9), min_size=1, max_size=8), st.booleans(), st.data())
def test_writing_back_changes_only_the_last_column(docs, extras, conllu, data) -> None:
    text = render(docs, 0, conllu, extras).replace("\n", "\r\n", data.draw(st.integers(0, 3)))
    suffix = ".conllu" if conllu else ".tok"
    with tempfile.TemporaryDirectory() as folder:
        original = read_disrpt(write(Path(folder) / f"in{suffix}", text))
        new = {d.doc_id: data.draw(st.lists(st.booleans(), min_size=len(d.tokens), max_size=len(d.tokens)))
               for d in original.documents}
        written = with_boundaries(original, new)
        again = read_disrpt(write(Path(folder) / f"out{suffix}", written))
    before, after = text.split("\n"), written.split("\n")
    assert len(before) == len(after)
    for old, line in zip(before, after):
        if old.rstrip("\r").count("\t") == 9 and "-" not in old.split("\t")[0] and "." not in old.split("\t")[0]:
            assert old.rsplit("\t", 1)[0] == line.rsplit("\t", 1)[0] and old.endswith("\r") == line.endswith("\r")
            other = [i for i in old.rstrip("\r").rsplit("\t", 1)[1].split("|") if not i.startswith("Seg=")]
            assert [i for i in line.rstrip("\r").rsplit("\t", 1)[1].split("|") if not i.startswith("Seg=")] == [
                i for i in other if i != "_"]
        else:
            assert old == line  # comments, blank lines, multi-word tokens and empty nodes: byte for byte
    assert [d.tokens for d in again.documents] == [d.tokens for d in original.documents]
    assert [d.sentence_starts for d in again.documents] == [d.sentence_starts for d in original.documents]
    assert {d.doc_id: list(d.boundaries) for d in again.documents} == new


@pytest.mark.parametrize("suffix", [".tok", ".conllu"])
def test_writing_back_keeps_a_byte_order_mark(tmp_path, suffix) -> None:
    """Issue 32, item 15: a file that begins with a UTF-8 byte-order mark is written back with it (the
    mark's three bytes, then the file's text with only the Seg items changed)."""
    source = tmp_path / f"in{suffix}"
    source.write_bytes(b"\xef\xbb\xbf" + GOLD_CONLLU.encode("utf-8"))
    original = read_disrpt(source)
    assert original.documents[0].doc_id == "docA"  # the mark is not part of the first line
    written = with_boundaries(original, {d.doc_id: [True] * len(d.tokens) for d in original.documents})
    assert written.encode("utf-8").startswith(b"\xef\xbb\xbf# newdoc id = docA\n")
    plain = tmp_path / f"plain{suffix}"
    plain.write_text(GOLD_CONLLU, encoding="utf-8")
    assert not with_boundaries(read_disrpt(plain), {}).startswith("\ufeff")


def test_convert_reads_disrpt_files_as_segmentations(tmp_path, capsys) -> None:
    source = write(tmp_path / "all.conllu", GOLD_CONLLU)
    assert main(["convert", source, str(tmp_path / "tok"), "--to", "tok"]) == 0
    doc_a = read_disrpt(tmp_path / "tok" / "docA.tok").documents[0]
    assert doc_a.tokens == ("The", "cat", "did", "n't", "sleep", "But", "it", "ran")  # no 3-4 or 2.1 line
    assert doc_a.boundaries == (True, False, True, False, False, True, False, True)
    assert doc_a.sentence_starts is None
    assert main(["convert", str(tmp_path / "tok" / "docA.tok"), str(tmp_path / "a.conllu"), "--to", "conllu"]) == 2
    assert ".tok files have no sentences" in capsys.readouterr().err
    assert main(["convert", source, str(tmp_path / "dis"), "--to", "dis"]) == 2
    assert "not trees" in capsys.readouterr().err


def test_segmentation_is_scored_alone_and_has_no_relations(tmp_path, capsys) -> None:
    gold = write(tmp_path / "g.conllu", GOLD_CONLLU)
    assert main(["eval", gold, gold, "--metric", "segmentation", "--edus", "aligned"]) == 2
    assert "score it alone" in capsys.readouterr().err
    assert main(["eval", gold, gold, "--metric", "segmentation", "--per-relation"]) == 2
    assert "no relations" in capsys.readouterr().err
    rsd = write(tmp_path / "tiny.rsd", RSD)
    everything = json.loads(_stdout(["eval", rsd, rsd, "--metric", "all", "--format", "json"], capsys))
    assert "segmentation" not in {entry["metric"] for entry in everything}


def test_several_systems_text_table(tmp_path, capsys) -> None:
    gold, pred = write(tmp_path / "g.conllu", GOLD_CONLLU), write(tmp_path / "p.conllu", PRED_CONLLU)
    lines = _stdout(["eval", gold, pred, gold, "--metric", "segmentation", "--n-trials", "50",
                     "--n-bootstrap", "50"], capsys).splitlines()
    assert lines[1].split() == ["system", "P", "R", "F1", "tokens", "gold", "pred", "matched"]
    assert lines[3].split() == ["p", "80.00", "66.67", "72.73", "11", "6", "5", "4"]  # the hand counts above
    assert lines[4].split() == ["g", "100.00", "100.00", "100.00", "11", "6", "6", "6"]
    assert "randomization p" in lines[6]


def _stdout(argv: list[str], capsys) -> str:
    capsys.readouterr()
    assert main(argv) == 0
    return capsys.readouterr().out


@settings(max_examples=40, deadline=None)
@given(documents(), st.data())
def test_lenient_counts_boundaries_by_character_offset(docs, data) -> None:
    """Predictions over other tokens of the same text (each gold token maybe cut in two, the second
    piece maybe marked): what matches is what begins at the same character of the text."""
    gold_lines, pred_lines = [], []
    gold_starts: set[tuple[int, int]] = set()
    pred_starts: set[tuple[int, int]] = set()
    tokens = 0
    for d, doc in enumerate(docs):
        gold_lines.append(f"# newdoc id = doc{d}")
        pred_lines.append(f"# newdoc id = doc{d}")
        offset = pred_number = 0
        words = [token for sentence in doc for token in sentence]
        tokens += len(words)
        for gold_number, (word, gold_mark, pred_mark) in enumerate(words, start=1):
            gold_lines.append(f"{gold_number}\t{word}\t_\t_\t_\t_\t_\t_\t_\t{'Seg=B-seg' if gold_mark else 'Seg=O'}")
            cut = data.draw(st.integers(0, len(word) - 1))
            pieces = [(word[:cut], pred_mark), (word[cut:], data.draw(st.booleans()))] if cut else [(word, pred_mark)]
            start = offset
            for piece, mark in pieces:
                pred_number += 1
                pred_lines.append(f"{pred_number}\t{piece}\t_\t_\t_\t_\t_\t_\t_\t{'Seg=B-seg' if mark else 'Seg=O'}")
                if mark:
                    pred_starts.add((d, start))
                start += len(piece)
            if gold_mark:
                gold_starts.add((d, offset))
            offset += len(word)
    with tempfile.TemporaryDirectory() as folder:
        gold = write(Path(folder) / "gold.tok", "\n".join(gold_lines) + "\n")
        pred = write(Path(folder) / "pred.tok", "\n".join(pred_lines) + "\n")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = evaluate(gold, pred, EvalConfig(metric="segmentation", lenient=True))
    assert token_scores(result)[1] == {"tokens": tokens, "gold": len(gold_starts), "pred": len(pred_starts),
                                       "matched": len(gold_starts & pred_starts)}


# -- document ids a DISRPT file cannot hold (issue 32, item 9) ---------------------------------------------
# A ``# newdoc id = ID`` line is read (module docstring of rstkit.formats.disrpt) as the text after ``=`` up
# to the end of the line, whitespace around it stripped; an empty id is refused. So an id with a line break
# would put the rest of it on a line of its own (a token line or a comment), one with whitespace around it
# would read back as another id, and an empty one would not read back at all.
@pytest.mark.parametrize("doc_id", ["a\nb", "a\rb", "a\r\nb", " a", "a\t", ""])
@pytest.mark.parametrize("writer", [write_tok, write_conllu])
def test_an_id_a_newdoc_line_cannot_hold_is_refused(doc_id, writer) -> None:
    tree = loads_rsd(RSD, doc_id=doc_id)
    with pytest.raises(WriteError, match="id" if doc_id else "without an id"):
        writer(tree)


@pytest.mark.parametrize("doc_id", ["a b", "a\x1bb", "doc#1", "é"])
def test_an_id_a_newdoc_line_holds_reads_back(tmp_path, doc_id) -> None:
    tree = loads_rsd(RSD, doc_id=doc_id)
    for suffix, writer in ((".tok", write_tok), (".conllu", write_conllu)):
        (document,) = read_disrpt(write(tmp_path / f"d{suffix}", writer(tree))).documents
        assert document.doc_id == doc_id


def test_convert_refuses_a_file_name_with_a_line_break(tmp_path, capsys) -> None:
    rsd = write(tmp_path / "a\nb.rsd", RSD)  # its document id is "a\nb"
    for to in ("tok", "conllu"):
        assert main(["convert", rsd, str(tmp_path / f"out.{to}"), "--to", to]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "cannot write document 'a\\nb'" in err and "line break" in err
        assert not (tmp_path / f"out.{to}").exists()


def test_no_tree_writer_puts_an_id_with_a_line_break_in_its_file() -> None:
    # the tree formats write no document id in the file (the file's name carries it): the id, or its
    # second line, appears in none of them
    from rstkit.formats import all_formats, dumps
    from rstkit.transform import binarize

    tree = binarize(loads_rsd(RSD, doc_id="first\nsecond"))  # binary: every writer writes it
    for key, fmt in all_formats().items():
        if fmt.write is not None:
            assert "second" not in dumps(tree, key), key


# -- the 2019-2021 labelling: BeginSeg=Yes, nothing inside an EDU (issue 32, item 5) -------------------------------
def tok_lines(doc_id: str, rows: list[tuple[str, str]]) -> str:
    return f"# newdoc id = {doc_id}\n" + "".join(f"{i}\t{word}\t_\t_\t_\t_\t_\t_\t_\t{misc}\n"
                                                 for i, (word, misc) in enumerate(rows, start=1)) + "\n"


# gold: d1 "When it rains , we stay in ." with EDUs at When and we; d2 "Yes ." with one EDU at Yes: 3 boundaries
GOLD_2019 = (tok_lines("d1", [("When", "BeginSeg=Yes"), ("it", "_"), ("rains", "SpaceAfter=No"), (",", "_"),
                              ("we", "BeginSeg=Yes|SpaceAfter=No"), ("stay", "_"), ("in", "_"), (".", "_")])
             + tok_lines("d2", [("Yes", "BeginSeg=Yes"), (".", "_")]))
# prediction: boundaries at When, it, stay | Yes, . (5)
PRED_2019 = (tok_lines("d1", [("When", "BeginSeg=Yes"), ("it", "BeginSeg=Yes"), ("rains", "SpaceAfter=No"),
                              (",", "_"), ("we", "SpaceAfter=No"), ("stay", "BeginSeg=Yes"), ("in", "_"), (".", "_")])
             + tok_lines("d2", [("Yes", "BeginSeg=Yes"), (".", "BeginSeg=Yes")]))


def test_2019_labels_gold_against_itself_is_100(tmp_path, capsys) -> None:
    gold = write(tmp_path / "g.tok", GOLD_2019)
    out = run_json(["eval", gold, gold, "--metric", "segmentation"], capsys)
    # 10 tokens, 3 boundaries on each side, all matched: P = R = F1 = 100 (before: read as no boundary, 0.00)
    assert out["counts"] == {"tokens": 10, "gold": 3, "pred": 3, "matched": 3}
    assert out["scores"] == {"P": 100.0, "R": 100.0, "F1": 100.0}


def test_2019_labels_hand_counted(tmp_path, capsys) -> None:
    gold, pred = write(tmp_path / "g.tok", GOLD_2019), write(tmp_path / "p.tok", PRED_2019)
    # gold When, we | Yes (3); predicted When, it, stay | Yes, . (5); matched When | Yes (2):
    # P = 2/5 = 40, R = 2/3 = 66.67, F1 = 2*2/(3+5) = 50
    expected = {"tokens": 10, "gold": 3, "pred": 5, "matched": 2}
    out = run_json(["eval", gold, pred, "--metric", "segmentation"], capsys)
    assert out["counts"] == expected
    assert out["scores"]["P"] == pytest.approx(40.0) and out["scores"]["R"] == pytest.approx(200 / 3)
    assert out["scores"]["F1"] == pytest.approx(50.0)
    # the same prediction labelled as since 2023 (Seg=B-seg / Seg=O): the same counts, whatever the gold's era
    relabelled = (PRED_2019.replace("BeginSeg=Yes", "Seg=B-seg").replace("\t_\n", "\tSeg=O\n")
                  .replace("\tSpaceAfter=No\n", "\tSpaceAfter=No|Seg=O\n"))
    pred_2023 = write(tmp_path / "p2023.tok", relabelled)
    assert run_json(["eval", gold, pred_2023, "--metric", "segmentation"], capsys)["counts"] == expected


def test_2019_conllu_with_other_misc_items(tmp_path, capsys) -> None:
    # one document, two sentences; EDUs at When (BeginSeg=Yes among other items) and we: 2 boundaries of 8 tokens
    text = ("# newdoc id = c1\n# sent_id = c1-1\n1\tWhen\t_\t_\t_\t_\t_\t_\t_\tBeginSeg=Yes|Other=1\n"
            "2\tit\t_\t_\t_\t_\t_\t_\t_\t_\n3\train\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n4\ts\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
            "# sent_id = c1-2\n1\twe\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No|BeginSeg=Yes\n"
            "2\tstay\t_\t_\t_\t_\t_\t_\t_\t_\n3\tin\t_\t_\t_\t_\t_\t_\t_\t_\n4\t.\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
    gold = write(tmp_path / "g.conllu", text)
    out = run_json(["eval", gold, gold, "--metric", "segmentation"], capsys)
    assert out["counts"] == {"tokens": 8, "gold": 2, "pred": 2, "matched": 2}
    assert out["scores"]["F1"] == 100.0


UNLABELLED = tok_lines("plain", [("Just", "_"), ("tokens", "SpaceAfter=No"), (".", "_")])


def test_a_document_without_segmentation_labels_is_an_error_naming_file_and_line(tmp_path, capsys) -> None:
    gold = write(tmp_path / "g.tok", GOLD_2019 + UNLABELLED)
    assert main(["eval", gold, gold, "--metric", "segmentation"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    # GOLD_2019 is 14 lines (d1: its newdoc line, 8 tokens, a blank line; d2: 1 + 2 + 1): "plain" opens on line
    # 15, its first token is line 16
    assert len(GOLD_2019.split("\n")) - 1 == 14
    assert err == [(f"rstkit: error: {gold}:16: document 'plain' has no segmentation label on any of its 3 tokens: "
                    "the last column labels EDU boundaries Seg=B-seg/Seg=O (DISRPT 2023 on) or BeginSeg=Yes/_ "
                    "(DISRPT 2019-2021)")]
    with pytest.raises(FormatError, match="no segmentation label") as caught:
        evaluate(gold, gold, EvalConfig(metric="segmentation"))
    assert (caught.value.path, caught.value.line) == (gold, 16)
    # converting its segmentation is refused alike; reading it (what rstkit segment labels) is not
    assert main(["convert", gold, str(tmp_path / "out"), "--to", "tok"]) == 2
    assert "no segmentation label" in capsys.readouterr().err
    assert read_disrpt(gold).documents[-1].labelling is None


def test_writing_back_replaces_the_2019_label(tmp_path) -> None:
    original = read_disrpt(write(tmp_path / "g.tok", GOLD_2019))
    written = with_boundaries(original, {"d1": [False, True, False, False, False, False, False, True]})
    lines = written.split("\n")
    assert lines[1].endswith("\tWhen\t_\t_\t_\t_\t_\t_\t_\tSeg=O") and lines[2].endswith("\tSeg=B-seg")
    assert lines[5].endswith("\twe\t_\t_\t_\t_\t_\t_\t_\tSeg=O|SpaceAfter=No")
    assert lines[11].endswith("\tBeginSeg=Yes")  # d2 not given: kept
    again = read_disrpt(write(tmp_path / "out.tok", written))
    assert again.documents[0].boundaries == (False, True, False, False, False, False, False, True)

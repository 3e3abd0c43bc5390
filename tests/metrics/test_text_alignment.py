"""Texts that differ: tokenizer rewrites undone, the rest aligned, predicted EDUs carried onto the gold.

Expected values are derived by hand in the comments (offsets from 0 on the text without whitespace;
the character-span rule and tuples of docs/evaluation.md), or, for the property, from scoring
the same documents without any rewrite.
"""
from __future__ import annotations

from difflib import SequenceMatcher
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.errors import EDUMismatchError, RSTKitWarning
from rstkit.formats.dis import loads_dis
from rstkit.metrics import EvalConfig, aligned, score_documents, textalign
from rstkit.metrics.edus import normalise_edu_text
from rstkit.metrics.textalign import MAX_APPROXIMATE, align_texts, diff
from rstkit.tree import EDU, RSTTree
from tests.support.strategies import rst_trees

ALIGNED = EvalConfig(metric="rst-parseval", edus="aligned")


# -- each rewrite undone -------------------------------------------------------------------------------------
@pytest.mark.parametrize("gold, pred", [
    ("“We sell”", '" We sell "'),  # curly double quotes, as Stanford writes them
    ("“We sell”", "`` We sell ''"),  # PTB / LaTeX quotes
    ("„Ja“ «oui»", '" Ja " " oui "'),  # other double quotes
    ("the ‘autumn effect’", "the ` autumn effect '"),  # curly single quotes, PTB's backquote
    ("brother’s", "brother 's"),
    ("honey – less", "honey -- less"),  # en dash
    ("honey — less", "honey --- less"),  # em dash
    ("a–b—c", "a -- b -- c"),  # two dashes, each its own token
    ("well‐known", "well-known"),  # unicode hyphen
    ("(1) [2] {3}", "-LRB- 1 -RRB- -LSB- 2 -RSB- -LCB- 3 -RCB-"),  # PTB brackets
    ("the picture…", "the picture ..."),  # ellipsis
    ("the picture...", "the picture …"),
    ("wait… [4]", "wait ... . [ 4 ]"),
    ("wait… [4]", "wait … . [ 4 ]"),
    ("€4 and ¥80", "$ 4 and $ 80"),  # currency as Stanford normalises it
    ("£3", "# 3"),
    ("50¢", "50 cents"),
    ("Madison, Wis.", "Madison , Wis. ."),  # a doubled sentence-final period
])
def test_each_rewrite_is_undone(gold, pred):
    assert normalise_edu_text(gold) == normalise_edu_text(pred)


@pytest.mark.parametrize("text, normalised", [
    ("“a” ‘b’", "\"a\"'b'"), ("a – b --- c", "a—b—c"), ("x… y....", "x…y…"), ("Wis. .", "Wis."),
    ("€1 £2 3¢", "$1#23cents"),
])
def test_the_one_form(text, normalised):
    assert normalise_edu_text(text) == normalised


@pytest.mark.parametrize("gold, pred", [("½", "1/2"), ("a.b", "a:b"), ("The", "the"), ("(a)", "[a]")])
def test_other_differences_remain(gold, pred):
    assert normalise_edu_text(gold) != normalise_edu_text(pred)


# -- the alignment ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("gold, pred, counts", [
    ("ABCDEFGH", "ABCDxFGH", (1, 0, 0)),  # E changed to x
    ("ABCDEFGH", "ABCDxEFGH", (0, 1, 0)),  # x inserted
    ("ABCDEFGH", "ABCDFGH", (0, 0, 1)),  # E deleted
    ("ABCD½EFGH", "ABCD1/2EFGH", (1, 2, 0)),  # ½ paired with 1, /2 inserted
])
def test_changed_inserted_deleted(gold, pred, counts):
    alignment = align_texts(gold, pred)
    assert (alignment.changed, alignment.inserted, alignment.deleted) == counts
    assert not alignment.missing and not alignment.extra


def test_more_than_the_limit_is_missing_or_extra():
    assert MAX_APPROXIMATE == 5
    five, six = align_texts("ABCDuvwxyEFGH", "ABCDEFGH"), align_texts("ABCDuvwxyzEFGH", "ABCDEFGH")
    assert not five.missing and [(s.gold_start, s.gold_end) for s in six.missing] == [(4, 10)]
    extra = align_texts("ABCDEFGH", "ABCDuvwxyzEFGH").extra
    assert [(s.pred_start, s.pred_end, s.pred_unmatched) for s in extra] == [(4, 10, 6)]


def test_differences_two_characters_apart_are_one_stretch():
    # xyz and stu (3 + 3 deleted) around "QR": 2 equal characters are no anchor (MIN_ANCHOR = 3): one stretch
    # of 6 -> missing; around "QRS" they are two stretches of 3
    assert align_texts("ABCDxyzQRstuEFGH", "ABCDQREFGH").missing
    assert not align_texts("ABCDxyzQRSstuEFGH", "ABCDQRSEFGH").missing


def test_a_deletion_is_placed_at_the_edu_boundaries():
    # "AB.CD.EF." lacking one sentence: "CD." (3-5) and ".CD" (2-4) align as well; the boundaries (gold
    # EDUs at 0, 3, 6; predicted at 0, 3) choose "CD."
    alignment = align_texts("AB.CD.EF.", "AB.EF.", {0, 3, 6}, {0, 3})
    assert ("delete", 3, 6, 3, 3) in alignment.opcodes


def test_a_long_text_is_aligned():
    """10,000 distinct words (about 70,000 characters) with a word changed, one added, one dropped."""
    words = [f"w{i:05d}" for i in range(10_000)]
    pred = words.copy()
    pred[100], pred[5000:5000] = "w00X00", ["inserted"]
    del pred[9000]
    alignment = align_texts("".join(words), "".join(pred))
    assert (alignment.changed, alignment.inserted, alignment.deleted) == (1, 8, 6)


# -- text with few unique chunks: Myers' diff, checked against a brute-force edit distance (issue 32, item 12) --
def lcs_length(a: str, b: str) -> int:
    """The longest common subsequence by the textbook dynamic programme: the fewest characters deleted plus
    inserted turning a into b is len(a) + len(b) - 2 * lcs_length(a, b)."""
    row = [0] * (len(b) + 1)
    for x in a:
        diagonal, row[0] = 0, 0
        for j, y in enumerate(b, start=1):
            diagonal, row[j] = row[j], diagonal + 1 if x == y else max(row[j], row[j - 1])
    return row[-1]


def applied(gold: str, pred: str, opcodes) -> str:
    """``pred`` rebuilt from ``gold`` by the opcodes, checking that they tile both texts in order and that
    equal operations cover equal text."""
    out, i, j = [], 0, 0
    for tag, i1, i2, j1, j2 in opcodes:
        assert (i1, j1) == (i, j) and i1 <= i2 and j1 <= j2 and (i1, j1) != (i2, j2)
        assert tag in ("equal", "replace", "delete", "insert")
        if tag == "equal":
            assert gold[i1:i2] == pred[j1:j2]
        assert tag != "delete" or j1 == j2
        assert tag != "insert" or i1 == i2
        out.append(pred[j1:j2])
        i, j = i2, j2
    assert (i, j) == (len(gold), len(pred))
    return "".join(out)


SMALL_TEXTS = st.text(alphabet="abc", max_size=12)


@settings(max_examples=400, deadline=None)
@given(SMALL_TEXTS, SMALL_TEXTS)
def test_diff_is_a_shortest_edit_script(gold, pred):
    opcodes = diff(gold, pred)
    assert opcodes is not None
    assert applied(gold, pred, opcodes) == pred
    edits = sum(i2 - i1 + j2 - j1 for tag, i1, i2, j1, j2 in opcodes if tag != "equal")
    assert edits == len(gold) + len(pred) - 2 * lcs_length(gold, pred)
    # edit runs are whole: no two operations other than equal follow each other
    assert all("equal" in (a[0], b[0]) for a, b in pairwise(opcodes))


@settings(max_examples=200, deadline=None)
@given(SMALL_TEXTS, SMALL_TEXTS, st.integers(0, 4))
def test_diff_gives_up_past_its_bound(gold, pred, bound):
    opcodes = diff(gold, pred, max_edits=bound)
    edits = len(gold) + len(pred) - 2 * lcs_length(gold, pred)
    assert (opcodes is None) == (edits > bound)
    assert opcodes is None or applied(gold, pred, opcodes) == pred


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab", min_size=0, max_size=40), st.text(alphabet="abx", max_size=40))
def test_every_gap_by_diff_still_aligns_the_texts(gold, pred):
    """With every gap between anchors given to diff (no SequenceMatcher), align_texts' operations still
    turn gold into pred and its counts are theirs."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(textalign, "SHORT_SIDE", -1)
        alignment = align_texts(gold, pred)
    assert applied(gold, pred, alignment.opcodes) == pred
    paired = [(min(i2 - i1, j2 - j1), i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in alignment.opcodes if tag != "equal"]
    assert alignment.changed == sum(p for p, _, _ in paired)
    assert alignment.deleted == sum(g - p for p, g, _ in paired)
    assert alignment.inserted == sum(q - p for p, _, q in paired)


def test_repetitive_text_never_gives_sequence_matcher_a_long_gap(monkeypatch):
    """"ha" x 6,000 with one character changed has no chunk that occurs once on each side: the whole text is
    one gap between anchors. SequenceMatcher's cost grows with gold x predicted characters (15 s here before);
    it may see no two long sides (at most 256 items on one), and the diff finds the one change."""
    seen = []

    class Recording(SequenceMatcher):
        def __init__(self, junk, a, b, autojunk):
            seen.append(min(len(a), len(b)))
            super().__init__(junk, a, b, autojunk=autojunk)

    monkeypatch.setattr(textalign, "SequenceMatcher", Recording)
    gold = "ha" * 6000
    pred = gold[:7001] + "e" + gold[7002:]  # the a at offset 7001 written e
    alignment = align_texts(gold, pred)
    assert max(seen, default=0) <= 256
    assert alignment.opcodes == (("equal", 0, 7001, 0, 7001), ("replace", 7001, 7002, 7001, 7002),
                                 ("equal", 7002, 12000, 7002, 12000))
    assert (alignment.changed, alignment.inserted, alignment.deleted) == (1, 0, 0)
    # "xy" inserted at 6,000 and the h at 9,000 dropped: 2 inserted, 1 deleted (no pairing: equal text between)
    edited = gold[:6000] + "xy" + gold[6000:9000] + gold[9001:]
    alignment = align_texts(gold, edited)
    assert (alignment.changed, alignment.inserted, alignment.deleted) == (0, 2, 1)
    assert applied(gold, edited, alignment.opcodes) == edited and not alignment.missing and not alignment.extra


def test_a_gap_past_the_edit_bound_is_one_replacement_and_an_error_saying_so(monkeypatch):
    # "ha" x 300 against the same text with every 20th character written x (30 changes: 60 edits, more than a
    # bound of 10): the search stops; the stretch from the first change to the last is one replacement, and the
    # error says the texts differ too much, not that one side lacks text
    monkeypatch.setattr(textalign, "MAX_EDITS", 10)
    monkeypatch.setattr(aligned, "MAX_EDITS", 10)
    gold = "ha" * 300
    pred = "".join("x" if i % 20 == 5 else c for i, c in enumerate(gold))
    alignment = align_texts(gold, pred)
    assert alignment.unsearched == ((5, 586, 5, 586),)  # first change at 5, last at 585
    assert applied(gold, pred, alignment.opcodes) == pred
    assert alignment.opcodes == (("equal", 0, 5, 0, 5), ("replace", 5, 586, 5, 586), ("equal", 586, 600, 586, 600))
    assert (alignment.changed, alignment.inserted, alignment.deleted) == (0, 581, 581)  # nothing paired in it
    tree = "( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!{}_!) ) " \
           "( Satellite (leaf 2) (rel2par elaboration) (text _!{}_!) ) )"
    gold_tree = tree.format(gold[:300], gold[300:])
    pred_tree = tree.format(pred[:300], pred[300:])
    with pytest.raises(EDUMismatchError, match=r"differ in more than 10 characters \(deleted plus inserted\) over 581 "
                                               r"gold characters from character 6 \(gold EDUs 1-2\) and 581 predicted"
                                               ) as caught:
        score(gold_tree, pred_tree)
    assert "lacks" not in str(caught.value) and "more stretch" not in str(caught.value)
    # lenient: the stretch is text each side lacks. Gold EDUs "ha" x 150 at 0-299 and 300-599; predicted EDU 1 is
    # characters 0-4 (paired) and 5-299 (unpaired, before gold offset 586), EDU 2 is 300-585 (unpaired) and 586-599:
    # neither covers a gold EDU's characters, so no RST-Parseval tuple matches (S 0 of 2 gold, 2 predicted); of the
    # boundaries (gold 0 and 300, predicted 0 and an unpaired position) only 0 matches: P = R = F1 = 50
    with (pytest.warns(RSTKitWarning, match="differ in more than 10 characters"),
          pytest.warns(RSTKitWarning, match="0 changed, 581 inserted, 581 deleted")):
        assert score(gold_tree, pred_tree, ALIGNED.replace(lenient=True)) == ((0, 2, 2), (2, 2, 1))


# -- carried onto the gold ----------------------------------------------------------------------------------
def two(a: str, b: str, relation: str = "elaboration") -> str:
    return (f"( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!{a}_!) )"
            f" ( Satellite (leaf 2) (rel2par {relation}) (text _!{b}_!) ) )")


def three(a: str, b: str, c: str) -> str:
    return f"""( Root (span 1 3)
  ( Nucleus (span 1 2) (rel2par span)
    ( Nucleus (leaf 1) (rel2par span) (text _!{a}_!) )
    ( Satellite (leaf 2) (rel2par elaboration) (text _!{b}_!) ) )
  ( Satellite (leaf 3) (rel2par background) (text _!{c}_!) ) )"""


def score(gold: str, pred: str, config: EvalConfig = ALIGNED):
    result = score_documents({"d": loads_dis(gold, doc_id="d")}, {"d": loads_dis(pred, doc_id="d")}, config)
    counts = result.systems[0].counts
    seg = result.segmentation()
    return ((int(counts.matched[0, 0]), int(counts.gold[0, 0]), int(counts.pred[0, 0])),
            (seg["gold"], seg["pred"], seg["matched"]))


@pytest.mark.filterwarnings("ignore:document 'd'")
@pytest.mark.parametrize("pred", [
    two("aaXaa", "bbbb"),  # inserted inside EDU 1
    two("aaaa X", "bbbb"),  # inserted at the end of EDU 1: it joins the gold position before "b"
    two("aaaa", "X bbbb"),  # inserted at the start of EDU 2
    two("aaYa", "bbbb"),  # changed
    two("aaa", "bbbb"),  # deleted at the end of EDU 1: the boundary is placed at gold's (4)
])
def test_small_differences_keep_both_edus(pred):
    # gold "aaaa" (0-3) "bbbb" (4-7): both leaves predicted: S 2 of 2 gold, 2 predicted; boundaries 2 of 2
    assert score(two("aaaa", "bbbb"), pred) == ((2, 2, 2), (2, 2, 2))


@pytest.mark.filterwarnings("ignore:document 'd'")
def test_gold_characters_lacking_at_a_boundary_go_where_the_gold_boundary_is():
    # gold "aaaa" "Zbbbb": the prediction lacks Z (offset 4); its boundary between "aaaa" and "bbbb" can stand
    # before or after Z; the gold's is before it: both leaves match
    assert score(two("aaaa", "Zbbbb"), two("aaaa", "bbbb"))[0] == (2, 2, 2)
    assert score(two("aaaaZ", "bbbb"), two("aaaa", "bbbb"))[0] == (2, 2, 2)


@pytest.mark.filterwarnings("ignore:document 'd'")
def test_an_edu_of_inserted_characters_only_keeps_a_place_of_its_own():
    # prediction "aaaa" "X" "bbbb" (X: 1 character the gold lacks): tree N(1) + S(2-3)[N 2, S 3]. "X" stands
    # before gold offset 4 and is no gold EDU; leaves 1 and 3 are gold's leaves, the node (2-3) covers X and
    # bbbb: no gold span. S: 2 matched, 2 gold, 4 predicted; boundaries: gold 2, predicted 3, matched 2
    pred = """( Root (span 1 3)
  ( Nucleus (leaf 1) (rel2par span) (text _!aaaa_!) )
  ( Satellite (span 2 3) (rel2par elaboration)
    ( Nucleus (leaf 2) (rel2par span) (text _!X_!) )
    ( Satellite (leaf 3) (rel2par elaboration) (text _!bbbb_!) ) ) )"""
    with pytest.warns(RSTKitWarning, match=r"\(0 changed, 1 inserted, 0 deleted\)"):
        result = score(two("aaaa", "bbbb"), pred)
    assert result == ((2, 2, 4), (2, 3, 2))


# -- text one side lacks ------------------------------------------------------------------------------------
GOLD3 = three("aaaa", "bbbbbbbb", "cccc")  # 0-3, 4-11, 12-15


def test_missing_text_is_an_error_naming_document_and_text():
    with pytest.raises(EDUMismatchError, match=r"document 'd': the prediction <string> lacks 8 characters of the "
                                               r"gold <string> from character 5 \(gold EDU 2\): 'bbbbbbbb'"):
        score(GOLD3, two("aaaa", "cccc", "background"))


@pytest.mark.filterwarnings("ignore:document 'd'")
def test_lenient_counts_missing_text_as_not_predicted():
    # prediction "aaaa" (N span) "cccc" (S background), without "bbbbbbbb". RST-Parseval: gold (0-3 N span)
    # (4-11 S elaboration) (0-11 N span) (12-15 S background); predicted (0-3 N span) (12-15 S background):
    # both gold tuples, labels included: 2 matched, 4 gold, 2 predicted. Attachments: gold root (0-15 NS
    # background) and (0-11 NS elaboration); the predicted root covers 0-15 but for the missing text inside
    # it: 1 matched, 2 gold, 1 predicted. Boundaries: gold {0, 4, 12}, predicted {0, 12}: 2 matched.
    pred = two("aaaa", "cccc", "background")
    with pytest.warns(RSTKitWarning, match="lacks 8 characters"):
        assert score(GOLD3, pred, ALIGNED.replace(lenient=True)) == ((2, 4, 2), (3, 2, 2))
    with pytest.warns(RSTKitWarning, match="lacks 8 characters"):
        result = score_documents({"d": loads_dis(GOLD3, doc_id="d")}, {"d": loads_dis(pred, doc_id="d")},
                          ALIGNED.replace(metric="parseval", lenient=True))
    counts = result.systems[0].counts
    assert counts.matched[:, 0].tolist() == [1, 1, 1, 1] and (counts.gold[0, 0], counts.pred[0, 0]) == (2, 1)
    assert "lenient=yes" in result.signature


@pytest.mark.filterwarnings("ignore:document 'd'")
def test_extra_text_is_an_error_and_lenient_counts_it_as_predicted():
    gold = two("aaaa", "cccc", "background")
    with pytest.raises(EDUMismatchError, match=r"has 8 characters that the gold <string> lacks, from its "
                                               r"character 5 \(predicted EDU 2\): 'bbbbbbbb'"):
        score(gold, GOLD3)
    # lenient: the predicted "bbbbbbbb" stands between gold offsets 3 and 4; predicted tuples (0-3 N span)
    # (bbbbbbbb S) (0-bbbbbbbb N span) (12-15 S background): 2 of the 2 gold tuples matched, 4 predicted;
    # boundaries: gold 2, predicted 3, matched 2
    with pytest.warns(RSTKitWarning, match="has 8 characters"):
        assert score(gold, GOLD3, ALIGNED.replace(lenient=True)) == ((2, 2, 4), (2, 3, 2))


# -- the same text keeps today's numbers -------------------------------------------------------------------
#: a token, and the ways a tokenizer may write it
TOKENS = {"ab": ["ab"], "c": ["c"], "“": ['"', "``"], "”": ['"', "''"], "‘": ["'", "`"], "’": ["'"],
          "–": ["--"], "—": ["--", "---"], "€": ["$"], "£": ["#"], "¢": ["cents"], "…": ["...", "…"],
          "(": ["-LRB-"], "]": ["-RSB-"], "Wis.": ["Wis. ."], "x,": ["x ,"]}


@st.composite
def documents(draw, doc_id: str):
    """One sequence of tokens cut into EDUs twice (between tokens), written plainly, and with each token
    rewritten on one side or both."""
    tokens = draw(st.lists(st.sampled_from(sorted(TOKENS)), min_size=1, max_size=14))

    def cut() -> list[list[str]]:
        cuts = sorted(draw(st.sets(st.integers(1, len(tokens) - 1), max_size=len(tokens) - 1))) if len(tokens) > 1 \
            else []
        bounds = [0, *cuts, len(tokens)]
        return [tokens[a:b] for a, b in pairwise(bounds)]

    def written(pieces: list[list[str]], rewrite: bool) -> list[str]:
        return [" ".join(draw(st.sampled_from(TOKENS[t])) if rewrite else t for t in piece) for piece in pieces]

    gold_pieces, pred_pieces = cut(), cut()
    gold = draw(rst_trees(min_edus=len(gold_pieces), max_edus=len(gold_pieces), patterns="binary"))
    pred = draw(rst_trees(min_edus=len(pred_pieces), max_edus=len(pred_pieces), patterns="binary"))
    rewrite_gold = draw(st.booleans())

    def doc(tree: RSTTree, texts: list[str]) -> RSTTree:
        return RSTTree(tree.root, tuple(EDU(i, t) for i, t in enumerate(texts, start=1)), doc_id)

    return (doc(gold, written(gold_pieces, False)), doc(pred, written(pred_pieces, False)),
            doc(gold, written(gold_pieces, rewrite_gold)), doc(pred, written(pred_pieces, True)))


@pytest.mark.filterwarnings("ignore::rstkit.errors.RSTKitWarning")  # one-EDU documents: compared below
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3).flatmap(lambda k: st.tuples(*(documents(f"d{i}") for i in range(k)))))
def test_rewrites_change_no_number(docs):
    plain = ({g.doc_id: g for g, _, _, _ in docs}, {p.doc_id: p for _, p, _, _ in docs})
    rewritten = ({g.doc_id: g for _, _, g, _ in docs}, {p.doc_id: p for _, _, _, p in docs})
    for metric in ("rst-parseval", "parseval"):
        config = EvalConfig(metric=metric, edus="aligned", average="macro")
        expected, got = score_documents(*plain, config), score_documents(*rewritten, config)
        assert got.warnings == expected.warnings and got.alignment() == expected.alignment() == []
        e, g = expected.systems[0].counts, got.systems[0].counts
        assert (g.matched == e.matched).all() and (g.gold == e.gold).all() and (g.pred == e.pred).all()
        assert got.scores == expected.scores and got.segmentation() == expected.segmentation()


def test_the_edu_text_check_of_gold_edus_undoes_the_rewrites_too():
    # the same three EDUs, the prediction's as Feng-Hirst's Stanford tokenizer wrote shop.txt: no mismatch,
    # and the trees are the same: every F1 100
    gold = three("“We sell what we grow,”", "said Anna Berg of Madison, Wis.", "She charges €4 – less.")
    pred = three('" We sell what we grow , "', "said Anna Berg of Madison , Wis. .", "She charges $ 4 -- less .")
    result = score_documents({"d": loads_dis(gold, doc_id="d")}, {"d": loads_dis(pred, doc_id="d")}, EvalConfig())
    assert set(result.scores.values()) == {100.0}
    with pytest.raises(EDUMismatchError, match="EDU text mismatch"):  # a real difference stays one
        score_documents({"d": loads_dis(gold, doc_id="d")}, {"d": loads_dis(pred.replace("$ 4", "$ 5"), doc_id="d")},
                 EvalConfig())

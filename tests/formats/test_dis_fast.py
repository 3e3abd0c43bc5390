"""The .dis reader's two paths (direct, lark grammar) agree; deep trees; error messages.

The direct path (``_dis_direct.direct``) either declines a file (None) or builds exactly the tree that
the grammar's node events (``_dis_grammar.grammar_events``) give through the builder, node lines and
EDU paragraphs included; every error, warning and lenient repair is the builder's. Appending RST-DT's
``//TT_ERR`` mark (which the grammar ignores and the direct path declines) sends a file through the
grammar end to end.
"""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rstkit.errors import FormatError, RSTKitError, TreeStructureError
from rstkit.formats import _dis_direct, _dis_events, _dis_grammar, read_text
from rstkit.formats.dis import dumps_dis, loads_dis
from rstkit.tree import EDU, ROOT, Node, RSTTree, validate
from tests.support.strategies import rst_trees

PROJECT = Path(__file__).resolve().parents[1].parent
FORCE_GRAMMAR = "\n//TT_ERR\n"


def node_list(tree: RSTTree | Node) -> list[tuple]:
    return [(n.start, n.end, n.nuclearity, n.relation, n.line) for n in tree.nodes()]


def direct_agrees(text: str, source: str = "<string>") -> tuple | None:
    """Assert the direct path (``_dis_direct.direct``) declines the file or builds exactly the tree the
    event path builds (every node with its line, every EDU with its paragraph); return its result."""
    direct = _dis_direct.direct(text)
    try:
        builder = _dis_events.Builder(source, False)
        root = builder.build(_dis_grammar.grammar_events(text, source))
        tree = RSTTree(root, builder.edus(), "", source)
        validate(tree)
    except RSTKitError:
        assert direct is None, "the direct path accepted a file the event path rejects"
        return None
    if direct is not None:
        assert node_list(direct[0]) == node_list(tree) and direct[1] == tree.edus
        assert all(type(e.text) is str for e in direct[1])
    return direct


# -- every real file --------------------------------------------------------------------------
@pytest.mark.slow  # GUM-wide, fast path against the long way
@pytest.mark.gum
@pytest.mark.parametrize("form", ["lisp_nary", "lisp_binary"])
def test_the_direct_path_builds_the_event_paths_tree_on_every_gum_file(gum_dir, form):
    declined = []
    for path in sorted((gum_dir / form).glob("*.dis")):
        if direct_agrees(read_text(path), str(path)) is None:
            declined.append(path.name)
    # GUM's one file with a wrong extent (read with lenient=True only) is left to the event path
    assert declined == ["GENTLE_syllabus_techtonica.dis"]


def test_both_paths_agree_on_the_sample_examples_and_test_files(examples_dir):
    roots = [PROJECT / "corpora", PROJECT / "tests", PROJECT / "parsers", examples_dir]
    files = sorted(p for root in roots if root.is_dir() for p in root.rglob("*.dis"))
    regular = [p for p in files if "sample" in p.parts or examples_dir in p.parents]
    assert len(regular) >= 10 and any(p.name == "ex3.dis" for p in regular)
    for path in files:  # parser outputs in dis syntax may be declined, but never read differently
        direct = direct_agrees(read_text(path), str(path))
        assert direct is not None or path not in regular, path


@pytest.mark.gum
def test_lenient_repair_and_its_warning_are_the_same_on_both_paths(gum_dir):
    text = read_text(gum_dir / "lisp_nary" / "GENTLE_syllabus_techtonica.dis")
    results = []
    for variant in (text, text + FORCE_GRAMMAR):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tree = loads_dis(variant, "t.dis", lenient=True)
        results.append((node_list(tree), tree.edus, [str(w.message) for w in caught]))
    assert results[0] == results[1]
    assert results[0][2] == [("t.dis:60: declares (span 49 266) over children covering 22-266; "
                              "repaired from the leaves (lenient)")]


@pytest.mark.parametrize("variant", ["", FORCE_GRAMMAR])
def test_extent_errors_name_the_lenient_fix_on_both_paths(variant):
    bad = "( Root (span 1 3)\n ( Nucleus (leaf 1) (rel2par List) (text _!a_!) )\n" \
          " ( Nucleus (leaf 2) (rel2par List) (text _!b_!) )\n)\n"
    with pytest.raises(TreeStructureError, match=r"declares \(span 1 3\) over children covering 1-2") as info:
        loads_dis(bad + variant, "x.dis")
    assert info.value.fixes == ("lenient",) and info.value.line == 1


# -- generated files: any layout, nasty texts and labels -------------------------------------
SEPARATORS = st.sampled_from([" ", " ", " ", "  ", "\t", "\n", "\n    ", "\r\n", " \n\t ", "\u2003", ""])
NASTY = st.lists(st.sampled_from(list("ab ()[]_!<>P\"'\\/é中\t\n") + ["\U0001f600", "_!", "<P>", "(text", "_! )"]),
                 max_size=10).map("".join)
CLEAN = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="_"),
                max_size=10).filter(lambda s: "<P>" not in s)
LABELS = st.from_regex(r"[^\s()]{1,8}", fullmatch=True).filter(lambda s: "//TT_ERR" not in s)


@st.composite
def dis_documents(draw, bodies=CLEAN, separators=SEPARATORS, labels=LABELS):
    """(text of a .dis file in a random layout, the tree it says, the EDU bodies written)."""
    tree = draw(rst_trees(patterns="any", max_edus=8))
    label_strategy, labels = labels, {}

    def gap() -> str:
        return draw(separators)

    def need() -> str:  # a separator that cannot be empty
        return draw(separators.filter(bool))

    bodies_written = []
    parts = []
    stack: list = [tree.root]
    while stack:
        node = stack.pop()
        if node is None:
            parts += [gap(), ")"]
            continue
        word = {"N": "Nucleus", "S": "Satellite", ROOT: "Root"}[node.nuclearity]
        parts += [gap(), "(", gap(), word, gap(), "(", gap()]
        parts += ["leaf", need(), str(node.start)] if node.is_leaf else \
            ["span", need(), str(node.start), need(), str(node.end)]
        parts += [gap(), ")"]
        if node.relation is not None:
            label = labels.setdefault(node.relation, draw(label_strategy))
            parts += [gap(), "(", gap(), "rel2par", need(), label, gap(), ")"]
        if node.is_leaf:
            body = draw(bodies)
            bodies_written.append(body)
            parts += [gap(), "(", gap(), "text", need(), "_!", body, "_!", gap(), ")", gap(), ")"]
        else:
            stack.append(None)
            stack.extend(reversed(node.children))
    parts.append(gap())
    return "".join(parts), tree, labels, bodies_written


@pytest.mark.slow  # fast path against the long way
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dis_documents())
def test_generated_files_read_as_written_on_both_paths(document):
    text, tree, relabel, bodies = document
    expected_nodes = [(n.start, n.end, n.nuclearity, relabel.get(n.relation)) for n in tree.nodes()]
    trees = [loads_dis(text), loads_dis(text + FORCE_GRAMMAR)]
    for read in trees:
        assert [(n.start, n.end, n.nuclearity, n.relation) for n in read.nodes()] == expected_nodes
        assert [e.text for e in read.edus] == [b.strip() for b in bodies]
    assert node_list(trees[0]) == node_list(trees[1]) and trees[0].edus == trees[1].edus
    assert direct_agrees(text) is not None


@pytest.mark.slow  # fast path against the long way
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dis_documents(bodies=NASTY))
def test_nasty_texts_the_direct_path_takes_read_exactly_as_the_grammar_reads_them(document):
    direct_agrees(document[0])


@pytest.mark.slow  # fast path against the long way
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dis_documents(bodies=NASTY), st.data())
def test_mutated_files_are_declined_or_read_as_the_grammar_reads_them(document, data):
    text = document[0]
    cut = data.draw(st.integers(0, len(text)))
    width = data.draw(st.integers(0, 6))
    insert = data.draw(st.sampled_from(["", "(", ")", "_!", " ", "x", "(leaf 1)", "(text _!", "\n", "Root"]))
    direct_agrees(text[:cut] + insert + text[cut + width:])


def test_the_direct_path_takes_the_regular_layouts():
    """Several leaves on one line, tabs and newlines between tokens, a 1-EDU document, <P>."""
    one_line = "( Root (span 1 2) ( Nucleus (leaf 1) (rel2par List) (text _!a (b) [c] \"d\"<P>_!) )" \
               "\t( Nucleus\n(leaf 2)\n\t(rel2par List)\n(text _!é 中 _! x_!) ) )"
    assert direct_agrees(one_line) is not None
    tree = loads_dis(one_line)
    assert [e.text for e in tree.edus] == ['a (b) [c] "d"', "é 中 _! x"]
    assert [e.paragraph for e in tree.edus] == [1, 2]
    one_edu = "( Root (leaf 1) (text _!Correction appended._!) )"
    assert direct_agrees(one_edu) is not None and loads_dis(one_edu).edus == (EDU(1, "Correction appended."),)


@pytest.mark.parametrize("text", [
    "( Root (leaf 1) (text <EDU>old delimiters</EDU>) )",
    "( Root (leaf 1) (text _!a_!) )//TT_ERR",
    "( Root (leaf1) (text _!a_!) )",
    "( Root (leaf 1) (text _!a_!) ) )",
])
def test_the_direct_path_declines_what_it_does_not_handle(text):
    assert _dis_direct.direct(text) is None
    direct_agrees(text)


@pytest.mark.parametrize("change", [
    ("(span 1 3)", "(span 1 4)"),  # an extent the leaves do not give
    ("(leaf 2)", "(leaf 3)"),  # a leaf number out of order
    ("( Satellite (leaf 3)", "( Nucleus (leaf 3)"),  # fine: two nuclei
    ("( Nucleus (leaf 1) (rel2par span)", "( Satellite (leaf 1) (rel2par span)"),  # 1-2 without a nucleus
    ("( Satellite (leaf 3) (rel2par attribution)", "( Satellite (leaf 3)"),  # no relation
    ("( Root (span 1 3)", "( Nucleus (span 1 3)"),  # no Root on top
    ("( Satellite (leaf 3)", "( Root (leaf 3)"),  # Root below the top
])
def test_the_direct_path_declines_every_inconsistency_the_event_path_reports(change):
    text = GOOD.replace(*change)
    assert text != GOOD
    direct = direct_agrees(text)
    assert (direct is not None) == (change[1] == "( Nucleus (leaf 3)")


def test_a_unary_node_is_left_to_the_event_path():
    text = ("( Root (span 1 2)\n ( Nucleus (span 1 1) (rel2par span)\n  ( Nucleus (leaf 1) (rel2par span) "
            "(text _!a_!) )\n )\n ( Satellite (leaf 2) (rel2par x) (text _!b_!) )\n)\n")
    assert _dis_direct.direct(text) is None
    with pytest.raises(TreeStructureError, match="single child"):
        loads_dis(text, "u.dis")


# -- deep trees (issue 10) ----------------------------------------------------------------------
def chain(n: int, right: bool) -> RSTTree:
    """A right- (or left-) branching chain over n EDUs: every inner node is N S with one EDU
    as its nucleus (or satellite)."""
    node = Node(n, n, "N", "span") if right else Node(1, 1, "N", "span")
    for i in (range(n - 1, 0, -1) if right else range(2, n + 1)):
        inner = Node(node.start, node.end, "S" if right else "N", "elaboration" if right else "span", node.children)
        edu = Node(i, i, "N" if right else "S", "span" if right else "elaboration")
        kids = (edu, inner) if right else (inner, edu)
        node = Node(kids[0].start, kids[1].end, "N", "span", kids)
    root = Node(1, n, ROOT, None, node.children)
    return RSTTree(root, tuple(EDU(i, f"edu {i}") for i in range(1, n + 1)), "chain")


@pytest.mark.slow  # 20,000-EDU chain, fast path against the long way
@pytest.mark.parametrize("right", [True, False])
def test_a_20000_edu_chain_is_written_and_read_on_both_paths(right):
    tree = chain(20_000, right)
    text = dumps_dis(tree)
    assert len(text) < 20_000 * 1_000  # linear: indentation stops growing (MAX_INDENT)
    expected = [(n.start, n.end, n.nuclearity, n.relation) for n in tree.nodes()]
    for variant in (text, text + FORCE_GRAMMAR):
        read = loads_dis(variant)
        assert [(n.start, n.end, n.nuclearity, n.relation) for n in read.nodes()] == expected
        assert read.edus == tree.edus


# -- messages (issue 10) ------------------------------------------------------------------------
GOOD = """( Root (span 1 3)
  ( Nucleus (span 1 2) (rel2par span)
    ( Nucleus (leaf 1) (rel2par span) (text _!Shares rose sharply_!) )
    ( Satellite (leaf 2) (rel2par circumstance) (text _!after the merger
      was announced,_!) )
  )
  ( Satellite (leaf 3) (rel2par attribution) (text _!traders said._!) )
)
"""


@pytest.mark.parametrize("broken, line", [
    ("announced,_!)", 4),  # runs into leaf 3's text: the first text that is not closed is on line 4
    ("said._!)", 7),  # the last text: runs to the end of the file
])
def test_unterminated_text_is_reported_where_it_starts(broken, line):
    text = GOOD.replace(broken, broken.replace("_!)", "_ )"))
    with pytest.raises(FormatError, match=r"EDU text '\(text _!' is not closed") as info:
        loads_dis(text, "u.dis")
    assert info.value.path == "u.dis" and info.value.line == line


TERMINAL_NAME = re.compile(r"\b(LPAR|RPAR|REL2PAR|NUCLEARITY|LABEL|INT|SPAN|LEAF|TEXT)\b|__|\$END")


@pytest.mark.parametrize("change", [
    ("(rel2par circumstance)", "(rel2par )"), ("(span 1 2)", "(spam 1 2)"), ("(leaf 1)", "(leaf)"),
    ("( Nucleus (leaf 1)", "( Nucleus 1"), ("(text _!traders", "(rel2par x) (text _!traders"),
    ("( Satellite (leaf 3)", "( Satellite (leaf 3) (leaf 3)"), ("\n)\n", "\n) x\n"), ("\n)\n", "\n))\n"),
    ("(span 1 3)", "(span 1 three)"), ("( Root", "( Root ( Root"),
])
def test_syntax_errors_say_what_is_expected_in_words(change):
    with pytest.raises(FormatError, match="expected one of: ") as info:
        loads_dis(GOOD.replace(*change), "m.dis")
    assert not TERMINAL_NAME.search(info.value.message), info.value.message


def test_every_grammar_terminal_has_a_word():
    names = {t.name for t in _dis_grammar.parser().terminals if not t.name.startswith("__IGNORE")}
    assert names | {"$END"} <= set(_dis_grammar.TERMINAL_WORDS)


def test_unprintable_characters_in_messages_are_escaped():
    with pytest.raises(FormatError) as info:
        loads_dis(GOOD.replace("(rel2par span)", "(rel2par span) \x00\u200b", 1), "c.dis")
    assert "\x00" not in str(info.value) and "\\x00" in str(info.value)
    assert info.value.line == 2


def test_structure_errors_keep_their_line_on_both_paths():
    bad = GOOD.replace("( Root (span 1 3)", "( Nucleus (span 1 3)")
    for variant in (bad, bad + FORCE_GRAMMAR):
        with pytest.raises(RSTKitError, match="top node") as info:
            loads_dis(variant, "s.dis")
        assert info.value.line == 1

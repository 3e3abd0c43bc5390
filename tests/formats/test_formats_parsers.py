"""Parser output formats: the running example of docs/formats.md in every format, each
format's quirks, one-EDU documents, document maps and bad input."""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from rstkit.corpus import read_documents, read_file, rstdt_test_ids
from rstkit.errors import FormatError, MissingDocumentError, RSTKitError, RSTKitWarning, TreeStructureError
from rstkit.formats import get_format
from rstkit.formats.braud_coling import RSTDT_TEST_ORDER
from rstkit.formats.dis import loads_dis
from rstkit.formats.docmap import load_doc_map
from rstkit.labels import get_label_map
from rstkit.tree import EDU, ROOT, Node, RSTTree
from tests.support.expected_warnings import warns_exactly
from tests.support.format_files import FILE_NAMES, TEXTLESS, WRITERS

# The running example (docs/formats.md#the-running-example, 4 EDUs) with RST-DT classes.
EXAMPLE = loads_dis("""( Root (span 1 4)
  ( Nucleus (span 1 3) (rel2par span)
    ( Satellite (leaf 1) (rel2par attribution) (text _!Analysts said_!) )
    ( Nucleus (span 2 3) (rel2par span)
      ( Nucleus (leaf 2) (rel2par contrast) (text _!the market would rise ,_!) )
      ( Nucleus (leaf 3) (rel2par contrast) (text _!but it "fell" ( sharply ) ._!) )
    )
  )
  ( Satellite (leaf 4) (rel2par elaboration) (text _!Traders blamed rates ._!) )
)""")
TEXTS = ["Analysts said", "the market would rise ,", 'but it "fell" ( sharply ) .', "Traders blamed rates ."]

# (format, file name, content) as docs/formats.md shows the running example
SPEC_EXAMPLES = [
    ("hilda", "wsj_9999.out.dis", """(Root
  (Nucleus:span
    (Satellite:Attribution leaf1_1_1)
    (Nucleus:span
      (Nucleus:Contrast leaf2_1_1)
      (Nucleus:Contrast leaf3_1_1)))
  (Satellite:Elaboration leaf4_2_1))"""),
    ("codra", "wsj_9999.doc_dis", r"""( Root (span 1 4)
  ( Nucleus (span 1 3) (rel2par span)
    ( Satellite (leaf 1) (rel2par Attribution) (text _!Analysts said_!) )
    ( Nucleus (span 2 3) (rel2par span)
      ( Nucleus (leaf 2) (rel2par Contrast) (text _!the market would rise ,_!) )
      ( Nucleus (leaf 3) (rel2par Contrast) (text _!but it \\\"fell\\\" ( sharply ) ._!) )
     )
  )
  ( Satellite (leaf 4) (rel2par Elaboration) (text _!Traders blamed rates ._!) )
)"""),
    ("feng", "wsj_9999.out.tree", """(Elaboration[N][S]
  (Attribution[S][N]
    _!Analysts said!_
    (Contrast[N][N]
      _!the market would rise ,!_
      _!but it "fell" ( sharply ) . <s>!_))
  _!Traders blamed rates . <p>!_)"""),
    ("braud_coling", "0.mrg.pred", "(NS-Elaboration (SN-Attribution (1) (NN-Contrast (2) (3))) (4))"),
    ("li_qi", "parsed_wsj_9999.out", """( Root (span 1 4)
  ( Nucleus (span 1 3) (rel2par span)
    ( Satellite (leaf 1) (rel2par Attribution) (text _!Analysts said_!) )
    ( Nucleus (span 2 3) (rel2par span)
      ( Nucleus (leaf 2) (rel2par Contrast) (text _!the market would rise ,_!) )
      ( Nucleus (leaf 3) (rel2par Contrast) (text _!but it "fell" ( sharply ) ._!) )
    )
  )
  ( Satellite (leaf 4) (rel2par Elaboration) (text _!Traders blamed rates ._!) )
)"""),
    ("braud_eacl", "test_it8_beam16", ("(ROOT (NSElaboration (SNAttribution (EDU Analysts_said) (NNContrast "
                                       "(EDU the_market_would_rise_,) (EDU but_it_\"fell\"_-LRB-_sharply_-RRB-_.))) "
                                       "(EDU Traders_blamed_rates_.)))\n")),
    ("dplp", "wsj_9999.out.brackets", """((1, 1), 'Satellite', 'attribution')
((2, 2), 'Nucleus', 'contrast')
((3, 3), 'Nucleus', 'contrast')
((2, 3), 'Nucleus', 'span')
((1, 3), 'Nucleus', 'span')
((4, 4), 'Satellite', 'elaboration')
"""),
    ("surdeanu", "log", """10:41:07.512 [run-main-0] INFO  o.c.d.rstparser.RSTParser$ - Reading test documents ...
Documents
wsj_9999.out.dis
end Documents
10:41:52.019 [run-main-0] DEBUG o.c.d.rstparser.RSTParser - Started parsing...
System tree:
(elaboration (LeftToRight)
  (attribution (RightToLeft)
    (TEXT:Analysts said)
    (contrast
      (TEXT:the market would rise ,)
      (TEXT:but it "fell" -LRB- sharply -RRB- .)))
  (TEXT:Traders blamed rates .))
System tree:
(elaboration (LeftToRight)
  (TEXT:Analysts said the market would rise ,)
  (TEXT:but it "fell" -LRB- sharply -RRB- . Traders blamed rates .))
10:43:20.331 [run-main-0] DEBUG o.c.d.rstparser.RSTParser - Done parsing 1 documents.
"""),
    ("dmrst", "wsj_9999.dmrst", ("(1:Nucleus=span:3,4:Satellite=Elaboration:4) (1:Satellite=Attribution:1,"
                                 "2:Nucleus=span:3) (2:Nucleus=Contrast:2,3:Nucleus=Contrast:3)")),
    ("isanlp", "wsj_9999.rs3", """<rst>
	<header>
		<relations>
			<rel name="antithesis" type="multinuc" />
			<rel name="attribution" type="rst" />
			<rel name="contrast" type="multinuc" />
			<rel name="elaboration" type="rst" />
		</relations>
	</header>
	<body>
		<segment id="1" parent="5" relname="attribution">Analysts said</segment>
		<segment id="2" parent="5" relname="contrast">the market would rise ,</segment>
		<segment id="3" parent="5" relname="contrast">but it "fell" ( sharply ) .</segment>
		<segment id="4" parent="6" relname="elaboration">Traders blamed rates .</segment>
		<group id="6" type="span" parent="7" relname="span"/>
		<group id="5" type="multinuc" parent="6" relname="span"/>
		<group id="7" type="span"/>
	</body>
</rst>"""),
    ("surdeanu_native", "wsj_9999.dtree", """Discourse tree:
elaboration (LeftToRight)
  attribution (RightToLeft)
    TEXT:Analysts said
    contrast
      TEXT:the market would rise ,
      TEXT:but it "fell" ( sharply ) .
  TEXT:Traders blamed rates .
"""),
    ("feng_dis", "wsj_9999.txt.dis", """( Root (span 1 4)
  ( Nucleus (span 1 3) (rel2par span)
    ( Satellite (leaf 1) (rel2par Attribution) (text _!Analysts said_!) )
    ( Nucleus (span 2 3) (rel2par span)
      ( Nucleus (leaf 2) (rel2par Contrast) (text _!the market would rise ,_!) )
      ( Nucleus (leaf 3) (rel2par Contrast) (text _!but it "fell" ( sharply ) ._!) )
    )
  )
  ( Satellite (leaf 4) (rel2par Elaboration) (text _!Traders blamed rates ._!) )
)"""),
    ("hilda_orig", "wsj_9999.parsetree", ("""ParseTree('Elaboration[N][S]', [ParseTree('Attribution[S][N]', """
                                          """['Analysts said', ParseTree('Contrast[N][N]', """
                                          """['the market would rise ,', """
                                          """'but it "fell" ( sharply ) .'])]), 'Traders blamed rates .'])""")),
]
DOC_MAPS = {"braud_coling": ["wsj_9999"], "braud_eacl": ["wsj_9999"]}


def _write(tmp_path: Path, name: str, content: str) -> Path:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize("key,name,content", SPEC_EXAMPLES, ids=[e[0] for e in SPEC_EXAMPLES])
def test_spec_example_reads_as_the_running_example(tmp_path, key, name, content):
    path = _write(tmp_path, name, content)
    documents = read_documents(path, format=key, doc_map=DOC_MAPS.get(key))
    assert list(documents) == ["wsj_9999"]
    tree = documents["wsj_9999"]
    assert tree.root == EXAMPLE.root
    assert tree.edu_texts() == (["", "", "", ""] if key in TEXTLESS else TEXTS)


@pytest.mark.parametrize("key,name,content", SPEC_EXAMPLES, ids=[e[0] for e in SPEC_EXAMPLES])
def test_every_relation_read_is_a_known_rstdt18_label(tmp_path, key, name, content):
    tree = read_file(_write(tmp_path, name, content), key, doc_map=DOC_MAPS.get(key))[0]
    rstdt18 = get_label_map("rstdt18")
    assert all(rstdt18.lookup(n.relation) is not None for n in tree.nodes() if n.relation)


def test_writers_reproduce_the_spec_layouts():
    """Feng (nltk pformat), CODRA (quotes, ' )' closers), DPLP and isanlp write what the spec shows."""
    spec = {key: content for key, _, content in SPEC_EXAMPLES}
    with_sentences = RSTTree(EXAMPLE.root, tuple(EDU(i, t, 1 if i < 4 else 2, 1)
                                                  for i, t in enumerate(TEXTS, 1)), "wsj_9999")
    assert get_format("feng").write(with_sentences) == spec["feng"] + "\n"
    assert get_format("codra").write(with_sentences) == spec["codra"] + "\n"
    assert get_format("dplp").write(EXAMPLE) == spec["dplp"]
    assert get_format("dmrst").write(EXAMPLE) == spec["dmrst"] + "\n"
    assert get_format("isanlp").write(EXAMPLE).split("<body>")[1] == spec["isanlp"].split("<body>")[1] + "\n"
    assert get_format("braud_coling").write(EXAMPLE) == spec["braud_coling"] + "\n"


# -- one-EDU documents ---------------------------------------------------------------------
ONE_EDU = RSTTree(Node(1, 1, ROOT, None), (EDU(1, "Hello ( world ) ."),), "solo")


@pytest.mark.parametrize("key", sorted(FILE_NAMES))
def test_one_edu_documents_round_trip(tmp_path, key):
    write = WRITERS.get(key) or get_format(key).write
    path = _write(tmp_path, FILE_NAMES[key]("solo"), write(ONE_EDU))
    tree = read_file(path, key)[0]
    assert tree.root == ONE_EDU.root and tree.n_edus == 1


def test_one_edu_forms_of_the_spec(tmp_path):
    assert get_format("codra").write(ONE_EDU).splitlines()[1].strip().startswith("( DUMMY (leaf 1) (rel2par DUMMY)")
    assert get_format("dplp").write(ONE_EDU) == ""
    assert get_format("dmrst").write(ONE_EDU) == "NONE\n"
    assert read_file(_write(tmp_path, "solo.out.brackets", ""), "dplp")[0].n_edus == 1
    path = _write(tmp_path, "run", "(ROOT (EDU Hello_-LRB-_world_-RRB-_.))\n")
    assert read_file(path, "braud_eacl", doc_map=["solo"])[0].edu_texts() == ["Hello ( world ) ."]


# -- quirks ----------------------------------------------------------------------------------
def test_feng_parentheses_in_two_edus_on_one_line(tmp_path):
    """The replication's line-based escaping breaks here; cutting _!...!_ atoms first does not."""
    text = "(Elaboration[N][S] _!a ( b !_ _!c ) d . <p>!_)"
    tree = read_file(_write(tmp_path, "x.tree", text), "feng")[0]
    assert tree.edu_texts() == ["a ( b", "c ) d ."]
    assert [e.paragraph for e in tree.edus] == [1, 1]


def test_feng_markers_give_sentences_and_paragraphs(tmp_path):
    text = "(Joint[N][N] (Joint[N][N] _!a . <s>!_ _!b . <p>!_) _!c .!_)"
    tree = read_file(_write(tmp_path, "x.tree", text), "feng")[0]
    assert [(e.sentence, e.paragraph) for e in tree.edus] == [(1, 1), (2, 1), (3, 2)]


def test_surdeanu_reads_gold_edu_trees_only(tmp_path):
    path = _write(tmp_path, "log", SPEC_EXAMPLES[7][2])
    (tree,) = read_file(path, "surdeanu")
    assert tree.n_edus == 4  # the second tree (predicted EDUs) has 2


def test_surdeanu_accepts_colon_suffixed_directions_and_nbsp(tmp_path):
    log = "Documents\nd.dis\nend Documents\nSystem tree:\n(elaboration:NS (TEXT:a\u00a0b) (TEXT:c))\n"
    (tree,) = read_file(_write(tmp_path, "log", log), "surdeanu")
    assert tree.root.children[1].relation == "elaboration" and tree.edu_texts() == ["a b", "c"]


def test_surdeanu_native_gold_offsets_and_multinuclear(tmp_path):
    text = "same-unit\n  TEXT(0, 5):The x ,\n  TEXT(6, 12):fell .\n"
    tree = read_file(_write(tmp_path, "d.dtree", text), "surdeanu_native")[0]
    assert [c.relation for c in tree.root.children] == ["same-unit", "same-unit"]
    assert tree.edu_texts() == ["The x ,", "fell ."]


def test_braud_coling_variant_leaves_and_first_hyphen_split(tmp_path):
    text = "( NN-Same-unit ( EDU 1 ) ( NS-Topic-Comment ( EDU 2 ) ( EDU 3 ) ) )"
    tree = read_file(_write(tmp_path, "0.mrg.pred", text), "braud_coling", doc_map=["d"])[0]
    assert [c.relation for c in tree.root.children] == ["same-unit", "same-unit"]
    assert tree.root.children[1].children[1].relation == "topic-comment"


def test_dplp_label_spellings_are_canonical(tmp_path):
    text = "((1, 1), 'Nucleus', 'same_unit')\n((2, 2), 'Nucleus', 'same_unit')\n"
    tree = read_file(_write(tmp_path, "d.brackets", text), "dplp")[0]
    assert {c.relation for c in tree.root.children} == {"same-unit"}
    text = "((1, 1), 'Nucleus', 'span')\n((2, 2), 'Satellite', 'topicchange')\n"
    assert read_file(_write(tmp_path, "e.brackets", text), "dplp")[0].root.children[1].relation == "topic-change"


def test_dmrst_wrapped_list_and_multi_line_files(tmp_path):
    one = "(1:Nucleus=span:1,2:Satellite=Elaboration:2)"
    assert read_file(_write(tmp_path, "a.dmrst", f"['{one}']"), "dmrst")[0].doc_id == "a"
    path = _write(tmp_path, "b.dmrst", f"{one}\nNONE\n")
    trees = read_file(path, "dmrst", doc_map=["x", "y"])
    assert [(t.doc_id, t.n_edus) for t in trees] == [("x", 2), ("y", 1)]


def test_hilda_orig_never_evaluates(tmp_path):
    path = _write(tmp_path, "x.parsetree", "__import__('os').system('echo hacked')")
    with pytest.raises(FormatError, match="hilda_orig"):
        read_file(path, "hilda_orig")


def test_isanlp_repairs_raw_ampersands_and_flags_ambiguous_satellites(tmp_path):
    head = ('<rst><header><relations><rel name="antithesis" type="multinuc" /><rel name="contrast" '
            'type="multinuc" /><rel name="contrast" type="rst" /></relations></header><body>\n')
    body = ('<segment id="1" parent="4" relname="contrast">A & B</segment>\n'
            '<segment id="2" parent="4" relname="contrast">C < D</segment>\n'
            '<segment id="3" parent="4" relname="contrast">E</segment>\n'
            '<group id="4" type="multinuc"/>\n</body></rst>')
    with pytest.warns(RSTKitWarning, match="cannot be told from its nuclei"):
        tree = read_file(_write(tmp_path, "x.rs3", head + body), "isanlp")[0]
    assert tree.edu_texts() == ["A & B", "C < D", "E"]


def test_isanlp_forest_is_an_error(tmp_path):
    text = ('<rst><header><relations><rel name="antithesis" type="multinuc" /></relations></header><body>'
            '<segment id="1">a</segment><segment id="2">b</segment></body></rst>')
    with pytest.raises(RSTKitError, match="top node"):
        read_file(_write(tmp_path, "x.rs3", text), "isanlp")


def test_codra_labels_and_quotes(tmp_path):
    text = get_format("codra").write(EXAMPLE)
    assert "\\\\\\\"fell\\\\\\\"" in text and "(rel2par Contrast)" in text
    tree = read_file(_write(tmp_path, "wsj_9999.doc_dis", text), "codra")[0]
    assert tree.doc_id == "wsj_9999" and tree.edu_texts() == TEXTS


def test_writers_drop_what_the_format_cannot_hold_with_a_warning():
    mixed = Node(1, 2, ROOT, None, (Node(1, 1, "N", "list"), Node(2, 2, "N", "contrast")))
    tree = RSTTree(mixed, (EDU(1, "a"), EDU(2, "b")), "d")
    with pytest.warns(RSTKitWarning, match="'contrast' is dropped"):
        assert get_format("feng").write(tree).startswith("(List[N][N]")


def test_parent_labelled_writers_need_binary_trees():
    flat = Node(1, 3, ROOT, None, tuple(Node(i, i, "N", "list") for i in (1, 2, 3)))
    tree = RSTTree(flat, tuple(EDU(i, "x") for i in (1, 2, 3)), "d")
    for key in ("feng", "braud_coling", "surdeanu_native", "hilda_orig", "dmrst"):
        with pytest.raises(RSTKitError, match="binar"):
            get_format(key).write(tree)


# -- document maps ---------------------------------------------------------------------------
def test_doc_map_files(tmp_path):
    tsv = _write(tmp_path, "map.tsv", "# k -> id\n0.mrg.pred\twsj_0602.out\n1.mrg.pred\twsj_0607.out.dis\n")
    m = load_doc_map(tsv)
    assert m.ids == ("wsj_0602", "wsj_0607") and m.resolve(("1.mrg.pred",), 1, "x") == "wsj_0607"
    plain = load_doc_map(_write(tmp_path, "ids.txt", "wsj_0602\nwsj_0607\n"))
    assert plain.by_name is None and plain.resolve(("7.mrg.pred",), 1, "x") == "wsj_0607"
    with pytest.raises(FormatError, match=r"map.tsv.*not in the document map"):
        m.resolve(("5.mrg.pred", "5"), 5, "5.mrg.pred")


@pytest.mark.parametrize("content,line", [("a\tb\nc\n", 2), ("a\nb c\n", 2), ("a\na\n", 2), ("x\ta\ny\ta\n", 2)])
def test_bad_doc_maps_name_the_line(tmp_path, content, line):
    with pytest.raises(FormatError) as info:
        load_doc_map(_write(tmp_path, "bad.tsv", content))
    assert info.value.line == line and "bad.tsv" in str(info.value)


def test_builtin_rstdt_test_maps_cover_the_test_set():
    from rstkit.formats import braud_coling, braud_eacl

    assert sorted(RSTDT_TEST_ORDER) == sorted(rstdt_test_ids())
    assert load_doc_map("rstdt-test", braud_coling.BUILTIN_MAPS).ids == RSTDT_TEST_ORDER
    assert list(load_doc_map("rstdt-test", braud_eacl.BUILTIN_MAPS).ids) == sorted(rstdt_test_ids())
    with pytest.raises(FormatError, match="not found"):
        load_doc_map("rstdt-test")  # only formats that ship the map know the name


def test_braud_coling_builtin_map_names_files_by_index(tmp_path):
    path = _write(tmp_path, "20.mrg.pred", "(NS-Elaboration (1) (2))")
    from rstkit.formats.braud_coling import BUILTIN_MAPS
    assert read_file(path, "braud_coling", doc_map=BUILTIN_MAPS["rstdt-test"]())[0].doc_id == "wsj_0602"
    assert read_file(path, "braud_coling", doc_map="rstdt-test")[0].doc_id == "wsj_0602"


def test_braud_eacl_counts_must_match_and_missing_documents_are_named(tmp_path):
    path = _write(tmp_path, "run", "(ROOT (EDU a))\n(ROOT (EDU b))\n")
    with pytest.raises(MissingDocumentError, match="no tree for: wsj_3"):
        read_file(path, "braud_eacl", doc_map=["wsj_1", "wsj_2", "wsj_3"])
    with pytest.warns(RSTKitWarning, match="wsj_3"):
        assert len(read_file(path, "braud_eacl", lenient=True, doc_map=["wsj_1", "wsj_2", "wsj_3"])) == 2
    with pytest.raises(FormatError, match="lists 1 documents; none for line 2"):
        read_file(path, "braud_eacl", doc_map=["wsj_1"])


def test_unnamed_documents_warn(tmp_path):
    path = _write(tmp_path, "run", "(ROOT (EDU a))\n")
    with pytest.warns(RSTKitWarning, match="do not name their documents"):
        assert read_file(path, "braud_eacl")[0].doc_id == "run#1"


def test_doc_map_is_refused_by_formats_that_name_their_documents(tmp_path):
    path = _write(tmp_path, "x.out.brackets", SPEC_EXAMPLES[6][2])
    with pytest.raises(FormatError, match="takes no option doc_map"):
        read_file(path, "dplp", doc_map=["a"])


def test_surdeanu_missing_and_extra_trees(tmp_path):
    tree = "System tree:\n(elaboration (LeftToRight) (TEXT:a) (TEXT:b))\n"
    log = "Documents\nd1.dis\nd2.dis\nend Documents\n" + tree * 2
    with pytest.raises(MissingDocumentError, match="no tree for: d2"):
        read_file(_write(tmp_path, "log", log), "surdeanu")
    log = "Documents\nd1.dis\nend Documents\n" + tree * 3
    with pytest.raises(FormatError, match="3 trees for 1 documents") as info:
        read_file(_write(tmp_path, "log2", log), "surdeanu")
    assert info.value.line == 9  # first line of the third tree


# -- bad input: typed errors naming file, line and format -------------------------------------
BAD = [
    ("hilda", "x.dis", "(Root\n  (Nucleus:span leaf1_1_1)\n  (Satellite:Elaboration leafX))", FormatError, 3),
    ("hilda", "x.dis", "(Root\n  (Nucleus:span leaf1_1_1)\n  (Elaboration leaf2_1_1))", FormatError, 3),
    ("hilda", "x.dis", "(Root\n  (Nucleus:span leaf1_1_1)\n  (Satellite:Elaboration leaf3_1_1))", TreeStructureError,
     3),
    ("feng", "x.tree", "(Elaboration[N][S]\n  _!a!_\n  (Joint _!b!_ _!c!_))", FormatError, 3),
    ("feng", "x.tree", "(Elaboration[N][S]\n  _!a!_\n  _!b!_", FormatError, 1),
    ("codra", "x.doc_dis", "( Root (span 1 2)\n  ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )\n  ( Sat",
     FormatError, 3),
    ("li_qi", "parsed_x", "( Root (span 1 2)\n  ( Nucleus (leaf 1) (rel2par span)\n )", FormatError, None),
    ("braud_coling", "0.mrg.pred", "(NS-Elaboration\n  (1)\n  (XY-Joint (2) (3)))", FormatError, 3),
    ("braud_coling", "0.mrg.pred", "(NS-Elaboration (1) (3))", TreeStructureError, 1),
    ("braud_eacl", "run", "(ROOT (EDU a))\n\n(ROOT (EDU b))\n", FormatError, 2),
    ("braud_eacl", "run", "(ROOT (EDU a))\n(ROOT (XXElab (EDU b) (EDU c)))\n", FormatError, 2),
    ("dplp", "x.brackets", "((1, 1), 'Nucleus', 'span')\n((2, 2), Satellite, elaboration)\n", FormatError, 2),
    ("dplp", "x.brackets", "((1, 1), 'Nucleus', 'span')\n((1, 1), 'Nucleus', 'span')\n", TreeStructureError, 2),
    ("dplp", "x.brackets", ("((1, 2), 'Nucleus', 'span')\n((2, 3), 'Satellite', 'x')\n((1, 1), 'Nucleus', 'span')\n"
                            "((2, 2), 'Satellite', 'x')\n((3, 3), 'Nucleus', 'span')\n"), TreeStructureError, None),
    ("dmrst", "x.dmrst", "(1:Nucleus=span:1,2:Satellite=Elaboration:2) junk", FormatError, 1),
    ("dmrst", "x.dmrst", "\n(1:Nucleus=span:2,3:Satellite=E:3) (2:Nucleus=span:2,3:Nucleus=span:3)", TreeStructureError,
     2),
    ("surdeanu", "log", "no documents here\n", FormatError, 1),
    ("surdeanu", "log", ("Documents\nd.dis\nend Documents\nSystem tree:\n(elaboration (LeftToRight)\n  (TEXT:a)\n"
                         "  (TEXT:b) (TEXT:c))\n"), FormatError, 5),
    ("surdeanu_native", "x.dtree", "elaboration (LeftToRight)\n   TEXT:a\n  TEXT:b\n", FormatError, 2),
    ("surdeanu_native", "x.dtree", "elaboration (LeftToRight)\n  TEXT:a\n", FormatError, 1),
    ("hilda_orig", "x.parsetree", "ParseTree('Elab[N][S]', ['a',\n 'b', 'c'])", FormatError, 2),
    ("hilda_orig", "x.parsetree", "ParseTree('Elab', ['a', 'b'])", FormatError, 1),
    ("isanlp", "x.rs3", "<rst><header></header><body>\n<segment id='1'>a</segment>\n<oops></body></rst>",
     FormatError, 3),
]


@pytest.mark.parametrize("key,name,content,error,line", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_is_a_typed_error_naming_file_line_and_format(tmp_path, key, name, content, error, line):
    path = _write(tmp_path, name, content)
    with warns_exactly({}), pytest.raises(error) as info:
        read_file(path, key, doc_map=["a", "b"] if key.startswith("braud") else None)
    assert info.value.path == str(path)
    assert key in str(info.value)
    if line is not None:
        assert info.value.line == line


def test_lenient_renumbers_declared_edus_with_a_warning(tmp_path):
    path = _write(tmp_path, "x.dis", "(Root (Nucleus:span leaf1_1_1) (Satellite:Elaboration leaf3_1_1))")
    with pytest.warns(RSTKitWarning, match="renumbered"):
        tree = read_file(path, "hilda", lenient=True)[0]
    assert tree.root.children[1].span == (2, 2)


def test_rstdt18_knows_every_class_in_every_parser_spelling():
    from rstkit.formats.braud_coling import SPELLING as braud_coling
    from rstkit.formats.codra import SPELLING as codra
    from rstkit.formats.dplp import SPELLING as dplp
    from rstkit.formats.feng import SPELLING as feng
    from rstkit.labels import RSTDT18_CANONICAL as RSTDT_CLASSES
    from tests.support.format_files import BRAUD_EACL_SPELLING as braud_eacl

    rstdt18 = get_label_map("rstdt18")
    for spell in (codra, braud_coling, braud_eacl, dplp, feng):
        classes = {rstdt18.lookup(spell(c)) for c in RSTDT_CLASSES}
        assert None not in classes and len(classes) == 18


def test_hilda_orig_unknown_escapes_stay_as_written_without_a_python_warning(tmp_path):
    """Python 2 (HILDA) kept an unknown escape such as ``\\ `` as written; Python 3 warns of it
    (DeprecationWarning, SyntaxWarning from 3.12). The reader keeps it and warns of nothing
    (found by tests/formats/test_fuzz_readers.py once warnings were no longer silenced there)."""
    path = tmp_path / "x.parsetree"
    path.write_text("ParseTree('Elaboration[N][S]', ['a\\ b \\d', 'c'])\n", encoding="utf-8")
    assert "'a\\ b \\d'" in path.read_text(encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tree = read_file(path, "hilda_orig")[0]
    assert tree.edu_texts() == ["a\\ b \\d", "c"]

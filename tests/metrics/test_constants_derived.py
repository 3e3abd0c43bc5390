"""Where the corpus constants quoted by other tests come from, derived without rstkit.

Each test counts in the raw GUM files (regular expressions, or the oracle's own .dis reader
and binarization, tests/support/oracle.py) and names the tests that quote the number. A constant
that drifts from its data fails here, whatever rstkit prints. tests/golden/README.md lists
every constant of the tests with its derivation.
"""
from __future__ import annotations

import re

import pytest

from tests.support import oracle

pytestmark = pytest.mark.gum

QUIRK = "GENTLE_syllabus_techtonica"


def splits(gum_dir) -> dict[str, list[str]]:
    text = (gum_dir / "splits.md").read_text(encoding="utf-8")
    return {section.split("\n", 1)[0].strip(): re.findall(r"^\s*\* (\S+)", section, re.MULTILINE)
            for section in re.split(r"^## ", text, flags=re.MULTILINE)[1:]}


def edu_texts(raw: str) -> list[str]:
    return re.findall(r"\(text _!(.*?)_!\)", raw)


def test_gum_documents_and_edus(gum_dir):
    """test_cli.py::test_stats_gum, test_gum_forms.py (281 documents, 35,144 EDUs), and the
    strict reading that refuses one file: 280 documents, 35,144 - 266 = 34,878 EDUs, the
    error on line 60, where the file declares (span 49 266) over children covering 22-266."""
    files = sorted((gum_dir / "lisp_nary").glob("*.dis"))
    raw = {p.stem: p.read_text(encoding="utf-8") for p in files}
    leaves = {d: text.count("(leaf ") for d, text in raw.items()}
    assert len(files) == 281 and sum(leaves.values()) == 35144
    assert leaves[QUIRK] == 266 and (len(files) - 1, sum(leaves.values()) - leaves[QUIRK]) == (280, 34878)
    (line,) = [i for i, text in enumerate(raw[QUIRK].splitlines(), 1) if "(span 49 266)" in text]
    assert line == 60
    declared = re.compile(r"\(\s*(?:Nucleus|Satellite) \(span 49 266\)")
    tree = oracle.read_dis(raw[QUIRK])  # spans recomputed from the leaves
    assert declared.search(raw[QUIRK]) and (49, 266) not in {(n.start, n.end) for n in oracle.walk(tree)}
    assert (22, 266) in {(n.start, n.end) for n in oracle.walk(tree)}
    rsd_rows = sum(len([r for r in (gum_dir / "dependencies" / f"{d}.rsd").read_text(encoding="utf-8").splitlines()
                        if r.strip()]) for d in raw)
    assert rsd_rows == 35144  # the .rsd form has one row per EDU


def test_gum_files_with_a_bracket_in_an_edu(gum_dir):
    """test_dis.py::test_every_gum_file_reads_and_round_trips: 65 files (docs/evaluation.md#reading-dis-files)."""
    files = sorted((gum_dir / "lisp_nary").glob("*.dis"))
    assert sum(any("]" in t for t in edu_texts(p.read_text(encoding="utf-8"))) for p in files) == 65


def test_gum_rsd_files_with_layout_marks(gum_dir):
    """test_gum_forms.py::test_rsd_carries_sentences_and_paragraphs: 232 .rsd files have a
    paragraph mark (para, item, heading or caption: rstkit/formats/rsd.py's docstring)."""
    marked = [p for p in (gum_dir / "dependencies").glob("*.rsd")
              if re.search(r"\|(para|item|heading|caption)=", p.read_text(encoding="utf-8"))]
    assert len(marked) == 232


def test_gum_split_sizes(gum_dir):
    """test_corpus.py::test_gum_splits: splits.md lists 191 / 32 / 32 / 26 documents."""
    assert {name: len(ids) for name, ids in splits(gum_dir).items()} == {"train": 191, "dev": 32, "test": 32,
                                                                          "test2": 26}


@pytest.mark.slow  # GUM-wide
def test_gum_discoeval_instances(gum_dir):
    """test_probe_task.py (documents, EDUs, instances per split; masked documents 14/2/2) and
    test_probe_discoeval.py::test_gum_majority_baseline: one instance per internal node of the
    right-heavy tree (rstkit/probe/task.py's docstring), documents with masked text (GUM's
    reddit documents, underscores only) left out; the label is the nuclearity pair and the
    class of the attachment's relation. NN-Joint, the majority label, has 670 of the 3,604
    dev instances and 679 of the 3,488 test ones; the first masked training document is
    GUM_reddit_bobby."""
    parts = splits(gum_dir)
    sizes, joint, masked = {}, {}, {}
    for split in ("train", "dev", "test"):
        docs = edus = instances = n_joint = 0
        masked[split] = []
        for doc in parts[split]:
            raw = (gum_dir / "lisp_nary" / f"{doc}.dis").read_text(encoding="utf-8")
            if all(set(t.replace(" ", "")) <= {"_"} for t in edu_texts(raw)):
                masked[split].append(doc)
                continue
            tree = oracle.right_heavy(oracle.read_dis(raw))
            docs, edus = docs + 1, edus + tree.end
            for node in oracle.walk(tree):
                if node.kids:
                    left, right = node.kids
                    relation = right.rel if right.nuc == "S" else left.rel
                    instances += 1
                    n_joint += left.nuc + right.nuc == "NN" and oracle.gum_class(relation) == "joint"
        sizes[split], joint[split] = (docs, edus, instances), n_joint
    assert sizes == {"train": (177, 23013, 22836), "dev": (30, 3634, 3604), "test": (30, 3518, 3488)}
    assert (joint["dev"], joint["test"]) == (670, 679)
    assert {split: len(docs) for split, docs in masked.items()} == {"train": 14, "dev": 2, "test": 2}
    assert min(masked["train"]) == "GUM_reddit_bobby"


def test_gum_edu_text_differences_between_forms(gum_dir):
    """test_gum_forms.py::TEXT_DIFFERENCES: EDU texts that differ from lisp_nary, compared after
    collapsing whitespace, reading the .rs4 segments with the standard library's XML parser
    and the .rsd text column."""
    import xml.etree.ElementTree as ET

    def collapsed(text: str) -> str:
        return " ".join(text.split())

    found: dict[str, dict[str, list[int]]] = {"rs4": {}, "rsd": {}}
    for path in sorted((gum_dir / "lisp_nary").glob("*.dis")):
        doc = path.stem
        dis = [collapsed(t) for t in edu_texts(path.read_text(encoding="utf-8"))]
        segments = ET.parse(gum_dir / "rstweb" / f"{doc}.rs4").getroot().iter("segment")
        rs4 = [collapsed(s.text or "") for s in sorted(segments, key=lambda s: int(s.get("id")))]
        rows = (gum_dir / "dependencies" / f"{doc}.rsd").read_text(encoding="utf-8").splitlines()
        rsd = [collapsed(row.split("\t")[1]) for row in rows if row.strip()]
        for form, texts in (("rs4", rs4), ("rsd", rsd)):
            assert len(texts) == len(dis), (form, doc)
            differing = [i for i, (a, b) in enumerate(zip(texts, dis), 1) if a != b]
            if differing:
                found[form][doc] = differing
    assert found == {
        "rs4": {"GUM_conversation_artist": [11], "GUM_court_property": [90, 180], "GUM_reddit_bobby": [55],
                "GUM_reddit_callout": [9, 135], "GUM_reddit_conspiracy": [156, 158], "GUM_reddit_escape": [42],
                "GUM_reddit_gender": [28], "GUM_reddit_ring": [55], "GUM_reddit_stroke": [39, 138]},
        "rsd": {"GUM_conversation_artist": [11], "GUM_court_property": [90, 180]},
    }

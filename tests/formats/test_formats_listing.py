"""Which files of a directory are read, and under which document ids (issue 10: --pred-format KEY DIR).

Expected ids follow the rule by hand: file name minus the format's suffix (or prefix), then minus
one remaining extension.
"""
from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

from rstkit.cli import main
from rstkit.corpus import directory_corpus, list_files, read_documents
from rstkit.errors import CorpusError, FormatError, RSTKitError, RSTKitWarning
from rstkit.folders import walk_files
from rstkit.formats import doc_id_from_path, get_format
from rstkit.formats.detect import detect_format
from tests.support.expected_warnings import warns_exactly

PARSERS = Path(__file__).resolve().parents[1].parent / "parsers"
DMRST = (PARSERS / "dmrst" / "council.dmrst").read_text(encoding="utf-8")
DIS = (Path(__file__).resolve().parents[1] / "data" / "formats" / "council.dis").read_text(encoding="utf-8")


@pytest.mark.parametrize("name, key, doc_id", [
    ("wsj_0602.out.dis", "dis", "wsj_0602"), ("GUM_news_iodine.rs4", "rs4", "GUM_news_iodine"),
    ("ferry.txt.tree", "feng", "ferry"), ("wsj_0602.out.tree", "feng", "wsj_0602"),
    ("a.txt", "dmrst", "a"), ("a.dmrst", "dmrst", "a"), ("a", "dmrst", "a"), ("doc.1", "dmrst", "doc.1"),
    ("parsed_wsj_0602.out", "li_qi", "wsj_0602"), ("wsj_0602.out", "li_qi", "wsj_0602"),
    ("x.txt.dis", "feng_dis", "x"), ("council.dtree", "surdeanu_native", "council"),
    ("council.txt", "surdeanu_native", "council"), ("wsj_1101.out.doc_dis", "codra", "wsj_1101"),
    ("d.out.brackets", "dplp", "d"), ("t.parsetree", "hilda_orig", "t"),
])
def test_document_id_rule(name, key, doc_id):
    assert get_format(key).doc_id(Path("/some/dir") / name) == doc_id


def test_default_suffixes_are_every_registered_extension():
    assert doc_id_from_path("x.out.brackets") == "x"
    assert doc_id_from_path("wsj_1101.out.edus") == "wsj_1101"


def _dir(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_explicit_format_reads_files_without_its_extension_and_says_which(tmp_path):
    """Issue 10: with an explicit format and no file named for it, every regular non-hidden file
    is read (a file that is not in the format is an error naming it, not left out silently)."""
    pred = _dir(tmp_path / "pred", {"a.txt": DMRST, "b.txt": DMRST, ".hidden": DMRST, ".cache/c.txt": DMRST})
    with pytest.warns(RSTKitWarning, match=r"no file is named as dmrst files are: read all 2 as dmrst: a.txt, b.txt$"):
        documents = read_documents(pred, "dmrst")
    assert sorted(documents) == ["a", "b"]
    (pred / "notes.md").write_text("# run 3\n", encoding="utf-8")
    with pytest.warns(RSTKitWarning, match=r"read all 3 as dmrst: a.txt, b.txt, notes.md \(1 fit no known format: "
                                           r"notes.md\)"), pytest.raises(RSTKitError, match="notes.md"):
        read_documents(pred, "dmrst")
    errors: list[RSTKitError] = []
    with pytest.warns(RSTKitWarning):
        documents = read_documents(pred, "dmrst", skip_errors=True, errors=errors)
    assert sorted(documents) == ["a", "b"] and [Path(e.path).name for e in errors] == ["notes.md"]


def test_a_doc_map_beside_the_files_is_not_read_as_one(tmp_path):
    pred = _dir(tmp_path / "pred", {"a.txt": DMRST, "map.tsv": "1\twsj_0600\n"})  # dmrst: documents by line
    with pytest.warns(RSTKitWarning, match=r"read all 1 as dmrst: a.txt$"):
        documents = read_documents(pred, "dmrst", doc_map=str(pred / "map.tsv"))
    assert sorted(documents) == ["wsj_0600"]


def test_files_named_for_the_format_are_read_alone_and_silently(tmp_path):
    pred = _dir(tmp_path, {"a.dmrst": DMRST, "b.txt": DMRST, "README.md": "notes"})
    with warnings.catch_warnings():
        warnings.simplefilter("error", RSTKitWarning)
        assert [p.name for p in list_files(pred, "dmrst")] == ["a.dmrst"]


def test_two_formats_in_one_directory_is_an_error_naming_both(tmp_path):
    pred = _dir(tmp_path, {"a.txt": DMRST, "b.txt": DMRST, "c.txt": DIS})
    listing = r"\(codra or dis or feng_dis or li_qi: c.txt; dmrst: a.txt, b.txt\)"
    with pytest.raises(CorpusError, match=r"two formats " + listing):
        read_documents(pred, "dmrst")
    with pytest.raises(FormatError, match=r"different formats \(.*dis.*: c.txt; dmrst: a.txt, b.txt\)"):
        detect_format(pred)


def test_a_directory_of_another_format_names_it(tmp_path):
    pred = _dir(tmp_path, {"c.txt": DIS})
    with pytest.raises(CorpusError, match=r"no file is in format 'dmrst'.*c.txt"):
        read_documents(pred, "dmrst")


def test_auto_detects_every_file(tmp_path):
    """The sixth file decides here: every file is looked at, not the first few."""
    pred = _dir(tmp_path, {f"{i}.txt": DMRST for i in range(5)})
    assert detect_format(pred) == "dmrst"
    (pred / "9.txt").write_text(DIS, encoding="utf-8")
    with pytest.raises(FormatError, match="different formats"):
        detect_format(pred)


def test_empty_file_is_left_to_the_reader(tmp_path):
    """DPLP writes an empty .brackets file for a one-EDU document."""
    pred = _dir(tmp_path, {"a.txt": "((1, 1), 'Nucleus', 'span')\n((2, 2), 'Satellite', 'elaboration')\n",
                           "b.txt": ""})
    with warns_exactly({r"no file is named as dplp files are: read all 2 as dplp: a\.txt, b\.txt": 1}):
        documents = read_documents(pred, "dplp")
    assert {d: t.n_edus for d, t in documents.items()} == {"a": 2, "b": 1}


def test_directory_corpus_uses_the_format_id_rule(tmp_path):
    shutil.copy(PARSERS / "li_qi" / "parsed_council.out", tmp_path / "parsed_council.out")
    assert list(directory_corpus(tmp_path, "li_qi").files) == ["council"]


def test_cli_eval_reads_dmrst_strings_saved_as_txt(tmp_path, capsys):
    """The issue's case: DMRST writes no file; users save its strings as .txt."""
    gold = _dir(tmp_path / "gold", {"council.dis": DIS})
    pred = _dir(tmp_path / "pred", {"council.txt": DMRST})
    warnings.simplefilter("always", RSTKitWarning)  # the suite's configuration hides them
    assert main(["eval", str(gold), str(pred), "--pred-format", "dmrst", "--format", "json"]) == 0
    assert "no file is named as dmrst files are: read all 1 as dmrst: council.txt" in capsys.readouterr().err
    assert main(["eval", str(gold), str(pred), "--pred-format", "auto", "--format", "json"]) == 0


def test_the_walk_lists_regular_files_in_path_order_and_follows_linked_folders(tmp_path):
    """The listing against its definition written with pathlib (``rglob``, which does not enter
    linked folders, plus the linked folder's files, listed by hand): regular files, links to files
    included, hidden files and folders left out, sorted as Paths sort (``a/z`` before ``a-b``,
    unlike their strings); the broken link is a problem, not left out in silence."""
    root = tmp_path / "d"
    for rel in ["a.dis", "a-b.dis", "a/z.dis", "sub/deep/b.dis", ".hidden/c.dis", ".x.dis", "sub/.y.dis", "B.dis"]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "o.dis").write_text("")
    (root / "linked_folder").symlink_to(tmp_path / "other")
    (root / "linked_file.dis").symlink_to(tmp_path / "other" / "o.dis")
    (root / "broken.dis").symlink_to(tmp_path / "nowhere")
    expected = sorted([p for p in root.rglob("*")
                       if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)]
                      + [root / "linked_folder" / "o.dis"])
    listing = walk_files(root)
    assert listing.files == expected
    assert [p.relative_to(root).as_posix() for p in expected] == [
        "B.dis", "a/z.dis", "a-b.dis", "a.dis", "linked_file.dis", "linked_folder/o.dis", "sub/deep/b.dis"]
    assert [(e.path, "broken symbolic link" in e.message) for e in listing.problems] == [(str(root / "broken.dis"),
                                                                                          True)]

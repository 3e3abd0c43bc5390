"""Produce the isanlp fixtures of this folder with isanlp's own code (see README.md).

    PYTHONPATH=ISANLP_SRC python make_isanlp_rs3.py DU_CONVERTER_PY OUT_DIR

ISANLP_SRC: ``src/`` of IINemo/isanlp (``isanlp.annotation_rst``: DiscourseUnit and the rs3
Exporter); DU_CONVERTER_PY: ``isanlp_rst/utils/du_converter.py`` of the ``isanlp-rst`` 3.2.2
wheel (loaded from its file: the package's __init__ needs transformers). Input: the real
Feng-Hirst trees of ../feng/, turned into the span strings isanlp_rst's DMRST-style models emit
(``(1:Nucleus=span;entropy=0.00000:3,4:Satellite=Elaboration:4) ...``, pre-order) and the
sentencepiece-like token lists they come with. isanlp_rst's DUConverter builds DiscourseUnit
trees from them and DiscourseUnit.to_rs3 writes ``<doc>.rs3``. The span strings are also
kept (``spans/<doc>.txt``) as the input of the conversion.
"""
import importlib.util
import sys
from pathlib import Path

from rstkit.corpus import read_documents

HERE = Path(__file__).resolve().parent
converter_path, out = Path(sys.argv[1]), Path(sys.argv[2])
spec = importlib.util.spec_from_file_location("du_converter", converter_path)
du_converter = importlib.util.module_from_spec(spec)
spec.loader.exec_module(du_converter)

WORDS = {"N": "Nucleus", "S": "Satellite"}


def span_string(tree) -> str:
    parts = []
    for node in tree.root.nodes():
        if node.is_leaf:
            continue
        left, right = node.children
        labels = []
        for child in (left, right):
            relation = child.relation if child.relation == "span" else "-".join(
                p.capitalize() for p in child.relation.split("-"))
            if relation in ("Same-Unit", "Textual-Organization"):
                relation = relation.lower()
            labels.append(f"{WORDS[child.nuclearity]}={relation}")
        parts.append(f"({left.start}:{labels[0]};entropy=0.00000:{left.end},{right.start}:{labels[1]}:{right.end})")
    return " ".join(parts)


(out / "spans").mkdir(parents=True, exist_ok=True)
for doc_id, tree in read_documents(HERE.parent / "feng", "feng").items():
    tokens, breaks = [], []
    for edu in tree.edus:
        tokens += ["\u2581" + word for word in edu.text.split()]
        breaks.append(len(tokens) - 1)
    spans = span_string(tree) or "NONE"  # DMRST's one-EDU string; isanlp_rst does not parse it
    (out / "spans" / f"{doc_id}.txt").write_text(spans + "\n", encoding="utf-8")
    predictions = {"tokens": [tokens], "edu_breaks": [breaks], "spans": [[spans]]}
    (unit,) = du_converter.DUConverter(predictions).collect()
    unit.to_rs3(str(out / f"{doc_id}.rs3"))

"""``rstkit stats`` counts the eRST layer: secondary edges by relation, signals by type and subtype."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from rstkit.cli import main

SMALL = Path(__file__).resolve().parents[1] / "data" / "formats" / "erst_small.rs4"
SAMPLE = Path(__file__).resolve().parents[2] / "corpora" / "sample" / "gold"


def test_stats_count_secondary_edges_and_signals(capsys):
    assert main(["stats", str(SMALL), "--format", "json"]) == 0
    # by hand from erst_small.rs4: edges cause and contrast; five signals, two of them on edges, one
    # without tokens; types dm (2: dm, dm), semantic (2: repetition, lexical_chain), graphical (1: colon)
    assert json.loads(capsys.readouterr().out)["erst"] == {
        "documents": 1, "secondary_edges": 2, "secondary_edge_relations": {"cause": 1, "contrast": 1},
        "signals": 5, "signals_on_secondary_edges": 2, "signals_without_tokens": 1,
        "signal_types": {"dm": {"signals": 2, "subtypes": {"dm": 2}},
                         "semantic": {"signals": 2, "subtypes": {"repetition": 1, "lexical_chain": 1}},
                         "graphical": {"signals": 1, "subtypes": {"colon": 1}}}}
    assert main(["stats", str(SMALL)]) == 0
    text = capsys.readouterr().out
    assert text.split("eRST layers")[1] == """ 1 document(s)
secondary edges 2
  cause                        1
  contrast                     1
signals    5  (of secondary edges 2, without tokens 1)
  dm                           2
    dm                         2
  semantic                     2
    repetition                 1
    lexical_chain              1
  graphical                    1
    colon                      1
"""


def test_documents_without_a_layer_show_no_erst_counts(capsys):
    assert main(["stats", str(SAMPLE), "--format", "json"]) == 0
    assert "erst" not in json.loads(capsys.readouterr().out)
    assert main(["stats", str(SAMPLE)]) == 0
    assert "eRST" not in capsys.readouterr().out


@pytest.mark.gum
@pytest.mark.slow
def test_gum_stats_count_what_an_xml_read_counts(gum_dir, capsys):
    """1,363 secondary edges and 40,156 signals in GUM's 281 .rs4 files, by type and subtype as xml.etree
    counts them."""
    edges, types, subtypes = Counter(), Counter(), Counter()
    for path in sorted((gum_dir / "rstweb").glob("*.rs4")):
        root = ET.parse(path).getroot()
        edges.update(e.get("relname") for e in root.iterfind("body/secedges/secedge"))
        for signal in root.iterfind("body/signals/signal"):
            types[signal.get("type")] += 1
            subtypes[signal.get("type"), signal.get("subtype")] += 1
    assert main(["stats", str(gum_dir / "rstweb"), "--format", "json"]) == 0
    erst = json.loads(capsys.readouterr().out)["erst"]
    assert (erst["documents"], erst["secondary_edges"], erst["signals"]) == (281, 1363, 40156)
    assert erst["secondary_edge_relations"] == dict(edges)
    assert {kind: counts["signals"] for kind, counts in erst["signal_types"].items()} == dict(types)
    assert {(kind, sub): n for kind, counts in erst["signal_types"].items()
            for sub, n in counts["subtypes"].items()} == dict(subtypes)

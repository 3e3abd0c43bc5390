"""Published tables of papers (``rstkit/data/published/<key>.json``, the single source of truth;
``eval/`` holds the human-facing copies), and their rows recomputed on the user's data."""
from __future__ import annotations

import json
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..errors import RSTKitError, RSTKitWarning
from ..metrics import EvalConfig, score_documents
from ..settings import Missing, UnknownLabels
from ..tree import RSTTree
from .published import LABEL_COLUMN, Published
from .ranking import Audit, audit_published


@dataclass(frozen=True)
class PaperParser:
    key: str
    name: str
    group: int | None
    format: str
    documents: int | None = None
    note: str = ""


@dataclass(frozen=True)
class PaperRow:
    parser: str
    label: str
    mark: str
    values: dict[str, float | None]


@dataclass(frozen=True)
class PaperTable:
    number: int
    title: str
    columns: tuple[str, ...]
    settings: dict[str, str]
    rows: tuple[PaperRow, ...]
    matches_table1: dict[str, tuple[str, ...]]

    def row(self, parser: str) -> PaperRow:
        for row in self.rows:
            if row.parser == parser:
                return row
        raise RSTKitError(f"Table {self.number} has no row for parser {parser!r}; "
                          f"it has {', '.join(r.parser for r in self.rows)}")


@dataclass(frozen=True)
class Paper:
    """A paper's published tables, as stored in ``rstkit/data/published/<key>.json``."""

    key: str
    data: dict

    @property
    def decimals(self) -> int:
        return self.data["decimals"]

    @property
    def parsers(self) -> list[PaperParser]:
        return [PaperParser(**p) for p in self.data["parsers"]]

    @property
    def tables(self) -> list[PaperTable]:
        return [PaperTable(t["number"], t["title"], tuple(t["columns"]), t["settings"],
                           tuple(PaperRow(r["parser"], r["label"], r["mark"], dict(zip(t["columns"], r["values"])))
                                 for r in t["rows"]),
                           {p: tuple(ms) for p, ms in t.get("matches_table1", {}).items()})
                for t in self.data["tables"]]

    def table(self, number: int) -> PaperTable:
        for table in self.tables:
            if table.number == number:
                return table
        raise RSTKitError(f"paper {self.key} has no Table {number}; "
                          f"it has {', '.join(str(t.number) for t in self.tables)}")

    def parser(self, name: str) -> PaperParser:
        """A parser by key or name (case-insensitive, marks ignored)."""
        wanted = re.sub(r"[\s*]+", " ", name).strip().lower()
        labels = {(row.parser, row.label.lower()) for table in self.tables for row in table.rows}
        for parser in self.parsers:
            if wanted in (parser.key, parser.name.lower()) or (parser.key, wanted) in labels:
                return parser
        choices = ", ".join(p.key for p in self.parsers)
        raise RSTKitError(f"paper {self.key} has no parser {name!r}; choose from {choices}")

    def average(self, table: PaperTable, parser: str) -> str:
        """The averaging a row of ``table`` was computed with: the table's own, else (Table 1)
        that of the replicated table marking the row as matching it, else the group's."""
        if "average" in table.settings:
            return table.settings["average"]
        for other in self.tables:
            if parser in other.matches_table1 and "average" in other.settings:
                return other.settings["average"]
        group = self.parser(parser).group
        if group is None:
            raise RSTKitError(f"paper {self.key}: no averaging is known for {parser} in Table {table.number}")
        return self.data["groups"][str(group)]["average"]

    def config(self, table: PaperTable, parser: str, *, missing: Missing = "error", lenient: bool = False
               ) -> EvalConfig:
        settings: dict[str, Any] = {**table.settings, "average": self.average(table, parser)}
        return EvalConfig(missing=missing, lenient=lenient, **settings)


def paper_keys() -> list[str]:
    folder = resources.files("rstkit.data").joinpath("published")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


@cache
def _paper_data(key: str) -> str:
    return resources.files("rstkit.data").joinpath("published", f"{key}.json").read_text(encoding="utf-8")


def load_paper(key: str) -> Paper:
    """The published tables of paper ``key`` (one of :func:`paper_keys`), shipped with rstkit.

    >>> paper = load_paper("morey2017")
    >>> [parser.key for parser in paper.parsers][:3]
    ['hhn16-hilda', 'shv15-d', 'jcn15-1s-1s']
    """
    if key not in paper_keys():
        raise RSTKitError(f"no published tables for paper {key!r}; known: {', '.join(paper_keys())}")
    return Paper(key, json.loads(_paper_data(key)))


@dataclass
class Recomputed:
    """One table's row of one parser, recomputed on the user's data."""

    table: PaperTable
    parser: str
    config: EvalConfig
    n_documents: int
    scores: dict[str, float]
    label_column: str | None = None

    def value(self, column: str) -> float:
        return self.scores[(self.label_column or column) if column == LABEL_COLUMN else column]

    def difference(self, column: str) -> float | None:
        """Recomputed minus published (None where the paper gives no number)."""
        published = self.table.row(self.parser).values[column]
        return None if published is None else self.value(column) - published

    def as_dict(self) -> dict:
        out = {"table": self.table.number, "scores": self.scores,
               "published": self.table.row(self.parser).values,
               "differences": {c: self.difference(c) for c in self.table.columns},
               "signature": self.config.signature(self.n_documents), "settings": self.config.as_dict()}
        if self.label_column:
            out["label_column"] = self.label_column
        return out


def recompute_row(paper: Paper, parser: str, gold: Mapping[str, RSTTree], pred: Mapping[str, RSTTree], *,
                  missing: Missing = "error", lenient: bool = False, notes: list[str] | None = None
                  ) -> list[Recomputed]:
    """Every table's row of ``parser`` recomputed under that table's settings.

    A ``R/F`` column is read as the measure the paper marks as matching (Table 1 marks in
    the replicated tables), else as whichever of R and F is nearer the published value.
    """
    out = []
    for table in paper.tables:
        config = paper.config(table, parser, missing=missing, lenient=lenient)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RSTKitWarning)
            result = score_documents(gold, pred, config)
        if notes is not None:
            notes.extend(w for w in result.warnings if w not in notes)
        column = None
        if LABEL_COLUMN in table.columns:
            marked = [m for t in paper.tables for m in t.matches_table1.get(parser, ()) if m in ("R", "F")]
            published = table.row(parser).values[LABEL_COLUMN]
            if marked or published is None:
                column = marked[0] if marked else "F"
            else:
                column = min(("R", "F"), key=lambda m: abs(result.scores[m] - published))
        out.append(Recomputed(table, parser, config, len(result.doc_ids), dict(result.scores), column))
    return out


@dataclass
class PaperAudit:
    """A paper's published tables and, when data was given, one parser's row of every table
    recomputed (``recomputed``) and its Table 1 row audited against every variant (``row_audit``)."""

    paper: Paper
    parser: str | None = None
    recomputed: list[Recomputed] = field(default_factory=list)
    row_audit: Audit | None = None
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        out = dict(self.paper.data)
        if self.parser:
            out["recomputed"] = {"parser": self.parser, "n_documents": self.recomputed[0].n_documents,
                                 "tables": [r.as_dict() for r in self.recomputed],
                                 "table1_audit": self.row_audit.as_dict() if self.row_audit else None}
        return out


def audit_paper(gold: Mapping[str, RSTTree], pred: Mapping[str, RSTTree], paper: Paper, parser: str, *,
                label_maps: Sequence[str] | None = None, missing: Missing = "error", lenient: bool = False,
                unknown_labels: UnknownLabels | None = None) -> PaperAudit:
    """``parser``'s row (a key) of every table of ``paper`` recomputed on ``gold`` and ``pred``, and
    its Table 1 row audited against every variant (options as in :func:`~rstkit.audit.audit_published`;
    gold and predictions first, as every audit and evaluation takes them).

    >>> from rstkit import read_documents
    >>> gold, pred = read_documents("corpora/sample/gold"), read_documents("corpora/sample/pred")
    >>> result = audit_paper(gold, pred, load_paper("morey2017"), "je14-dplp")
    >>> [row.table.number for row in result.recomputed]
    [1, 2, 3, 4]
    """
    if not isinstance(paper, Paper):
        raise TypeError(f"audit_paper(gold, pred, paper, parser) takes a Paper third (load_paper(key)), not "
                        f"{type(paper).__name__}")
    notes: list[str] = []
    recomputed = recompute_row(paper, parser, gold, pred, missing=missing, lenient=lenient, notes=notes)
    published = Published.from_values(paper.tables[0].row(parser).values, paper.decimals)
    row_audit = audit_published(gold, pred, published, label_maps=label_maps, missing=missing, lenient=lenient,
                      unknown_labels=unknown_labels)
    return PaperAudit(paper, parser, recomputed, row_audit, [*notes, *row_audit.warnings])

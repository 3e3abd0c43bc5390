"""The names of the choices that change a score or a tree: one ``Literal`` type and one tuple each.

Every setting of an evaluation (average, binarization, compatibility mode, missing documents, unknown
labels, EDUs, span keying, dependency encoding, sentence-initial boundaries, the peers' quirks and
presets), the binarizations of a tree, the built-in label maps and the constituency measures. Signatures,
validation and the command line's ``choices`` all read these tuples, so a choice is spelled in one place
(tests/metrics/test_settings.py checks every ``choices`` of the command line). Each tuple is
``typing.get_args`` of its type, in the order the command line lists the choices. Beside them two
constants: the reference procedure's name, :data:`RST_EVAL`, and the 0/0 rule, :data:`ZERO_DIVISION`.

Not here, each with its registry: the metric families' names (:mod:`rstkit.metrics.registry`; ``Metric``
is ``str``), file formats (:mod:`rstkit.formats`), report formats (:mod:`rstkit.report`), and the
training settings of the parser and the segmenter (their ``TrainConfig``), which change a model, not how
a tree is scored or transformed. Imports nothing from rstkit.
"""
from __future__ import annotations

from typing import Final, Literal, get_args

#: the reference implementation (educe / rst-eval): a compatibility mode and its binarization
RST_EVAL: Final = "rst-eval"

#: a metric family's name (``rst-parseval``, ``parseval``, ``dependency``...): the families and their
#: names live in :mod:`rstkit.metrics.registry`, which the command line's choices read
Metric = str

Average = Literal["micro", "macro", "dplp"]
#: ``micro`` pools tuples; ``macro`` is the mean of per-document scores; ``dplp`` DPLP's per-document P/R
AVERAGES: tuple[Average, ...] = get_args(Average)

Binarization = Literal["right", "rst-eval", "right_mixed", "none"]
#: the binarization modes of :func:`rstkit.transform.binarize` (docs/evaluation.md#binarization)
BINARIZATIONS: tuple[Binarization, ...] = get_args(Binarization)

EvalBinarization = Literal["right", "right_mixed", "none"]
#: what an evaluation's ``binarize`` takes: ``rst-eval``'s binarization comes with ``compat="rst-eval"``
EVAL_BINARIZATIONS: tuple[EvalBinarization, ...] = get_args(EvalBinarization)

Compat = Literal["rst-eval"]
#: compatibility modes: reproduce another implementation, quirks included
COMPAT_MODES: tuple[Compat, ...] = get_args(Compat)

Missing = Literal["error", "skip", "zero"]
#: what a gold document without prediction does: an error, left out, or scored as an empty prediction
MISSING_POLICIES: tuple[Missing, ...] = get_args(Missing)

UnknownLabels = Literal["error", "keep"]
#: what a label the label map does not know does: an error, or kept lowercased (the reference)
UNKNOWN_LABEL_POLICIES: tuple[UnknownLabels, ...] = get_args(UnknownLabels)

EduMode = Literal["gold", "aligned"]
#: how spans are compared: by EDU number (same EDUs), or by character (predictions with their own EDUs)
EDU_MODES: tuple[EduMode, ...] = get_args(EduMode)

Measure = Literal["S", "N", "R", "F"]
#: the measures of the constituency metrics: span, nuclearity, relation, full (Marcu 2000; Morey et al. 2017)
MEASURES: tuple[Measure, ...] = get_args(Measure)

DependencyEncoding = Literal["chain", "tree"]
#: how a dependency conversion encodes n-ary nodes (docs/metrics/dependency.md#definition): ``chain`` binarizes them
#: the ``right_mixed`` way first (multinuclear nodes become chains), ``tree`` keeps them (stars, shared ranks)
DEP_ENCODINGS: tuple[DependencyEncoding, ...] = get_args(DependencyEncoding)

#: segmentation: sentence-initial tokens ``counted`` like any other, or ``dropped`` (DISRPT's ``-nb``)
SentenceInitial = Literal["counted", "dropped"]
SENTENCE_INITIAL: tuple[SentenceInitial, ...] = get_args(SentenceInitial)

LabelMapName = Literal["raw", "rstdt18", "gum"]
#: the built-in relation label maps (:mod:`rstkit.labels`)
LABEL_MAPS: tuple[LabelMapName, ...] = get_args(LabelMapName)

#: the 0/0 rule of precision and recall: what a ratio with nothing to count gives (as seqeval's ``zero_division``)
ZeroDivision = Literal[0, 1]
ZERO_DIVISION: Final = 0

SpanKey = Literal["chars", "first-edu-end"]
#: how aligned EDUs (``edus="aligned"``) key a span: by its first and last character (``chars``), or by the
#: last character of its first EDU and of its last EDU (``first-edu-end``: DMRST's and isanlp_rst's token keying)
SPAN_KEYS: tuple[SpanKey, ...] = get_args(SpanKey)

NNRelation = Literal["left", "right"]
#: which child of a binary multinuclear (NN) node gives its relation: ``left`` (rstkit, educe, NTT's code),
#: ``right`` (DMRST's and crossGENRE's trees); under RST-Parseval both children then carry that relation
NN_RELATIONS: tuple[NNRelation, ...] = get_args(NNRelation)

RelationFixer = Literal["none", "isanlp-gum", "isanlp-rurstb"]
#: isanlp_rst's "relation fixer": a table that rewrites (relation, nuclearity) of binary nodes, per corpus
RELATION_FIXERS: tuple[RelationFixer, ...] = get_args(RelationFixer)

NaryChildren = Literal["all", "first-three"]
#: n-ary nodes whose children's labels differ: binarized with ``all`` their children, or as NTT's code does
#: (``first-three``: ``((c1 c2) c3)``, later children dropped)
NARY_CHILDREN: tuple[NaryChildren, ...] = get_args(NaryChildren)

PresetName = Literal["rst-eval", "dmrst", "isanlp", "ntt", "dipo", "crossgenre", "neuralrst", "rstfinder"]
#: named peers' scoring procedures (:mod:`rstkit.metrics.presets`)
PRESETS: tuple[PresetName, ...] = get_args(PresetName)

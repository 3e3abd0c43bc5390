"""``rstkit segment INPUT OUT``: split plain text into EDUs with rstkit's segmenter.

INPUT is a UTF-8 text file (paragraphs separated by blank lines) or a directory of them
(files matching ``--glob``, searched recursively). OUT is a file for a file input (if OUT
is an existing directory, the output goes there under INPUT's name with the output
extension) and a directory for a directory input (created if needed; each input file
gives one output file at the same relative path). ``--format lines`` writes EDUs one per
line with a blank line between paragraphs (``.edus``); ``--format jsonl`` one JSON object
per EDU with its character offsets into the input, paragraph and sentence (``.jsonl``).

Every input is read and every output location checked before anything is segmented or
written; an input is never overwritten, an existing output only with ``--force``. Needs
torch; the default model also reads MiniLM (the ``minilm`` extra), ``--model
segmenter-base`` needs nothing but torch.
"""
from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path

from ..errors import ManyErrors, RSTKitError, RSTKitWarning
from ..segment.tokenize import read_plain_text
from .common import positive_int

EXTENSIONS = {"lines": ".edus", "jsonl": ".jsonl"}


def add_parser(sub) -> None:
    p = sub.add_parser("segment", help="split plain text into EDUs (extra: parser)", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="a UTF-8 text file or a directory of them")
    p.add_argument("out", help="output file (for a file) or directory (for a directory)")
    p.add_argument("--format", choices=sorted(EXTENSIONS), default="lines",
                   help="lines: EDUs one per line (default); jsonl: one JSON object per EDU with offsets")
    p.add_argument("--glob", default="*.txt", help="which files of a directory to segment (default: *.txt)")
    p.add_argument("--model", default=None, metavar="DIR",
                   help="segmenter model directory, or the name of a shipped model: segmenter (the default; reads "
                        "MiniLM, extra: minilm) or segmenter-base (needs nothing but torch)")
    p.add_argument("--threads", type=positive_int, default=None, help="CPU threads for torch")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.set_defaults(run=run)


def plan(input_path: Path, out: Path, extension: str, pattern: str, force: bool) -> list[tuple[Path, Path]]:
    """``(input file, output file)`` pairs, after checking every output location."""
    if input_path.is_dir():
        inputs = sorted(p for p in input_path.rglob(pattern) if p.is_file())
        if not inputs:
            raise RSTKitError(f"no files matching {pattern!r} in the directory", str(input_path))
        if out.exists() and not out.is_dir():
            raise RSTKitError("the input is a directory, so the output must be a directory, not a file", str(out))
        pairs = [(p, out / p.relative_to(input_path).with_suffix(extension)) for p in inputs]
    elif input_path.is_file():
        target = out / (input_path.stem + extension) if out.is_dir() else out
        pairs = [(input_path, target)]
    else:
        raise RSTKitError("no such file or directory", str(input_path))
    sources = {p.resolve() for p, _ in pairs}
    errors = []
    for _, target in pairs:
        if target.resolve() in sources:
            errors.append(RSTKitError("the output would overwrite an input file", str(target)))
        elif target.is_dir():
            errors.append(RSTKitError("the output file is an existing directory", str(target)))
        elif target.exists() and not force:
            errors.append(RSTKitError("the output file exists", str(target), fixes=("force",)))
    _raise(errors)
    return pairs


def _raise(errors: list[RSTKitError]) -> None:
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ManyErrors(errors)


def render(segmentation, fmt: str) -> str:
    if fmt == "lines":
        return segmentation.lines()
    return "".join(json.dumps({"start": e.start, "end": e.end, "paragraph": e.paragraph, "sentence": e.sentence,
                               "text": e.text}, ensure_ascii=False) + "\n" for e in segmentation.edus)


def run(args: argparse.Namespace) -> int:
    pairs = plan(Path(args.input), Path(args.out), EXTENSIONS[args.format], args.glob, args.force)
    texts, errors = {}, []
    for source, _ in pairs:
        try:
            texts[source] = read_plain_text(source)
        except RSTKitError as exc:
            errors.append(exc)
    _raise(errors)
    try:
        from ..segment.segmenter import Segmenter
    except ImportError as exc:
        raise RSTKitError(f"rstkit segment needs torch ({exc.name} is missing): pip install torch==2.13.0") from None
    segmenter = Segmenter.load(args.model, threads=args.threads)
    for source, target in pairs:
        text = texts[source]
        if not text.strip():
            warnings.warn(f"{source}: no text (empty or only whitespace); its output is empty", RSTKitWarning,
                          stacklevel=2)
        segmentation = segmenter.segment(text)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(render(segmentation, args.format), encoding="utf-8")
        except OSError as exc:
            raise RSTKitError(f"cannot write: {exc.strerror or exc}", str(target)) from None
    return 0

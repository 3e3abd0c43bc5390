"""A pytest plugin that hides torch, to check that tests needing it skip cleanly on a machine without
the ``parser`` extra, without uninstalling it::

    python -m pytest -p tests.support.without_torch tests/parser tests/segment

The import system's path finder stops finding ``torch``: ``import torch`` fails with
ModuleNotFoundError and ``importlib.util.find_spec("torch")`` is None, as on such a machine (putting
None in ``sys.modules`` instead breaks scipy, which looks torch up there). Subprocesses the tests
start (the ``rstkit`` command) still see torch.
"""
from __future__ import annotations

import sys
from importlib.machinery import ModuleSpec, PathFinder


class PathFinderWithoutTorch(PathFinder):
    @classmethod
    def find_spec(cls, fullname: str, path=None, target=None) -> ModuleSpec | None:  # type: ignore[override]
        if fullname.partition(".")[0] == "torch":
            return None
        return super().find_spec(fullname, path, target)


assert "torch" not in sys.modules, "torch was imported before the plugin could hide it"
sys.meta_path[sys.meta_path.index(PathFinder)] = PathFinderWithoutTorch

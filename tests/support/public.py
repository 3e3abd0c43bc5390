"""rstkit's public names as this machine has them: a name of an extra that is not installed
(``rstkit.Parser`` without torch) is left out, after checking it says which extra to install."""
from __future__ import annotations

import rstkit


def public_names() -> dict[str, object]:
    """``{name: value}`` for each name of ``rstkit.__all__`` that resolves here."""
    public = {}
    for name in rstkit.__all__:
        try:
            public[name] = getattr(rstkit, name)
        except ModuleNotFoundError as exc:  # the facade names the missing extra
            assert f"rstkit.{name} needs the " in str(exc) and "pip install 'rstkit[" in str(exc), str(exc)
    return public

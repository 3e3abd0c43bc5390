"""Errors of the probe, in rstkit's hierarchy (printed by the CLI as one line)."""
from __future__ import annotations

from ..errors import RSTKitError


class ProbeError(RSTKitError):
    """The probing task cannot be run as asked (a missing optional package, a degenerate split)."""


class EncoderError(ProbeError):
    """An encoder cannot be loaded, or returned something that is not one vector per text."""

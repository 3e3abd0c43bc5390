"""``python -m rstkit``: the command line; an interrupt while it starts is answered as later ones are."""
import signal
import sys


class _TerminatedEarly(KeyboardInterrupt):
    """SIGTERM before the command line took over."""


def _terminated_early(signum, frame):
    raise _TerminatedEarly


signal.signal(signal.SIGTERM, _terminated_early)
try:
    from .cli import main

    status = main()
except _TerminatedEarly:
    print("rstkit: terminated", file=sys.stderr)
    status = 128 + signal.SIGTERM
except KeyboardInterrupt:
    print("rstkit: interrupted", file=sys.stderr)
    status = 128 + signal.SIGINT
sys.exit(status)

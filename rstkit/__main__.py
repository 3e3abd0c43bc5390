"""The command line's way in: ``python -m rstkit`` and the ``rstkit`` command (``pyproject.toml``'s
entry point ``rstkit.__main__:main``). It imports nothing before its ``try``, so that an interrupt at
any moment of start-up (importing :mod:`rstkit.cli` and the subcommand, parsing the arguments) is
answered as later ones are: one line and status 130 (SIGINT) or 143 (SIGTERM), no traceback. The
package's ``__init__`` (imported first by Python, light by design) is all that runs before it."""
import sys


class _TerminatedEarly(KeyboardInterrupt):
    """SIGTERM before the command line took over."""


def _terminated_early(signum, frame):
    raise _TerminatedEarly


def main() -> int:
    """Run the command line on ``sys.argv``; its exit status."""
    try:
        import signal

        signal.signal(signal.SIGTERM, _terminated_early)
        from .cli import main as command_line

        return command_line()
    except _TerminatedEarly:
        print("rstkit: terminated", file=sys.stderr)
        return 128 + 15  # SIGTERM
    except KeyboardInterrupt:
        print("rstkit: interrupted", file=sys.stderr)
        return 128 + 2  # SIGINT


if __name__ == "__main__":
    sys.exit(main())

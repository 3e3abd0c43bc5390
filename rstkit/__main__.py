"""The command line's way in: ``python -m rstkit`` and the ``rstkit`` command (``pyproject.toml``'s
entry point ``rstkit.__main__:main``). It imports nothing before its ``try``, so that an interrupt at
any moment of start-up (importing :mod:`rstkit.cli` and the subcommand, parsing the arguments) is
answered as later ones are: one line and status 130 (SIGINT) or 143 (SIGTERM), no traceback. The
package's ``__init__`` (imported first by Python, light by design) is all that runs before it."""
import sys
import time

#: when the command started (its ``--verbose`` total time counts from here: start-up included)
STARTED = time.monotonic()


def main() -> int:
    """Run the command line on ``sys.argv``; its exit status."""
    terminated: tuple[type[BaseException], ...] = ()  # SIGTERM's exception, once it is imported
    try:
        from .interrupts import INTERRUPTED, TERMINATED, Terminated, deferred_interrupts, raise_terminated_from_now

        terminated = (Terminated,)
        raise_terminated_from_now()
        with deferred_interrupts():  # raised inside importlib's own callbacks, an interrupt would be lost
            from .cli import main as command_line
        status = command_line(started=STARTED)  # it holds them back and raises swallowed ones again itself
        if status in (INTERRUPTED, TERMINATED):
            _forget_handled_interrupts()
        return status
    except KeyboardInterrupt as exc:
        _forget_handled_interrupts()
        if isinstance(exc, terminated):
            print("rstkit: terminated", file=sys.stderr)
            return 128 + 15  # SIGTERM
        print("rstkit: interrupted", file=sys.stderr)
        return 128 + 2  # SIGINT


def _forget_handled_interrupts() -> None:
    """Clear CPython's note that a KeyboardInterrupt left code that ``exec`` ran from a string (dataclasses
    and named tuples make their methods so, also when imported as a command runs): the note stays, caught or
    not, and under ``python -m`` the interpreter then ends its normal exit by killing itself with SIGINT (a
    parent sees -2, not the 130 that the command returned). Every ``exec`` of a string clears it first. Only
    an interrupted command can have it set; a second interrupt inside this ``exec`` leaves it set (and ends
    the process as that interrupt would)."""
    try:
        exec("None")  # noqa: S102 - a constant string: only its side effect on that note is wanted
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())

"""``python -m simulator`` and the installed ``bjsim`` script run the command line (``run``)."""

import os
import signal
import sys


def _interrupted() -> None:
    sys.stderr.write("\nbjsim: interrupted\n")
    sys.exit(130)


def run() -> None:
    """The ``bjsim`` command, with Ctrl-C while still importing it taken as `cli.MainGroup`
    takes it later: ``bjsim: interrupted``, exit 130. A Ctrl-C or SIGTERM after the command has
    finished (its report written) ends the process at once with the command's exit code, where
    Python would print a traceback from its shutdown or end by the signal."""
    try:
        from simulator.cli import main
    except KeyboardInterrupt:
        _interrupted()
    done = []

    def late(signum, frame):  # outside the command's own handlers: before it, or after it
        if not done:
            raise KeyboardInterrupt
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 (a closed pipe, or a flush under way)
                pass
        os._exit(done[0])

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, late)
    try:
        main()
    except SystemExit as end:
        done.append(end.code if isinstance(end.code, int) else 0 if end.code is None else 1)
        raise
    except KeyboardInterrupt:
        _interrupted()


if __name__ == "__main__":
    run()

"""``python -m simulator`` and the installed ``bjsim`` script run the command line (``run``)."""

import sys


def run() -> None:
    """The ``bjsim`` command, with Ctrl-C while still importing it taken as `cli.MainGroup`
    takes it later: ``bjsim: interrupted``, exit 130."""
    try:
        from simulator.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("\nbjsim: interrupted\n")
        sys.exit(130)
    main()


if __name__ == "__main__":
    run()

"""``python -m simulator`` runs the ``bjsim`` command line."""

import sys

try:
    from simulator.cli import main
except KeyboardInterrupt:  # Ctrl-C while still importing: as `cli.MainGroup` says
    sys.stderr.write("\nbjsim: interrupted\n")
    sys.exit(130)

if __name__ == "__main__":
    main()

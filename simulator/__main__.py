"""``python -m simulator`` runs the ``bjsim`` command line."""

from simulator.cli import main

if __name__ == "__main__":
    main()

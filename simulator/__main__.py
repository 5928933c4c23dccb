"""``python -m simulator`` and the installed ``bjsim`` script run the command line (``run``)."""

import sys


def _interrupted() -> None:
    try:  # (a line of its own after a terminal's ^C; in a log file no blank line before it)
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    sys.stderr.write(("\n" if tty else "") + "bjsim: interrupted\n")
    before = sys.unraisablehook

    def quiet(unraisable):  # a compile cut short left LLVM objects half made, whose finalizers
        # (llvmlite's ObjectRef.__del__) printed "Exception ignored ... Traceback" in the
        # teardown after this line
        if not str(getattr(unraisable.object, "__module__", "")).startswith("llvmlite"):
            before(unraisable)

    sys.unraisablehook = quiet
    sys.exit(130)


def run() -> None:
    """The ``bjsim`` command, with Ctrl-C while still importing it taken as `cli.MainGroup`
    takes it later: ``bjsim: interrupted``, exit 130. Once the command has finished (its report
    written) the process ends at once with its exit code, without the interpreter's teardown
    (numba's and LLVM's, about a tenth of a second), in which a Ctrl-C or SIGTERM would end it
    by the signal; with a Dask cluster the teardown closes its processes, and a signal then ends
    the process at once with the command's exit code."""
    seen = []

    def early(signum, frame):
        seen.append(signum)
        raise KeyboardInterrupt

    try:  # (every import here: a Ctrl-C at this module's top would be runpy's traceback)
        import signal

        signal.signal(signal.SIGINT, early)
        import os

        from simulator.cli import main
        from simulator.streams import kept_going, whole_stdout
    except KeyboardInterrupt:
        _interrupted()
    if seen:  # (its KeyboardInterrupt lost in an import, cleared where it landed)
        _interrupted()
    sys.stdout = whole_stdout(sys.stdout)  # (a closed pipe: 141 however large the output)
    sys.stderr = kept_going(sys.stderr)
    done = []

    def end(code: int) -> None:
        cli = sys.modules.get("simulator.cli")
        if cli is not None:  # (os._exit runs no atexit function)
            cli.remove_temporary()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BrokenPipeError:  # (what was left of the output not written: as SIGPIPE)
                code = code or 128 + signal.SIGPIPE
            except Exception:  # noqa: BLE001 (a flush under way)
                pass
        os._exit(code)

    def late(signum, frame):  # outside the command's own handlers: before it, or after it
        if not done:
            raise KeyboardInterrupt
        end(done[0])

    from simulator.stops import STOP_SIGNALS

    for sig in STOP_SIGNALS:
        signal.signal(sig, late)
    try:
        main()
    except SystemExit as stop:
        done.append(stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1)
        if "distributed" not in sys.modules:  # (a Dask cluster's processes are closed at exit)
            end(done[0])  # not through the interpreter's teardown, where a signal ends the process
        raise
    except KeyboardInterrupt:
        _interrupted()


if __name__ == "__main__":
    run()

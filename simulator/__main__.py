"""``python -m simulator`` and the installed ``bjsim`` script run the command line (``run``)."""

import io
import sys


class _WholeWrites(io.BufferedWriter):
    """stdout's buffer, whose ``write`` writes all it is given or raises. A pipe whose reader
    goes while a write larger than its buffer (64 KB) waits takes part of it and returns the
    count; `io.BufferedWriter` returns that count, which `io.TextIOWrapper` drops, so that the
    rest was lost in silence and the command ended 0. Here the rest is written, which raises
    the closed pipe's `BrokenPipeError` (`cli._closed_pipe_ends`: exit code 141)."""

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            took = super().write(view[done:])
            if not took:  # (a blocking descriptor takes a byte or raises: never 0)
                raise BlockingIOError(0, "stdout took nothing", done)
            done += took
        return done


def _whole_stdout(stream):
    """``stream`` (stdout) writing whole (`_WholeWrites`), its encoding and buffering kept; as
    it is where it has no descriptor (a test's)."""
    try:
        fd = stream.fileno()
        stream.flush()
    except (AttributeError, OSError, ValueError):
        return stream
    return io.TextIOWrapper(_WholeWrites(io.FileIO(fd, "w", closefd=False)),
                            encoding=stream.encoding, errors=stream.errors,
                            line_buffering=stream.line_buffering,
                            write_through=getattr(stream, "write_through", False))


def _interrupted() -> None:
    sys.stderr.write("\nbjsim: interrupted\n")
    sys.exit(130)


def run() -> None:
    """The ``bjsim`` command, with Ctrl-C while still importing it taken as `cli.MainGroup`
    takes it later: ``bjsim: interrupted``, exit 130. Once the command has finished (its report
    written) the process ends at once with its exit code, without the interpreter's teardown
    (numba's and LLVM's, about a tenth of a second), in which a Ctrl-C or SIGTERM would end it
    by the signal; with a Dask cluster the teardown closes its processes, and a signal then ends
    the process at once with the command's exit code."""
    try:  # (every import here: a Ctrl-C at this module's top would be runpy's traceback)
        import os
        import signal

        from simulator.cli import main
    except KeyboardInterrupt:
        _interrupted()
    sys.stdout = _whole_stdout(sys.stdout)
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

    for sig in (signal.SIGINT, signal.SIGTERM):
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

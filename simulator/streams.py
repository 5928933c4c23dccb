"""stdout for the command line: every write written whole, or an error (a closed pipe's)."""

import io


class WholeWrites(io.BufferedWriter):
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


def whole_stdout(stream):
    """``stream`` (stdout) writing whole (`WholeWrites`), its encoding and buffering kept; as
    it is where it has no descriptor (a test's)."""
    try:
        fd = stream.fileno()
        stream.flush()
    except (AttributeError, OSError, ValueError):
        return stream
    return io.TextIOWrapper(WholeWrites(io.FileIO(fd, "w", closefd=False)),
                            encoding=stream.encoding, errors=stream.errors,
                            line_buffering=stream.line_buffering,
                            write_through=getattr(stream, "write_through", False))

"""The standard streams of the command line: stdout's every write written whole, or an error (a
closed pipe's, a closed stream's); what an encoding cannot hold escaped, not an error; text that
would act on a terminal shown as written (`inert`). Standard library only: a line written while
the command is still importing (Ctrl-C then) imports nothing more."""

import errno
import io
import os


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


class Closed(io.TextIOBase):
    """A standard stream the process was started without (``>&-``): every write fails, as
    writing to a closed descriptor does, so the command says it could not write."""

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        raise OSError(errno.EBADF, "it is closed")


class Unfailing(io.TextIOBase):
    """stderr, whose writes that fail (a full disk's, a gone reader's) are dropped with the rest
    after them: progress and notes are not the result, which is not lost for them. A write a
    non-blocking stream cannot take now is dropped alone."""

    def __init__(self, stream):
        self.stream = stream

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self):
        return self.stream.encoding

    @property
    def errors(self):
        return self.stream.errors

    def write(self, text) -> int:
        self._unfailing(self.stream.write, text)
        return len(text)

    def flush(self) -> None:
        self._unfailing(self.stream.flush)

    def _unfailing(self, do, *args) -> None:
        try:
            do(*args)
        except BlockingIOError:  # (not taken now: this write alone is dropped)
            pass
        except OSError:
            self.stream = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def kept_going(stream):
    """``stream`` (stderr) whose failed writes are dropped (`Unfailing`), or where the process
    was started without it (``2>&-``) the null device: nothing to say the progress to is no
    reason to stop. (Python's stderr writes what its encoding cannot hold as escapes already.)"""
    if stream is None:
        return open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (the process's)
    return Unfailing(stream)


def whole_stdout(stream):
    """``stream`` (stdout) writing whole (`WholeWrites`), its encoding and buffering kept, what
    the encoding cannot hold written as ``\\u2020`` escapes (a report made is not thrown away
    for a ``±`` a ``PYTHONIOENCODING=latin-1`` cannot show), a surrogate of a file name not
    UTF-8 as its byte where the stream takes them so; as it is where it has no descriptor (a
    test's); `Closed` where there is none (``>&-``)."""
    if stream is None:
        return Closed()
    try:
        fd = stream.fileno()
        stream.flush()
    except (AttributeError, OSError, ValueError):
        return stream
    explicit = ":" in os.environ.get("PYTHONIOENCODING", "")  # (PYTHONIOENCODING=x:strict)
    errors = stream.errors if explicit or stream.errors == "surrogateescape" \
        else "backslashreplace"
    return io.TextIOWrapper(WholeWrites(io.FileIO(fd, "w", closefd=False)),
                            encoding=stream.encoding, errors=errors,
                            line_buffering=stream.line_buffering,
                            write_through=getattr(stream, "write_through", False))


# Characters that act rather than show: control characters (an escape sequence retitles or
# clears a terminal, a carriage return overwrites a line) and the bidirectional controls, which
# reorder the text after them (a report's own figures, "100,000" shown as "000,001").
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")

def acting_char(text: str) -> str | None:
    """The first character of ``text`` that acts rather than shows (`BIDI_CONTROLS`, or a
    control character other than a line break or tab), or None."""
    return next((c for c in text if c in BIDI_CONTROLS or c not in "\n\t" and (
        c < " " or "\x7f" <= c <= "\x9f")), None)


def inert(text: str) -> str:
    """``text`` with every character that acts (`acting_char`) written as its escape,
    ``\\u202e`` (as JSON writes it: a JSON text stays JSON, its strings the same)."""
    if acting_char(text) is None:
        return text
    return "".join(c if acting_char(c) is None else f"\\u{ord(c):04x}" for c in text)

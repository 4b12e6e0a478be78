"""Checking the files a user names before any work starts: one reader, two writer checks.

Every text file the lab reads (deck, weights, card, study and scenario
files, a study's manifest) goes through :func:`read_text_file` (TOML and JSON
through :func:`read_toml_file` and :func:`parse_json`), and every file or
folder it writes is checked by :func:`check_output_file` or
:func:`check_output_folder` before a game is played. Each raises the
caller's own error class (``DeckError``, ``StudyError``, ...) with one line
naming the file and the problem, which the command line prints as is
(exit code 2).

Reading has limits (issue #44): a file larger than ``max_bytes`` is refused
without reading it all (a character device such as ``/dev/zero`` or an
endless pipe is read only up to the limit), a TOML or JSON text nested deeper
than :data:`MAX_DEPTH` is refused, and what an error echoes of the input is
cut to :data:`MAX_ECHO` characters (:func:`shown`). A pipe, FIFO or
character device (``--cards <(cat cards.toml)``) can be read only once: its
text is kept in memory, so every later read of the same name in the process
(the card file parsed, then stored in a study's manifest) gets what was read.

Writability is *tried*, not looked up: a probe file is created and removed
in the folder, because permission bits do not tell the whole story (a
read-only file system, or a root user for whom ``os.access`` says yes to
everything).
"""
from __future__ import annotations

import errno
import json
import math
import os
import stat
import sys
import tempfile
import tomllib
from pathlib import Path

MAX_TEXT_BYTES = 16 * 1024 * 1024  # a deck, weights, study or scenario file is a few kB; this is no such file
MAX_DEPTH = 64  # tables or arrays inside each other: the lab's own files nest 4 deep at most
MAX_ECHO = 80  # characters of a user's input an error line repeats
WRITE_FAILURES = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
                  errno.EFBIG: "the file is larger than the file-size limit (ulimit -f) allows"}
_READ_ONCE: dict[str, bytes] = {}  # pipes, FIFOs and devices, by the name they were read under


def shown(value: object, limit: int = MAX_ECHO) -> str:
    """``repr(value)`` for an error line, cut to ``limit`` characters (a 10 MB field is not echoed whole)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 3]}... ({len(text):,} characters)"


def as_weight(value: int | float) -> float:
    """A number read from a file as a float; a whole number too large for one (over 308 digits) is infinite.

    ``float()`` raises ``OverflowError`` on such a number (TOML reads up to 4,300 digits): a reader that
    refuses non-finite weights then refuses it in its own one line.
    """
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _read_limited(path: Path, what: str, error: type[Exception], max_bytes: int) -> bytes:
    """The bytes of ``path``, read once; a pipe's or device's are kept for the next read of the same name."""
    key = str(path)
    if key in _READ_ONCE:
        return _READ_ONCE[key]
    with open(path, "rb") as fh:
        info = os.fstat(fh.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise error(f"{path}: is a folder, not a {what}")
        regular = stat.S_ISREG(info.st_mode)
        if regular and info.st_size > max_bytes:
            raise error(f"{path}: {info.st_size:,} bytes is too large for a {what} (at most {max_bytes:,})")
        data = fh.read(max_bytes + 1)  # a device or endless pipe stops here, not when memory runs out
    if len(data) > max_bytes:
        raise error(f"{path}: more than {max_bytes:,} bytes is too large for a {what}")
    if not regular:
        _READ_ONCE[key] = data
    return data


def read_text_file(path: str | Path, what: str, error: type[Exception] = ValueError,
                   max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The text of a UTF-8 file, or ``error`` with one line saying why it cannot be one.

    Parameters
    ----------
    path : path
        The file to read (a regular file, or a pipe, FIFO or device, read once).
    what : str
        What the file should be, for the message (``"deck file"``).
    error : exception class
        Raised with the one-line message (the caller's error type).
    max_bytes : int
        Larger files are refused (a regular file before it is read).

    Raises
    ------
    error
        Missing, a folder, unreadable, larger than ``max_bytes``, binary
        (a NUL byte) or not UTF-8.
    """
    path = Path(path)
    try:
        data = _read_limited(path, what, error, max_bytes)
    except IsADirectoryError:
        raise error(f"{path}: is a folder, not a {what}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read {what} ({exc.strerror or exc})") from None
    if b"\x00" in data:
        raise error(f"{path}: a binary file, not a {what} (text in UTF-8 expected)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
                    f"save the {what} as UTF-8") from None
    return text.removeprefix("\ufeff")  # a byte-order mark some editors write


def _depth(text: str, opening: str, closing: str) -> int:
    """How deep brackets nest in ``text``, strings included: an upper bound of the parsed depth, found fast."""
    depth = deepest = 0
    for ch in text:
        if ch in opening:
            depth += 1
            deepest = max(deepest, depth)
        elif ch in closing:
            depth = max(depth - 1, 0)
    return deepest


def _check_depth(text: str, label: str, error: type[Exception]) -> None:
    if _depth(text, "[{", "]}") > MAX_DEPTH:
        # the count includes brackets inside strings, so it may refuse a file the parser would read: none
        # of the lab's files comes near, and the parsers' recursion would end in a traceback past ~1,000
        raise error(f"{label}: nested more than {MAX_DEPTH} deep (tables or arrays inside each other)")


def _parse_failure(exc: ValueError) -> str:
    """A parser's ValueError in a user's words: Python's advice to call sys.set_int_max_str_digits is not theirs."""
    text = str(exc)
    if "integer string conversion" in text:  # Python refuses to read a whole number of more than 4,300 digits
        return f"a whole number of more than {sys.get_int_max_str_digits():,} digits; no number here needs so many"
    return text[:MAX_ECHO * 2]


def parse_toml(text: str, label: str, error: type[Exception] = ValueError) -> dict:
    """``text`` parsed as TOML, else ``error`` in one line starting with ``label`` (the file's name)."""
    _check_depth(text, label, error)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{label}: not valid TOML ({str(exc)[:MAX_ECHO * 2]})") from None
    except (RecursionError, MemoryError):
        raise error(f"{label}: nested too deeply to read") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits (Python's int conversion limit)
        raise error(f"{label}: {_parse_failure(exc)}") from None


def parse_json(text: str, label: str, error: type[Exception] = ValueError):
    """``text`` parsed as JSON, else ``error`` in one line starting with ``label`` (the file's name)."""
    _check_depth(text, label, error)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{label}: not a readable JSON file ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except (RecursionError, MemoryError):
        raise error(f"{label}: nested too deeply to read") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise error(f"{label}: {_parse_failure(exc)}") from None


def read_toml_file(path: str | Path, what: str, error: type[Exception] = ValueError,
                   max_bytes: int = MAX_TEXT_BYTES, label: str | None = None) -> dict:
    """A TOML file a user names, read with :func:`read_text_file`'s limits and nesting at most :data:`MAX_DEPTH`.

    ``label`` starts a parse error's line (default: the path).
    """
    return parse_toml(read_text_file(path, what, error, max_bytes), label or str(path), error)


MAX_LINE = 500  # characters of an error line: what it echoes of a user's input is cut (a 10 MB field)


def error_line(exc: Exception, limit: int = MAX_LINE) -> str:
    """The command line's one line for an input error: its text joined to one line and cut to ``limit``.

    An OSError that reaches the command line is a study folder's write that failed (a file written whole,
    :func:`write_file`, says its own line): it names the file and what to do, and a study folder resumes.
    """
    if isinstance(exc, OSError):
        meaning = write_failure(exc) or "the disk is full"
        if exc.filename:  # a report's PDF or PNG is written again whole: only a study folder resumes
            again = "again" if str(exc.filename).endswith((".pdf", ".png")) else "again to resume"
            return f"{meaning} writing {exc.filename}: free some space (or raise the limit) and run the same command {again}"
        # no name: not a study folder's write (those name their file); numba saving a compile, most often
        return f"{meaning} writing {_unnamed_file(exc)}: free some space (or raise the limit) and run the same command again"
    text = " ".join(str(exc).splitlines()) or type(exc).__name__
    return text if len(text) <= limit else f"{text[:limit - 40]}... ({len(text):,} characters in all)"


def _unnamed_file(exc: OSError) -> str:
    """The file a write without a name was writing: numba's compile cache (its ``path``), else "a file"."""
    frame_tb, found = exc.__traceback__, None
    while frame_tb is not None:
        code = frame_tb.tb_frame.f_code.co_filename.replace(os.sep, "/")
        if code.endswith("numba/core/caching.py"):
            path = frame_tb.tb_frame.f_locals.get("path")
            found = f"numba's compile cache ({path})" if isinstance(path, str) else "numba's compile cache"
        frame_tb = frame_tb.tb_next
    return found or "a file"


def write_failure(exc: OSError) -> str | None:
    """What a failed write means for the user (full disk, quota, file-size limit), or None for another error."""
    return WRITE_FAILURES.get(exc.errno)


def _probe(folder: Path, label: str, error: type[Exception]) -> None:
    try:
        fd, name = tempfile.mkstemp(prefix=".write-probe-", dir=folder)
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise error(f"{label}: cannot write in {folder} ({exc.strerror or exc})") from None


def _broken_link(path: Path) -> bool:
    """A name that is a symbolic link leading nowhere: a loop, or to something missing."""
    return path.is_symlink() and not path.exists()


def _writable_folder(path: Path, label: str, error: type[Exception]) -> None:
    if path.exists() and not path.is_dir():
        raise error(f"{label}: {path} exists and is not a folder")
    base = path.absolute()
    while not base.exists() and base != base.parent:  # nothing is created: its nearest existing ancestor decides
        if _broken_link(base):  # mkdir would fail on it later with FileExistsError
            raise error(f"{label}: {base} is a symbolic link that leads nowhere (a loop or a missing target); "
                        "give another path")
        base = base.parent
    if not base.is_dir():
        raise error(f"{label}: {base} is a file, not a folder")
    _probe(base, label, error)


def check_output_folder(path: str | Path, what: str, error: type[Exception] = ValueError) -> None:
    """``path`` is a folder we can write into, or can be created as one; else ``error`` in one line.

    Nothing is created: a missing folder is checked through its nearest
    existing ancestor, which must be a folder we can write into.
    """
    path = Path(path)
    _writable_folder(path, f"{what} {path}", error)


def check_output_file(path: str | Path, what: str, error: type[Exception] = ValueError) -> None:
    """``path`` can be written as a file (its folder may still be missing); else ``error`` in one line."""
    path = Path(path)
    label = f"{what} {path}"
    if path.is_dir():
        raise error(f"{label}: is a folder; give a file name")
    if _broken_link(path):
        raise error(f"{label}: is a symbolic link that leads nowhere (a loop or a missing target); give another file name")
    if path.exists() and not path.is_file():
        # a device or pipe (--out /dev/full): the file is written whole under another name and renamed into
        # place (write_file), which for a user allowed to write in /dev would replace the device itself
        raise error(f"{label}: is a device or pipe, not a file; give a file name")
    if path.exists():
        try:
            with open(path, "ab"):
                pass
        except OSError as exc:
            raise error(f"{label}: cannot write it ({exc.strerror or exc})") from None
    _writable_folder(path.parent, label, error)


def write_file(path: str | Path, write, what: str, error: type[Exception] = ValueError) -> None:
    """Write ``path`` whole or not at all: ``write(fh)`` fills a temporary file beside it, then it is renamed.

    A failed write leaves no partial file (no ``.part``) and is ``error`` in one
    line naming the file and what to do. No "resume" is offered: a file
    written whole (a value, weights or expert file) is written again from the
    start by running the command again.
    """
    path = Path(path)
    label = f"{what} {path}"
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        umask = os.umask(0o022)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # the mode an ordinary write would give, not mkstemp's private 0600
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        meaning = write_failure(exc)
        if meaning is not None:
            raise error(f"cannot write {label}: {meaning}; free some space (or raise the limit) and run the "
                        "same command again") from None
        if exc.errno in (errno.EEXIST, errno.ENOTDIR):
            raise error(f"cannot write {label}: a file stands where a folder of its path should be; "
                        "give another path") from None
        if exc.errno == errno.ELOOP:
            raise error(f"cannot write {label}: a symbolic link loop in its path; give another path") from None
        raise error(f"cannot write {label} ({exc.strerror or exc})") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass

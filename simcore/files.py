"""Checking the files a user names before any work starts: one reader, two writer checks.

Every text file the lab reads (deck, weights, study and scenario files, a
study's manifest) goes through :func:`read_text_file`, and every file or
folder it writes is checked by :func:`check_output_file` or
:func:`check_output_folder` before a game is played. Each raises the
caller's own error class (``DeckError``, ``StudyError``, ...) with one line
naming the file and the problem, which the command line prints as is
(exit code 2).

Writability is *tried*, not looked up: a probe file is created and removed
in the folder, because permission bits do not tell the whole story (a
read-only file system, or a root user for whom ``os.access`` says yes to
everything).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

MAX_TEXT_BYTES = 16 * 1024 * 1024  # a deck, weights, study or scenario file is a few kB; this is no such file


def read_text_file(path: str | Path, what: str, error: type[Exception] = ValueError,
                   max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The text of a UTF-8 file, or ``error`` with one line saying why it cannot be one.

    Parameters
    ----------
    path : path
        The file to read.
    what : str
        What the file should be, for the message (``"deck file"``).
    error : exception class
        Raised with the one-line message (the caller's error type).
    max_bytes : int
        Larger files are refused before they are read.

    Raises
    ------
    error
        Missing, a folder, unreadable, larger than ``max_bytes``, binary
        (a NUL byte) or not UTF-8.
    """
    path = Path(path)
    try:
        if path.is_dir():
            raise error(f"{path}: is a folder, not a {what}")
        size = path.stat().st_size
        if size > max_bytes:
            raise error(f"{path}: {size:,} bytes is too large for a {what} (at most {max_bytes:,})")
        data = path.read_bytes()
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


def _probe(folder: Path, label: str, error: type[Exception]) -> None:
    try:
        fd, name = tempfile.mkstemp(prefix=".write-probe-", dir=folder)
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise error(f"{label}: cannot write in {folder} ({exc.strerror or exc})") from None


def _writable_folder(path: Path, label: str, error: type[Exception]) -> None:
    if path.exists() and not path.is_dir():
        raise error(f"{label}: {path} exists and is not a folder")
    base = path.absolute()
    while not base.exists() and base != base.parent:  # nothing is created: its nearest existing ancestor decides
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
    if path.exists():
        try:
            with open(path, "ab"):
                pass
        except OSError as exc:
            raise error(f"{label}: cannot write it ({exc.strerror or exc})") from None
    _writable_folder(path.parent, label, error)

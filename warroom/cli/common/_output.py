"""How every ``warroom`` command writes: one policy for text that can reach a terminal, and for export files.

- Anything printed (stdout or stderr, a TTY or not, every format) is shown with
  :func:`warroom.core.text.clean`'s escapes: control characters as ``\\xNN``, bidi controls as ``\\uNNNN``. A
  pipe is treated like a terminal (``warroom scores --format csv | less`` shows what a terminal would), so a
  trainee name or a damage unit holding ``ESC ] 52`` can never write to the clipboard or retitle a terminal.
- JSON is written with :func:`warroom.core.text.json_text` on stdout and in files alike: the same characters as
  ``\\uNNNN`` escapes, which any JSON reader turns back into the original text (safe and faithful).
- CSV printed on stdout has its text cells cleaned; a CSV file written with ``--output`` keeps them exactly as
  stored. Both get the spreadsheet formula guard (:func:`warroom.core.text.spreadsheet_safe`).
"""

from __future__ import annotations

import csv
import errno
import io
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import click

from warroom.core.text import clean, json_text, spreadsheet_safe


def say(text: object = "", *, err: bool = False, nl: bool = True) -> None:
    """Print ``text`` (cleaned) on stdout, or stderr with ``err``."""
    click.echo(clean(text), err=err, nl=nl)


def failure(message: object) -> click.ClickException:
    """A :class:`click.ClickException` (exit status 1, ``Error: message`` on stderr) with ``message`` cleaned."""
    return click.ClickException(clean(message))


def csv_text(columns: Iterable[str], rows: Iterable[Mapping[str, Any]], *, terminal: bool) -> str:
    """CSV with a header line and one line per row (``\\n`` line ends; None is an empty cell).

    Text cells get the formula guard (a leading ``'`` before ``=``, ``+``, ``-``, ``@``, tab, CR); numbers stay
    numbers. With ``terminal`` (output printed on stdout) text cells are also cleaned (``\\x1b`` for ESC); without
    it (a file written with ``--output``) they are kept exactly as stored.
    """
    columns = tuple(columns)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        cells = {}
        for k in columns:
            value = row.get(k)
            value = "" if value is None else spreadsheet_safe(value)
            cells[k] = clean(value) if terminal and isinstance(value, str) else value
        writer.writerow(cells)
    return buf.getvalue()


def emit(text: str, output: Path | None, *, what: str = "output") -> None:
    """Write ``text`` to the file ``output`` exactly (UTF-8; created or replaced whole: a temporary file renamed over
    it, so an interrupted write leaves the old file or none, never part of one; a symbolic link is written through,
    into the file it points to, and stays a link; a read-only file is refused, not replaced; a FIFO or device is
    written as a stream), or print it on stdout cleaned when ``output`` is None. Raises
    :class:`click.ClickException` (``FILE: message``, FILE's control characters escaped) when the file cannot be
    written.

    Nothing is decided from a look at the path before writing it (:func:`_write_file`): what the file is comes from
    the file opened (``fstat``), and the write is the rename over it, which never follows a link. A path swapped
    meanwhile (for a folder, a link, a FIFO) is refused or replaced, never written through."""
    if output is None:
        click.echo(clean(text), nl=False)
        return
    from warroom.core.text import clean_name

    shown = clean_name(output)
    try:
        _write_file(output, text.encode("utf-8"), what, shown)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO nobody reads: opening it for writing would wait for ever
            raise failure(f"{shown}: is a FIFO that no process is reading; nothing was written") from None
        if exc.errno == errno.ELOOP:  # the file it points to was made a link after the path was resolved
            raise failure(f"{shown}: became a symbolic link while the {what} was being written; nothing was "
                          "written: write it again") from None
        if exc.errno == errno.EISDIR:
            raise failure(f"{shown}: is a folder; nothing was written: name a file") from None
        raise failure(f"{shown}: cannot write the {what}: {exc.strerror or exc}") from None


def _write_file(output: Path, data: bytes, what: str, shown: str) -> None:
    """:func:`emit`'s write of ``data`` to the file ``output``, decided from the file itself: the path is resolved
    once (a symbolic link is written through), the file there opened for writing without following a link, without
    waiting and without truncating (``O_NOFOLLOW``, ``O_NONBLOCK``), and ``os.fstat`` of the open file says what it
    is. None there: it is created (``create_file``: linked into place, never over anything that appeared meanwhile).
    A regular file is replaced whole (its mode kept), unless its mode has no write bit; a FIFO or device is written
    through the descriptor opened. Raises OSError (ELOOP: a link, EISDIR: a folder, ENXIO: a FIFO with no reader)."""
    from warroom.core.files import create_file, real_path, replacing, special_mode_kind

    target = real_path(output)  # a symbolic link is written through: the file it points to is the target
    flags = os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(target, flags)
    except FileNotFoundError:
        create_file(target, data)  # a new file: FileExistsError when anything appeared there meanwhile
        return
    except PermissionError:
        _refuse_read_only(target, what, shown)
        raise
    with os.fdopen(fd, "wb") as opened:
        st = os.fstat(fd)
        kind = special_mode_kind(st.st_mode)
        if kind is not None:  # a FIFO (a reader is there, or the open would have failed) or a device: a stream
            if kind in ("a folder", "a socket", "a symbolic link"):  # pragma: no cover - not opened O_WRONLY
                raise OSError(errno.EISDIR if kind == "a folder" else errno.ENXIO, f"is {kind}")
            os.set_blocking(fd, True)
            opened.write(data)
            return
        if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):  # chmod 444: refused even for root
            _refuse_read_only(target, what, shown, st.st_mode)
        with replacing(target, mode=st.st_mode & 0o7777) as f:  # the rename replaces a link, never follows it
            f.write(data)


def _refuse_read_only(target: Path, what: str, shown: str, mode: int | None = None) -> None:
    """Refuse a read-only file (one this user may not open for writing, or with no write bit in its mode)."""
    if mode is None:
        try:
            mode = os.stat(target).st_mode  # for the message only: the open already refused it
        except OSError:
            return
    shown_mode = stat.filemode(stat.S_IFREG | (mode & 0o7777))
    raise failure(f"{shown}: the file is read-only (mode {shown_mode}): make it writable (chmod u+w) or write the "
                  f"{what} to another file; nothing was written")


def emit_json(value: Any, output: Path | None = None) -> None:
    """``value`` as indented JSON (see :func:`warroom.core.text.json_text`) on stdout or in ``output``."""
    emit(json_text(value, indent=2) + "\n", output, what="JSON")


def emit_csv(columns: Iterable[str], rows: Iterable[Mapping[str, Any]], output: Path | None = None) -> None:
    """CSV (see :func:`csv_text`) on stdout, cleaned, or faithful in ``output``."""
    emit(csv_text(columns, rows, terminal=output is None), output, what="CSV")

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

import contextlib
import csv
import errno
import io
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import click

from warroom.core.text import clean, json_text, no_negative_zero, spreadsheet_safe


def say(text: object = "", *, err: bool = False) -> None:
    """Print ``text`` (cleaned) on stdout, or stderr with ``err``."""
    click.echo(clean(text), err=err)


def failure(message: object) -> click.ClickException:
    """A :class:`click.ClickException` (exit status 1, ``Error: message`` on stderr) with ``message`` cleaned."""
    return click.ClickException(clean(message))


def csv_text(columns: Iterable[str], rows: Iterable[Mapping[str, Any]], *, terminal: bool) -> str:
    """CSV with a header line and one line per row (``\\n`` line ends; None is an empty cell).

    Text cells get the formula guard (a leading ``'`` before ``=``, ``+``, ``-``, ``@``, tab, CR); numbers stay
    numbers (a negative zero written ``0.0``). With ``terminal`` (output printed on stdout) text cells are also
    cleaned (``\\x1b`` for ESC); without it (a file written with ``--output``) they are kept exactly as stored.
    """
    columns = tuple(columns)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        cells = {}
        for k in columns:
            value = row.get(k)
            value = "" if value is None else spreadsheet_safe(no_negative_zero(value))
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

    Nothing is decided from a look at the path before writing it (:func:`warroom.core.files.writing`): what the
    file is comes from the file opened (``fstat``), and the write is the rename over it, which never follows a link.
    A path swapped meanwhile (for a folder, a link, a FIFO) is refused or replaced, never written through."""
    if output is None:
        click.echo(clean(text), nl=False)
        return
    from warroom.core.files import ReadOnlyFile, writing
    from warroom.core.text import shown_path

    shown = shown_path(output)
    try:
        with writing(output) as f:
            f.write(text.encode("utf-8"))
    except ReadOnlyFile as exc:
        raise failure(f"{shown}: the file is read-only (mode {exc.mode}): make it writable (chmod u+w) or write the "
                      f"{what} to another file; nothing was written") from None
    except OSError as exc:
        raise failure(f"{shown}: {_write_problem(exc, what, output)}") from None


def _write_problem(exc: OSError, what: str, output: Path) -> str:
    """Why ``output`` could not be written (:func:`warroom.core.files.writing`'s OSError), with what to do."""
    if exc.errno == errno.ENXIO:  # a FIFO nobody reads (opening it for writing would wait for ever), or a socket
        from warroom.core.files import special_file_kind

        kind = special_file_kind(output)  # for the message only: the open already refused it
        if kind is not None and kind != "a FIFO":
            return f"is {kind}, not a file: nothing was written; name a file"
        return "is a FIFO that no process is reading; nothing was written"
    if exc.errno == errno.ELOOP:  # a link loop, or the file it points to made a link after the path was resolved
        return (f"is a symbolic link that leads nowhere (a loop, or one made while the {what} was being written); "
                "nothing was written: write it again, or name another file")
    if exc.errno == errno.EISDIR:
        return "is a folder; nothing was written: name a file"
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return f"cannot write the {what}: {missing_folder(output) or exc.strerror or exc}"
    return f"cannot write the {what}: {exc.strerror or exc}"


def missing_folder(output: Path) -> str | None:
    """Why ``output`` could not be created when its folder is missing or no folder (ENOENT, ENOTDIR), with what to
    do: the folder named (the system said only "No such file or directory"); None when that is not the cause."""
    import os

    from warroom.core.text import shown_path

    if output.is_symlink():
        target = Path(os.readlink(output))
        if not (output.parent / target).parent.is_dir():
            return (f"it is a symbolic link to {shown_path(target)}, whose folder does not exist: point it at a file "
                    "in a folder that exists, or name another file; nothing was written")
        return None
    folder = output.parent
    for above in (folder, *folder.parents):
        if above.exists() or above.is_symlink():
            if not above.is_dir():
                return f"{shown_path(above)} is not a folder: name a file in a folder; nothing was written"
            break
    if not folder.is_dir():
        return (f"the folder {shown_path(folder)} does not exist: create it (mkdir -p {shown_path(folder)}) or name a "
                "file in a folder that exists; nothing was written")
    return None


def emit_json(value: Any, output: Path | None = None) -> None:
    """``value`` as indented JSON (see :func:`warroom.core.text.json_text`) on stdout or in ``output``."""
    emit(json_text(value, indent=2) + "\n", output, what="JSON")


def emit_csv(columns: Iterable[str], rows: Iterable[Mapping[str, Any]], output: Path | None = None) -> None:
    """CSV (see :func:`csv_text`) on stdout, cleaned, or faithful in ``output``."""
    emit(csv_text(columns, rows, terminal=output is None), output, what="CSV")


def exit_on_lost_output(exc: OSError) -> None:
    """End the command (exit status 1) when ``exc`` was raised writing standard output or standard error (``warroom
    validate > out.txt`` on a full disk, ``> /dev/full``, a terminal hung up: ``ENOSPC``, ``EIO``...), saying so on
    stderr in one line where it was a traceback; return for any other error (the caller raises it again). Click
    itself ends quietly only on a closed pipe (``EPIPE``). The stream's file descriptor is then pointed at
    ``/dev/null``, so that flushing it at exit raises nothing more."""
    stream = _written_stream(exc)
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    if not _is_standard(stream, (sys.stderr, sys.__stderr__), 2):
        why = exc.strerror or str(exc)
        with contextlib.suppress(OSError):
            click.echo(f"Error: cannot write to standard output ({why}), so what it shows is cut short: send it "
                       "where there is room (another file or disk)", err=True)
    raise SystemExit(1)


def _written_stream(exc: OSError) -> Any:
    """The standard stream (stdout or stderr) whose write or flush raised ``exc``: the file that one of the
    innermost frames of its traceback was writing (``click.echo``'s ``file``, Rich's ``Console.file``), else None."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    if exc.errno == errno.EPIPE:
        return None
    standard = (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)
    for frame in reversed(frames[-4:]):  # the write, and the few calls around it (a stream's own write method)
        local = frame.f_locals
        for stream in (local.get("file"), local.get("stream"), getattr(local.get("self"), "file", None)):
            if stream is not None and _is_standard(stream, standard, 1, 2):
                return stream
    return None


def _is_standard(stream: Any, streams: tuple[Any, ...], *fds: int) -> bool:
    """``stream`` is one of ``streams``, or writes to one of the file descriptors ``fds``."""
    if any(stream is s for s in streams):
        return True
    try:
        return stream.fileno() in fds
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False

"""The password of a PostgreSQL store URL kept out of every stack frame that a crash report could print.

Textual's crash report prints the local variables of every frame of the traceback (Rich's ``show_locals``), and a
URL or a libpq conninfo with its password, once handed to ``psycopg.connect``, is held by psycopg's own frames
(``conninfo``, ``params``, ``kwargs``) whatever way it is passed: in the URL, or as the ``password=`` keyword. So
warroom hands psycopg the URL without its password, and the password in a password file that only libpq reads
(the ``passfile`` connection parameter, with ``password=''`` so that ``$PGPASSWORD`` does not take precedence over
the URL's password, as it never did): an anonymous in-memory file (``memfd_create``, read as
``/proc/self/fd/N``) where the system has it, else a file of mode 0600 in a new private temporary folder; either
is gone when the connection is made. The frames hold the URL without the password and the file's path.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import unquote

from warroom.store.backends._dialect import StoreTarget, _userinfo_password


def without_password(url: str) -> tuple[str, str | None]:
    """``(url without its password, the password)``: the password of the user part (``user:password@``) or of a
    ``password=`` query parameter (which libpq takes over the user part's), percent-decoded; None when the URL has
    none. The rest of the URL is kept as written (libpq decodes only ``%XX``, so nothing is re-encoded)."""
    password: str | None = None
    where = _userinfo_password(url)
    if where is not None:
        password = unquote(url[where[0] : where[1]])
        url = url[: where[0] - 1] + url[where[1] :]
    head, sep, query = url.partition("?")
    if sep:
        fragment = ""
        if "#" in query:
            query, fragment = query.split("#", 1)
            fragment = "#" + fragment
        kept = []
        for pair in query.split("&"):
            key, eq, value = pair.partition("=")
            if unquote(key).strip().lower() == "password" and eq:
                password = unquote(value)
            else:
                kept.append(pair)
        url = head + ("?" + "&".join(kept) if kept else "") + fragment
    return url, password


def _passfile_line(password: str) -> bytes:
    """A ``.pgpass`` line matching any host, port, database and user, with ``password`` (``\\`` and ``:``
    escaped). Raises ValueError for a password holding a line break, which a password file cannot hold."""
    if "\n" in password or "\r" in password:
        raise ValueError("a password with a line break cannot be given in a password file")
    escaped = password.replace("\\", "\\\\").replace(":", "\\:")
    return f"*:*:*:*:{escaped}\n".encode()


@contextmanager
def connection_args(target: StoreTarget) -> Iterator[dict[str, Any]]:
    """The keyword arguments of ``psycopg.connect`` for ``target`` (a PostgreSQL store): ``conninfo`` (the URL
    without its password) and, when the URL has a password, ``password=''`` and ``passfile`` (the path of a file
    holding it, removed when the block ends). Raises ValueError for a password that holds a line break."""
    assert target.url is not None
    conninfo, password = without_password(target.url)
    if not password:  # none, or empty: libpq then reads ~/.pgpass (an empty one, as written, also skips $PGPASSWORD)
        yield {"conninfo": conninfo} if password is None else {"conninfo": conninfo, "password": ""}
        return
    line = _passfile_line(password)
    del password  # from here on only the file holds it: this frame may be in a traceback (an error in the block)
    with _secret_file(line) as path:
        del line
        yield {"conninfo": conninfo, "password": "", "passfile": path}


@contextmanager
def _secret_file(content: bytes) -> Iterator[str]:
    """The path of a file only this process (user) can read, holding ``content``; gone when the block ends."""
    memfd = getattr(os, "memfd_create", None)
    if memfd is not None and os.path.isdir("/proc/self/fd"):
        fd = memfd("warroom-pgpass", getattr(os, "MFD_CLOEXEC", 0))
        try:
            os.fchmod(fd, 0o600)  # libpq ignores a password file the group or others may read
            os.write(fd, content)
            del content  # the file holds it now: this frame is in the traceback of an error in the block
            yield f"/proc/self/fd/{fd}"
        finally:
            os.close(fd)
        return
    folder = tempfile.mkdtemp(prefix="warroom-")  # mode 0700
    try:
        path = os.path.join(folder, "pgpass")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(content)
        del content
        yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)

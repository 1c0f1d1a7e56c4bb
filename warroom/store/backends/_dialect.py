"""Where the results store's back ends differ: the store URL, and one dialect object per back end.

The store is SQLite (the default: ``DATA_DIR/results.sqlite3``, nothing to set up) or PostgreSQL (a shared store
for a cohort, through psycopg 3). :func:`store_target` reads the URL (``--store URL`` / ``$WARROOM_STORE``):

- ``sqlite:///relative/file.sqlite3`` or ``sqlite:////absolute/file.sqlite3`` (SQLAlchemy's spelling), or
  ``sqlite://`` for the default file in the data directory;
- ``postgresql://user:password@host:port/database?options`` (or ``postgres://``): any libpq connection URL.

Every statement the store runs is written once; a :class:`Dialect` holds the few places where PostgreSQL needs
something else (placeholders, column types of the one schema definition, the SQLite-only ``typeof`` checks and
``WITHOUT ROWID``, locking for a write, matching part of a session id, where NULLs sort). The password of a URL is
never shown: :func:`redact` is applied to the URL wherever it appears in a message.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from warroom.core.files import expand_home
from warroom.store.datadir import DB_NAME
from warroom.store.errors import StoreError

#: The environment variable holding the store URL (the ``--store`` option's default).
STORE_ENV = "WARROOM_STORE"
#: What a redacted password is shown as.
HIDDEN = "***"


class StoreURLError(StoreError):
    """A store URL that names no back end warroom has (the message never holds the password)."""


#: A ``password = value`` pair of a libpq keyword/value string (``host=/run/pg password='a b'``), value in group 2.
_KEYWORD_PASSWORD = re.compile(r"(?i)\b(password\s*=\s*)('(?:[^'\\]|\\.)*'?|\S+)")


#: A URL's scheme (``postgresql:``), at the start of a text that has no ``://`` (``postgresql:/ann:pw@db/x``).
_SCHEME_ONLY = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


#: A ``?`` then a ``=``: what comes before a ``@`` of a query value.
_QUERY_VALUE = re.compile(r"\?[^=]*=")


def _userinfo_password(url: str) -> tuple[int, int] | None:
    """Where the password of ``url``'s user part is (start, end offsets), or None when it has none.

    The user part is read as everything between ``://`` and the **last** ``@``, so that a password typed without
    percent-encoding (``ann:pa/ss@db``, ``ann:pa#ss@db``, ``ann:p@ss@db``) is still found whole, except a ``@`` in
    a query value (``?application_name=fac@laptop``: after a ``?`` and a ``=``), which the user part ends before.
    When every ``@`` is after a ``?`` and a ``=`` the last one is taken (a password typed as ``a?b=c``): that may
    hide more than the password, never less."""
    start = url.find("://") + 3
    at = last = url.rfind("@")
    while at >= start and _QUERY_VALUE.search(url, start, at):
        at = url.rfind("@", start, at)
    if at < start:
        at = last
    if at < start:
        return None
    colon = url.find(":", start, at)
    return None if colon < 0 else (colon + 1, at)


def redact(url: str) -> str:
    """``url`` with its password (in the user part or a ``password=`` parameter) replaced by ``***``; the same
    for a libpq keyword/value string (``host=... password=...``), which is not a URL. A scheme followed by no
    ``//`` and holding a ``@`` (``postgresql:/ann:pw@db/x``, a typo) is shown as its scheme only."""
    if "://" not in url:
        scheme = _SCHEME_ONLY.match(url)
        if scheme and "@" in url:
            return f"{scheme.group(1)}:{HIDDEN}"
        return _KEYWORD_PASSWORD.sub(lambda m: m.group(1) + HIDDEN, url)
    where = _userinfo_password(url)
    if where is not None:
        url = url[: where[0]] + HIDDEN + url[where[1] :]
    try:
        parts = urlsplit(url)
        query = parts.query
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(k.lower() == "password" for k, _ in pairs):
            query = urlencode([(k, HIDDEN if k.lower() == "password" else v) for k, v in pairs], safe="*/")
        if parts.netloc or parts.path.startswith("//"):
            return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))
        # no host (``postgresql:///db?host=/socket``): urlunsplit would drop the "//" and show ``postgresql:/db``
        return (f"{url.split(':', 1)[0]}://{parts.netloc}{parts.path}" + (f"?{query}" if query else "")
                + (f"#{parts.fragment}" if parts.fragment else ""))
    except ValueError:
        return f"{url.split(':', 1)[0]}://{HIDDEN}"  # not even a URL: show its scheme only


def secrets_of(url: str) -> list[str]:
    """The password texts in ``url`` (as written and decoded), to be scrubbed from any message."""
    found: list[str] = []
    if "://" not in url:  # a keyword/value string: the value as written, and unquoted
        scheme = _SCHEME_ONLY.match(url)
        if scheme and "@" in url:  # a URL missing its "//": whatever lies between the scheme and the last "@"
            userinfo = url[scheme.end() : url.rfind("@")].lstrip("/")
            found += [userinfo, userinfo.split(":", 1)[-1]]
        for m in _KEYWORD_PASSWORD.finditer(url):
            value = m.group(2)
            found.append(value)
            if value.startswith("'"):
                found.append(re.sub(r"\\(.)", r"\1", value[1:].removesuffix("'")))
        return sorted({s for s in found if s}, key=len, reverse=True)
    where = _userinfo_password(url)
    if where is not None:
        written = url[where[0] : where[1]]
        found += [written, unquote(written), quote(unquote(written), safe="")]
    try:
        parts = urlsplit(url)
        found += [v for k, v in parse_qsl(parts.query, keep_blank_values=True) if k.lower() == "password" and v]
    except ValueError:
        pass
    return sorted({s for s in found if s}, key=len, reverse=True)  # the longest first: no half-replaced secret


def scrub(text: str, url: str) -> str:
    """``text`` (a driver's error message) with the URL shown redacted and every password of ``url`` replaced by
    ``***``, on one line: libpq's line breaks and hints (``\n\tIs the server running ...?``) joined by spaces."""
    text = text.replace(url, redact(url))
    for secret in secrets_of(url):
        text = text.replace(secret, HIDDEN)
    return re.sub(r"\s*\n\s*", " ", text.strip())


@dataclass(frozen=True)
class StoreTarget:
    """Where the results store is: ``backend`` ``"sqlite"`` with its database file ``path``, or ``"postgresql"``
    with its connection ``url`` (``location`` is the redacted URL or the file, for messages). Its ``repr`` shows
    the redacted URL: a crash report that prints local variables (Textual's does) never shows the password."""

    backend: str
    path: Path | None = None
    url: str | None = None

    def __repr__(self) -> str:
        return f"StoreTarget(backend={self.backend!r}, location={self.location!r})"

    @property
    def location(self) -> str:
        from warroom.core.text import clean_name

        # a file named with a newline is named escaped on its line (never a forged line of its own)
        return clean_name(self.path) if self.path is not None else redact(self.url or "")


def store_target(data_dir: Path, url: str | None = None) -> StoreTarget:
    """The store of ``data_dir``: ``url`` if given, else ``$WARROOM_STORE`` if set, else the SQLite file
    ``data_dir/results.sqlite3``. Raises :class:`StoreURLError` for a URL of another kind (raised once the URL is
    out of this frame's variables: a crash report that prints them never shows its password)."""
    found = _store_target(data_dir, url if url is not None else (os.environ.get(STORE_ENV) or None))
    del url
    if isinstance(found, str):
        raise StoreURLError(found)
    return found


def _store_target(data_dir: Path, url: str | None) -> StoreTarget | str:
    """:func:`store_target`'s answer, or the message of the :class:`StoreURLError` it raises."""
    if url is None:
        return StoreTarget("sqlite", path=Path(data_dir) / DB_NAME)
    url = url.strip()
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme == "sqlite":
        rest = url[len("sqlite:") :]
        if rest in ("", "//", "///"):
            return StoreTarget("sqlite", path=Path(data_dir) / DB_NAME)
        if not rest.startswith("///"):
            return f"store URL {redact(url)}: write sqlite:///relative/file or sqlite:////absolute/file"
        if rest.endswith("/"):  # pathlib drops the slash: the file was read, or created (no password to redact)
            from warroom.core.text import clean_name

            return (f"store URL {clean_name(url)}: a name ending in / names a folder, and sqlite:///FILE names the "
                    "database file: drop the trailing /")
        return StoreTarget("sqlite", path=expand_home(rest[3:]))
    if scheme in ("postgresql", "postgres"):  # libpq takes the scheme in lower case only
        if not url[len(scheme) + 1 :].startswith("//"):
            return (f"store URL {redact(url)}: write {scheme}://USER@HOST/DATABASE (two slashes after "
                    f"{scheme}:)")
        return StoreTarget("postgresql", url=scheme + url[len(scheme):])
    return (
        f"store URL {redact(url)!r} is neither sqlite:///FILE nor postgresql://...: warroom keeps results in SQLite "
        "or PostgreSQL"
    )


_PLACEHOLDER = re.compile(r"\?")


@dataclass(frozen=True)
class Dialect:
    """The SQL that differs between the back ends; everything else is written once."""

    name: str
    #: Statement that starts a write transaction.
    begin_write: str
    #: Suffix of a SELECT whose rows are then updated in the same transaction.
    for_update: str
    #: Whether columns can hold a value of another type (SQLite), so reads check ``typeof``.
    loose_types: bool
    #: Statement that starts a read transaction seeing one snapshot of the store throughout.
    begin_read: str = "BEGIN"

    def sql(self, text: str) -> str:
        """``text`` (written with ``?`` placeholders) in this back end's spelling."""
        if self.name == "sqlite":
            return text
        return _PLACEHOLDER.sub("%s", text.replace("%", "%%"))

    def ddl(self, script: str) -> list[str]:
        """The statements of one migration script (written for SQLite) in this back end's spelling: on PostgreSQL
        INTEGER is BIGINT, REAL is DOUBLE PRECISION, TEXT sorts by code point like SQLite (``COLLATE "C"``) and
        there is no ``WITHOUT ROWID``."""
        statements = [s.strip() for s in script.split(";") if s.strip()]
        if self.name == "sqlite":
            return statements
        out = []
        for s in statements:
            s = re.sub(r"\)\s*WITHOUT ROWID\s*$", ")", s)
            s = re.sub(r"\bINTEGER\b", "BIGINT", s)
            s = re.sub(r"\bREAL\b", "DOUBLE PRECISION", s)
            s = re.sub(r"\bTEXT\b", 'TEXT COLLATE "C"', s)
            out.append(s)
        return out

    def unindexed(self, column: str) -> str:
        """``column`` in a condition that should not pick the column's own index (SQLite's unary ``+``)."""
        return f"+{column}" if self.name == "sqlite" else column

    def indexed_by(self, index: str) -> str:
        """`` INDEXED BY index`` after a table name on SQLite (whose planner otherwise may prefer an index that
        orders the rows but needs each whole row read); nothing on PostgreSQL, which plans by its statistics."""
        return f" INDEXED BY {index}" if self.name == "sqlite" else ""

    def order(self, direction: str) -> str:
        """An ORDER BY direction with NULLs where SQLite puts them (first ascending, last descending)."""
        if self.name == "sqlite":
            return direction
        return f"{direction} NULLS {'FIRST' if direction == 'ASC' else 'LAST'}"

    def id_part(self, what: str, key: str) -> tuple[str, tuple[object, ...]]:
        """The condition and parameters matching session ids that start with (``prefix``), end with (``suffix``)
        or contain (``part``) ``key``."""
        if what == "prefix":
            return "session_id >= ? AND session_id < ?", (key, key + "\U0010ffff")
        if self.name == "sqlite":
            if what == "suffix":
                return "substr(session_id, -?) = ?", (len(key), key)
            return "instr(session_id, ?) > 0", (key,)
        if what == "suffix":
            return "right(session_id, ?) = ?", (len(key), key)
        return "strpos(session_id, ?) > 0", (key,)


SQLITE = Dialect("sqlite", begin_write="BEGIN IMMEDIATE", for_update="", loose_types=True)
POSTGRESQL = Dialect(
    "postgresql", begin_write="BEGIN", for_update=" FOR UPDATE", loose_types=False,
    begin_read="BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
)  # fmt: skip

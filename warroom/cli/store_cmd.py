"""``warroom store migrate`` and ``warroom store status``: the results store's back end and schema version.

The store is the data directory's SQLite file unless ``--store URL`` (or ``$WARROOM_STORE``) names another SQLite
file or a PostgreSQL database (docs/sessions.md, "Shared store"). A URL is only ever shown without its password.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warroom.cli.common import (
    FolderPath,
    GivenPath,
    data_dir_option,
    format_option,
    output_option,
    report_recovered,
    say,
    settings_from,
    store_errors,
    store_setting,
)
from warroom.core.text import plural, shown_path

if TYPE_CHECKING:
    from warroom.store.results import UnreadLine


@click.group("store")
def store_group() -> None:
    """The results store: which back end (SQLite or PostgreSQL), its schema version, how many sessions it holds."""


def _status(store: Any) -> dict[str, Any]:
    from warroom.store.results import SCHEMA_VERSION

    status = {
        "backend": store.dialect.name,
        "location": store.location,
        "schema_version": store.schema_version,
        "current_schema_version": SCHEMA_VERSION,
        "sessions": store.count(),
    }
    if store.dialect.name == "postgresql":
        status.update(_roles_status(store))
    return status


def _roles_status(store: Any) -> dict[str, Any]:
    """A PostgreSQL store's group roles (None when it is not secured) and the other stores of the server they reach
    too (a store secured before each store had its own roles, or the default schema's of two databases)."""
    from warroom.store.backends import shared_with

    shared = shared_with(store)
    if shared is None:
        return {"roles": None, "shares_roles_with": []}
    roles, others = shared
    return {"roles": {"trainee": roles.trainee, "facilitator": roles.facilitator}, "shares_roles_with": others}


def _show(status: dict[str, Any], fmt: str) -> None:
    if fmt == "json":
        say(json.dumps(status, ensure_ascii=False))
        return
    say(f"back end:        {status['backend']}")
    say(f"location:        {status['location']}")
    version, current = status["schema_version"], status["current_schema_version"]
    older = f" (this warroom uses {current}: `warroom store migrate` upgrades it)" if version < current else ""
    say(f"schema version:  {version}{older}")
    say(f"sessions:        {status['sessions']}")
    if "roles" not in status:
        return
    if status["roles"] is None:
        say("roles:           not secured (`warroom store secure`)")
        return
    roles = _shown_roles(status["roles"])
    say(f"roles:           {roles['trainee']} (trainees), {roles['facilitator']} (facilitators)")
    if status["shares_roles_with"]:
        say(f"warning: {_shared_warning(roles, status['shares_roles_with'])}", err=True)


def _shown_roles(roles: dict[str, str]) -> dict[str, str]:
    """The store's role names as a message shows them (quoted as SQL needs, control characters escaped)."""
    from warroom.store.backends import Roles

    shown = Roles(roles["trainee"], roles["facilitator"]).shown()
    return {"trainee": shown.trainee, "facilitator": shown.facilitator}


def _shared_warning(roles: dict[str, str], others: list[str]) -> str:
    """What sharing the group roles with other stores means, and what to do."""
    named = ", ".join(others[:10]) + (
        f" and {len(others) - 10} more" if len(others) > 10 else "")  # fmt: skip
    return (f"{roles['trainee']} and {roles['facilitator']} also reach the store in {named} of this server, so a "
            "facilitator of one cohort reads, re-scores and deletes the sessions of the other, and a trainee of one "
            "may store sessions under their own name in the other; run `warroom store secure --cohort NAME` on each "
            "store but one, to give it roles of its own (docs/cohorts.md, \"Roles: who sees what\")")


@store_group.command()
@store_setting
@data_dir_option
@format_option("Print for people (text) or for programs (json).")
@click.pass_context
def migrate(ctx: click.Context, data_dir: Path | None, fmt: str) -> None:
    """Create the results store, or bring an older one to this warroom's schema version, and show its status.

    Every command but `store status` does this on first use; run it to set up a shared PostgreSQL store before a
    class starts."""
    from warroom.store.results import ResultsStore

    settings = settings_from(ctx, data_dir=data_dir)
    with store_errors(), ResultsStore(settings.data_dir) as store:
        _show(_status(store), fmt)


@store_group.command()
@store_setting
@data_dir_option
@format_option("Print for people (text) or for programs (json).")
@click.pass_context
def status(ctx: click.Context, data_dir: Path | None, fmt: str) -> None:
    """Show the results store's back end, where it is (a URL without its password), its schema version and how many
    sessions it holds. A store of an older schema version is left as it is (its version is shown, with the one this
    warroom uses: `warroom store migrate` upgrades it). The whole database is checked first (a SQLite file damaged
    anywhere, a PostgreSQL table that cannot be read). Exit status 1 when there is no store yet or it cannot be used,
    or is damaged."""
    from warroom.store.results import ResultsStore

    settings = settings_from(ctx, data_dir=data_dir)
    with store_errors(), ResultsStore(settings.data_dir, create=False, upgrade=False) as store:
        store.verify()  # a damaged store is an error (exit 1), never a status
        _show(_status(store), fmt)


@store_group.command()
@store_setting
@data_dir_option
@click.option("--drills", "drill_dirs", multiple=True, type=FolderPath(),
              help="Also look for the drills of unfinished sessions in this folder (repeatable).")  # fmt: skip
@click.pass_context
def sync(ctx: click.Context, data_dir: Path | None, drill_dirs: tuple[Path, ...]) -> None:
    """Deliver the sessions queued in this data directory to the results store: sessions finished while a shared
    store could not be reached, and sessions killed mid-drill (stored as abandoned). Each is stored once, however
    often this runs (a session already stored is recognised by its id). Every start of warroom does the same.

    Exit status 1 when the store cannot be reached or used, or refuses a session, or a session's drill is not
    found (those sessions stay queued)."""
    from warroom.store.datadir import journal_files, journals_dir
    from warroom.store.errors import StoreError
    from warroom.store.journal import recover_unfinished
    from warroom.store.review import default_drill_resolver

    settings = settings_from(ctx, data_dir=data_dir, drill_dirs=drill_dirs)
    jdir = journals_dir(settings.data_dir)

    def waiting() -> int:
        return len(journal_files(jdir))

    try:
        with store_errors():
            recovered = recover_unfinished(settings.data_dir, default_drill_resolver(settings.drill_dirs),
                                           shown_to=settings.trainee)  # fmt: skip
    except click.ClickException as exc:  # the store cannot be reached: say that nothing queued was lost
        if not isinstance(exc.__context__, StoreError):
            raise
        raise click.ClickException(f"{exc.message}; {plural(waiting(), 'session')} still waiting in {jdir}") from None
    report_recovered(recovered, settings.trainee)
    delivered = sum(1 for rec in recovered if rec.stored)
    say(f"{plural(delivered, 'session')} delivered; {waiting():,} still waiting in {jdir}")
    if any(rec.error and not rec.stored and not rec.quarantined for rec in recovered):
        ctx.exit(1)  # one the store refused (row-level security, a constraint) or whose drill is missing: queued


#: Longest line of an export read by ``store import``, in bytes (a session's action log is at most a journal's 64
#: MiB); a longer one is refused without being held in memory.
MAX_EXPORT_LINE_BYTES = 80 * 1024 * 1024


def _open_export(source: Path) -> Any:
    """The export file opened for reading, checked once open: a regular file (opened without waiting), or a FIFO, read
    as a stream (opened to wait for its writer, as a pipe is); anything else, even when swapped in after the look at
    the path, is refused and never read."""
    import os

    from warroom.core.files import SpecialFile, open_regular, special_file_kind, special_mode_kind

    if special_file_kind(source) != "a FIFO":
        try:
            return open_regular(source)
        except SpecialFile as exc:
            raise OSError(0, f"{shown_path(source)} is {exc.kind}, not an export file") from None
    stream = open(source, "rb")  # noqa: SIM115 - returned open, closed by the caller
    kind = special_mode_kind(os.fstat(stream.fileno()).st_mode)
    if kind not in (None, "a FIFO"):
        stream.close()
        raise OSError(0, f"{shown_path(source)} is {kind}, not an export file")
    return stream


def export_lines_of(stream: Any) -> Iterator[str | UnreadLine | None]:
    """The lines of an export read from ``stream`` (bytes, UTF-8) one at a time, never more than
    :data:`MAX_EXPORT_LINE_BYTES` of one in memory: a longer line is read past and given as None (refused), and one
    that is not UTF-8 as an :class:`~warroom.store.results.UnreadLine` (refused at its place)."""
    from warroom.store.results import UnreadLine

    while True:
        line = stream.readline(MAX_EXPORT_LINE_BYTES + 1)
        if not line:
            return
        # a byte order mark (an export saved by an editor that writes one; exports joined with `cat`, one mark
        # starting a line inside the file) is no part of the line
        line = line.removeprefix(b"\xef\xbb\xbf")
        if len(line) > MAX_EXPORT_LINE_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # the rest of the over-long line, in pieces
                line = stream.readline(1 << 20)
            yield None
            continue
        try:
            yield line.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            yield UnreadLine.of(line, exc)


@store_group.command(name="export")
@store_setting
@data_dir_option
@output_option("Write to this file, or - for standard output (the default).", writable=False)
@click.pass_context
def export_cmd(ctx: click.Context, data_dir: Path | None, output: Path | None) -> None:
    """Write every stored session as JSON Lines (one session a line, every stored value as it is), to move results
    to another store with `warroom store import` (SQLite and PostgreSQL alike)."""
    from warroom.cli.common import failure
    from warroom.store.results import ResultsStore, write_export

    settings = settings_from(ctx, data_dir=data_dir)
    skipped: list[Any] = []
    with store_errors(), ResultsStore(settings.data_dir, create=False) as store:
        if output is None:
            n = write_export(store, sys.stdout, skipped)
        else:
            try:
                n = _export_to(store, output, skipped)
            except OSError as exc:
                raise failure(f"cannot write {shown_path(output)}: {exc.strerror or exc}") from None
    for problem in skipped:
        say(f"skipped: {problem}", err=True)
    say(f"{plural(n, 'session')} exported from {store.location}", err=True)


def _export_to(store: Any, output: Path, skipped: list[Any]) -> int:
    """Write the export to the file ``output`` whole or not at all (a temporary file renamed over it: an interrupted
    export leaves the old file or none; a symbolic link is written through); a FIFO or device is written as a stream.
    Decided from the file opened, never from a look at the path before (:func:`warroom.core.files.writing`). A
    read-only file is refused (OSError). Returns how many sessions."""
    import errno
    import io

    from warroom.core.files import ReadOnlyFile, writing
    from warroom.store.results import write_export

    try:
        with writing(output) as raw:
            out = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
            n = write_export(store, out, skipped)
            out.flush()
            out.detach()  # the file stays open: `writing` flushes it to disk and renames it
    except ReadOnlyFile as exc:  # a rename would replace it whatever its mode: refused as a plain write would be
        raise OSError(errno.EACCES, f"the file is read-only (mode {exc.mode}): make it writable (chmod u+w) or "
                      "export to another file; nothing was written") from None  # fmt: skip
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO nobody reads, or a socket (which cannot be opened at all)
            from warroom.core.files import special_file_kind

            kind = special_file_kind(output)
            if kind is not None and kind != "a FIFO":
                raise OSError(exc.errno, f"it is {kind}, not a file: nothing was written; name a file") from None
            raise OSError(exc.errno, "it is a FIFO that no process is reading; nothing was written") from None
        if exc.errno == errno.ELOOP:
            raise OSError(exc.errno, "it is a symbolic link that leads nowhere (a loop, or one made while the "
                          "export was being written); nothing was written: export again, or name another file"
                          ) from None  # fmt: skip
        raise
    return n


@store_group.command(name="import")
@click.argument("source", type=GivenPath(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--trainee", "owner", metavar="NAME", default=None,
              help="A trainee's own export: store only the sessions of trainee NAME and refuse every other line.")
@click.option("--all-trainees", is_flag=True,
              help="Store every trainee's sessions (an export of a store you trust, a whole class's).")
@store_setting
@data_dir_option
@click.pass_context
def import_cmd(ctx: click.Context, source: Path, owner: str | None, all_trainees: bool,
               data_dir: Path | None) -> None:  # fmt: skip
    """Store the sessions of a `warroom store export` file (SOURCE, or - for standard input), each recorded as not
    verified. Say whose sessions: --trainee NAME (a trainee's own export, which may hold any name its writer gave)
    or --all-trainees. A session already stored under its id is left as it is, so importing twice stores nothing
    twice. Each line refused is named (FILE:LINE: why; lines refused for the very same reason on one line, FILE:N1,
    N2, ... and K more lines: why), and the exit status is then 1; the other lines are stored."""
    from warroom.cli.common import failure
    from warroom.store.results import ResultsStore, import_lines

    if (owner is None) == (not all_trainees):
        raise click.UsageError(
            "say whose sessions to import: --trainee NAME for a trainee's own export (only their sessions are "
            "stored: the file may hold any name its writer gave), or --all-trainees for an export of a store you "
            "trust (a whole class's)" if owner is None else "--trainee and --all-trainees exclude each other"
        )
    settings = settings_from(ctx, data_dir=data_dir)
    try:
        stream = sys.stdin.buffer if str(source) == "-" else _open_export(source)
    except OSError as exc:
        from warroom.core.files import why_missing

        raise failure(f"cannot read {shown_path(source)}: {why_missing(source, exc) or exc.strerror or exc}") from None
    try:
        with store_errors(), ResultsStore(settings.data_dir) as store:
            name = "<stdin>" if str(source) == "-" else str(source)
            result = import_lines(store, export_lines_of(stream), name, owner)
    except (OSError, UnicodeDecodeError) as exc:
        raise failure(f"cannot read {shown_path(source)}: {getattr(exc, 'strerror', None) or exc}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    for message in result.refused_grouped():
        say(message, err=True)
    say(
        f"{plural(result.imported, 'session')} imported into {store.location}, {result.already} already there, "
        f"{len(result.refused)} refused"
    )
    if result.by_trainee:  # whose sessions the file brought: an export holds the names its writer gave
        from warroom.core.text import shown_id

        names = sorted(result.by_trainee.items())
        said = ", ".join(f"{shown_id(name)} {n}" for name, n in names[:20])
        say(f"imported by trainee: {said}" + (f" and {len(names) - 20} more trainees" if len(names) > 20 else ""))
    if result.histories_left_out:
        n = result.histories_left_out
        say(f"the scorecard history of {plural(n, 'session')} left out: a trainee's own file (--trainee) cannot say "
            "who re-scored a session (`warroom scores verify` checks the scores themselves)")
    if result.refused:
        ctx.exit(1)


@store_group.command()
@store_setting
@data_dir_option
@click.option("--cohort", metavar="NAME", default=None,
              help="Name the store's roles warroom_trainee_NAME and warroom_facilitator_NAME (default: the store's "
                   "own, else its schema's name; the default schema keeps warroom_trainee and warroom_facilitator).")
@click.pass_context
def secure(ctx: click.Context, data_dir: Path | None, cohort: str | None) -> None:
    """PostgreSQL only, run once by the owner of the tables: create the store's two group roles, a trainee's (who
    stores and sees only the sessions under their own name, which must be their database role's name) and a
    facilitator's (every session), with row-level security on the sessions table. A store in the default schema
    gets warroom_trainee and warroom_facilitator; a store in another schema roles of its own (warroom_trainee_SCHEMA,
    warroom_facilitator_SCHEMA), so that cohorts on one server share none. Running it again changes nothing; on a
    store secured before with the shared roles, it moves the store to its own."""
    from warroom.store.backends import secure as secure_store
    from warroom.store.backends import shared_with
    from warroom.store.results import ResultsStore

    settings = settings_from(ctx, data_dir=data_dir)
    with store_errors(), ResultsStore(settings.data_dir) as store:
        roles, before = secure_store(store, cohort)
        _, others = shared_with(store) or (roles, [])
    roles, before = roles.shown(), before and before.shown()
    say(f"row-level security is on in {store.location}; grant a login role one of the store's roles: "
        f"{roles.trainee} (a trainee: `GRANT {roles.trainee} TO ann`) or {roles.facilitator} (a facilitator)")
    if before is not None:
        say(f"the store's roles were {before.trainee} and {before.facilitator}, which no longer reach it: grant its "
            f"login roles the new ones (`GRANT {roles.trainee} TO ann`, `GRANT {roles.facilitator} TO fac`)",
            err=True)  # fmt: skip
    if others:  # the default schema's pair, shared with another database's store
        shown = {"trainee": roles.trainee, "facilitator": roles.facilitator}
        say(f"warning: {_shared_warning(shown, others)}", err=True)

"""Opening the results store for a command: sessions killed mid-drill recorded first, the data directory and the
store checked, and every problem (damaged, locked, unreachable, refused) a clear message and exit status 1, never a
traceback."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click

from warroom.core.settings import Settings
from warroom.core.text import plural


def recover_and_report(settings: Settings, *, told: bool = True) -> None:
    """Record sessions killed mid-drill as abandoned and deliver the sessions queued while a shared store was
    unreachable (see ``recover_unfinished``), telling stderr what was done. A shared store that cannot be reached
    is a warning (the sessions stay queued); any other store problem raises click.ClickException. ``told``: stderr
    is read by the settings' trainee, so their own sessions' notices are not kept for their next start (False: a
    server's log, which no trainee reads: every trainee's notice is kept)."""
    from warroom.cli.common._output import failure, say
    from warroom.store.errors import StoreError, StoreUnreachable
    from warroom.store.journal import recover_unfinished
    from warroom.store.review import default_drill_resolver

    try:
        recovered = recover_unfinished(settings.data_dir, default_drill_resolver(settings.drill_dirs),
                                       shown_to=settings.trainee if told else None)  # fmt: skip
    except StoreUnreachable as exc:
        say(f"warning: {exc}; finished sessions stay queued in this data directory (`warroom store sync`)", err=True)
        return
    except StoreError as exc:
        raise failure(exc) from None
    report_recovered(recovered, settings.trainee if told else None)


def report_recovered(recovered: Sequence[Any], trainee: str | None) -> None:
    """Say on stderr what recovery did: in full for ``trainee``'s own sessions and for journals that could not be
    recovered; another trainee's recovered sessions only counted (what they scored is theirs: they are told at their
    next start, and `warroom scores` lists them)."""
    from warroom.cli.common._output import say

    others = 0
    for rec in recovered:
        if rec.stored and rec.trainee != trainee:
            others += 1
        else:
            say(rec, err=True)
    if others:
        say(f"recovered {plural(others, 'session')} of other trainees killed mid-drill (each trainee is told at "
            "their next start; `warroom scores` lists them)", err=True)  # fmt: skip


@contextmanager
def store_errors() -> Iterator[None]:
    """Turn the results store's errors (damaged, locked, a data directory that cannot be used) raised inside the
    block into a clear message on stderr and exit status 1 (click.ClickException), never a traceback."""
    from warroom.store.errors import StoreError

    try:
        yield
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None


#: ``warroom scores`` checks the whole database file first when it is at most this big (a check reads the whole
#: file: about 0.1 s for 64 MiB); a bigger store is checked where a read meets damage.
VERIFY_MAX_BYTES = 64 * 1024 * 1024


def open_results(settings: Settings, *, verify: bool | None = False) -> Any:
    """The data directory's :class:`~warroom.store.results.ResultsStore` (opened without creating it), or None when
    no session was ever recorded there.

    With ``verify`` True the whole database file is checked first (``PRAGMA quick_check``); with None only when
    the file is at most :data:`VERIFY_MAX_BYTES`. Raises click.ClickException
    (exit status 1) naming the file and what to do for a data directory that is a file or cannot be read or
    written, a damaged database, a ``sessions`` table without its columns, or one from a newer warroom."""
    from warroom.store.backends import StoreURLError, store_target
    from warroom.store.datadir import data_dir_problem
    from warroom.store.results import ResultsStore

    with store_errors():
        problem = data_dir_problem(settings.data_dir)
        if problem:
            raise click.ClickException(problem)
        try:
            target = store_target(settings.data_dir)
        except StoreURLError as exc:
            raise click.ClickException(str(exc)) from None
        if target.path is not None and not target.path.exists():
            return None
        # a PostgreSQL store is created (its schema migrated) on first use, like the SQLite file by a session
        store = ResultsStore(settings.data_dir, create=target.path is None)
        if verify is None:
            verify = target.path is None or target.path.stat().st_size <= VERIFY_MAX_BYTES
        if verify:
            try:
                store.verify()
            except BaseException:
                store.close()
                raise
        return store


def check_store(settings: Settings, trainees: Sequence[str] | None = None) -> None:
    """Before the terminal UI opens (``warroom``, ``warroom run``): the data directory and its results store can be
    used (the whole database file is checked) and may store the sessions of ``trainees`` (default: the settings'
    trainee; a PostgreSQL login role of the store's trainee group stores only its own), else a clear message and
    exit status 1 (click.ClickException)."""
    from warroom.store.backends import group_roles, own_sessions_only, trainee_refused
    from warroom.store.errors import StoreUnreachable

    try:
        store = open_results(settings, verify=True)
    except click.ClickException as exc:
        if not isinstance(exc.__context__, StoreUnreachable):
            raise
        from warroom.cli.common._output import say

        say(f"warning: {exc.message}; the sessions played now are kept here until `warroom store sync`", err=True)
        return
    if store is None:
        return
    try:
        with store_errors():
            login_role = own_sessions_only(store)
            roles = group_roles(store)
    finally:
        store.close()
    if login_role is None:
        return  # a login role that may store any trainee's sessions
    for trainee in trainees if trainees is not None else [settings.trainee]:
        refused = trainee_refused(login_role, trainee, roles)
        if refused is None:
            continue
        advice = (
            f"play with --trainee {login_role!r} (or $WARROOM_TRAINEE), or connect as a login role named like the "
            "trainee" if trainees is None else
            "a served class needs a login role that stores every trainee's sessions: a "
            f"{roles.shown().facilitator} role or the owner of the tables"
        )
        raise click.ClickException(f"cannot record the sessions of {trainee!r} in {store.location}: {refused}; "
                                   f"{advice} (docs/cohorts.md, \"Roles: who sees what\")")

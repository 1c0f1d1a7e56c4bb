"""``warroom review SESSION_ID``: open a stored session in the terminal UI as an after-action review.

Heavy imports (the store, pydantic models, Textual) happen inside the command, so ``warroom --help`` stays fast.
"""

from __future__ import annotations

import click

from warroom.cli.common import (
    data_dir_setting,
    drills_setting,
    failure,
    open_results,
    pass_settings,
    recover_and_report,
    say,
)
from warroom.core.settings import Settings
from warroom.core.text import clean_name


@click.command()
@click.argument("session_id")
@data_dir_setting
@drills_setting
@pass_settings
def review(settings: Settings, session_id: str) -> None:
    """Review a stored session: the whole trace with the answer key, the trainee's flags and escalations where
    they happened, and the scorecard beside it.

    SESSION_ID is a session id from `warroom scores`, or a unique part of one: a prefix, else a suffix (the last
    letters, e.g. `jwvh`), else any part. A part that matches several sessions lists them (exit status 1).
    Keys: up/down (j/k) move,
    n / p jump to the next / previous trainee action, e to the next evidence, q closes.
    """
    from warroom.store.errors import CorruptSession, SessionNotFound, StoreError

    recover_and_report(settings)
    store = open_results(settings, verify=True)  # the whole file is checked before the review opens
    if store is None:
        raise click.ClickException(
            f"no results store in {clean_name(settings.data_dir)} (no session has been recorded in this data directory)"
        )
    from warroom.store.review import load_review

    try:
        with store:
            session = store.get(session_id)
            data = load_review(session, settings.drill_dirs, store)  # verified too: a disagreement is said
    except SessionNotFound as exc:
        raise failure(f"{exc} in {store.location} (`warroom scores` lists the sessions)") from None
    except CorruptSession as exc:
        raise failure(f"{exc} (in {store.location}; the row was left as it is)") from None
    except StoreError as exc:
        raise failure(exc) from None

    for notice in data.notices:
        say(f"warning: {notice}", err=True)

    from warroom.tui.app import ReviewApp

    ReviewApp(data, handle_signals=True).run()

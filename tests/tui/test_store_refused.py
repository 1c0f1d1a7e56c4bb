"""A PostgreSQL store that refuses a session (a ``warroom_trainee`` login role storing under another trainee's
name): the trainee is told the result was NOT stored and how it will be, never that it "will be recovered"; and the
command line refuses to open the war room at all for such a trainee (exit 1, the reason), on a real server."""

from __future__ import annotations

import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from click.testing import CliRunner
from pg_support import PostgresServer

from warroom.cli import main
from warroom.tui.logic import Services

from .conftest import STALE, make_app, record_notifications


def _as_role(url: str, role: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, f"{role}@{parts.netloc.split('@', 1)[1]}", parts.path, parts.query, ""))


@pytest.fixture
def trainee_url(tmp_path: Path, postgres_server: PostgresServer, store_url: str) -> tuple[str, str]:
    """(the URL of a secured store connecting as a new warroom_trainee login role, that role's name)."""
    role = f"ann_{uuid.uuid4().hex[:8]}"
    secured = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(tmp_path)])
    assert secured.exit_code == 0, secured.output
    from pg_support import group_roles

    postgres_server.sql(f"CREATE ROLE {role} LOGIN IN ROLE {group_roles(store_url)[0]}")
    return _as_role(store_url, role), role


def test_the_command_line_refuses_a_trainee_the_login_role_may_not_store(
    tmp_path: Path, trainee_url: tuple[str, str]
) -> None:
    from pg_support import group_roles

    url, role = trainee_url
    base = ["--store", url, "--data-dir", str(tmp_path / "data")]
    result = CliRunner().invoke(main, [*base, "--trainee", "bob", "run", str(STALE)])
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"Error: cannot record the sessions of 'bob' in {url}: the store's login role {role!r} is a "
        f"{group_roles(url)[0]} and may store only the sessions of trainee {role!r}, not of 'bob'; play with --trainee "
        f"{role!r} (or $WARROOM_TRAINEE), or connect as a login role named like the trainee (docs/cohorts.md, "
        "\"Roles: who sees what\")"
    )
    assert not (tmp_path / "data" / "journals").exists() or not list((tmp_path / "data" / "journals").glob("*"))


async def test_a_refused_result_says_it_was_not_stored(
    tmp_path: Path, trainee_url: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, _ = trainee_url
    monkeypatch.setenv("WARROOM_STORE", url)
    app = make_app(Services(trainee="bob", data_dir=tmp_path / "data"))
    async with app.run_test(size=(160, 45)) as pilot:
        messages = record_notifications(app)
        await pilot.press("enter")  # the briefing: start the drill
        await pilot.pause()
        assert app.live is not None
        await pilot.press("q", "y")  # quit: stored as abandoned, which the store refuses
        await pilot.pause()
    refused = [m for m in messages if "NOT stored" in m]
    assert len(refused) == 1, messages
    assert "row-level security" in refused[0] and "`warroom store sync` stores it" in refused[0]
    assert "will be recovered" not in refused[0]
    assert len(list((tmp_path / "data" / "journals").glob("*.jsonl"))) == 1  # kept, queued

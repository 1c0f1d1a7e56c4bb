"""Hostile input to ``warroom serve`` (issue 30, campaign 22: the served room, as a hostile user and a faulty world
drive it): what it found and what now holds."""

from __future__ import annotations

import pytest
from serve_support import TOKENS, Served, read_until, shared_serving

#: This module's trainees: each case signs in as its own, so none ends another's tab.
_TOKENS = {**TOKENS, "Katherine Johnson": "katherine-token-0123456", "Mary Jackson": "mary-token-01234567890"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):  # type: ignore[no-untyped-def]
    """One `warroom serve` for this module's served cases (none ends another's trainee or page)."""
    with shared_serving(tmp_path_factory.mktemp("hostile22"), tokens=_TOKENS) as served:
        yield served


async def test_the_already_playing_page_reloaded_says_so_again_not_session_ended(served: Served):
    """A trainee's second window got the 409 page ("already playing in another tab") at ``/``; reloading it (F5,
    ``Cache-Control: max-age=0``, the other window still playing in the same browser) was taken for a reload of the
    war room tab: the terminal page was served, its websocket refused after 3 s, and the browser said "Session
    ended." where the 409 had said why and offered "Play here instead". The 409 page is at a path of its own
    (``/another-tab``): reloaded, it is the 409 page again; once the other tab has closed, it leads to the war room."""
    katherine = await served.signed_in("Katherine Johnson", _TOKENS["Katherine Johnson"])
    async with katherine:
        first = await katherine.ws_connect("/ws?width=100&height=30")
        await read_until(first, "Tutorial: where-is", timeout=90)
        async with katherine.get("/") as r:  # another window of the same browser
            text = await r.text()
        assert r.status == 409 and "already playing in another tab" in text and "Play here instead" in text
        assert r.url.path == "/another-tab"
        async with katherine.get(r.url, headers={"Cache-Control": "max-age=0"}) as again:  # that page reloaded
            text = await again.text()
        assert again.status == 409 and "already playing in another tab" in text and "/ws/" not in text
        await first.close()  # the first window closed: the page reloaded now leads to the war room
        async with katherine.get("/another-tab", headers={"Cache-Control": "max-age=0"}) as r:
            page = await r.text()
        assert r.status == 200 and r.url.path == "/" and "/ws/" in page, page
    fresh = await served.signed_in("Katherine Johnson", _TOKENS["Katherine Johnson"])  # another browser
    async with fresh, fresh.get("/another-tab") as r:  # not playing: nothing to say there
        assert r.status == 200 and r.url.path == "/"


async def test_the_already_playing_page_signed_out_leads_to_the_sign_in_page(served: Served):
    """``/another-tab`` in a browser not signed in is sent to the sign-in page, as ``/`` is (not a bare 401)."""
    import aiohttp

    async with (
        aiohttp.ClientSession(base_url=served.url) as nobody,
        nobody.get("/another-tab", allow_redirects=False) as r,
    ):
        assert (r.status, r.headers.get("Location")) == (303, "/signin")


async def test_a_roster_changed_while_the_server_starts_is_read_at_the_first_request(tmp_path):
    """The roster file's stamp was taken at the first request, not when the server read the roster: a token rotated
    (or a name removed) while the server started (it reads the drill library and recovers sessions first, seconds),
    or before anyone signed in, was never read until the file changed again: the new token was refused and the old
    one went on signing in. The stamp is taken before the roster is read (the command passes it): the first request
    reads the changed file."""
    from serve_support import write_roster

    from warroom.serve import Roster, SignIns

    path = write_roster(tmp_path / "roster.yaml")
    stamp = SignIns.stamp_of(path)
    roster = Roster.load(path)
    write_roster(path, {**TOKENS, "Ada Lovelace": "ada-rotated-token-0000"})  # `roster rotate` meanwhile
    signins = SignIns(roster, "nobody", roster_path=path, roster_stamp=stamp)
    await signins.reload_roster()  # the first request
    assert signins.roster is not None and signins.roster.entries == Roster.load(path).entries
    assert signins.roster.entries != roster.entries


def test_the_serve_command_takes_the_roster_stamp_before_it_reads_the_roster(tmp_path, monkeypatch):
    """`warroom serve` gives the server the roster file's stamp from before its read (above), not none."""
    import click
    from click.testing import CliRunner
    from serve_support import write_roster

    from warroom.cli import main
    from warroom.serve import SignIns, WarroomServer

    path = write_roster(tmp_path / "roster.yaml")
    made: list[SignIns] = []

    def serve(self: WarroomServer, debug: bool = False) -> None:
        made.append(self.signins)
        raise click.ClickException("stopped here by the test")

    monkeypatch.setattr(WarroomServer, "serve", serve)
    monkeypatch.setattr("warroom.cli.serve._warm_picker_cache", lambda settings: None)  # not what is tested here
    args = ["--data-dir", str(tmp_path / "data"), "serve", "--port", "0", "--roster", str(path)]
    result = CliRunner().invoke(main, args)
    assert "stopped here by the test" in result.output, result.output
    assert made and made[0].roster_stamp == SignIns.stamp_of(path)

"""Hostile input to the facilitator's console of ``warroom serve`` (issue 30, campaign 21: its pages on stores built
on purpose, and read at a phone's width): what it found and what now holds. One server for the module (its cases
read the store, none writes it)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import async_playwright, chromium_executable
from click.testing import CliRunner
from handcohort_support import DRILLS_DIR, Play, play, play_cohort
from serve_support import FACILITATOR, FACILITATOR_TOKEN, Served, shared_serving

from warroom.cli import main
from warroom.core.load import load_drill
from warroom.core.play import Replay
from warroom.core.scoring import score
from warroom.store.journal import SessionRecorder

#: The sessions of the trainee who played a drill again and again (more than a page lists).
BUSY = 503


def _gone_drill_session(data: Path, folder: Path) -> str:
    """Ada contains a drill whose file is then deleted: `scores verify` records the session as unverifiable."""
    drills = folder / "drills"
    drills.mkdir()
    path = drills / "gone-drill.yaml"
    text = (DRILLS_DIR / "duplicate-charge-refunds.yaml").read_text()
    path.write_text(text.replace("\nid: duplicate-charge-refunds\n", "\nid: gone-drill\n"))
    drill = load_drill(path)
    rec = SessionRecorder.start(data, "Ada Lovelace", path, drill, mode="assessment", seed=1)
    replay = Replay(rec.drill, on_action=rec.record)
    replay.advance_to(12)
    replay.escalate("s1", "stale", ("e04",))
    rec.finish(score(rec.drill, rec.actions))
    shutil.rmtree(drills)
    return rec.session_id


#: Set ids stored by SQL (warroom's own hold neither a `/` nor only dots): each one's grid is a link of the sets page.
FORGED_SETS = ("..", "a/b <x>")


def _forged_sets(data: Path) -> None:
    """A copy of one of eve's sessions in each of :data:`FORGED_SETS`."""
    with sqlite3.connect(data / "results.sqlite3") as conn:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(sessions)")]
        row = dict(zip(cols, conn.execute("SELECT * FROM sessions WHERE trainee = 'eve'").fetchone(), strict=True))
        for i, set_id in enumerate(FORGED_SETS):
            copy = row | {"session_id": f"{row['session_id']}-set{i}", "stored_seq": None, "set_id": set_id}
            conn.execute(f"INSERT INTO sessions VALUES ({', '.join('?' * len(cols))})", [copy[c] for c in cols])


def _busy_trainee(data: Path) -> None:
    """Grace Hopper's session copied to :data:`BUSY` sessions (rows as a long term of replays leaves them)."""
    with sqlite3.connect(data / "results.sqlite3") as conn:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(sessions)")]
        row = dict(zip(cols, conn.execute("SELECT * FROM sessions WHERE trainee = 'Grace Hopper'").fetchone(),
                       strict=True))  # fmt: skip
        copies = []
        for i in range(1, BUSY):
            copy = row | {"session_id": f"{row['session_id']}-{i:03d}", "stored_seq": None}
            copies.append([copy[c] for c in cols])
        conn.executemany(f"INSERT INTO sessions VALUES ({', '.join('?' * len(cols))})", copies)


def _set_of_a_drill_to_remove(folder: Path) -> Path:
    """Set ``week-2`` of two drills, the first (``leaving-drill``) in a drills folder of its own."""
    drills = folder / "drills2"
    drills.mkdir()
    text = (DRILLS_DIR / "held-orders-release.yaml").read_text()
    (drills / "leaving-drill.yaml").write_text(text.replace("\nid: held-orders-release\n", "\nid: leaving-drill\n"))
    path = folder / "week-2.set.yaml"
    path.write_text("set: week-2\ntitle: Week 2\ndrills:\n  - leaving-drill\n  - duplicate-charge-refunds\n")
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[Served, str]]:
    folder = tmp_path_factory.mktemp("hostile21")
    data = folder / "data"
    week_2 = _set_of_a_drill_to_remove(folder)
    play_cohort(data)  # ana ... eve: the worked cohort of tests/cli/test_stats_by_hand.py
    gone = _gone_drill_session(data, folder)
    verify = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(data)])
    assert verify.exit_code == 1 and f"unverifiable: {gone}" in verify.output, verify.output
    play(data, Play("Grace Hopper", "A", (("esc", 12, "s1", ("e06",)),)))
    _busy_trainee(data)
    _forged_sets(data)
    with shared_serving(folder, "--set", str(week_2), "--drills", str(folder / "drills2")) as server:
        yield server, gone


async def _page(served: Served, path: str) -> str:
    facilitator = await served.signed_in(FACILITATOR)
    async with facilitator, facilitator.get(path) as r:
        assert r.status == 200, (path, r.status)
        return await r.text()


async def test_every_console_page_says_how_many_sessions_not_verified_its_figures_leave_out(served):
    """Ada's one session cannot be verified (its drill file is gone): the figures leave it out, as `warroom scores
    summary` does and says. The console's pages said nothing of it: Ada's page showed `contained 100` in its list and
    `no counted session` above it, unexplained."""
    server, _ = served
    for path in ("/console", "/console/trainees", "/console/sessions", "/console/sets"):
        text = await _page(server, path)
        assert "1 session not verified" in text and "is left out of every figure" in text, path
    ada = await _page(server, "/console/trainees/Ada%20Lovelace")
    assert "1 session not verified" in ada  # the counting sentence
    assert '<span class="unverified"' in ada and "! unverifiable" in ada  # its line in the list
    assert 'id="unverified-note"' in ada and "the figures above leave it out" in ada


async def test_a_trainees_page_says_when_its_list_shows_only_the_newest_sessions(served):
    """A trainee with more sessions than a page lists (500): the page listed the newest 500 and said nothing of the
    others."""
    server, _ = served
    grace = await _page(server, "/console/trainees/Grace%20Hopper")
    assert grace.count('href="/console/sessions/') == 500
    assert f"The newest 500 of {BUSY} sessions only" in grace
    assert 'href="/console/sessions?trainee=Grace%20Hopper"' in grace
    ana = await _page(server, "/console/trainees/ana")
    assert 'id="sessions-shown"' not in ana and 'id="unverified-note"' not in ana
    # the sessions page said `The newest 500 only`, of how many unsaid (and so for exactly 500)
    listed = await _page(server, "/console/sessions?trainee=Grace%20Hopper")
    assert f"The newest 500 of {BUSY} sessions only" in listed
    assert 'id="sessions-shown"' not in await _page(server, "/console/sessions?trainee=ana")


async def test_a_trainee_page_of_an_empty_name_is_the_list_of_trainees(served):
    """`/console/trainees?name=` (the form of a name a path cannot hold, left empty) drew the progress page of a
    trainee named "", `: progress`, where it is the list."""
    server, _ = served
    text = await _page(server, "/console/trainees?name=")
    assert '<table id="trainees">' in text and "<h1>: progress</h1>" not in text


PAGES = ["/console", "/console/sets", "/console/sets/week-1", "/console/trainees", "/console/trainees/dee",
         "/console/sessions", "/console/roster",
         "/console/compare?drill=duplicate-charge-refunds&a=ana&b=dee"]  # fmt: skip


async def test_no_console_page_is_wider_than_a_phone(served):
    """At a phone's width (390 px) the tables of the trainees, the sessions, the live class, a trainee's sessions,
    a review and a comparison made the whole page scroll sideways (up to 1,136 px wide: the text and the header
    moved with it, a table's last columns off the screen). A wide table now scrolls within itself."""
    server, gone = served
    executable = chromium_executable()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 390, "height": 844})
            await page.goto(server.url + "/signin")
            await page.fill("#name", FACILITATOR)
            await page.fill("#token", FACILITATOR_TOKEN)
            await page.click("button[type=submit]")
            await page.wait_for_url(server.url + "/console")
            wide = {}
            for path in [*PAGES, f"/console/sessions/{gone}"]:
                await page.goto(server.url + path)
                width = await page.evaluate("document.documentElement.scrollWidth")
                if width > 390:
                    wide[path] = width
                table = await page.query_selector("table")
                if table is not None:  # the table is all there, scrolled within itself
                    assert await table.evaluate("t => t.scrollWidth >= t.clientWidth"), path
            assert not wide, wide
            await page.emulate_media(media="print")  # printed, a table is whole, never cut at the paper's edge
            assert await page.evaluate("getComputedStyle(document.querySelector('table')).display") == "table"
        finally:
            await browser.close()


async def test_a_sets_drill_removed_while_serving_keeps_its_column_and_the_pages_say_so(served):
    """A drill of a served set deleted (or broken, or the set file itself) while the server runs: its column
    vanished from the completion grid and the gradebook, and nothing said so (the set file is read again for each
    page). The last good reading is kept, and the pages and the download say that the file cannot be read now."""
    server, _ = served
    drill = server.data_dir.parent / "drills2" / "leaving-drill.yaml"
    start = server.log_size()
    grid = await _page(server, "/console/sets/week-2")
    assert "leaving-drill" in grid and "cannot be read now" not in grid
    kept = drill.with_suffix(".kept")
    drill.rename(kept)
    try:
        grid = await _page(server, "/console/sets/week-2")
        facilitator = await server.signed_in(FACILITATOR)
        async with facilitator, facilitator.get("/console/gradebook.csv?set=week-2") as r:
            header, csv = r.headers.get("X-Warroom-Set-Problem", ""), await r.text()
        sets = await _page(server, "/console/sets")
    finally:
        kept.rename(drill)
    note = "The drill set file week-2.set.yaml, or a drill it names, cannot be read now: its last good reading is shown"
    assert note in grid.replace("&#39;", "'") and note in sets.replace("&#39;", "'")
    assert ">leaving-drill</th>" in grid, grid
    assert csv.splitlines()[0].startswith("trainee,leaving-drill,duplicate-charge-refunds,"), csv
    assert header.startswith("The drill set file week-2.set.yaml")
    assert "no drill file or drill id 'leaving-drill'" in server.log_since(start)  # the log says why, once
    assert server.log_since(start).count("cannot be read now") == 1
    grid = await _page(server, "/console/sets/week-2")  # the drill back: read again, no note
    assert "cannot be read now" not in grid


async def test_a_gradebook_of_an_empty_date_range_is_refused_not_a_csv_without_grades(served):
    """`until` (not included) on or before `from`, two dates swapped in the form: the download was a CSV of every
    trainee's name and no grade, as if nobody had played."""
    server, _ = served
    facilitator = await server.signed_in(FACILITATOR)
    async with facilitator:
        for since, until in (("2026-12-08", "2026-01-01"), ("2026-12-01", "2026-12-01")):
            async with facilitator.get(f"/console/gradebook.csv?since={since}&until={until}") as r:
                text = await r.text()
                assert r.status == 400 and "no time is from" in text and until in text, (r.status, text)
        async with facilitator.get("/console/gradebook.csv?since=2020-01-01&until=2100-01-01") as r:
            assert r.status == 200 and any(line.startswith("ana,") for line in (await r.text()).splitlines())


async def test_the_grid_of_a_set_id_a_path_cannot_hold_opens_from_the_sets_page(served):
    """A set id stored by SQL holding a `/` or only dots: its link on the sets page (`/console/sets/..`,
    `/console/sets/a/b%20%3Cx%3E`) was a redirect to the sets page or a 404, never its grid."""
    import html
    import re

    server, _ = served
    sets = await _page(server, "/console/sets")
    links = {html.unescape(text): html.unescape(href)
             for href, text in re.findall(r'<a href="([^"]+)">([^<]*)</a>', sets)}  # fmt: skip
    assert links[".."] == "/console/sets?id=.." and links["a/b <x>"] == "/console/sets/a%2Fb%20%3Cx%3E"
    for set_id in FORGED_SETS:
        grid = await _page(server, links[set_id])
        assert f"Drill set {html.escape(set_id)}" in grid and ">eve<" in grid, grid

"""Who may open what on ``warroom serve`` with a roster of trainees and a facilitator, the roster commands, and a
running server reading the changed roster at once."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest
from click.testing import CliRunner
from serve_support import FACILITATOR, TOKENS, serving

from warroom.cli import main
from warroom.serve import Roster


async def test_a_facilitator_gets_the_console_and_never_a_war_room_and_a_trainee_the_opposite(tmp_path):
    with serving(tmp_path) as served:
        facilitator = await served.signed_in(FACILITATOR)
        trainee = await served.signed_in("Ada Lovelace")
        async with facilitator, trainee:
            async with facilitator.get("/console") as r:
                assert r.status == 200 and "The class, live" in await r.text()
            async with facilitator.get("/", allow_redirects=False) as r:
                assert r.status == 303 and r.headers["Location"] == "/console"
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await facilitator.ws_connect("/ws")
            assert refused.value.status == 403
            for path in ("/console", "/console/sessions", "/console/gradebook.csv"):
                async with trainee.get(path) as r:
                    assert r.status == 403, path
            async with trainee.get("/mine") as r:
                assert r.status == 200 and "Your sessions, Ada Lovelace" in await r.text()
            async with facilitator.post("/signout", allow_redirects=False) as r:
                assert r.status == 303
            async with facilitator.get("/console", allow_redirects=False) as r:
                assert r.status == 303 and r.headers["Location"] == "/signin"


async def test_without_a_roster_there_is_no_console(tmp_path):
    with serving(tmp_path, roster=False) as served:
        async with aiohttp.ClientSession(base_url=served.url) as http, http.get("/console") as r:
            assert r.status == 404 and "roster add --facilitator" in await r.text()


async def test_a_running_server_reads_the_changed_roster_at_once(tmp_path):
    """`roster rotate` ends the sign-ins of the old token and refuses it; `roster remove` ends a name's sign-ins;
    `roster add` lets a new name sign in, all while the server runs."""
    with serving(tmp_path) as served:
        roster_path = tmp_path / "roster.yaml"
        ada = await served.signed_in("Ada Lovelace")
        grace = await served.signed_in("Grace Hopper")
        async with ada, grace:
            rotated = CliRunner().invoke(main, ["serve", "roster", "rotate", str(roster_path), "Ada Lovelace"])
            assert rotated.exit_code == 0, rotated.output
            name, rotated_token = rotated.output.strip().split("\t")
            assert name == "Ada Lovelace" and rotated_token != TOKENS["Ada Lovelace"]
            removed = CliRunner().invoke(main, ["serve", "roster", "remove", str(roster_path), "Grace Hopper"])
            assert removed.exit_code == 0 and "removed Grace Hopper" in removed.output
            added = CliRunner().invoke(main, ["serve", "roster", "add", str(roster_path), "Hedy Lamarr"])
            new_token = added.output.strip().split("\t")[1]
            deadline = time.monotonic() + 10
            while True:  # the server looks at the roster file at most once a second
                async with ada.get("/", allow_redirects=False) as r:
                    if r.status == 303:
                        break
                assert time.monotonic() < deadline, "the old token's sign-in did not end"
                await asyncio.sleep(0.3)
            async with grace.get("/", allow_redirects=False) as r:
                assert r.status == 303  # removed: back to the sign-in page
            tries = (("Ada Lovelace", TOKENS["Ada Lovelace"], 401), ("Ada Lovelace", rotated_token, 303),
                     ("Grace Hopper", TOKENS["Grace Hopper"], 401), ("Hedy Lamarr", new_token, 303))
            for name, token, status in tries:
                form = {"name": name, "token": token}
                async with aiohttp.ClientSession(base_url=served.url) as http, http.post(
                    "/signin", data=form, allow_redirects=False
                ) as r:
                    assert r.status == status, (name, status)
        assert "roster read again: 3 names" in served.log.read_text()


def test_roster_list_remove_and_rotate(tmp_path):
    path = tmp_path / "class.yaml"
    runner = CliRunner()
    assert runner.invoke(main, ["serve", "roster", "add", str(path), "Ann", "Bob"]).exit_code == 0
    added = runner.invoke(main, ["serve", "roster", "add", "--facilitator", str(path), "Fran"])
    assert added.exit_code == 0 and added.output.startswith("Fran\t")
    listed = runner.invoke(main, ["serve", "roster", "list", str(path)])
    assert listed.output == "Ann\ttrainee\nBob\ttrainee\nFran\tfacilitator\n"
    assert "token" not in listed.output and "scrypt" not in listed.output
    before = Roster.load(path)
    rotated = runner.invoke(main, ["serve", "roster", "rotate", str(path), "Fran"])
    after = Roster.load(path)
    assert rotated.exit_code == 0 and after.entries["Fran"] != before.entries["Fran"]
    assert after.role_of("Fran") == "facilitator"  # a rotated token keeps its role
    assert after.check("Fran", rotated.output.strip().split("\t")[1]) == "Fran"
    missing = runner.invoke(main, ["serve", "roster", "remove", str(path), "Bob", "Zed"])
    assert missing.exit_code == 2 and "not on the roster: 'Zed'" in missing.output
    assert list(Roster.load(path).entries) == ["Ann", "Bob", "Fran"]  # nothing written
    assert runner.invoke(main, ["serve", "roster", "remove", str(path), "Bob"]).exit_code == 0
    assert list(Roster.load(path).entries) == ["Ann", "Fran"]
    unknown = runner.invoke(main, ["serve", "roster", "rotate", str(path), "Zed"])
    assert unknown.exit_code == 2 and "`roster add` adds them" in unknown.output
    none = runner.invoke(main, ["serve", "roster", "list", str(tmp_path / "nope.yaml")])
    assert none.exit_code == 1 and "no such roster" in none.output


async def test_a_trainee_reads_their_own_reviews_but_never_the_answer_key_of_a_drill_they_quit(tmp_path):
    from handcohort_support import Play, play

    data = tmp_path / "data"
    quit_id = play(data, Play("Ada Lovelace", "B", (("quit", 30),)))
    done_id = play(data, Play("Ada Lovelace", "A", (("esc", 12, "s1", ("e06",)),)))
    other_id = play(data, Play("Grace Hopper", "A", ()))
    with serving(tmp_path, data_dir=data) as served:
        ada = await served.signed_in("Ada Lovelace")
        async with ada:
            async with ada.get("/mine") as r:
                page = await r.text()
            assert f"/mine/{quit_id}" in page and f"/mine/{done_id}" in page and other_id not in page
            async with ada.get(f"/mine/{done_id}") as r:
                assert r.status == 200 and "earliest evidence" in await r.text()
            async with ada.get(f"/mine/{quit_id}") as r:
                page = await r.text()
            assert r.status == 200 and 'id="hidden"' in page and "evidence" not in page and "e12" not in page
            async with ada.get(f"/mine/{other_id}") as r:
                assert r.status == 404  # another trainee's session


async def test_a_trainees_progress_counts_the_abandoned_session_its_plots_show(tmp_path):
    """The plots' axis numbers every counted session, an abandoned one too: the figures above them say so (a
    trainee who played 3 drills and quit a 4th in assessment has 4 counted sessions, 1 of them abandoned and counted
    with its response: a quit fault drill is a miss)."""
    from handcohort_support import Play, play

    data = tmp_path / "data"
    play(data, Play("Ada Lovelace", "A", (("esc", 12, "s1", ("e06",)),)))
    play(data, Play("Ada Lovelace", "B", (("quit", 30),)))
    play(data, Play("Ada Lovelace", "C", (("esc", 36, "s2", ("e08",)),)))
    play(data, Play("Ada Lovelace", "N", ()))
    with serving(tmp_path, data_dir=data) as served:
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator:
            async with facilitator.get("/console/trainees/Ada%20Lovelace") as r:
                page = await r.text()
            async with facilitator.get("/console/trainees") as listing:
                listed = await listing.text()
    assert r.status == 200 and listing.status == 200
    overall = page.split('id="overall">', 1)[1].split("</p>", 1)[0]
    counted = "4 counted sessions (assessment): 4 trials (first attempts); 1 abandoned, counted with their response"
    assert counted in overall
    assert "hit rate 2/3 67% [21–94]" in overall and "false-alarm rate 0/1 0% [0–79]" in overall
    assert "d′ too few trials (3 signal, 1 noise)" in overall and "c -" in overall
    # the list of trainees: trials, replays, quit, each rate with its counts and interval, d′ or why not (issue 31)
    row = listed.split('href="/console/trainees/Ada%20Lovelace"', 1)[1].split("</tr>", 1)[0]
    cells = [c.split(">", 1)[1] for c in row.split("</td>")[1:-1]]
    assert cells[:6] == ["4", "0", "1", "2/3 67% [21–94]", "0/1 0% [0–79] !", "too few trials (3 signal, 1 noise)"]
    assert "in assessment counted with their response" in listed and "counted apart and in no rate" not in listed
    assert "2 of 4 sessions detected" in page  # the time-to-detect plot's legend, over the same 4 sessions


async def test_the_gradebook_of_an_unknown_set_is_refused_not_an_empty_csv(tmp_path):
    from handcohort_support import Play, play

    data = tmp_path / "data"
    play(data, Play("Ada Lovelace", "A", (("esc", 12, "s1", ("e06",)),)))
    with serving(tmp_path, data_dir=data) as served:
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator:
            async with facilitator.get("/console/gradebook.csv?set=week-l") as r:
                assert r.status == 404 and "no drill set 'week-l'" in await r.text()
            async with facilitator.get("/console/gradebook.csv?set=week-1") as r:
                text = await r.text()
            assert r.status == 200 and text.splitlines()[0].startswith("trainee,duplicate-charge-refunds,")
            assert any(line.startswith("Ada Lovelace,100,") for line in text.splitlines())


async def test_a_session_whose_results_disagree_is_no_grade_and_its_review_says_so(tmp_path):
    """A row edited to a better score (here: a miss made "contained, 100") is found by `scores verify`; the console's
    grid and gradebook then leave it out, as the statistics do, and its review says its results disagree."""
    import sqlite3

    from handcohort_support import Play, play

    data = tmp_path / "data"
    good = play(data, Play("Ada Lovelace", "A", (("esc", 12, "s1", ("e06",)),)))
    forged = play(data, Play("Grace Hopper", "A", ()))  # a miss
    with sqlite3.connect(data / "results.sqlite3") as conn:
        conn.execute("UPDATE sessions SET outcome = 'contained', total = 100, response = 'hit' WHERE session_id = ?",
                     (forged,))  # fmt: skip
    verify = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(data)])
    assert verify.exit_code == 1 and f"disagrees: {forged}" in verify.output, verify.output
    with serving(tmp_path, data_dir=data) as served:
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator:
            async with facilitator.get("/console/gradebook.csv?set=week-1") as r:
                lines = (await r.text()).splitlines()
            async with facilitator.get("/console/sets/week-1") as r:
                grid = await r.text()
            async with facilitator.get(f"/console/sessions/{forged}") as r:
                review = await r.text()
            async with facilitator.get(f"/console/sessions/{good}") as r:
                fine = await r.text()
    assert any(line.startswith("Ada Lovelace,100,") for line in lines)
    assert not any(line.startswith("Grace Hopper,100") for line in lines), lines
    assert grid.count("done · contained") == 1, grid  # Ada's; Grace's forged row is no grade
    assert "The stored results disagree with" in review and "The stored results" not in fine

"""The facilitator's console in a real browser (the system's Chromium through Playwright): a facilitator signs in and
watches a class of simulated trainees (each a browser tab's websocket, as the benchmark's) sign in, start drills, act,
finish and disconnect, each change shown on the page (waited for, without a timing goal: how soon is a figure of
benchmarks/bench_console.py, whose goal is 2 s); then the completion grid, a trainee's progress plots, a
review with a note the trainee reads in their own review, two trainees compared, and the gradebook export, on a
cohort recorded through the store's API as the war room records it.

Screenshots of each page are written to ``$WARROOM_SCREENSHOTS`` when it names a folder (for a person to look at).
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
from pathlib import Path

from browser_support import async_playwright, chromium_executable
from handcohort_support import play_cohort, play_many
from serve_support import FACILITATOR, FACILITATOR_TOKEN, TOKENS, SimulatedTrainee, answering, serving

#: The longest a change in the class is waited for on the console's live page, in milliseconds: a bound on a hang,
#: not a goal (the goal, 2 s, is benchmarks/bench_console.py's).
LIVE_WAIT_MS = 30_000
SHOTS = os.environ.get("WARROOM_SCREENSHOTS", "")


def _set_file(tmp_path: Path, mode: str = "assessment") -> Path:
    path = tmp_path / "week-1.set.yaml"
    path.write_text(
        # noise_rate 0: every drill plays its fault, never its healthy twin (the live test contains one)
        f"set: week-1\ntitle: Week 1\nmode: {mode}\nattempts: 2\ndue: 2026-01-01\nnoise_rate: 0\n"
        "drills: [duplicate-charge-refunds, outage-callback-calls, carbon-aware-memo]\n",
        encoding="utf-8",
    )
    return path


async def _shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


async def _sign_in(browser, url: str, name: str, token: str):
    page = await browser.new_page(viewport={"width": 1500, "height": 950})
    await page.goto(url + "/signin")
    await page.fill("#name", name)
    await page.fill("#token", token)
    await page.click("button[type=submit]")
    return page


async def _shows(page, trainee: str, status: str, what: str) -> None:
    """The live table comes to show ``trainee`` in ``status`` (by its server-sent events: the page is not loaded
    again)."""
    selector = f'#live tr[data-trainee="{trainee}"][data-status="{status}"]'
    try:
        await page.wait_for_selector(selector, timeout=LIVE_WAIT_MS)
    except Exception:
        table = await page.inner_text("#live")
        raise AssertionError(f"{what}: {trainee} never shown {status}:\n{table}") from None


async def test_a_facilitator_watches_a_live_class_change(tmp_path):
    executable = chromium_executable()
    set_file = _set_file(tmp_path, "practice")  # practice: the drill clock's speed may change
    with serving(tmp_path, "--set", str(set_file), "--stuck-after", "5") as served:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
            try:
                page = await _sign_in(browser, served.url, FACILITATOR, FACILITATOR_TOKEN)
                await page.wait_for_url(served.url + "/console")
                await page.wait_for_selector('#live tr[data-trainee="Ada Lovelace"][data-status="absent"]')
                async with asyncio.timeout(150):  # a hang fails here, with the step it hung in
                    await _class_plays(page, served.url)
            finally:
                await browser.close()


async def _class_plays(page, url: str) -> None:
    ada = SimulatedTrainee(url, "Ada Lovelace", TOKENS["Ada Lovelace"])
    grace = SimulatedTrainee(url, "Grace Hopper", TOKENS["Grace Hopper"])
    try:
        await ada.sign_in()
        await _shows(page, "Ada Lovelace", "signed_in", "a sign-in")
        await grace.sign_in()
        await _shows(page, "Grace Hopper", "signed_in", "a second sign-in")
        await ada.open_tab("Evidence memo")
        await _shows(page, "Ada Lovelace", "picker", "a war room tab opened")
        assert ada.ws is not None
        async with answering(ada.ws):  # a tab left unread is ended by the server's heartbeat (serve_support)
            await grace.open_tab("Duplicate-charge")
        assert grace.ws is not None
        async with answering(grace.ws):
            await ada.start_drill(down=2)  # carbon-aware-memo, third of the set
            await _shows(page, "Ada Lovelace", "playing", "a drill started")
            row = page.locator('#live tr[data-trainee="Ada Lovelace"]')
            assert "carbon-aware-memo" in await row.inner_text()
            await _shot(page, "console-live-playing")
        async with answering(ada.ws):
            await grace.start_drill()  # duplicate-charge-refunds
            await _shows(page, "Grace Hopper", "playing", "a second drill started")
        async with answering(grace.ws):  # Grace idles, her tab open: its pings answered
            # Ada acts: the drill clock at 4x (two speed actions), and the actions count on the page
            await ada.keys("+")
            await ada.keys("+")
            await page.wait_for_function(
                "() => { const r = document.querySelector('#live tr[data-trainee=\"Ada Lovelace\"]');"
                " return r && r.innerText.includes('at 4x') && r.innerText.includes('speed'); }",
                timeout=LIVE_WAIT_MS,
            )
            # Ada contains the incident: evidence e10 as shown (written e09) at 32 s of drill time, fault in s2
            await ada.keys("", "HTTP 403", timeout=60)
            await ada.keys(" ")
            # each key once the dialog or question it is for is drawn (not after a fixed sleep): a key typed before the
            # escalation dialog has opened reaches the war room under it, not the dialog's step box
            await ada.keys("e", "citing no event")  # the dialog is open (it ticks nothing not chosen)
            await ada.keys("s2")
            await ada.keys("\t\te10 ", "citing: e10")  # the evidence list
            await ada.keys("\r", "y escalates")  # the dialog asks to confirm
            await ada.keys("y", "What happened", timeout=30)  # the debrief, its answer key on the first screen
            await _shows(page, "Ada Lovelace", "finished", "a drill finished")
            assert "contained" in await page.locator('#live tr[data-trainee="Ada Lovelace"]').inner_text()
            # Grace did nothing since her drill started: stuck (--stuck-after 5 s without an action)
            await page.wait_for_selector('#live tr[data-trainee="Grace Hopper"][data-status="stuck"]', timeout=15000)
        # Grace's tab goes away mid-drill: disconnected, the session stored as abandoned
        await grace.close()
        await _shows(page, "Grace Hopper", "disconnected", "a tab closed")
        await page.wait_for_function(
            "() => document.querySelector('#live tr[data-trainee=\"Grace Hopper\"]').innerText.includes('abandoned')",
            timeout=20000,
        )
        await _shot(page, "console-live-finished")
    finally:
        await ada.close()
        await grace.close()


async def test_the_console_pages_grid_progress_review_notes_compare_and_gradebook(
    tmp_path, real_noise_draw, monkeypatch
):
    from warroom.core.variants import _trial

    executable = chromium_executable()
    set_file = _set_file(tmp_path)
    monkeypatch.setattr(_trial, "DEFAULT_NOISE_RATE", 0.0)  # the cohort's sessions outside the set: signal trials
    play_cohort(tmp_path / "data")  # ana, ben, cy, dee, eve: drills A and N in set week-1
    monkeypatch.setattr(_trial, "DEFAULT_NOISE_RATE", real_noise_draw)  # fay's trials drawn as warroom draws them
    play_many(tmp_path / "data", "fay", signal=10, noise=5)  # enough trials for d′ and c
    tokens = {**TOKENS, "ana": "ana-token-0123456789"}
    with serving(tmp_path, "--console-set", str(set_file), tokens=tokens) as served:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
            try:
                page = await _sign_in(browser, served.url, FACILITATOR, FACILITATOR_TOKEN)
                await page.wait_for_url(served.url + "/console")
                assert "assessment sessions only" in await page.inner_text("#counting")
                await _grid(page, served.url)
                await _progress(page, served.url)
                session_url = await _review_and_note(page, served.url)
                await _compare(page, served.url)
                await _gradebook(page, served.url)
                mine = await _sign_in(browser, served.url, "ana", tokens["ana"])
                await mine.goto(served.url + "/mine")
                await mine.click(f'a[href="/mine/{session_url.rsplit("/", 1)[1]}"]')
                assert "Watch e04 next time" in await mine.inner_text(".facilitator-note")
                assert await mine.locator("#note-form").count() == 0  # a trainee reads notes, never writes them
                await _shot(mine, "mine-review")
                forbidden = await mine.goto(served.url + "/console")
                assert forbidden is not None and forbidden.status == 403
            finally:
                await browser.close()


async def _grid(page, url: str) -> None:
    await page.goto(url + "/console/sets")
    await page.click('a[href="/console/sets/week-1"]')
    cell = page.locator('#grid tr[data-trainee="ana"] td[data-drill="duplicate-charge-refunds"]')
    assert (await cell.get_attribute("data-state")) == "done"
    assert "done · contained" in await cell.inner_text() and "1 left" in await cell.inner_text()
    todo = page.locator('#grid tr[data-trainee="eve"] td[data-drill="outage-callback-calls"]')
    assert (await todo.inner_text()).startswith("not started") and "past due" in await todo.inner_text()
    not_started = await page.inner_text("#not-started")
    assert "Ada Lovelace" in not_started and "Grace Hopper" in not_started and "ana" not in not_started.split(", ")
    await _shot(page, "console-grid")


async def _progress(page, url: str) -> None:
    await page.goto(url + "/console/trainees")
    assert "3/3 100% [44–100]" in await page.locator('#trainees tr:has(a[href="/console/trainees/ana"])').inner_text()
    await page.goto(url + "/console/trainees/ana")
    overall = await page.inner_text("#overall")
    assert "hit rate 3/3 100% [44–100]" in overall and "false-alarm rate 0/1 0% [0–79]" in overall
    for figure in ("kinds", "detect"):
        assert await page.locator(f"#figure-{figure} svg").count() == 1, figure
    assert await page.locator("#figure-sensitivity").count() == 0  # 4 trials: too few for d′ and c, and it says so
    missing = await page.inner_text("#sensitivity-missing")
    assert "at least 10 signal and 5 noise trials; ana has 3 and 1" in missing, missing
    assert "hits 3 of 3" in await page.inner_text("#figure-kinds") or await page.locator("#kind-bar-0").count()
    await page.goto(url + "/console/trainees/fay")  # 10 hits, 5 correct rejections: d′ from the 15th trial on
    overall = await page.inner_text("#overall")
    assert "hit rate 10/10 100% [72–100]" in overall and "false-alarm rate 0/5 0% [0–43]" in overall
    assert await page.locator("#sensitivity-missing").count() == 0
    assert await page.locator("#figure-sensitivity svg #sdt-point-0").count() == 1
    title = await page.locator("#figure-sensitivity svg #sdt-point-0 title").text_content()
    assert title is not None and title.startswith("after session 15: d′ ") and "hits 10 of 10" in title, title
    await _shot(page, "console-progress")


async def _review_and_note(page, url: str) -> str:
    await page.goto(url + "/console/sessions?trainee=ana")
    link = page.locator("#sessions a[href^='/console/sessions/']").last
    await link.click()
    await page.wait_for_selector("#review")
    assert "evidence" in await page.inner_text("#review")
    await page.fill("#note-text", "Watch e04 next time: <b>the refund list</b> came back empty.")
    await page.click("#note-form button")
    await page.wait_for_selector(".facilitator-note")
    note = await page.inner_text(".facilitator-note")
    assert "Fran Allen" in note and "<b>the refund list</b>" in note  # shown literally, never as HTML
    await _shot(page, "console-review")
    return page.url.split("#")[0]


async def _compare(page, url: str) -> None:
    await page.goto(url + "/console/compare?drill=duplicate-charge-refunds&a=ana&b=ben")
    table = await page.inner_text("#compare")
    assert "e04" in table and "escalated" in table
    await _shot(page, "console-compare")


async def _gradebook(page, url: str) -> None:
    await page.goto(url + "/console/gradebook")
    async with page.expect_download() as caught:
        await page.click("#gradebook-set button")
    download = await caught.value
    rows = list(csv.reader(io.StringIO(Path(await download.path()).read_text(encoding="utf-8"))))
    assert rows[0][:4] == ["trainee", "duplicate-charge-refunds", "outage-callback-calls", "carbon-aware-memo"]
    by_name = {r[0]: r for r in rows[1:]}
    assert by_name["ana"][1] == "100" and by_name["ana"][3] == "" and by_name["Ada Lovelace"][1:4] == ["", "", ""]

"""Hostile input to ``warroom serve`` (issue 30's fresh hostile campaign): a roster with odd entries, and hostile
addresses: a NUL character in a path or a query never reaches the store, where PostgreSQL refuses it and the page
took it for a store that cannot be read (a 503 and a warning in the server's log, at any signed-in trainee's will)."""

from __future__ import annotations

import aiohttp
import pytest
from pg_support import PostgresServer
from serve_support import FACILITATOR, serving

from warroom.serve import Roster, RosterError
from warroom.serve._roster import verify_token


async def test_a_nul_character_in_an_address_is_a_bad_request_not_a_broken_store(
    tmp_path, postgres_server: PostgresServer, store_url: str
):
    with serving(tmp_path, "--store", store_url) as served:
        trainee, facilitator = await served.signed_in(), await served.signed_in(FACILITATOR)
        async with trainee, facilitator:
            for client, address in ((trainee, "/mine/%00"), (facilitator, "/console/sessions?trainee=%00"),
                                    (facilitator, "/console/sessions/a%00b"), (facilitator, "/console/trainees/%00"),
                                    (facilitator, "/console/compare?drill=x&a=%00&b=y"),
                                    (facilitator, "/console/gradebook.csv?set=%00")):  # fmt: skip
                async with client.get(address, allow_redirects=False) as r:
                    assert r.status == 400 and "NUL character" in await r.text(), (address, r.status)
            async with facilitator.get("/console/sessions/%1b%5b2J%e2%80%ae") as r:
                assert r.status == 404 and await r.text() == "no stored session '\\x1b[2J\\u202e'"
    assert "the store cannot be read" not in served.log.read_text(errors="replace")


@pytest.mark.parametrize("text", ["trainees: " + "[" * 20000 + "]" * 20000,
                                  "trainees:\n" + "".join(" " * i + "- a:\n" for i in range(0, 3000, 2))])  # fmt: skip
def test_a_roster_nested_too_deeply_is_a_roster_error_not_a_recursion_error(tmp_path, text: str):
    path = tmp_path / "roster.yaml"
    path.write_text(text)
    with pytest.raises(RosterError, match=r"roster.yaml:1:1: not a YAML roster: .* nested too deeply"):
        Roster.load(path)


@pytest.mark.parametrize("params", ["1048576$8$1", "16384$32$16", "1024$8$1", "16384$8$2"])
def test_a_roster_hash_of_other_scrypt_parameters_is_refused_where_it_stands(tmp_path, params: str):
    """Parameters warroom never writes: ``2**20`` made hashlib raise (more memory than it allows) at every sign-in
    of that name, ``r=32, p=16`` cost 8 s of CPU a guess, and any other cost than the decoy's told which names are on
    the roster."""
    import base64

    salt, digest = base64.b64encode(b"s" * 16).decode(), base64.b64encode(b"d" * 32).decode()
    path = tmp_path / "roster.yaml"
    path.write_text(f"trainees:\n- name: Ada\n  token: scrypt${params}${salt}${digest}\n")
    with pytest.raises(RosterError, match=r"roster.yaml:3:10: the token of 'Ada' is not a hash written by"):
        Roster.load(path)
    assert not verify_token("guess", f"scrypt${params}${salt}${digest}")


async def test_a_form_that_is_not_utf8_is_a_bad_request_without_a_traceback(tmp_path):
    """``POST /signin`` (anyone) or a note (a facilitator) whose body is not UTF-8: aiohttp raised a
    UnicodeDecodeError, a 500 and a traceback in the server's log."""
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    with serving(tmp_path) as served:
        async with (aiohttp.ClientSession(base_url=served.url) as anyone,
                    anyone.post("/signin", data=b"name=\xff\xfe&token=x", headers=form) as r):  # fmt: skip
            assert r.status == 400 and await r.text() == "the form is not UTF-8 text"
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator, facilitator.post("/console/sessions/x/notes", data=b"text=\xff", headers=form) as r:
            assert r.status == 400 and await r.text() == "the form is not UTF-8 text"
    assert "Traceback" not in served.log.read_text(errors="replace")


async def test_a_set_id_written_by_sql_never_breaks_the_gradebooks_download(tmp_path):
    """A set id holding a line break (a row written by SQL: warroom checks set ids only on its own writes) went into
    the download's ``Content-Disposition``: aiohttp refused the header, a traceback in the log and no response."""
    import sqlite3

    from handcohort_support import Play, play

    data = tmp_path / "data"
    play(data, Play("Ada Lovelace", "A", (("esc", 12, "s1", ("e06",)),)))
    with sqlite3.connect(data / "results.sqlite3") as conn:
        conn.execute("UPDATE sessions SET set_id = ?", ("wk\r\nX-Evil: 1",))
    with serving(tmp_path, data_dir=data) as served:
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator, facilitator.get("/console/gradebook.csv?set=wk%0D%0AX-Evil%3A%201") as r:
            assert r.status == 200 and "X-Evil" not in r.headers
            assert r.headers["Content-Disposition"] == 'attachment; filename="gradebook-wk--X-Evil--1.csv"'
            assert any(line.startswith("Ada Lovelace,100,") for line in (await r.text()).splitlines())
    assert "Traceback" not in served.log.read_text(errors="replace")


async def test_every_trainees_page_is_reachable_from_the_console_whatever_the_name(tmp_path):
    """Names the trainee-name rule allows (``ann/x``, ``.``, ``..``): their links went to a 404 (``/`` kept as a path
    separator) or to another page (a browser resolves ``..``)."""
    import re
    import sqlite3

    from handcohort_support import Play, play

    data = tmp_path / "data"
    names = ["ann/x", "..", ".", "a%2Fb"]
    for name in names:
        play(data, Play("placeholder", "A", (("esc", 12, "s1", ("e06",)),)))
        with sqlite3.connect(data / "results.sqlite3") as conn:
            conn.execute("UPDATE sessions SET trainee = ? WHERE trainee = 'placeholder'", (name,))
    with serving(tmp_path, data_dir=data) as served:
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator:
            for page in ("/console/trainees", "/console/sessions"):
                async with facilitator.get(page) as r:
                    links = set(re.findall(r'href="(/console/trainees[/?][^"]*)"', await r.text()))
                reached = set()
                for link in links:
                    async with facilitator.get(link.replace("&amp;", "&")) as r:
                        heading = re.search(r"<h1>(.*?): progress</h1>", await r.text())
                        assert r.status == 200 and heading, (link, r.status)
                        reached.add(heading.group(1))
                assert set(names) <= reached, (page, reached)


async def test_a_session_id_written_by_sql_links_to_its_own_review(tmp_path):
    """Session ids went into the console's links as they are: ``S%31`` (a row written by SQL, which warroom's write
    checks never see) linked to session ``S1``'s review, ``a?b`` to a 404."""
    import re
    import sqlite3

    from handcohort_support import Play, play

    data = tmp_path / "data"
    for _ in range(3):
        play(data, Play("Ada Lovelace", "A", (("esc", 12, "s1", ("e06",)),)))
    with sqlite3.connect(data / "results.sqlite3") as conn:
        ids = [r[0] for r in conn.execute("SELECT session_id FROM sessions ORDER BY session_id")]
        for old, new in zip(ids, ["S1", "S%31", "a?b"], strict=True):
            conn.execute("UPDATE sessions SET session_id = ? WHERE session_id = ?", (new, old))
    with serving(tmp_path, data_dir=data) as served:
        facilitator = await served.signed_in(FACILITATOR)
        async with facilitator:
            async with facilitator.get("/console/sessions") as r:
                links = re.findall(r'href="(/console/sessions/[^"]+)"', await r.text())
            assert len(links) == 3
            for link in links:
                async with facilitator.get(link) as r:
                    title = re.search(r"<title>Session (.*?) · ", await r.text())
                    assert r.status == 200 and title, (link, r.status)
                    assert title.group(1) in {"S1", "S%31", "a?b"} and link.endswith(_quoted(title.group(1)))


def _quoted(session_id: str) -> str:
    from urllib.parse import quote

    return quote(session_id, safe="")

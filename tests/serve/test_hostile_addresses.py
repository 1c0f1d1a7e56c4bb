"""Hostile addresses on ``warroom serve``'s pages (issue 30's fresh hostile campaign): a NUL character in a path or
a query never reaches the store, where PostgreSQL refuses it and the page took it for a store that cannot be read (a
503 and a warning in the server's log, at any signed-in trainee's will)."""

from __future__ import annotations

from pg_support import PostgresServer
from serve_support import FACILITATOR, serving


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

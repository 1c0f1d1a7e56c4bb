"""`warroom store import` by a trainee role of a shared PostgreSQL store: another trainee's session in the file is a
refused line (``FILE:N: why``), the trainee's own are still stored (real roles on a real server)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from click.testing import CliRunner
from pg_support import PostgresServer
from store_support import add_session

from warroom.cli import main
from warroom.store.results import ResultsStore
from warroom.store.transfer import export_lines


def as_role(url: str, role: str) -> str:
    """``url`` connecting as the login role ``role`` (the test server trusts its socket)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, f"{role}@{parts.netloc.split('@', 1)[1]}", parts.path, parts.query, ""))


def test_a_trainee_importing_anothers_session_gets_a_refused_line_not_an_abort(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    tag = uuid.uuid4().hex[:8]
    ann, bob = f"ann_{tag}", f"bob_{tag}"
    secured = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(tmp_path)])
    assert secured.exit_code == 0, secured.output
    for role in (ann, bob):
        postgres_server.sql(f"CREATE ROLE {role} LOGIN IN ROLE warroom_trainee")
    source = tmp_path / "src"
    with ResultsStore(source) as store:  # a SQLite store holding a session of each
        add_session(store, f"s-bob-{tag}", trainee=bob, total=40)
        add_session(store, f"s-ann-{tag}", trainee=ann, total=80)
        lines = list(export_lines(store))
    export = tmp_path / "all.jsonl"
    export.write_text("".join(line if line.endswith("\n") else line + "\n" for line in lines), encoding="utf-8")
    bob_line = 1 + [json.loads(line)["trainee"] for line in lines].index(bob)

    result = CliRunner().invoke(main, ["--store", as_role(store_url, ann), "--data-dir", str(tmp_path / "ann"),
                                       "store", "import", str(export)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert f"{export}:{bob_line}: " in result.output and "row-level security" in result.output, result.output
    assert f"{export}:{bob_line}: cannot store session s-bob-{tag} of trainee {bob!r}: " in result.output  # whose
    assert "1 session(s) imported" in result.output and "1 refused" in result.output, result.output
    with ResultsStore(tmp_path, url=as_role(store_url, ann)) as store:
        assert [r.session_id for r in store.query()] == [f"s-ann-{tag}"]

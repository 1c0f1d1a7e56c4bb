"""`warroom store import` by a trainee role of a shared PostgreSQL store: another trainee's session in the file is a
refused line (``FILE:N: why``), the trainee's own are still stored (real roles on a real server)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from click.testing import CliRunner
from pg_support import PostgresServer, as_role, group_roles
from store_support import add_session

from warroom.cli import main
from warroom.store.results import ResultsStore, export_lines


def test_a_trainee_importing_anothers_session_gets_a_refused_line_not_an_abort(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    tag = uuid.uuid4().hex[:8]
    ann, bob = f"ann_{tag}", f"bob_{tag}"
    secured = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(tmp_path)])
    assert secured.exit_code == 0, secured.output
    for role in (ann, bob):
        postgres_server.sql(f"CREATE ROLE {role} LOGIN IN ROLE {group_roles(store_url)[0]}")
    source = tmp_path / "src"
    with ResultsStore(source) as store:  # a SQLite store holding a session of each
        add_session(store, f"s-bob-{tag}", trainee=bob, total=40)
        add_session(store, f"s-ann-{tag}", trainee=ann, total=80)
        for i in range(3):  # more of bob's: refused for the same reason, one line of output for them all
            add_session(store, f"s-bob{i}-{tag}", trainee=bob, total=50, started_at=f"2026-03-0{i + 1}T09:00:00+00:00")
        lines = list(export_lines(store))
    export = tmp_path / "all.jsonl"
    export.write_text("".join(line if line.endswith("\n") else line + "\n" for line in lines), encoding="utf-8")
    bob_lines = [n for n, line in enumerate(lines, start=1) if json.loads(line)["trainee"] == bob]

    result = CliRunner().invoke(main, ["--store", as_role(store_url, ann), "--data-dir", str(tmp_path / "ann"),
                                       "store", "import", "--all-trainees", str(export)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    named = ", ".join(map(str, bob_lines))
    assert f"{export}:{named} (4 lines; S is each line's session id): cannot store session S of trainee {bob!r}: " \
        in result.output, result.output  # whose, and why
    assert "row-level security" in result.output, result.output
    assert "1 session imported" in result.output and "4 refused" in result.output, result.output
    with ResultsStore(tmp_path, url=as_role(store_url, ann)) as store:
        assert [r.session_id for r in store.query()] == [f"s-ann-{tag}"]

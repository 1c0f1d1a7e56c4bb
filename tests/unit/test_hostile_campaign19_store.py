"""Campaign 19 (issue 30): the store's per-cohort PostgreSQL roles and the served room's live table, attacked on the
newest code (docs/cohorts.md, "Roles: who sees what"; docs/serve.md)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from click.testing import CliRunner, Result
from pg_support import PostgresServer

from warroom.cli import main


def _cli(url: str, data: Path, *args: str) -> Result:
    result = CliRunner().invoke(main, ["--store", url, *args, "--data-dir", str(data)])
    assert "Traceback" not in result.output, result.output
    return result


def test_a_cohort_store_beside_a_store_in_public_is_secured_again_without_a_false_sharing_refusal(
    tmp_path: Path, postgres_server: PostgresServer
):
    """A database holding a store in ``public`` and a cohort's store in a schema of its own: ``public`` grants
    USAGE to every role (PUBLIC), so the cohort's roles were said to "reach" the store in ``public`` (where they may
    read no table): running ``store secure`` again, which the docs say changes nothing, was refused ("already
    secure the store in schema `public`") and ``store status`` warned of a sharing that is not there."""
    tag = uuid.uuid4().hex[:8]
    db, schema = f"d_{tag}", f"k_{tag}"
    postgres_server.sql(f"CREATE DATABASE {db}")
    postgres_server.sql(f"CREATE SCHEMA {schema}", database=db)
    public, cohort = postgres_server.url(db), postgres_server.url(db, schema=schema)
    assert _cli(public, tmp_path, "store", "migrate").exit_code == 0
    first = _cli(cohort, tmp_path, "store", "secure")
    assert first.exit_code == 0 and first.stderr == "", first.output
    again = _cli(cohort, tmp_path, "store", "secure")
    assert again.exit_code == 0 and again.stderr == "", again.output
    assert _cli(public, tmp_path, "store", "secure").stderr == ""
    status = json.loads(_cli(cohort, tmp_path, "store", "status", "--format", "json").stdout)
    assert (status["roles"]["trainee"], status["shares_roles_with"]) == (f"warroom_trainee_{schema}", [])

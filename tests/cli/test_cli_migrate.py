"""`warroom migrate FILE...`: what it prints and its exit status."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from locations import REPO

from warroom.cli import main


def test_migrate_rewrites_reports_and_fails_on_an_invalid_file(tmp_path: Path):
    good = tmp_path / "sla-credits-october.yaml"
    good.write_bytes((REPO / "tests" / "fixtures" / "v1" / "sla-credits-october.yaml").read_bytes())
    bad = tmp_path / "bad-id.yaml"
    bad.write_bytes((REPO / "tests" / "malformed" / "bad-id.yaml").read_bytes())
    result = CliRunner().invoke(main, ["migrate", str(good), str(bad)])
    assert result.exit_code == 1
    assert f"{good}: migrated to version 2\n" in result.stdout
    assert f"{bad}:17:9: `s 2` is not a valid id" in result.stderr
    assert f"{bad}: not migrated" in result.stderr
    assert "schema_version: 2\n" in good.read_text()
    again = CliRunner().invoke(main, ["migrate", str(good)])
    assert (again.exit_code, again.stdout) == (0, f"{good}: already version 2\n")


def test_migrate_dry_run_changes_nothing(tmp_path: Path):
    good = tmp_path / "sla-credits-october.yaml"
    original = (REPO / "tests" / "fixtures" / "v1" / "sla-credits-october.yaml").read_bytes()
    good.write_bytes(original)
    result = CliRunner().invoke(main, ["migrate", "--dry-run", str(good)])
    assert (result.exit_code, result.stdout) == (0, f"{good}: would be migrated to version 2\n")
    assert good.read_bytes() == original


def test_a_migrated_skeleton_keeps_no_comment_that_says_to_keep_version_1(tmp_path: Path):
    assert CliRunner().invoke(main, ["new", "weekly", "--out", str(tmp_path)]).exit_code == 0
    result = CliRunner().invoke(main, ["migrate", str(tmp_path / "weekly.yaml")])
    assert result.exit_code == 0, result.output
    (line,) = [row for row in (tmp_path / "weekly.yaml").read_text().splitlines() if row.startswith("schema_version")]
    value, _, comment = line.partition("#")
    assert value.strip() == "schema_version: 2"
    assert "keep 1" not in comment and "2 is current" in comment  # (the skeleton is format 2: nothing stale to keep)


def test_a_file_name_that_is_not_utf8_is_shown_escaped(tmp_path: Path):
    """Issue 30: a file name holding a byte that is not UTF-8 (and a control character) is shown as escapes
    (``\\xff``, ``\\x1b``), never raw, on every line of migrate and project."""
    import os

    name = os.fsdecode(b"sla\xff\x1b[31m.yaml")
    good = tmp_path / name
    good.write_bytes((REPO / "tests" / "fixtures" / "v1" / "sla-credits-october.yaml").read_bytes())
    shown = f"{tmp_path}/sla\\xff\\x1b[31m.yaml"
    dry = CliRunner().invoke(main, ["migrate", "--dry-run", str(good)])
    assert (dry.exit_code, dry.stdout) == (0, f"{shown}: would be migrated to version 2\n")
    done = CliRunner().invoke(main, ["migrate", str(good)])
    assert (done.exit_code, done.stdout) == (0, f"{shown}: migrated to version 2\n")
    listed = CliRunner().invoke(main, ["project", "--list", str(good)])
    assert listed.exit_code == 1 and listed.stderr.startswith(f"{shown}:280:1: this drill has a fault")
    assert "\udcff" not in listed.output + done.output and "\x1b" not in listed.output + done.output
    bad = tmp_path / os.fsdecode(b"bad\xfe.yaml")
    bad.write_text("schema_version: 1\nid: [\n", encoding="utf-8")
    refused = CliRunner().invoke(main, ["migrate", str(bad)])
    assert refused.exit_code == 1 and f"{tmp_path}/bad\\xfe.yaml:" in refused.stderr and "\udcfe" not in refused.stderr

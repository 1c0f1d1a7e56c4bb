"""Start-up of the ``warroom`` command: ``warroom --help`` lists every command with its own short help without
importing any of them, and the store-only commands never import the terminal UI, the plotting library, the
PostgreSQL driver, the YAML round-trip library or OpenTelemetry. Checked by which modules a fresh interpreter
imported, never by timing (the figures are in benchmarks/bench_startup.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from scores_support import known_store

import warroom.cli
from warroom.cli import LAZY_COMMANDS, main

#: Packages only some commands need: the TUI (Textual; Rich's only user besides the tables), `report`'s plots,
#: the PostgreSQL driver, `annotate`'s round-trip YAML, `import otel`'s packages.
HEAVY = ("textual", "matplotlib", "psycopg", "ruamel", "opentelemetry")

#: Run in a fresh interpreter: invoke ``warroom ARGS`` in-process with click's CliRunner, then print the exit code
#: and the imported modules (as JSON on the last line).
_PROBE = """
import json, sys
from click.testing import CliRunner
from warroom.cli import main
result = CliRunner().invoke(main, sys.argv[1:])
print(json.dumps({"code": result.exit_code, "output": result.output[-2000:], "modules": sorted(sys.modules)}))
"""


def imported_by(*args: str) -> list[str]:
    """The modules a fresh interpreter has imported after running ``warroom ARGS`` (which must exit 0), its output
    200 columns wide (the sessions table fits in its wide form)."""
    env = {**os.environ, "COLUMNS": "200"}
    out = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True, env=env)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["code"] == 0, report["output"]
    modules: list[str] = report["modules"]
    return modules


def under(modules: list[str], packages: tuple[str, ...]) -> list[str]:
    """The ``modules`` that are one of ``packages`` or inside one."""
    return sorted(m for m in modules if m in packages or m.startswith(tuple(p + "." for p in packages)))


def test_every_listed_short_help_is_the_commands_own():
    """LAZY_COMMANDS' short helps (shown by ``warroom --help`` without importing the commands) are what click
    makes of each command's own help; every command module is listed."""
    ctx = click.Context(main)
    for name, (target, short_help) in LAZY_COMMANDS.items():
        command = main.get_command(ctx, name)
        assert command is not None, target
        assert short_help == command.get_short_help_str(limit=10_000), name
    cli_dir = Path(warroom.cli.__file__).parent
    registered = {target.split(":")[0] for target, _ in LAZY_COMMANDS.values()}
    defining = {
        ".".join(("warroom.cli", *p.relative_to(cli_dir).with_suffix("").parts))
        for p in cli_dir.rglob("*.py")
        if "\n@click.command" in p.read_text() or "\n@click.group" in p.read_text()
    }
    subcommands = {"warroom.cli.__init__", "warroom.cli.import_traces"}  # the root group; `warroom import`'s own
    # a command's module is registered, or is a private module of a registered package (its API names the command)
    unlisted = {m for m in defining - subcommands if m not in registered and m.rsplit(".", 1)[0] not in registered}
    assert not unlisted, f"a command module missing from LAZY_COMMANDS: {unlisted}"


@pytest.mark.parametrize("width", [60, 80, 200])
def test_help_lists_every_command_as_click_would(width):
    """``warroom --help``'s Commands section equals click's own (which imports every command for its short
    help), at narrow and wide terminals: the same commands, the same short helps, cut at the same place."""
    ctx = click.Context(main, terminal_width=width, max_content_width=width)
    lazy, eager = ctx.make_formatter(), ctx.make_formatter()
    main.format_commands(ctx, lazy)
    click.Group.format_commands(main, ctx, eager)
    assert lazy.getvalue() == eager.getvalue()
    result = CliRunner().invoke(main, ["--help"], terminal_width=width)
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.output.split("Commands:\n", 1)[1].splitlines() if line.strip()]
    assert listed == sorted(LAZY_COMMANDS) and "scores" in listed and "validate" in listed


def test_help_imports_no_command():
    modules = imported_by("--help")
    commands = [target.split(":")[0] for target, _ in LAZY_COMMANDS.values()]
    assert under(modules, tuple(commands)) == []
    assert under(modules, ("warroom.store", "warroom.tui", "pydantic", "yaml", "rich", *HEAVY)) == []


def test_scores_summary_help_imports_only_the_store_queries():
    modules = imported_by("scores", "summary", "--help")
    assert "warroom.cli.scores._summary" in modules  # the probe did run the command
    assert under(modules, ("warroom.tui", "warroom.core.model._drill", "pydantic", "yaml", "rich", *HEAVY)) == []


@pytest.mark.parametrize("command", [["scores", "list"], ["scores", "summary"], ["scores"], ["store", "status"]])
def test_store_commands_import_no_ui_plots_driver_or_otel(tmp_path, command):
    """Store-only commands on a store holding sessions: no Textual, matplotlib, psycopg (SQLite store), ruamel or
    OpenTelemetry module is imported (Rich lays out their tables)."""
    data = known_store(tmp_path / "data")
    modules = imported_by(*command, "--data-dir", str(data))
    assert "warroom.store.results._store" in modules  # the store was read
    assert under(modules, ("warroom.tui", *HEAVY)) == []
    if command[-1] == "summary":  # nor the drill models
        assert under(modules, ("warroom.core.model._drill", "pydantic", "yaml")) == []


def test_validate_imports_no_ui_store_or_otel():
    from warroom.core.library import bundled_drills_dir

    drill = sorted(bundled_drills_dir().glob("*.yaml"))[0]
    modules = imported_by("validate", str(drill))
    assert "warroom.core.model._drill" in modules  # the drill was validated
    assert under(modules, ("warroom.tui", "warroom.store", "rich", *HEAVY)) == []

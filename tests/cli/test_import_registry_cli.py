"""`warroom import` is made from the importers' registry (warroom.importers.kit.importers): one subcommand per
importer, with the options every import takes once and each importer's own; nothing in the CLI names a format, and
listing the commands imports no importer's reading code."""

from __future__ import annotations

import json
import subprocess
import sys

import click
from click.testing import CliRunner

from warroom.cli import main
from warroom.importers.kit import importers

SHARED = ["--out", "--redact", "--redact-names", "--force", "--verbose"]


def _command(name: str) -> click.Command:
    group = main.get_command(click.Context(main), "import")
    assert isinstance(group, click.Group)
    command = group.get_command(click.Context(group), name)
    assert command is not None, name
    return command


def test_every_importer_is_a_subcommand_with_the_shared_options_and_its_own() -> None:
    group = main.get_command(click.Context(main), "import")
    assert isinstance(group, click.Group)
    assert sorted(group.list_commands(click.Context(group))) == sorted(importers())
    for name, importer in importers().items():
        options = [o for p in _command(name).params if isinstance(p, click.Option) for o in p.opts if o != "-v"]
        assert options == [*SHARED, *(o.flag for o in importer.options)], name
        assert _command(name).help is not None and _command(name).help.startswith("Convert "), name


def test_an_importers_option_is_checked_by_the_importer() -> None:
    result = CliRunner().invoke(main, ["import", "otel", ".", "--out", "x", "--trace-id", "0000"])
    assert result.exit_code == 2 and "'0000' is all zeros, which OTLP uses for no trace id" in result.output
    result = CliRunner().invoke(main, ["import", "who-and-when", ".", "--out", "x", "--planner-price", "5"])
    assert result.exit_code == 2 and "'5' is not IN/OUT" in result.output


def test_listing_the_importers_imports_none_of_their_reading_code() -> None:
    probe = ("import json, sys\nfrom click.testing import CliRunner\nfrom warroom.cli import main\n"
             "r = CliRunner().invoke(main, ['import', 'otel', '--help'])\n"
             "print(json.dumps([r.exit_code, sorted(sys.modules)]))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    code, modules = json.loads(out.stdout.strip().splitlines()[-1])
    assert code == 0 and "warroom.importers.otel._importer" in modules
    heavy = [m for m in modules if m.startswith(("opentelemetry", "openinference", "pydantic", "yaml"))
             or m.endswith(("._classify", "._parse", "._runs", "._observations", "._spans", "._build"))]
    assert heavy == []

"""The domain core (and the headless CLI commands) never import Textual: checked in a fresh interpreter."""

from __future__ import annotations

import importlib.util
import json
import pkgutil
import subprocess
import sys

from locations import WHO_AND_WHEN

import warroom.core
import warroom.store

HEADLESS_CLI = [
    "warroom.cli.author._validate",
    "warroom.cli.author._schema",
    "warroom.cli.author._check",
    "warroom.cli.author._cost",
]


def test_core_and_headless_cli_do_not_import_textual():
    core = sorted(m.name for m in pkgutil.walk_packages(warroom.core.__path__, "warroom.core."))
    core += sorted(m.name for m in pkgutil.walk_packages(warroom.store.__path__, "warroom.store."))
    assert {"warroom.core.play._replay", "warroom.core.scoring._score", "warroom.core.author._check"} <= set(core)
    cli = [m for m in HEADLESS_CLI if importlib.util.find_spec(m) is not None]
    assert {"warroom.cli.author._check", "warroom.cli.author._cost"} <= set(cli)
    modules = core + cli
    code = (
        "import importlib, json, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(json.dumps(sorted(n for n in sys.modules if n == 'textual' or n.startswith('textual.'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [], f"textual imported by one of {modules}"


def test_headless_commands_run_without_importing_textual(tmp_path):
    """Heavy imports live in command bodies, so importing the modules proves little: run each headless command on
    real inputs (a bundled drill, a data directory with a stored session, a Who&When record) in a fresh interpreter
    and check that no ``textual`` module was loaded."""

    fixtures = WHO_AND_WHEN / "good" / "magentic-one" / "mini.json"
    data = tmp_path / "data"
    code = f"""
import json, sys
from pathlib import Path
from click.testing import CliRunner
from warroom.cli import main
from warroom.core.library._library import bundled_drills_dir
from warroom.core.load._loader import load_drill
from warroom.core.scoring._score import score
from warroom.store.journal import SessionRecorder

drill_path = bundled_drills_dir() / "duplicate-charge-refunds.yaml"
drill = load_drill(drill_path)
rec = SessionRecorder.start(Path({str(data)!r}), "ann", drill_path, drill)
rec.finish(score(drill, rec.actions))
runs = [
    ["validate", str(drill_path)],
    ["check", str(drill_path)],
    ["cost", str(drill_path)],
    ["schema"],
    ["new", "my-drill", "--out", {str(tmp_path / "new")!r}],
    ["scores", "--data-dir", {str(data)!r}],
    ["scores", "--data-dir", {str(data)!r}, "--format", "json"],
    ["scores", "--data-dir", {str(data)!r}, "--summary"],
    ["scores", "--data-dir", {str(data)!r}, "--rescore"],
    ["import", "who-and-when", {str(fixtures)!r}, "--out", {str(tmp_path / "imported")!r}],
]
codes = []
for args in runs:
    result = CliRunner().invoke(main, args)
    exc = result.exception
    codes.append([args[0], result.exit_code, repr(exc) if exc and not isinstance(exc, SystemExit) else None])
textual = sorted(n for n in sys.modules if n == "textual" or n.startswith("textual."))
print(json.dumps({{"codes": codes, "textual": textual}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert [name for name, _, _ in report["codes"]] == [
        "validate", "check", "cost", "schema", "new", "scores", "scores", "scores", "scores", "import"
    ]  # fmt: skip
    assert all(c == 0 and exc is None for _, c, exc in report["codes"]), report["codes"]
    assert (tmp_path / "new" / "my-drill.yaml").is_file() and list((tmp_path / "imported").glob("*.yaml"))
    assert report["textual"] == [], "a headless command imported textual"

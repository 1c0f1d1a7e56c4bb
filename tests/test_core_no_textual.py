"""The domain core (and the headless CLI commands) never import Textual: checked in a fresh interpreter."""

from __future__ import annotations

import importlib.util
import json
import pkgutil
import subprocess
import sys

import warroom.core

HEADLESS_CLI = ["warroom.cli.validate", "warroom.cli.schema", "warroom.cli.check", "warroom.cli.cost"]


def test_core_and_headless_cli_do_not_import_textual():
    core = sorted(m.name for m in pkgutil.walk_packages(warroom.core.__path__, "warroom.core."))
    assert {"warroom.core.replay", "warroom.core.scoring", "warroom.core.cost", "warroom.core.check"} <= set(core)
    cli = [m for m in HEADLESS_CLI if importlib.util.find_spec(m) is not None]
    assert {"warroom.cli.check", "warroom.cli.cost"} <= set(cli)
    modules = core + cli
    code = (
        "import importlib, json, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(json.dumps(sorted(n for n in sys.modules if n == 'textual' or n.startswith('textual.'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [], f"textual imported by one of {modules}"

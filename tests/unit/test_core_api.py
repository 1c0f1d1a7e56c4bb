"""The APIs of the sub-packages (each ``__init__`` and its ``__all__``), the exception tree rooted at WarroomError,
and the settings that
moved from the CLI into the core (issue 13: "Types and layers")."""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import warroom
import warroom.core
from warroom.errors import SettingsError, WarroomError

#: The sub-packages of warroom.core, each a folder whose __init__ is its API (docs/architecture.md).
CORE_PACKAGES = ["author", "files", "library", "load", "model", "play", "projection", "rules", "scoring", "stats",
                 "text", "variants"]


def _fresh(code: str) -> object:
    """Run ``code`` in a fresh interpreter; the JSON value it prints on its last line."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _api_packages() -> list[str]:
    """Every package of warroom whose API is a stub beside its __init__ (the names it loads on first use)."""
    root = Path(warroom.__file__).parent
    return sorted(
        ".".join(("warroom", *p.parent.relative_to(root).parts)) for p in root.rglob("__init__.pyi")
    )


def _stub_names(package: str) -> dict[str, str]:
    """name -> the private module (relative, ``._drill``) the stub of ``package`` imports it from."""
    stub = Path(importlib.import_module(package).__file__).with_suffix(".pyi")
    names = {}
    for node in ast.parse(stub.read_text("utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            assert node.level == 1 and node.module and node.module.startswith("_"), ast.unparse(node)
            names.update({a.name: node.module for a in node.names})
    return names


def test_the_core_is_folders_of_sub_packages():
    core = Path(warroom.core.__file__).parent
    folders = sorted(p.name for p in core.iterdir() if (p / "__init__.py").is_file())
    assert folders == CORE_PACKAGES
    assert {f"warroom.core.{name}" for name in CORE_PACKAGES} <= set(_api_packages())


@pytest.mark.parametrize("package", _api_packages())
def test_each_api_lists_what_it_exports_and_each_name_is_its_modules_object(package: str):
    """``__all__`` is exactly the stub's names, sorted; each is the object its private module defines (not a copy
    from another module: one place for each name)."""
    api = importlib.import_module(package)
    names = _stub_names(package)
    assert sorted(api.__all__) == sorted(names) and len(set(api.__all__)) == len(api.__all__), package
    for name, module in names.items():
        defining = importlib.import_module(f"{package}.{module}")
        value = getattr(api, name)
        assert value is getattr(defining, name), f"{package}.{name}"
        owner = getattr(value, "__module__", None)
        if owner is not None and owner.startswith("warroom.") and not isinstance(value, type(re)):
            assert owner == f"{package}.{module}" or not callable(value), f"{package}.{name} is defined in {owner}"
    assert set(names) <= set(dir(api))
    with pytest.raises(AttributeError):
        _ = api.no_such_name


def test_importing_an_api_stays_light():
    """``import warroom.core.model`` loads none of its modules (so no pydantic, no PyYAML); the first use of a name
    loads only the module that defines it, and what that module needs."""
    loaded = _fresh(
        "import json, sys, warroom.core.model\n"
        "def mods(): return sorted(n for n in sys.modules if n.startswith(('warroom.core.', 'pydantic', 'yaml')))\n"
        "before = mods()\n"
        "warroom.core.model.Outcome\n"
        "print(json.dumps([before, mods()]))\n"
    )
    assert loaded == [["warroom.core.model"], ["warroom.core.model", "warroom.core.model._outcome"]]


def test_cost_does_not_import_replay():
    """The cost <-> replay cycle is broken: cost math needs no replay (replay uses cost)."""
    code = (
        "import json, sys\n"
        "from warroom.core.author import seed_example_path\n"
        "from warroom.core.load import load_drill\n"
        "from warroom.core.play import trace_cost\n"
        "trace_cost(load_drill(seed_example_path()))\n"
        "print(json.dumps('warroom.core.play._replay' in sys.modules))\n"
    )
    assert _fresh(code) is False  # not even when pricing a false escalation (replan_usage lives in cost)


def test_the_apis_play_a_drill(tmp_path):
    """The names work together: load a bundled drill, play it without escalating, score it."""
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.model import Drill, Outcome
    from warroom.core.play import Replay, TraceCost, trace_cost
    from warroom.core.scoring import Scorecard, score

    drill = next(d for d in map(load_drill, sorted(bundled_drills_dir().glob("*.yaml"))) if d.answer_key)
    assert isinstance(drill, Drill)
    replay = Replay(drill)
    released = replay.run_to_end()
    assert replay.ended and [e.id for e in released] == [e.id for e in drill.trace]
    card = score(drill, replay.actions)
    assert isinstance(card, Scorecard)
    assert card.outcome is Outcome.MISSED  # nobody escalated
    assert isinstance(trace_cost(drill), TraceCost)


@pytest.mark.parametrize(
    ("package", "name", "builtin"),
    [
        ("load", "DrillLoadError", None), ("play", "ReplayError", ValueError), ("scoring", "ScoringError", ValueError),
    ],
)
def test_core_errors_share_the_root(package, name, builtin):
    cls = getattr(importlib.import_module(f"warroom.core.{package}"), name)
    assert issubclass(cls, WarroomError)
    if builtin is not None:  # existing `except ValueError` sites still catch it
        assert issubclass(cls, builtin)
    assert issubclass(SettingsError, ValueError)


@pytest.mark.parametrize(
    ("module", "name", "base"),
    [
        ("errors", "StoreError", None), ("errors", "DataDirError", "StoreError"),
        ("errors", "DamagedStore", "StoreError"), ("errors", "InvalidSession", "StoreError"),
        ("errors", "DuplicateSession", "StoreError"), ("errors", "StoreVersionError", "StoreError"),
        ("errors", "SessionNotFound", "StoreError"), ("errors", "CorruptSession", "StoreError"),
        ("journal", "JournalError", None), ("journal", "NotRegularFile", "JournalError"),
        ("journal", "SessionError", None), ("journal", "JournalWriteError", "SessionError"),
        ("review", "DrillUnavailable", None), ("journal", "Unrecoverable", None),
    ],
)
def test_store_errors_share_the_root(module, name, base):
    import importlib

    mod = importlib.import_module(f"warroom.store.{module}")
    cls = getattr(mod, name)
    assert issubclass(cls, WarroomError), name
    if base is not None:  # existing `except StoreError` (and the like) sites still catch it
        assert issubclass(cls, getattr(mod, base)), name


def test_every_store_error_class_is_in_the_tree():
    """No error class of the store is left outside the tree (a new one must derive from WarroomError)."""
    import importlib
    import inspect
    import pkgutil

    import warroom.store

    errors = []
    for info in pkgutil.walk_packages(warroom.store.__path__, "warroom.store."):
        mod = importlib.import_module(info.name)
        for name, cls in inspect.getmembers(mod, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == mod.__name__:
                errors.append(name)
                assert issubclass(cls, WarroomError), f"{mod.__name__}.{name}"
    assert {"StoreError", "JournalError", "SessionError", "DrillUnavailable"} <= set(errors)


def test_store_errors_keep_what_the_front_ends_print():
    from warroom.store.errors import SessionNotFound
    from warroom.store.journal import JournalWriteError

    err = SessionNotFound("session id prefix 'a' matches several sessions: a1, a2", ["a1", "a2"])
    assert str(err) == "session id prefix 'a' matches several sessions: a1, a2" and err.matches == ["a1", "a2"]
    assert err.exit_code == 1
    assert JournalWriteError("disk full", "j.jsonl").exit_code == 1


def test_record_error_shares_the_root():
    from warroom.importers.who_and_when import RecordError

    assert issubclass(RecordError, WarroomError) and issubclass(RecordError, ValueError)
    assert RecordError("x").exit_code == 1


def test_exit_codes():
    assert WarroomError("x").exit_code == 1
    assert SettingsError("x").exit_code == 2
    assert str(WarroomError("what the user reads")) == "what the user reads"


def test_settings_in_the_core_reject_a_control_character(monkeypatch, tmp_path):
    from warroom.core.settings import Settings, resolve_trainee

    monkeypatch.setenv("WARROOM_TRAINEE", "ann\x1b]52;c;x\x07")
    with pytest.raises(SettingsError, match=r"from \$WARROOM_TRAINEE contains control characters \(\\x1b, \\x07\)"):
        resolve_trainee()
    monkeypatch.setenv("WARROOM_TRAINEE", "  ann  ")
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path))
    settings = Settings.resolve()
    assert (settings.trainee, settings.data_dir, settings.drill_dirs) == ("ann", tmp_path, ())
    assert settings.override(trainee="bob", drill_dirs=(tmp_path,)).trainee == "bob"
    with pytest.raises(SettingsError):
        settings.override(trainee="b\nob")


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("x\u200bx", "invisible characters (U+200B ZERO WIDTH SPACE)"),
        ("ann\u00a0lee", "invisible characters (U+00A0 NO-BREAK SPACE)"),
        ("a" * 81, "is 81 characters long; at most 80 are allowed"),
    ],
)
def test_trainee_names_people_cannot_read_or_tell_apart_are_refused(name: str, fragment: str):
    from warroom.core.settings import resolve_trainee
    from warroom.errors import SettingsError

    with pytest.raises(SettingsError, match=re.escape(fragment)):
        resolve_trainee(name)
    assert resolve_trainee("Zoë O'Neil") == "Zoë O'Neil"
    assert resolve_trainee("a" * 80) == "a" * 80

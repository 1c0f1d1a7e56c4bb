"""The public core API (``warroom.core.__all__``), the exception tree rooted at WarroomError, and the settings that
moved from the CLI into the core (issue 13: "Types and layers")."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import warroom.core
from warroom.core.errors import SettingsError, WarroomError

PUBLIC = [
    "Action", "ActionKind", "AllClear", "AnswerKey", "Briefing", "CheckReport", "Damage", "DamageEntry",
    "Distractor", "Drill", "DrillLoadError", "EscalationVerdict", "ExecutorMessage", "ExecutorReport", "Fault",
    "FaultKind", "Issue", "LogEvent", "ModelSpec", "Models", "Outcome", "PlanStep", "PlannerCall", "Problem",
    "Replay", "ReplayError", "ReportedStatus", "Role", "Scorecard", "ScoringError", "Settings", "SettingsError",
    "StepState", "ToolCall", "ToolResult", "TraceCost", "TraceEvent", "Usage", "WarroomError", "load_drill",
    "load_drill_text", "load_drill_with_warnings", "run_checks", "score", "trace_cost", "validate_drill",
]


def _fresh(code: str) -> object:
    """Run ``code`` in a fresh interpreter; the JSON value it prints on its last line."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_all_is_pinned():
    """Adding or removing a public name is a decision: change this list with it."""
    assert warroom.core.__all__ == PUBLIC


def test_every_public_name_is_the_object_its_submodule_defines():
    import importlib

    for name in PUBLIC:
        module = importlib.import_module(f"warroom.core.{warroom.core._WHERE[name]}")
        assert getattr(warroom.core, name) is getattr(module, name), name
    assert set(warroom.core._WHERE) == set(PUBLIC)
    assert set(PUBLIC) <= set(dir(warroom.core))


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = warroom.core.nope  # type: ignore[attr-defined]


def test_importing_the_core_package_stays_light():
    """``import warroom.core`` loads no submodule (so no pydantic, no PyYAML); the first use of a name loads only
    what that name needs."""
    loaded = _fresh(
        "import json, sys, warroom.core\n"
        "before = sorted(n for n in sys.modules if n.startswith(('warroom.core.', 'pydantic', 'yaml')))\n"
        "warroom.core.WarroomError\n"
        "after = sorted(n for n in sys.modules if n.startswith(('warroom.core.', 'pydantic', 'yaml')))\n"
        "print(json.dumps([before, after]))\n"
    )
    assert loaded == [[], ["warroom.core.errors"]]


def test_cost_does_not_import_replay():
    """The cost <-> replay cycle is broken: cost math needs no replay (replay uses cost)."""
    code = (
        "import json, sys\n"
        "from warroom.core.cost import seed_example_path, trace_cost\n"
        "from warroom.core.loader import load_drill\n"
        "trace_cost(load_drill(seed_example_path()))\n"
        "print(json.dumps('warroom.core.replay' in sys.modules))\n"
    )
    assert _fresh(code) is False  # not even when pricing a false escalation (replan_usage lives in cost)


def test_public_api_plays_a_drill(tmp_path):
    """The names work together: load a bundled drill, play it without escalating, score it."""
    from warroom.core.library import bundled_drills_dir

    drill = next(
        d for d in map(warroom.core.load_drill, sorted(bundled_drills_dir().glob("*.yaml"))) if d.answer_key
    )
    assert isinstance(drill, warroom.core.Drill)
    replay = warroom.core.Replay(drill)
    released = replay.run_to_end()
    assert replay.ended and [e.id for e in released] == [e.id for e in drill.trace]
    card = warroom.core.score(drill, replay.actions)
    assert isinstance(card, warroom.core.Scorecard)
    assert card.outcome is warroom.core.Outcome.MISSED  # nobody escalated
    assert isinstance(warroom.core.trace_cost(drill), warroom.core.TraceCost)


@pytest.mark.parametrize(
    ("name", "builtin"),
    [
        ("DrillLoadError", None), ("ReplayError", ValueError), ("ScoringError", ValueError),
        ("SettingsError", ValueError),
    ],
)
def test_core_errors_share_the_root(name, builtin):
    cls = getattr(warroom.core, name)
    assert issubclass(cls, WarroomError)
    if builtin is not None:  # existing `except ValueError` sites still catch it
        assert issubclass(cls, builtin)


@pytest.mark.parametrize(
    ("module", "name", "base"),
    [
        ("results", "StoreError", None), ("results", "DataDirError", "StoreError"),
        ("results", "DamagedStore", "StoreError"), ("results", "InvalidSession", "StoreError"),
        ("results", "DuplicateSession", "StoreError"), ("results", "StoreVersionError", "StoreError"),
        ("results", "SessionNotFound", "StoreError"), ("results", "CorruptSession", "StoreError"),
        ("journal", "JournalError", None), ("journal", "NotRegularFile", "JournalError"),
        ("sessions", "SessionError", None), ("sessions", "JournalWriteError", "SessionError"),
        ("sessions", "DrillUnavailable", None), ("recovery", "Unrecoverable", None),
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
    for info in pkgutil.iter_modules(warroom.store.__path__):
        mod = importlib.import_module(f"warroom.store.{info.name}")
        for name, cls in inspect.getmembers(mod, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == mod.__name__:
                errors.append(name)
                assert issubclass(cls, WarroomError), f"{mod.__name__}.{name}"
    assert {"StoreError", "JournalError", "SessionError", "DrillUnavailable"} <= set(errors)


def test_store_errors_keep_what_the_front_ends_print():
    from warroom.store.results import SessionNotFound
    from warroom.store.sessions import JournalWriteError

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


def test_cli_reexports_the_core_settings():
    from warroom.cli import common
    from warroom.core import settings

    assert common.Settings is settings.Settings
    assert common.resolve_trainee is settings.resolve_trainee
    assert (common.TRAINEE_ENV, common.DATA_DIR_ENV) == ("WARROOM_TRAINEE", "WARROOM_DATA_DIR")


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("x\u200bx", "invisible characters (U+200B ZERO WIDTH SPACE)"),
        ("ann\u00a0lee", "invisible characters (U+00A0 NO-BREAK SPACE)"),
        ("a" * 81, "is 81 characters long; at most 80 are allowed"),
    ],
)
def test_trainee_names_people_cannot_read_or_tell_apart_are_refused(name: str, fragment: str):
    from warroom.core.settings import SettingsError, resolve_trainee

    with pytest.raises(SettingsError, match=re.escape(fragment)):
        resolve_trainee(name)
    assert resolve_trainee("Zoë O'Neil") == "Zoë O'Neil"
    assert resolve_trainee("a" * 80) == "a" * 80

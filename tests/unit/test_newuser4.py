"""Breaks found by following the README and docs/ as a new trainee, author and facilitator would (campaign nu2)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from warroom.cli import main

SET_WITH_ID = "id: week-1\ntitle: Week 1\ndrills:\n  - duplicate-charge-refunds\n"


def test_a_drill_set_written_with_id_for_set_is_named_a_set_missing_its_set_key(tmp_path: Path):
    """A facilitator's first set, `id: week-1` for `set: week-1`: `warroom validate` listed seven missing drill keys
    and `unknown key `drills` in the drill`, and `warroom --set` said it was a drill to play with `warroom run`.
    Both now name the one fix."""
    path = tmp_path / "week-1.set.yaml"
    path.write_text(SET_WITH_ID, encoding="utf-8")
    env = {"WARROOM_DATA_DIR": str(tmp_path / "data"), "WARROOM_CACHE_DIR": str(tmp_path / "cache")}
    validated = CliRunner().invoke(main, ["validate", str(path)], env=env)
    assert validated.exit_code == 1
    assert (f"{path}:1:1: this file looks like a drill set (a `drills` list) without its `set` key: a drill set "
            "names itself with `set: ID`, not `id: ID` (docs/drill-sets.md)") in validated.output
    assert "missing the required key" not in validated.output
    listed = CliRunner().invoke(main, ["scores", "--set", str(path)], env=env)
    assert listed.exit_code == 1
    assert (f"{path}:1:1: this file looks like a drill set (a `drills` list) without its `set` key: a drill set "
            "names itself with `set: ID`, not `id: ID` (docs/drill-sets.md)") in listed.output
    assert "warroom run" not in listed.output


def _imported_executor_model(tmp_path: Path, history: list[object]) -> str:
    import json

    import yaml

    tmp_path.mkdir()
    path = tmp_path / "history.json"
    path.write_text(json.dumps(history), encoding="utf-8")
    done = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "import", "chat", str(path), "--out",
                                     str(tmp_path / "out")])
    assert done.exit_code == 0, done.output
    drill = yaml.safe_load((tmp_path / "out" / "chat-history.yaml").read_text(encoding="utf-8"))
    return str(drill["models"]["executor"]["name"])


def test_a_langchain_history_names_the_model_its_ai_messages_record(tmp_path: Path):
    """A LangChain chat history (`messages_to_dict`, as `FileChatMessageHistory` stores it, and `dumpd`) whose AI
    messages record their model in `response_metadata` (ChatOpenAI's `model_name`, ChatAnthropic's `model`) was
    imported with the executor named `unrecorded model`, while a Pydantic AI history's model was read."""
    as_dict = [
        {"type": "human", "data": {"content": "Refund ticket 4417.", "type": "human", "response_metadata": {}}},
        {"type": "ai", "data": {"content": "Done.", "type": "ai", "tool_calls": [],
                                "response_metadata": {"model_name": "gpt-4o-mini-2024-07-18"}}},
    ]
    assert _imported_executor_model(tmp_path / "a", as_dict) == "gpt-4o-mini-2024-07-18"
    dumped = [
        {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "HumanMessage"],
         "kwargs": {"content": "Refund ticket 4417.", "type": "human"}},
        {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"],
         "kwargs": {"content": "Done.", "response_metadata": {"model": "claude-haiku-4-5", "stop_reason": "end_turn"},
                    "type": "ai", "tool_calls": [], "invalid_tool_calls": []}},
    ]
    assert _imported_executor_model(tmp_path / "b", dumped) == "claude-haiku-4-5"

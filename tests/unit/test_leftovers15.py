"""The leftovers of campaign 18 (issue 30): what it left unfixed, each with its regression test."""

from __future__ import annotations

from pathlib import Path

from unit.test_hostile_campaign18_results import _scored_by_a_newer_warroom


def test_review_of_a_session_scored_by_newer_rules_says_this_warroom_cannot_check_it(tmp_path, monkeypatch):
    """`warroom review` of a session a newer warroom scored by rules 7 said "The stored results cannot be verified
    what its action log scores" (a sentence that does not parse, as if its results were in doubt): it says the
    session was scored by newer rules that this warroom cannot check, and what to do."""
    from warroom.store.results import ResultsStore
    from warroom.store.review import load_review

    session_id = _scored_by_a_newer_warroom(tmp_path, monkeypatch)
    with ResultsStore(tmp_path) as store:
        (session,) = [s for s in store.iter_sessions() if s.session_id == session_id]
        (line,) = load_review(session, store=store).verification_lines()
    assert line.startswith("This session was scored by the scoring rules 7, which a newer warroom applies"), line
    assert "this warroom cannot check its results" in line and "check it with that warroom or a later one" in line
    assert "Recomputed now" not in line and "disagree" not in line


def test_an_autogen_message_log_reads_each_model_calls_recorded_usage_not_an_estimate() -> None:
    """`import chat` of an AutoGen message log estimated each turn's tokens from its text, though each message of a
    model call records its ``models_usage`` (``prompt_tokens``, ``completion_tokens``): they are read."""
    from unit.test_hostile_campaign18_inputs import _chat

    data = _chat("chat-autogen-messages.json")
    usages = [e["usage"] for e in data["trace"] if "usage" in e]
    assert usages == [{"input_tokens": 420, "output_tokens": 60}] * 4, usages  # no "estimated": true


def test_an_autogen_runs_traces_joined_by_its_runtimes_span_links_import_as_one_drill() -> None:
    """AutoGen's agent runtime opens a trace for each message it publishes, linked (an OTLP span link) to the span
    that created the message in the trace before: the run imported as one drill per invoke_agent trace (three
    fragments). The traces its runtime's links join are one run, one drill, its agents' work in order."""
    from unit.test_hostile_campaign18_inputs import FIXTURES, convert, recognise

    path = FIXTURES / "frameworks" / "autogen-swarm.jsonl"
    importer = recognise(path)
    assert importer is not None
    drills = [data for data, _ in convert(importer, path, None)]
    assert len(drills) == 1, [d["source"] for d in drills]
    tools = [e["tool"] for e in drills[0]["trace"] if e["kind"] == "tool_call"]
    assert tools == ["transfer_to_executor", "list_charges", "get_order", "crm_lookup", "close_ticket"]
    assert {a["name"] for a in drills[0]["agents"]} >= {"planner", "executor"}
    assert "The run's 24 traces, which AutoGen's runtime joins by span links" in drills[0]["source"]


def test_span_links_of_other_producers_never_join_traces() -> None:
    """OTLP span links are general (a batch job links the requests it serves): only the links AutoGen's runtime
    writes (an ``autogen`` messaging span linking to one) join traces into one run."""
    from warroom.importers.spans import Span, join_linked_runs

    def span(trace: str, sid: str, name: str, links: tuple[tuple[str, str], ...] = (), **attrs: str) -> Span:
        return Span(trace, sid, "", name, 1, 2, dict(attrs), links=links)

    traces = {"t1": [span("t1", "a", "autogen create x", **{"messaging.operation": "create"})],
              "t2": [span("t2", "b", "autogen publish x", (("t1", "a"),), **{"messaging.operation": "publish"})],
              "t3": [span("t3", "c", "batch", (("t1", "a"),))],  # another producer's link: not followed
              "t4": [span("t4", "d", "autogen publish y", (("t9", "z"),), **{"messaging.operation": "publish"})]}
    joined = join_linked_runs(traces)
    assert {k: [s.span_id for s in v] for k, v in joined.items()} == {"t1": ["a", "b"], "t3": ["c"], "t4": ["d"]}


def test_trace_id_of_one_of_an_autogen_runs_traces_imports_the_run() -> None:
    """``--trace-id`` naming one of the traces of the run (the executor's, as a fragment was imported before) picks
    the run they are read as, not "no trace … in this file"."""
    from unit.test_hostile_campaign18_inputs import FIXTURES, convert, recognise
    from warroom.importers.kit import TraceOptions

    path = FIXTURES / "frameworks" / "autogen-swarm.jsonl"
    importer = recognise(path)
    assert importer is not None
    options = TraceOptions(trace_id="1e55dfc3b62fd5dc0b6683a8d7dc9da1")
    drills = [data for data, _ in convert(importer, path, options)]
    assert [len([e for e in d["trace"] if e["kind"] == "tool_call"]) for d in drills] == [5]


def test_a_session_scored_by_newer_rules_is_flagged_so_by_its_verdict_not_by_its_text(tmp_path, monkeypatch):
    """`warroom review` told a session scored by newer rules from the others by comparing its verdict's problem
    with the sentence it expected: the verdict says so itself (``newer_rules``), and a disagreement whose text is
    that sentence is not one."""
    from dataclasses import replace

    from warroom.store.results import ResultsStore
    from warroom.store.review import Verdict, default_drill_resolver, load_review
    from warroom.store.review._verify import session_verdict

    session_id = _scored_by_a_newer_warroom(tmp_path, monkeypatch)
    with ResultsStore(tmp_path) as store:
        (session,) = [s for s in store.iter_sessions() if s.session_id == session_id]
        verdict, _ = session_verdict(store, session, default_drill_resolver(()))
        assert (verdict.verdict, verdict.newer_rules) == (Verdict.UNVERIFIABLE, True)
        review = load_review(session, store=store)
    told = replace(review, verdict=replace(verdict, verdict=Verdict.DISAGREES, newer_rules=False))
    (line,) = told.verification_lines()
    assert line.startswith("The stored results disagree with what its action log scores on its drill: scored by "), line


def test_an_autogen_model_calls_zero_token_usage_is_none_recorded(tmp_path: Path) -> None:
    """AutoGen's `models_usage` of 0 and 0 tokens (a model client that counts nothing) was read as a recorded
    usage of nothing, where every other shape (`token_pair`) reads two zeros as none recorded: now one rule, and
    such a turn's tokens are estimated, as the drill says."""
    import json

    from unit.test_hostile_campaign18_inputs import FIXTURES, convert, recognise

    doc = json.loads((FIXTURES / "thirdparty" / "chat-autogen-messages.json").read_text(encoding="utf-8"))
    items = doc if isinstance(doc, list) else doc["messages"]
    for item in items:
        if isinstance(item.get("models_usage"), dict):
            item["models_usage"] = {"prompt_tokens": 0, "completion_tokens": 0}
    path = tmp_path / "chat-autogen-messages.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    importer = recognise(path)
    assert importer is not None and importer.name == "chat"
    [data] = [data for data, _ in convert(importer, path, None)]
    usages = [e["usage"] for e in data["trace"] if "usage" in e]
    assert usages and all(u.get("estimated") is True for u in usages), usages


def test_a_langchain_history_typed_by_class_name_imports_as_its_messages(tmp_path: Path) -> None:
    """`import chat` knew a LangChain message dict by a table of its own (`human`, `ai` ...) beside the exports'
    reader's (which knows the class names too, `HumanMessage`, `AIMessage`): one table now, so a history typed by
    class name reads as the messages the reader makes of it."""
    import json

    from trace_import_support import converter

    from warroom.importers import chat

    path = tmp_path / "history.json"
    path.write_text(json.dumps([
        {"type": "HumanMessage", "content": "Refund order 42."},
        {"type": "AIMessage", "content": "Refunded order 42."}]), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    said = [(e["kind"], e.get("content")) for e in data["trace"] if e["kind"] in ("human_message", "executor_report",
                                                                                  "executor_message", "planner_call")]
    assert ("human_message", "Refund order 42.") in said and any(c == "Refunded order 42." for _, c in said), said

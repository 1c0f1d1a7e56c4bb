"""The fast load path (yaml-rs, :mod:`warroom.core.load._fast.load`) and the position-tracking path (PyYAML nodes) give
the same Drill for every file the fast path takes, and the fast path declines every file with a problem or a
warning, so that its messages keep their ``path:line:col``. A differential test over every bundled, test,
malformed and warnings file, the skeletons, generated large drills, randomised scalars and randomised edits."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from locations import REPO, TESTS
from malformed_cases import BASE

import warroom.core.load._fast.load as fastload
import warroom.core.load._fast.text as fasttext
from warroom.core.author import skeleton_text
from warroom.core.load import DrillLoadError
from warroom.core.load._loader import load_drill_text_with_warnings
from warroom.core.model import ToolCall

ROOT = REPO
ALL_FILES = sorted(
    [*ROOT.glob("drills/*.yaml"), *TESTS.rglob("*.yaml"), *TESTS.rglob("*.yml")], key=lambda p: str(p)
)
FAILING = {"malformed", "warnings"}


def _bench_drill_text(n_events: int) -> str:
    spec = importlib.util.spec_from_file_location("bench_load", ROOT / "benchmarks" / "bench_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.drill_text(n_events)


def slow_path(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, list[str]]:
    """``(drill or None, problems and warnings as text)`` from the position-tracking path alone."""
    with monkeypatch.context() as m:
        m.setattr(fastload, "fast_drill", lambda _text: None)
        try:
            drill, warnings = load_drill_text_with_warnings(text, "drill.yaml")
        except DrillLoadError as e:
            return None, [str(p) for p in (*e.problems, *e.warnings)]
    return drill, [str(w) for w in warnings]


def same(text: str, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Assert both paths agree on ``text``; True when the fast path took it."""
    fast = fastload.fast_drill(text)
    slow, messages = slow_path(text, monkeypatch)
    if fast is None:
        both, both_messages = slow_path(text, monkeypatch)
        assert (both, both_messages) == (slow, messages)
        return False
    assert slow is not None, f"the fast path loaded a file the slow path refuses: {messages}"
    assert messages == [], "the fast path loaded a file with warnings"
    assert fast.model_dump() == slow.model_dump()
    return True


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_loads_alike_on_both_paths(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        pytest.skip("not UTF-8: refused before either path reads it")
    took = same(text, monkeypatch)
    if path.parent.name in FAILING:
        assert not took, "a file with a problem or a warning must take the position-tracking path"


def test_most_bundled_drills_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = [same(p.read_text(encoding="utf-8"), monkeypatch) for p in ROOT.glob("drills/*.yaml")]
    assert sum(taken) >= len(taken) // 3  # the others have a comment, a `0.40` in tool data or the like


@pytest.mark.parametrize("drill_id", ["my-drill", "a", "x_1.2"])
def test_skeletons_load_alike(drill_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert same(skeleton_text(drill_id), monkeypatch)  # its comments follow numbers, ids and quoted text


@pytest.mark.parametrize("events", [200, 1_000])
def test_generated_large_drills_take_the_fast_path(events: int, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _bench_drill_text(events)
    assert same(text, monkeypatch)
    assert same(text.replace("\n", "\r\n"), monkeypatch)


def test_fast_path_events_share_equal_fields_sets_without_changing_them(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _bench_drill_text(200)
    fast = fastload.fast_drill(text)
    slow, _ = slow_path(text, monkeypatch)
    assert fast is not None and slow is not None
    for a, b in zip(fast.trace, slow.trace, strict=True):  # what each event's input held, as pydantic records it
        assert a.model_fields_set == b.model_fields_set
        if getattr(a, "usage", None) is not None:
            assert a.usage.model_fields_set == b.usage.model_fields_set
    calls = [e for e in fast.trace if isinstance(e, ToolCall)]
    assert len(calls) > 1 and len({id(e.model_fields_set) for e in calls}) == 1  # one set object, shared
    moved = calls[0].model_copy(update={"t": 5.0})  # a copy gets a set of its own: the others stay as they were
    moved.model_fields_set.add("not-a-field")
    assert "not-a-field" not in calls[1].model_fields_set


SCALARS = [
    "1.10", "1.1", "1.0", "1.", ".5", "-.5", "+1", "012", "0", "-0", "00", "0x1F", "0o17", "0b101", "1_000", "1e3",
    "1e+3", "1E3", "1e400", ".inf", "-.Inf", ".nan", "NaN", "12:30", "1:30:00", "190:20:30", "yes", "no", "No", "on",
    "OFF", "y", "n", "true", "True", "TRUE", "false", "null", "Null", "~", "", "2026-11-20", "2026-11-20T10:00:00Z",
    "2026-1-2", "<<", "=", "4471.", "95.60", "3.0e-5", "0.00003", "123456789012345678901234567890", "-12", "7",
    "v1.2", "1.2.3", "abc", "e12", "tool_call", "1,000", "x #y", "x#y", "a: b", "- a",
]
QUOTES = ["{}", '"{}"', "'{}'"]


def _template(title: str, number: str, data: str) -> str:
    return (
        BASE.replace("title: ", f"title: {title}\nx_title: ", 1)
        .replace("x_title: ", "# ", 1)
        .replace("    arguments: {", f"    arguments: {{probe: {data}, ", 1)
        .replace("difficulty: 1", f"difficulty: {number}", 1)
    )


def test_template_places_each_probe() -> None:
    text = _template("PROBE_T", "PROBE_N", "PROBE_D")
    assert all(probe in text for probe in ("PROBE_T", "PROBE_N", "PROBE_D"))


@pytest.mark.parametrize("seed", range(6))
def test_random_scalars_mean_the_same_on_both_paths(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scalars quoted and unquoted, in a text field, a number field and tool data: same Drill, or the fast path
    declines (and then, by construction, the slow path's result stands)."""
    rng = random.Random(seed)
    taken = 0
    for _ in range(40):
        title, number, data = (rng.choice(QUOTES).format(rng.choice(SCALARS)) for _ in range(3))
        number = number if rng.random() < 0.5 else rng.choice(["1", "3", "5"])
        taken += same(_template(title, number, data), monkeypatch)
    assert taken > 0


@pytest.mark.parametrize("source", ["clinic-rebooking", "skeleton"])
def test_random_edits_never_let_a_bad_file_through(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Random edits of a valid drill (characters dropped, doubled or inserted): whenever the fast path takes the
    edited file, the slow path loads the same Drill with no warning. The skeleton has comments after many values."""
    rng = random.Random(13)
    if source == "skeleton":
        text = skeleton_text("my-drill")
    else:
        text = (ROOT / "drills" / f"{source}.yaml").read_text(encoding="utf-8")
    inserts = [": ", " #", "- ", "  ", "\n", ",", "[", "}", '"', "'", "0", ".", "-", "x: 1\n", "\n  ", " # a: b"]
    for _ in range(250):
        edited = text
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(edited))
            how = rng.randrange(3)
            if how == 0:
                edited = edited[:at] + edited[at + 1 :]
            elif how == 1:
                edited = edited[:at] + edited[at] + edited[at:]
            else:
                edited = edited[:at] + rng.choice(inserts) + edited[at:]
        same(edited, monkeypatch)


#: (what replaces `title: Minimal drill` in BASE, whether the fast path may take the file)
COMMENTS = [
    ('title: "Minimal drill"  # quoted: nothing is cut', True),
    ("title: Minimal drill  # cuts free text: a warning", False),
    ("title: Minimal drill # with: a colon", False),
    ("title: >-  # a header comment\n  Minimal drill", True),
    ('title: Minimal\n  - "drill"  # the line continues the unquoted title', False),
    ("title: Minimal\n  drill: [x]  # not a flow list but text", False),
    ('title: "Minimal #1 drill"', True),
    ("title: |\n  Minimal drill, see #ops  # still text\n", True),
]


@pytest.mark.parametrize(("title", "fast"), COMMENTS)
def test_comments_after_values(title: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    text = BASE.replace("title: Minimal drill", title, 1)
    assert same(text, monkeypatch) is fast


def test_comment_after_a_number_and_an_id_is_harmless(monkeypatch: pytest.MonkeyPatch) -> None:
    text = BASE.replace("difficulty: 1", "difficulty: 1  # of 5: easy", 1).replace(
        "    step: s1\n    kind: tool_call", "    step: s1  # the step: an id\n    kind: tool_call", 1
    )
    assert "# the step" in text
    assert same(text, monkeypatch)


def test_comment_cutting_tool_data_is_left_to_the_position_tracking_path(monkeypatch: pytest.MonkeyPatch) -> None:
    text = BASE.replace("    arguments: {customer: 42}", "    arguments:\n      customer: acme # a note", 1)
    assert not same(text, monkeypatch)
    _, messages = slow_path(text, monkeypatch)
    assert any("the text stops before `# a note`" in m for m in messages)


def test_a_file_over_the_old_8_mib_limit_loads(tmp_path: Path) -> None:
    """The limit is 64 MiB (issue 15 item 14: a 50,000-event drill in block style is 10-12 MB)."""
    from warroom.core.load import load_drill_with_warnings
    from warroom.core.load.limits import MAX_FILE_BYTES

    assert MAX_FILE_BYTES == 64 * 1024 * 1024
    path = tmp_path / "big.yaml"
    path.write_text(BASE + "# " + "x" * (9 * 1024 * 1024) + "\n", encoding="utf-8")
    drill, warnings = load_drill_with_warnings(path)
    assert drill.id == "mini" and warnings == []


def test_the_quick_multi_line_flow_look_gives_the_full_looks_verdict() -> None:
    # Lines reduced to brackets and quotes at once, and only lines with both looked at closely: the same verdict as
    # the line-by-line regular expressions, which decide whether a `[...]` or `{...}` may span lines.
    rnd = random.Random(13)
    pieces = ["[", "]", "{", "}", '"', "'", " ", "a", ":", ",", "\n", "\r\n", "\\", "é", "'x'", '"[1]"', "{a: 1}"]
    for _ in range(20_000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 20)))
        raw = text.encode("utf-8", "surrogatepass")
        assert fasttext.multiline_flow_quick(text, raw) == fasttext.multiline_flow(text), repr(text)
    # lines with quotes and brackets are judged by their skeleton first (backslashes kept): quotes and backslashes
    # inside and outside closed pairs, nested pairs, an apostrophe in a word
    rnd = random.Random(29)
    pieces = ["[", "]", "{", "}", '"', "'", "\\", " ", "a", "\n", "{'x'}", '["y"]', "[{'z'}]", '"\\"', "don't", "é"]
    for _ in range(20_000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 12)))
        raw = text.encode("utf-8", "surrogatepass")
        assert fasttext.multiline_flow_quick(text, raw) == fasttext.multiline_flow(text), repr(text)
    flow = "a: {b: 'x', c: [1, 2]}\nd: [e,\n  f]\n"
    assert fasttext.multiline_flow_quick(flow, flow.encode()) is True
    assert fasttext.multiline_flow_quick(flow[:23], flow[:23].encode()) is False


def test_the_plain_tree_look_refuses_keys_that_are_not_text_deep_nesting_and_nulls_in_flow_files() -> None:
    plain = {"a": [{"b": 1, "c": [1, {"d": "x"}]}], "e": None}
    assert fastload._plain_tree(plain, 64, has_flow=False)
    assert not fastload._plain_tree(plain, 64, has_flow=True)  # `e` holds a null: an entry without a colon?
    assert not fastload._plain_tree({"a": [{"b": {1: "x"}}]}, 64, has_flow=False)
    assert not fastload._plain_tree({"a": [[{"b": [None]}], {True: 1}]}, 64, has_flow=False)
    deep: dict[str, object] = {"x": 1}
    for _ in range(5):
        deep = {"k": [deep]}
    assert fastload._plain_tree(deep, 11, has_flow=False) and not fastload._plain_tree(deep, 10, has_flow=False)
    assert fastload._plain_tree({"a": [None, [None]]}, 64, has_flow=True)  # nulls in lists are no entries

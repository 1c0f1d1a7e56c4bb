"""The loader's limits and robustness: missing files, folders, the size limit, odd documents, deep nesting,
alias expansion, mutated drills that may only ever raise DrillLoadError, and the cost of many problems."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from malformed_cases import BASE

from warroom.core.library import bundled_drills_dir
from warroom.core.load import DrillLoadError, Problem, limits, load_drill, load_drill_text, load_yaml_text
from warroom.core.load import _loctypes as loctypes
from warroom.core.load._yaml import pos as yamlpos


def _problems(path: Path) -> list[Problem]:
    with pytest.raises(DrillLoadError) as info:
        load_drill(path)
    return info.value.problems


# -- files and limits -------------------------------------------------------------------------------------------------


def test_missing_file_and_folder_are_problems_not_tracebacks(tmp_path: Path):
    (p,) = _problems(tmp_path / "nope.yaml")
    assert str(p) == f"{tmp_path / 'nope.yaml'}:1:1: no such file"
    (p,) = _problems(tmp_path)
    assert "this is a folder, not a drill file" in p.message


def test_file_over_the_size_limit_is_refused_before_parsing(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 1024 * 1024)
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * (1024 * 1024) + "\n")
    (p,) = _problems(big)
    assert (p.line, p.column) == (1, 1) and "drill files are limited to 1 MiB" in p.message


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "the file is empty"),
        ("   \n\n", "the file is empty"),
        ("# only a comment\n", "the file is empty"),
        ("just some words\n", "but this one is a single value"),
        ("- 1\n- 2\n", "but this one is a list"),
        ("{", "YAML syntax error"),
    ],
)
def test_odd_documents_give_one_clear_problem(text: str, fragment: str):
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "odd.yaml")
    assert len(info.value.problems) == 1 and fragment in info.value.problems[0].message


def test_deep_nesting_with_the_pure_python_loader_is_a_problem(monkeypatch):
    monkeypatch.setattr(yamlpos, "_YamlLoader", yaml.SafeLoader)
    with pytest.raises(DrillLoadError) as info:
        load_drill_text("a: " + "[" * 5000 + "]" * 5000 + "\n")
    assert "nested too deeply" in str(info.value)


def test_alias_expansion_is_counted_not_performed():
    # 9 levels of 9 aliases: 387 million values if expanded; rejected after about 100,000.
    levels = "\n".join(f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 10))
    text = "l0: &l0 [a, b, c, d, e, f, g, h, i]\n" + levels + "\n"
    with pytest.raises(DrillLoadError) as info:
        load_yaml_text(text)
    assert "billion laughs" in str(info.value)
    # Below the limit, aliases are fine: 3 levels (about 800 values) of the same shape load.
    small = "l0: &l0 [a, b, c, d, e, f, g, h, i]\n" + "\n".join(levels.splitlines()[:3]) + "\n"
    assert len(load_yaml_text(small)["l3"]) == 9


# -- robustness: mutated drills only ever raise DrillLoadError ------------------------------------------------------

_TOKENS = ["", " ", "\t", ":", "- ", "[", "]", "{", "}", '"', "'", "&a ", "*a", "!!int ", "!!float ", "!!bool ",
           "? ", "<<: ", "no", "1.10", "12:30", "~", "\n", "#", "|", ">", "%", "@", "`", ".inf", "kind: [x]",
           "{kind: 5}", "step: [s1]", "id: {a: 1}", "\x85", "\u2028", "\ufeff", "é", "\x00"]


def _check_only_problems(text: str) -> None:
    try:
        load_drill_text(text, "fuzz.yaml")
    except DrillLoadError as e:
        assert e.problems
        for p in e.problems:
            assert p.line >= 1 and p.column >= 1 and p.message


def test_text_mutations_never_escape_as_other_exceptions():
    import random

    rng = random.Random(20260527)
    big = (bundled_drills_dir() / "duplicate-charge-refunds.yaml").read_text()
    for _ in range(400):
        text = rng.choice([BASE, big])
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(text))
            op = rng.random()
            if op < 0.5:
                text = text[:pos] + rng.choice(_TOKENS) + text[pos:]
            elif op < 0.8:
                text = text[:pos] + text[pos + rng.randint(1, 20) :]
            else:
                lines = text.splitlines(True)
                a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[a], lines[b] = lines[b], lines[a]
                text = "".join(lines)
        _check_only_problems(text)


def test_value_mutations_never_escape_as_other_exceptions():
    import copy
    import random

    rng = random.Random(7)
    source = load_yaml_text(BASE)
    junk = [None, 1, -1, 2.5, True, "", "s1", "e3", [], {}, [1], {"a": 1}, {"kind": "tool_call"}, {"kind": [1]},
            "tool_call", "stale", {"id": "e1", "t": 0, "kind": "log"}, "12:30"]

    def paths(d, p=()):
        if p:
            yield p
        items = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else ()
        for k, v in items:
            yield from paths(v, (*p, k))

    for _ in range(150):
        data = copy.deepcopy(source)
        for _ in range(rng.randint(1, 3)):
            p = rng.choice(list(paths(data)))
            parent = data
            for el in p[:-1]:
                parent = parent[el]
            if rng.random() < 0.7:
                parent[p[-1]] = copy.deepcopy(rng.choice(junk))
            else:
                parent.pop(p[-1])
        _check_only_problems(yaml.safe_dump(data, sort_keys=rng.random() < 0.5))


def test_an_explicit_tag_that_does_not_fit_its_value_is_a_problem():
    text = BASE.replace("      - {event: e5, amount: 1}", "      - {event: !!int e5, amount: 1}")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (67, 17) and "`e5` is not a valid !!int" in p.message



def test_many_type_problems_cost_one_type_walk_per_shape_and_one_key_index_per_mapping(monkeypatch):
    events = "\n".join(
        f"  - {{id: x{i}, t: 20, kind: log, source: a, content: b, level: warn}}" for i in range(2_000)
    )
    keys = "\n".join(f"  goal{i}: x" for i in range(2_000))
    text = BASE.replace("answer_key:", events + "\nanswer_key:").replace("briefing:\n", "briefing:\n" + keys + "\n")
    built = 0
    real_index = yamlpos.key_index

    def counting(node):
        nonlocal built
        built += not hasattr(node, "_warroom_keys")
        return real_index(node)

    monkeypatch.setattr(yamlpos, "key_index", counting)
    loctypes.walk_shape.cache_clear()
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "many.yaml")
    assert len(info.value.problems) == 4_000
    assert loctypes.walk_shape.cache_info().misses < 20  # one walk per shape of path, not one per error
    assert built < 2_020  # each mapping's keys indexed at most once: not 2,000 scans of a 2,000-key mapping

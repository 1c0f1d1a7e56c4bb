"""The fast drill YAML writer (warroom.importers.yamlemit): the very text ``yaml.dump`` writes, and it loads back
as the data, for odd text and numbers and for a whole imported 1,000-span trace."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from warroom.core.load import core_tag, load_yaml_text
from warroom.importers.kit import dump_data

ODD = ["yes", "No", "~", "", " x", "x ", "1.0", "0x1f", "1_000", "12:30", "-", "- a", "a: b", "#c", "\ufeff",
       "\x85z", "line\n", "a\n\n", "\n", "a\r\nb", "tab\tx\n y", "null", "=", "<<", "!x", "&a", "*a", "é😀",
       "\u2028", "1e5", "1.5e3", "0o17", "+1E5", ".5e3", "0E0", "x" * 300 + " y" * 100,
       "'quoted'", '"q"', "trailing \nspace", "\x00\x07\x1b[31m"]


class _Literal(yaml.CSafeDumper):
    """What the importers wrote before: the C safe dumper, multi-line text asked for as literal blocks."""

    def ignore_aliases(self, data):
        return True


def _str(dumper, text):
    """Multi-line text as a literal block; text that YAML 1.2 (the drill loader) reads as another type written
    plain (``1e5``, ``0o17``: text in YAML 1.1) quoted, as the importers' writer does (issue 30, campaign 4); text
    holding U+2028 or U+2029 double-quoted, escaped (PyYAML breaks the line there: campaign 9)."""
    style = "|" if "\n" in text else ("'" if text and core_tag(text) != "tag:yaml.org,2002:str" else None)
    style = '"' if "\u2028" in text or "\u2029" in text else style
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Literal.add_representer(str, _str)


def _pyyaml(data):
    return yaml.dump(data, Dumper=_Literal, sort_keys=False, allow_unicode=True, width=120,
                     default_flow_style=False)


def test_odd_values_are_written_as_pyyaml_writes_them_and_load_back():
    data = {"texts": ODD, "numbers": [0, -3, 10**20, 1e-05, 1e16, 2.5, -0.0, float("inf"), float("-inf")],
            "flags": [True, False, None], "empty": {}, "none": [], "nested": [[1, []], {"a": {"b": ["c\nd"]}}]}
    text = dump_data(data)
    assert text == _pyyaml(data)
    assert yaml.safe_load(text) == data


def test_nan_is_written_as_pyyaml_writes_it():
    text = dump_data({"x": float("nan")})
    assert text == "x: .nan\n" == _pyyaml({"x": float("nan")})


def test_other_types_are_refused():
    with pytest.raises(TypeError, match="bytes"):
        dump_data({"a": b"x"})
    with pytest.raises(TypeError, match="keys are text"):
        dump_data({1: "x"})


_scalar = st.one_of(st.text(st.characters(exclude_categories=["Cs"]), max_size=30), st.integers(),
                    st.floats(allow_nan=False), st.booleans(), st.none())
_data = st.recursive(_scalar, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                     max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=8), _data, max_size=5))
def test_any_plain_data_round_trips_and_matches_pyyaml(data):
    text = dump_data(data)
    assert text == _pyyaml(data)
    assert yaml.load(text, Loader=yaml.SafeLoader) == data
    assert load_yaml_text(text) == data  # the drill loader's YAML 1.2 reads the same data


def test_an_imported_1000_span_trace_loads_back_identically(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_import_otel import big_trace

    from warroom.importers.otel import import_otel

    src = tmp_path / "trace.json"
    # 1,000 spans (1,250 events, four-digit ids) prove the round trip as 5,000 did: the emitter writes each value on
    # its own, whatever the length; generating the trace with the OpenTelemetry SDK was most of the cost. The
    # 5,000-span import is timed by benchmarks/bench_import_otel.py.
    src.write_text(json.dumps(big_trace(1000)), encoding="utf-8")
    report = import_otel([src], tmp_path / "out")
    assert not report.failed
    from warroom.importers.kit import convert
    from warroom.importers.otel import IMPORTER

    data, _ = convert(IMPORTER, src)[0]
    written = yaml.load(report.results[0].output.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    assert written == data
    assert len(written["trace"]) > 1000  # the generated 1,000-span trace

"""Who&When import, the YAML written: text kept byte for byte, no aliases, and the drill checked is the YAML
written."""

from __future__ import annotations

import json

import yaml
from import_support import GOOD, by_id, load, text_of

from warroom.core.model import Drill
from warroom.importers import kit
from warroom.importers import who_and_when as ww


def test_odd_text_round_trips_byte_for_byte(tmp_path):
    path = GOOD / "magentic-one" / "odd-text.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    report = ww.import_records([path], tmp_path)
    assert not report.failed
    drill = load(report.results[0].output)
    ev = by_id(drill)
    for i, message in enumerate(record["history"]):
        assert text_of(ev[f"h{i:03d}"]) == message["content"], i
    # The pure-Python loader reads the same text as the C loader.
    slow = Drill.model_validate(yaml.load(report.results[0].output.read_text(encoding="utf-8"), Loader=yaml.SafeLoader))
    texts = [text_of(e) for e in drill.trace if e.kind != "tool_call"]
    assert [text_of(e) for e in slow.trace if e.kind != "tool_call"] == texts


def test_very_long_content_is_kept_whole(tmp_path):
    record = json.loads((GOOD / "captain-agent" / "mini.json").read_text(encoding="utf-8"))
    page = "".join(f"| row {i} | [link](https://example.org/{i}?q=[x]) | **{i}** |\n" for i in range(3000))
    assert len(page) > 100_000
    record["history"][3]["content"] = "exitcode: 0 (execution succeeded)\nCode output: " + page
    src = tmp_path / "captain-agent" / "long.json"
    src.parent.mkdir()
    src.write_text(json.dumps(record), encoding="utf-8")
    report = ww.import_records([src], tmp_path / "out")
    drill = load(report.results[0].output)
    assert drill.event("h003").output == record["history"][3]["content"]
    assert drill.event("h004").t - drill.event("h003").t == kit.MAX_EVENT_GAP


def test_yaml_has_no_aliases_even_for_shared_objects():
    shared = {"input_tokens": 1, "output_tokens": 2, "estimated": True}
    text = kit.dump_drill_yaml({"a": shared, "b": shared, "c": "x\ny"}, header="line one\nline two")
    assert "&" not in text and "*" not in text
    assert text.startswith("# line one\n# line two\n")
    assert yaml.safe_load(text) == {"a": shared, "b": shared, "c": "x\ny"}


def test_the_checked_drill_is_the_yaml_written(tmp_path):
    """convert_record loads back the very YAML text it writes, so a drill that the dump would break is refused."""
    from warroom.core.load import load_drill_text

    files = kit.find_input_files([GOOD], ww.IMPORTER.suffixes)
    record = ww.parse_record(ww.read_record(files[0]), files[0].stem)
    data, drill = ww.convert_record(record)
    assert drill == load_drill_text(kit.dump_drill_yaml(data))

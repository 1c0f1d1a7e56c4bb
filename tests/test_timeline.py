"""The review timeline's marks write numbers as the rest of warroom does (warroom.core.format)."""

from __future__ import annotations

from core_support import drill_dict

from warroom.core.actions import Action
from warroom.core.model import Drill
from warroom.store.timeline import build_timeline


def test_marks_write_damage_amounts_and_times_with_the_shared_formats():
    d = drill_dict()
    d["answer_key"]["damage"]["entries"] = [{"event": "e07", "amount": 931837.5}, {"event": "e09", "amount": 0.25}]
    drill = Drill.model_validate(d)
    tl = build_timeline(drill, [Action(t=18.25, kind="inspect", event="e03")])
    rows = {r.event.id: r for r in tl.rows if r.kind == "event"}
    assert "damage 931,837.5 rows corrupted" in rows["e07"].key  # not 931838 (the 6 digits of :g)
    assert "damage 0.25 rows corrupted" in rows["e09"].key
    assert rows["e03"].trainee == ["inspected at 18.3 s"]  # halves up, as in the debrief

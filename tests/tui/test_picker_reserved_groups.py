"""A drill's domain tag cannot make a group that reads as one of the picker's own groups (issue 30, eleventh stop's
leftovers): ``domain:other`` and ``domain:cannot load`` made groups named ``other`` and ``cannot load`` beside the
drills without a domain and the files that did not load."""

from __future__ import annotations

from pathlib import Path

from core_support import drill_yaml
from textual.widgets import DataTable

from warroom.tui.logic import Services

from .conftest import make_app, picker_ready


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "drills"
    folder.mkdir()
    for drill_id, tags in (("tagged-other", ["domain:other"]), ("tagged-broken", ["domain:Cannot load"]),
                           ("untagged", [])):
        (folder / f"{drill_id}.yaml").write_text(drill_yaml(id=drill_id, tags=tags), encoding="utf-8")
    (folder / "broken.yaml").write_text("schema_version: 2\nid: broken\n", encoding="utf-8")
    return folder


async def test_a_domain_tag_never_names_a_reserved_group(tmp_path: Path) -> None:
    services = Services(trainee="tester", data_dir=tmp_path / "data", drill_dirs=(_folder(tmp_path),))
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(120, 50)) as pilot:
        picker = await picker_ready(pilot)
        table = picker.query_one("#picker-table", DataTable)
        cells = [table.get_cell(row, "group") for row in table.rows]
        groups = {str(c): (c.style, picker.entries[i]) for i, c in enumerate(cells) if str(c)}
        assert groups["domain:other"][1].drill.id == "tagged-other"
        assert groups["domain:Cannot load"][1].drill.id == "tagged-broken"
        assert groups["other"][1].drill.id == "untagged"
        assert groups["cannot load"][1].card is None
        # warroom's own groups in italics, a domain's in bold
        assert {label: style for label, (style, _) in groups.items() if label in ("other", "cannot load")} == {
            "other": "italic", "cannot load": "italic"}
        assert groups["domain:other"][0] == groups["domain:Cannot load"][0] == "bold"

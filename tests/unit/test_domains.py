"""One domain taxonomy for the bundled library (issue 35 item 7): every bundled drill's first domain tag (its group
in the picker) is a domain of docs/authoring.md's table, and no domain is spelt two ways."""

from __future__ import annotations

import re

from locations import REPO

from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.load import load_drill
from warroom.tui.logic import domain_key


def _documented() -> list[str]:
    text = (REPO / "docs" / "authoring.md").read_text()
    section = text[text.index("### Domains"):text.index("## Field reference")]
    return re.findall(r"^\| `([a-z-]+)` \|", section, re.MULTILINE)


def test_every_bundled_drill_is_in_one_documented_domain_spelt_one_way():
    domains = _documented()
    assert len(domains) >= 10 and len(set(domains)) == len(domains)
    drills = [load_drill(f) for f in find_drill_files([bundled_drills_dir()])]
    first = {d.id: d.public_tags[0] for d in drills}
    assert {i: f for i, f in first.items() if f not in domains} == {}
    assert set(domains) <= set(first.values())  # the table lists only domains the library has
    # no tag, first or not, is another spelling of a domain or of another tag (code-agent vs code-agents)
    spellings: dict[str, set[str]] = {}
    for d in drills:
        for tag in d.public_tags:
            spellings.setdefault(domain_key(tag), set()).add(tag)
    assert {k: v for k, v in spellings.items() if len(v) > 1} == {}
    # and no sub-domain repeats a domain's name inside it (healthcare-scheduling, legal-review)
    tags = {t for d in drills for t in d.public_tags}
    assert [t for t in tags if t not in domains and any(t.startswith(f"{m}-") for m in domains)] == []

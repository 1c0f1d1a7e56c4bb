"""What ``warroom serve`` does before its first tab: the picker's cache is written once, by the server, so that a
class's app processes starting together do not each read and check every drill file (issue 36: on a loaded 2-core
host the tabs that started while the cache was cold waited over two minutes for the picker)."""

from __future__ import annotations

import json

from serve_support import serving

from warroom.core.library import bundled_drills_dir


def test_the_server_writes_the_pickers_cache_before_any_tab_opens(tmp_path):
    cache = tmp_path / "cache"
    with serving(tmp_path, env={"WARROOM_CACHE_DIR": str(cache)}):
        written = sorted(cache.glob("picker-*.json"))
        assert written, "no picker cache in the cache directory once the server listens"
        drills = {p.name for p in bundled_drills_dir().glob("*.yaml")}
        cached = {r["path"].rsplit("/", 1)[-1] for f in written for r in json.loads(f.read_text())["files"]}
        assert drills <= cached

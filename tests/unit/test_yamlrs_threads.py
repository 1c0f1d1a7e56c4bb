"""yaml-rs runs only on long-lived threads (warroom.core.load._fast.yamlrs): reading drills in fresh worker threads,
over and
over, must not crash the process (yaml-rs 0.1.6 did, with a segmentation fault, within a few rounds)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from unittest.mock import patch

import pytest

from warroom.core.library import bundled_drills_dir
from warroom.core.load._fast import yamlrs

ROUNDS = """
import asyncio, sys
from pathlib import Path
from warroom.core.load._loader import load_drill
paths = sorted(Path(sys.argv[1]).glob("*.yaml"))
async def one_round():
    await asyncio.get_running_loop().run_in_executor(None, lambda: [load_drill(p) for p in paths])
for _ in range(6):  # yaml-rs 0.1.6 called from the worker threads crashed in round 1 to 4 (23 runs of 23)
    asyncio.run(one_round())  # each round: a new event loop, a new worker thread that ends with it
print("ok")
"""


def test_reading_the_library_in_fresh_threads_round_after_round_does_not_crash() -> None:
    proc = subprocess.run([sys.executable, "-c", ROUNDS, str(bundled_drills_dir())], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", (proc.returncode, proc.stderr[-2000:])


def test_a_worker_thread_parses_on_the_parser_thread_with_the_same_result() -> None:
    text = "a: 1\nb: [x, 2.5, true]\nc: 2024-01-01\n"
    here = yamlrs.loads(text)
    with ThreadPoolExecutor(max_workers=1) as pool:
        there = pool.submit(yamlrs.loads, text).result()
    assert there == here == {"a": 1, "b": ["x", 2.5, True], "c": "2024-01-01"}
    assert any(t.name.startswith("warroom-yaml-rs") for t in threading.enumerate())


def test_errors_reach_the_caller_from_the_parser_thread() -> None:
    with ThreadPoolExecutor(max_workers=1) as pool:
        for text in ("a: 1\na: 2\n", "a: [\n", "a: &x 1\nb: *x\n"):  # a duplicate key, a syntax error, an alias
            with pytest.raises(Exception, match=r"duplicate|unclosed|alias"):
                pool.submit(yamlrs.loads, text).result()
        assert pool.submit(yamlrs.loads, "a: &x 1\nb: *x\n", False).result() == {"a": 1, "b": 1}


def test_submit_parses_on_the_parser_thread_from_the_main_thread() -> None:
    """The fast load path starts a parse with ``submit`` and looks at the text meanwhile: same data, same errors."""
    text = "a: 1\nb: [x, 2.5, true]\nc: 2024-01-01\n"
    assert threading.current_thread() is threading.main_thread()
    threads: list[str] = []
    real = yamlrs._loads

    def recording(*args: object) -> object:
        threads.append(threading.current_thread().name)
        return real(*args)  # type: ignore[arg-type]

    with patch.object(yamlrs, "_loads", recording):
        assert yamlrs.submit(text).result() == real(text, True)
    assert len(threads) == 1 and threads[0].startswith("warroom-yaml-rs")
    alias = "a: &x 1\nb: *x\n"
    assert yamlrs.submit(alias, False).result() == {"a": 1, "b": 1}
    with pytest.raises(Exception, match="alias"):
        yamlrs.submit(alias).result()


ENVIRONMENT = """
import os, sys
seen = []
class Watch:  # notes the setting when yaml_rs is imported, then lets the usual finders import it
    def find_spec(self, name, path=None, target=None):
        if name == "yaml_rs":
            seen.append(os.environ.get("MIMALLOC_PURGE_DELAY", "unset"))
        return None
sys.meta_path.insert(0, Watch())
from warroom.core.load._fast import yamlrs
assert yamlrs.available()
print(seen[0], os.environ.get("MIMALLOC_PURGE_DELAY", "unset"))
"""


@pytest.mark.parametrize(("given", "during", "after"), [(None, "0", "unset"), ("7", "7", "7")])
def test_the_mimalloc_purge_setting_is_set_only_while_yaml_rs_loads(given: str | None, during: str, after: str) -> None:
    """yaml-rs's mimalloc reads MIMALLOC_PURGE_DELAY when the extension loads: warroom sets it to 0 for that
    moment only (the environment is as it was afterwards) and leaves a value the user set alone."""
    env = {k: v for k, v in os.environ.items() if k != "MIMALLOC_PURGE_DELAY"}
    if given is not None:
        env["MIMALLOC_PURGE_DELAY"] = given
    proc = subprocess.run([sys.executable, "-c", ENVIRONMENT], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == [during, after]

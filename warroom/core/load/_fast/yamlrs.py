"""yaml-rs, called only from threads that live as long as the process.

yaml-rs 0.1.6 can crash the process (a segmentation fault inside its extension) when the threads that used it end
and new ones use it: reading the bundled drills in a fresh worker thread a few times in a row (a new
``asyncio.run`` each time, as each test app and each ``warroom serve`` session does) crashed within a few rounds,
while the same work on one long-lived thread never did (tests/unit/test_yamlrs_threads.py). So :func:`loads` runs
yaml-rs on the calling thread only when that is the main thread; from any other thread it hands the text to one
dedicated parser thread, started on first need, and waits for its answer (about 0.1 ms a call). A child process
made by ``fork`` starts its own parser thread (the parent's does not exist in the child). :func:`submit` always
parses on that thread, so that the caller can work meanwhile (the fast load path looks at the text).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

#: yaml-rs allocates with its own copy of mimalloc, which by default keeps the memory a parse freed for 10 ms and
#: purges it only on later allocations of the same heap: the parser thread then sits idle, so the tree of a big
#: drill stayed resident while pydantic built the models (50,000 events: peak 235 MB, 201 MB with this setting).
#: mimalloc reads the option from the environment when the extension loads; it is set only for that moment, and
#: left alone when the user has set it.
_PURGE = "MIMALLOC_PURGE_DELAY"
_purge_given = _PURGE in os.environ
if not _purge_given:
    os.environ[_PURGE] = "0"
try:
    import yaml_rs
except ImportError:  # pragma: no cover - yaml-rs is a dependency; without it every file takes the slow path
    yaml_rs = None  # type: ignore[assignment]
finally:
    if not _purge_given:
        os.environ.pop(_PURGE, None)


_lock = threading.Lock()
_parser: ThreadPoolExecutor | None = None


def available() -> bool:
    """True when yaml-rs is installed."""
    return yaml_rs is not None


def version() -> str:
    """yaml-rs' version (``-`` when it is not installed or does not say)."""
    return str(getattr(yaml_rs, "__version__", "-"))


def loads(text: str, strict: bool = True) -> Any:
    """``text`` parsed by yaml-rs (YAML 1.2; dates stay text). ``strict``: a duplicate key and any alias are errors.

    Raises whatever yaml-rs raises for text it cannot read (an ``Exception``), or RuntimeError when yaml-rs is not
    installed."""
    if yaml_rs is None:
        raise RuntimeError("yaml-rs is not installed")
    if threading.current_thread() is threading.main_thread():
        return _loads(text, strict)
    return _parser_thread().submit(_loads, text, strict).result()


def submit(text: str, strict: bool = True) -> Future[Any]:
    """Start parsing ``text`` as :func:`loads` does, on the parser thread, from any thread; the future gives the
    parsed data or raises what :func:`loads` raises. yaml-rs releases the GIL while it parses the text into its own
    tree (it holds it again to build the Python values), so the calling thread can do other work meanwhile.
    Raises RuntimeError when yaml-rs is not installed."""
    if yaml_rs is None:
        raise RuntimeError("yaml-rs is not installed")
    return _parser_thread().submit(_loads, text, strict)


def _loads(text: str, strict: bool) -> Any:
    assert yaml_rs is not None
    if not strict:
        return yaml_rs.loads(text, parse_datetime=False)
    return yaml_rs.loads(
        text, parse_datetime=False, duplicate_key_policy=yaml_rs.DuplicateKeyPolicy.Error,
        alias_limits=yaml_rs.AliasLimits(max_total_replayed_events=0, max_alias_expansions_per_anchor=0),
    )


def _parser_thread() -> ThreadPoolExecutor:
    global _parser
    with _lock:
        if _parser is None:
            _parser = ThreadPoolExecutor(max_workers=1, thread_name_prefix="warroom-yaml-rs")
        return _parser


def _forget_parser_thread() -> None:
    """In a forked child: the parent's parser thread is not there, so the next call starts a new one."""
    global _parser, _lock
    _parser = None
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_parser_thread)

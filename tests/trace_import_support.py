"""Shared helpers of the trace importer tests (chat, otel, openinference): the unmarked-drill contract."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from locations import TESTS

from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import Drill
from warroom.core.rules import MISSING_ANSWER_KEY
from warroom.importers.kit import TraceError, convert

FIXTURES = TESTS / "fixtures"

ALL_CLEAR = "all_clear:\n  debrief: The run was healthy; marked up by a test.\n"


def only_missing_key(path: Path) -> None:
    """`warroom validate` finds exactly one problem in the imported drill at ``path``: the missing answer key."""
    try:
        load_drill(path)
    except DrillLoadError as e:
        assert [p.message for p in e.problems] == [MISSING_ANSWER_KEY], e.problems
    else:  # pragma: no cover - the assertion message says why
        raise AssertionError(f"{path} loaded without an answer key")


def marked_up(path: Path, addition: str = ALL_CLEAR) -> Drill:
    """The drill at ``path`` with ``addition`` (an author's mark-up) appended, loaded: what validate sees then."""
    return load_drill_text(path.read_text(encoding="utf-8") + addition, path=path.name)


def sparse_file(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no disk space (for the size limit)."""
    with path.open("wb") as f:
        f.truncate(size)
    return path


def import_missing_only_the_key(
    importer: Callable[[list[Path], Path], Any], sources: list[Path], out: Path, count: int = 1
) -> None:
    """``importer`` (``chat.import_chats``, ``otel.import_otel``, ``openinference.import_openinference``) turns
    ``sources`` into ``count`` drills in ``out``, none failed, each missing only the answer key
    (:func:`only_missing_key`): the table-driven check of every importer's recorded traces."""
    report = importer(sources, out)
    assert not report.failed and len(report.results) == count, [r.error for r in report.results]
    for result in report.results:
        assert result.output is not None, result.error
        only_missing_key(result.output)


def converter(module: Any) -> Callable[..., list[tuple[dict[str, Any], str]]]:
    """The importer of ``module`` (a format package: its ``IMPORTER``) as a function of ``(path, options=None)``
    returning its drills (:func:`warroom.importers.kit.convert`)."""
    return functools.partial(convert, module.IMPORTER)


def assert_refused(convert: Callable[[Path], Any], path: Path, doc: object, message: str) -> None:
    """``convert`` (an importer's :func:`converter`) refuses the file ``path`` holding ``doc`` (a str as it is, else
    as JSON) with a TraceError whose message contains ``message``."""
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    with pytest.raises(TraceError, match=re.escape(message)):
        convert(path)


#: An answer key for the drill imported from ``thirdparty/langfuse-langgraph-v3.json`` (a LangGraph run exported
#: from Langfuse v3): the empty invoice list at e0005 is the fault. Appended to the imported file, it makes a drill
#: that passes `warroom check`.
LANGFUSE_V3_KEY = """answer_key:
  fault: {origin_step: p01, kind: empty_result, summary: "erp_list_invoices returned no unpaid invoices and the agent paid none."}
  evidence: [e0005]
  cascade: [p02]
  damage: {unit: wasted agent turns, entries: [{event: e0010, amount: 1}]}
  deadline: {event: e0005, after: 6}
  debrief: e0005 is an empty list for a month with unpaid invoices.
"""  # noqa: E501


def framework_drill(name: str, options: Any = None) -> dict[str, Any]:
    """The drill (as its data) that the importer recognising ``tests/fixtures/frameworks/NAME`` makes of it, with
    ``options`` (a :class:`~warroom.importers.kit.TraceOptions`, None: the defaults); the recording must give one."""
    from warroom.importers.kit import convert, recognise

    path = FIXTURES / "frameworks" / name
    importer = recognise(path)
    assert importer is not None
    [(data, _)] = convert(importer, path, options)
    return data

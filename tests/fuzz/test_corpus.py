"""Every input that ever failed a fuzz property, replayed: ``tests/fuzz/corpus/`` keeps them (issue 30), one file
each, named for what it reached. A drill file (``corpus/drills/*.yaml``) must load or be refused with every problem
inside the file, and ``warroom validate`` (text and JSON), ``check`` and ``cost`` on it exit 0 or 1 with no traceback
and no "internal error". Add a file here for every new failure a fuzz campaign finds, with its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from .properties import check_loader
from .test_loader_fuzz import COMMANDS, _check_command

CORPUS = Path(__file__).parent / "corpus"
DRILLS = sorted((CORPUS / "drills").glob("*.yaml"))


def test_the_corpus_is_there():
    assert len(DRILLS) >= 3


@pytest.mark.parametrize("path", DRILLS, ids=lambda p: p.stem)
def test_a_drill_that_once_failed_loads_or_is_refused_with_positions_inside_the_file(path: Path):
    check_loader(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
@pytest.mark.parametrize("path", DRILLS, ids=lambda p: p.stem)
def test_every_command_on_a_drill_that_once_failed_exits_0_or_1_cleanly(path: Path, command: tuple[str, ...]):
    _check_command(path.read_text(encoding="utf-8"), command)

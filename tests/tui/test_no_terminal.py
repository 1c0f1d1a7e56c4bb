"""The terminal UI started without a terminal (`warroom review ID < /dev/null`, a pipe, a cron job) is refused with
one line saying what to do: it drew its screen into the pipe and waited for keys that never came, for ever."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from warroom.tui.app import WarroomApp

WARROOM = Path(sys.executable).with_name("warroom")


@pytest.mark.parametrize("command", [["run", "duplicate-charge-refunds"], ["tutorial"], []])
def test_the_war_room_without_a_terminal_is_refused_at_once_with_what_to_do(tmp_path: Path, command: list[str]):
    done = subprocess.run([str(WARROOM), "--data-dir", str(tmp_path), *command], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == b""  # no screen drawn into the pipe
    err = done.stderr.decode()
    assert err.startswith("Error: the terminal UI needs a terminal, and its standard input and error are not one")
    assert "\x1b" not in err and "Traceback" not in err and err.count("\n") == 1


def test_a_review_without_a_terminal_is_refused(tmp_path: Path):
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from scores_support import played_session
    from store_support import bundled_drill_path

    session = played_session(tmp_path, bundled_drill_path())
    done = subprocess.run([str(WARROOM), "--data-dir", str(tmp_path), "review", session], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=60)
    assert done.returncode == 1 and done.stdout == b""
    last = done.stderr.decode().splitlines()[-1]  # after any warning about the session itself
    assert last.startswith("Error: the terminal UI needs a terminal")


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(("stdin", "stderr", "refused"), [
    (True, True, None), (False, True, "input is not one"), (True, False, "error is not one"),
    (False, False, "input and error are not one"),
])
def test_the_check_reads_the_streams_textual_uses_not_standard_output(monkeypatch, stdin, stderr, refused):
    """Textual reads keys from standard input and draws on standard error: `warroom review ID > out.txt` (standard
    output redirected) plays as before; a served tab (Textual's web driver) is never refused."""
    from warroom.errors import WarroomError
    from warroom.tui.app import require_terminal

    monkeypatch.setattr(sys, "__stdin__", _Stream(stdin))
    monkeypatch.setattr(sys, "__stderr__", _Stream(stderr))
    monkeypatch.setattr(sys, "stdout", _Stream(False))
    if refused is None:
        require_terminal()
    else:
        with pytest.raises(WarroomError, match=refused):
            require_terminal()
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    ran: list[bool] = []
    monkeypatch.setattr("textual.app.App.run", lambda self, *a, **k: ran.append(True))
    WarroomApp.run(object.__new__(WarroomApp))  # the web driver: not checked
    assert ran == [True]

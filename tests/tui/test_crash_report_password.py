"""A crash of a session stored in PostgreSQL prints no password: Textual's crash report shows the local variables
of every frame of the traceback (Rich's ``show_locals``), warroom's and psycopg's own, and none of them holds the
store URL's password (warroom hands psycopg the URL without it and the password in a password file). Real server;
the crash is raised inside psycopg's connection attempt, where its frames hold the whole connection string."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
import psycopg.waiting
import pytest
import rich.traceback
from rich.console import Console

from warroom.store.backends import StoreURLError, store_target
from warroom.store.backends._secret import without_password
from warroom.tui.logic import Services

from .conftest import make_app

SECRET = "Hunter2:s3cret/pw"


class _RecordedTraceback(rich.traceback.Traceback):
    """Rich's Traceback, as Textual's crash report makes it (at the moment of the crash), kept for the test."""

    made: list[rich.traceback.Traceback] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.made.append(self)


def _report_text(traceback: rich.traceback.Traceback) -> str:
    console = Console(record=True, width=200, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(traceback)
    console.file.close()
    return console.export_text()


async def test_a_crash_inside_psycopg_prints_no_password(
    tmp_path: Path, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = store_url.replace("//warroom@", f"//warroom:{quote(SECRET, safe='')}@") + f"&password={quote(SECRET)}"
    monkeypatch.setenv("WARROOM_STORE", url)
    del url, store_url  # the test's own frame is not what is checked
    seen: list[str] = []

    def crash(gen: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append("psycopg")
        raise RuntimeError("a bug inside the driver")

    monkeypatch.setattr(psycopg.waiting, "wait_conn", crash)
    monkeypatch.setattr(rich.traceback, "Traceback", _RecordedTraceback)
    _RecordedTraceback.made.clear()
    app = make_app(Services(trainee="ann", data_dir=tmp_path / "data"))
    with pytest.raises(RuntimeError, match="a bug inside the driver"):
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("enter")  # the briefing: start the drill
            await pilot.pause()
            await pilot.press("q", "y")  # quit: the session is stored, and the store's connection crashes
            await pilot.pause()
    assert seen and app.return_code == 1
    [report] = _RecordedTraceback.made
    text = _report_text(report)
    assert "a bug inside the driver" in text
    assert "conninfo" in text and "passfile" in text  # psycopg's frames and their locals are in the report
    for shown in (SECRET, quote(SECRET, safe=""), quote(SECRET)):
        assert shown not in text


@pytest.mark.parametrize(("url", "bare", "password"), [
    ("postgresql://ann:p%40ss%2F1@db/x", "postgresql://ann@db/x", "p@ss/1"),
    ("postgresql://ann@db/x?password=p%26w&sslmode=require", "postgresql://ann@db/x?sslmode=require", "p&w"),
    ("postgresql://ann:a@db/x?options=-c%20search_path%3Dt&password=b", "postgresql://ann@db/x?options=-c%20search_"
     "path%3Dt", "b"),
    ("postgresql://ann@/x?host=/run/pg", "postgresql://ann@/x?host=/run/pg", None),
    ("postgresql://ann:pa:ss@db/x#frag", "postgresql://ann@db/x#frag", "pa:ss"),
])
def test_the_password_is_taken_out_of_the_url(url: str, bare: str, password: str | None) -> None:
    assert without_password(url) == (bare, password)


@pytest.mark.parametrize("url", [f"postgresql:/ann:{SECRET}@db/x", f"mysql://ann:{SECRET}@db/x"])
def test_a_bad_store_url_leaves_no_password_in_the_frames_of_its_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    monkeypatch.setenv("WARROOM_STORE", url)
    del url
    try:
        store_target(tmp_path)
    except StoreURLError:
        report = rich.traceback.Traceback(show_locals=True, width=None, locals_max_length=5)  # as Textual's
    text = _report_text(report)
    assert "store_target" in text and "StoreURLError" in text
    assert SECRET not in text

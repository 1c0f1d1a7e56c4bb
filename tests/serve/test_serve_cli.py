"""``warroom serve`` on a non-loopback address without a roster warns; the warning never names the store URL."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from serve_support import free_port, write_roster

from warroom.cli import main


def test_serving_beyond_loopback_without_a_roster_warns(tmp_path):
    port = free_port()
    secret_url = f"sqlite:///{tmp_path / 'cohort.sqlite3'}?password=hunter2"
    proc = subprocess.Popen(
        [sys.executable, "-m", "warroom", "--data-dir", str(tmp_path / "d"), "--trainee", "demo", "serve",
         "--host", "0.0.0.0", "--port", str(port), "--store", secret_url],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "200"},
    )
    try:
        time.sleep(0.5)
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    text = (out + err).decode()
    assert "warning: serving on 0.0.0.0 without a --roster" in err.decode()
    assert "'demo'" in err.decode()
    assert "hunter2" not in text


@pytest.mark.parametrize("host", ["no-such-host.invalid", "192.0.2.1"])  # no such name; an address of no interface
def test_serving_where_no_server_can_listen_is_one_line_not_a_traceback(tmp_path, host):
    roster = write_roster(tmp_path / "class.yaml")
    args = ["--data-dir", str(tmp_path / "d"), "serve", "--roster", str(roster), "--host", host, "--port", "8000"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: cannot serve on {host}:8000: ")
    assert "Traceback" not in result.output and "War Room served on" not in result.output


def test_serving_on_a_port_in_use_says_so(tmp_path):
    roster = write_roster(tmp_path / "class.yaml")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "serve", "--roster", str(roster),
                                           "--port", str(port)])
    assert result.exit_code == 1
    assert result.output.strip() == (f"Error: cannot serve on 127.0.0.1:{port}: error while attempting to bind on "
                                     f"address ('127.0.0.1', {port}): address already in use")


def test_serving_without_the_serve_extra_names_it_not_a_traceback(tmp_path, monkeypatch):
    # `pip install .` alone (README's quick start) has no textual-serve: `warroom serve` says what to install, as
    # `warroom report` does for matplotlib; `warroom serve roster add` needs nothing more
    monkeypatch.setitem(sys.modules, "textual_serve", None)  # what `import textual_serve` finds when not installed
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "serve"])
    assert result.exit_code == 1
    assert result.output == ("Error: `warroom serve` needs textual-serve, which is not installed: "
                             "pip install 'warroom[serve]'\n")
    added = CliRunner().invoke(main, ["serve", "roster", "add", str(tmp_path / "class.yaml"), "Ada Lovelace"])
    assert added.exit_code == 0 and added.output.startswith("Ada Lovelace\t")

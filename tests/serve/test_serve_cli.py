"""``warroom serve`` on a non-loopback address without a roster warns; the warning never names the store URL."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from serve_support import free_port


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
        import socket

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

"""Packaging: the wheel ships the bundled drills under warroom/drills/, and an installed warroom finds them.

Builds the wheel with the venv's own hatchling (``pip wheel --no-deps --no-build-isolation``: no network, about a
second), then imports warroom from the unpacked wheel in a subprocess started in another directory.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from locations import REPO

import warroom


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("hatchling", reason="building the wheel offline needs hatchling in this environment")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(REPO)],
        check=True, capture_output=True, timeout=120,
    )
    (whl,) = out.glob("warroom-*.whl")
    return whl


def test_wheel_contains_every_bundled_drill_and_the_console_script(wheel: Path):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        entry_points = z.read(f"{dist_info}/entry_points.txt").decode()
        metadata = z.read(f"{dist_info}/METADATA").decode()
    drills = sorted((REPO / "drills").glob("*.yaml"))
    assert drills
    for d in drills:
        assert f"warroom/drills/{d.name}" in names
    assert "warroom/core/load/_loader.py" in names and "warroom/__main__.py" in names
    assert "warroom = warroom.cli:main" in entry_points
    assert f"Version: {warroom.__version__}" in metadata


def test_unpacked_wheel_finds_and_validates_its_drills_from_any_directory(wheel: Path, tmp_path: Path):
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(site)!r})\n"
        "import warroom\n"
        "from pathlib import Path\n"
        f"assert Path(warroom.__file__).resolve().is_relative_to(Path({str(site)!r}).resolve()), warroom.__file__\n"
        "from warroom.core.library._library import bundled_drills_dir, resolve_drill\n"
        f"assert bundled_drills_dir() == Path({str(site)!r}).resolve() / 'warroom' / 'drills', bundled_drills_dir()\n"
        "assert resolve_drill('duplicate-charge-refunds').is_file()\n"
        "from click.testing import CliRunner\n"
        "from warroom.cli import main\n"
        "r = CliRunner().invoke(main, ['validate', str(bundled_drills_dir())])\n"
        "assert r.exit_code == 0, r.output\n"
        "print(r.output, end='')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    n = len(list((REPO / "drills").glob("*.yaml")))
    assert proc.stdout == f"{n} drills checked: {n} valid, 0 invalid\n"

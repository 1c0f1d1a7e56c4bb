"""The size and shape rules of the code base (docs/architecture.md, "Size rules"): a folder holds at most about 15
modules, a function at most 60 lines, and no module is named for a split or re-exports another's names. A module
holds one concept, however long that takes: there is no line cap."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import warroom

PACKAGE = Path(warroom.__file__).parent
MAX_FOLDER_MODULES = 15
MAX_FUNCTION_LINES = 60

#: Names that say a module was split off another for its size, not for its concept.
SPLIT_NAME = re.compile(r"^_?\w*?(2|base|parts)$")


def _sources() -> list[tuple[str, str]]:
    return [(p.relative_to(PACKAGE).as_posix(), p.read_text("utf-8")) for p in sorted(PACKAGE.rglob("*.py"))]


def _folder_counts() -> dict[str, int]:
    """Each folder of the package (relative) and how many modules it holds (its ``__init__`` and data not counted)."""
    counts: dict[str, int] = {}
    for folder in [PACKAGE, *(p for p in PACKAGE.rglob("*") if p.is_dir() and p.name != "__pycache__")]:
        modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        packages = [p for p in folder.iterdir() if (p / "__init__.py").is_file()]
        if modules or packages:
            counts[folder.relative_to(PACKAGE).as_posix()] = len(modules) + len(packages)
    return counts


def test_no_folder_holds_more_than_about_15_modules():
    over = {name: n for name, n in _folder_counts().items() if n > MAX_FOLDER_MODULES}
    assert over == {}


def _long_functions(name: str, text: str) -> dict[str, int]:
    """The functions and methods of ``text`` (module ``name``) over the limit: "name:function" -> lines."""
    over = {}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                over[f"{name}:{node.name}"] = length
    return over


def test_no_function_is_over_60_lines():
    over = {k: v for name, text in _sources() for k, v in _long_functions(name, text).items()}
    assert over == {}


def test_no_module_is_named_for_a_split():
    split = {name for name, _ in _sources() if SPLIT_NAME.match(Path(name).stem)}
    assert split == set()


def _reexports(text: str) -> list[str]:
    """``from x import Name as Name`` (the explicit re-export spelling) in a module."""
    return [
        a.name
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ImportFrom)
        for a in node.names
        if a.asname == a.name
    ]


def test_no_module_re_exports_another_modules_names():
    """A name is imported from where it is defined, or from its package's API: never through a shim."""
    shims = {name: found for name, text in _sources() if (found := _reexports(text))}
    assert shims == {}
    moved = {name for name, text in _sources() if re.search(r"re-?export", text, re.IGNORECASE)}
    assert moved == set()


def test_the_checks_see_the_code_and_measure_it():
    sources = dict(_sources())
    assert len(sources) > 50 and "core/model/_drill.py" in sources and "tui/app/_app.py" in sources
    assert _folder_counts()["core"] == 13  # twelve sub-packages and settings.py
    assert SPLIT_NAME.match("validation2") and SPLIT_NAME.match("_modelbase") and SPLIT_NAME.match("replayparts")
    assert not SPLIT_NAME.match("_parts_of_speech") and not SPLIT_NAME.match("base64")
    assert _reexports("from a import B as B, C\nfrom d import E as F\n") == ["B"]
    # a method of 61 lines is caught, a function of 60 is not
    body = "\n".join(f"        x{i} = {i}" for i in range(60))
    assert _long_functions("m.py", f"class C:\n    def f(self):\n{body}\n") == {"m.py:f": 61}
    assert _long_functions("m.py", "def g():\n" + "\n".join(f"    y{i} = {i}" for i in range(59)) + "\n") == {}

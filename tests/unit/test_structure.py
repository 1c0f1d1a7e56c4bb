"""The size limits of the code base (docs/architecture.md): no module of warroom over 400 lines, no function over
60. There are no exceptions: split a module or a function that grows past the limit along its seams (the allow-lists
stay empty)."""

from __future__ import annotations

import ast
from pathlib import Path

import warroom

PACKAGE = Path(warroom.__file__).parent
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60

#: Files allowed over the limit, relative to the package: none.
FILES_OVER: set[str] = set()
#: Functions allowed over the limit, as "file:function": none.
FUNCTIONS_OVER: set[str] = set()


def _sources() -> list[tuple[str, str]]:
    return [(p.relative_to(PACKAGE).as_posix(), p.read_text("utf-8")) for p in sorted(PACKAGE.rglob("*.py"))]


def test_no_module_is_over_400_lines():
    over = {name: text.count("\n") for name, text in _sources() if text.count("\n") > MAX_FILE_LINES}
    assert set(over) <= FILES_OVER, over


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
    assert set(over) <= FUNCTIONS_OVER, over


def test_the_checks_see_the_code_and_measure_it():
    sources = dict(_sources())
    assert len(sources) > 50 and "core/model.py" in sources and "tui/app.py" in sources
    # a method of 61 lines is caught, a function of 60 is not
    body = "\n".join(f"        x{i} = {i}" for i in range(60))
    assert _long_functions("m.py", f"class C:\n    def f(self):\n{body}\n") == {"m.py:f": 61}
    assert _long_functions("m.py", "def g():\n" + "\n".join(f"    y{i} = {i}" for i in range(59)) + "\n") == {}

"""The exception tree drawn in warroom/errors.py is the tree the code has: every exception class of warroom, its
parent, its builtin bases and the package that defines it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import warroom
import warroom.errors
from warroom.errors import WarroomError

#: Exception classes that never leave the code that raises them (named in the docstring's last paragraph).
INTERNAL = {"Abort", "ScalarError", "_Unusual", "_Twice"}


def _classes() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(warroom.__path__, "warroom."):
        module = importlib.import_module(info.name)
        for name, cls in vars(module).items():
            if inspect.isclass(cls) and issubclass(cls, BaseException) and cls.__module__ == module.__name__:
                assert name not in found, f"two exception classes named {name}"
                found[name] = cls
    return found


def _drawn() -> dict[str, tuple[str | None, set[str], str]]:
    """name -> (parent, builtin bases, package) as drawn in the docstring's tree."""
    doc = warroom.errors.__doc__ or ""
    tree: dict[str, tuple[str | None, set[str], str]] = {}
    stack: list[tuple[int, str]] = []
    package = ""
    for line in doc.split("::", 1)[1].split("\n\n", 2)[1].splitlines():
        m = re.match(r"^(\s*[│├└─ ]*)(\w+)(?: \[([^\]]+)\])?.*?(warroom[\w.]*)?\s*$", line)
        assert m, line
        depth = len(m.group(1))
        while stack and stack[-1][0] >= depth:
            stack.pop()
        package = m.group(4) or package
        bases = {b.strip() for b in (m.group(3) or "").split(",") if b.strip()}
        tree[m.group(2)] = (stack[-1][1] if stack else None, bases, package)
        stack.append((depth, m.group(2)))
    return tree


def test_every_exception_class_is_in_the_tree_where_it_is_drawn():
    classes = _classes()
    drawn = _drawn()
    assert set(classes) - INTERNAL == set(drawn)
    for name, (parent, bases, package) in drawn.items():
        cls = classes[name]
        assert issubclass(cls, WarroomError), name
        assert cls.__module__.startswith(package), f"{name} is defined in {cls.__module__}, drawn in {package}"
        if parent is not None:
            assert classes[parent] in cls.__bases__, f"{name} should derive from {parent}"
        builtins = {f"{b.__module__}.{b.__name__}".removeprefix("builtins.").removeprefix("click.exceptions.")
                    for b in cls.__bases__ if not b.__module__.startswith("warroom") and b is not Exception}
        assert {b.removeprefix("click.") for b in bases} == builtins, name


def test_internal_signals_stay_out_of_the_tree():
    classes = _classes()
    assert set(classes) >= INTERNAL
    assert not any(issubclass(classes[n], WarroomError) for n in INTERNAL - {"_Unusual"})

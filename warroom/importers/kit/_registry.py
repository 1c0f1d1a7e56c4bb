"""The registry of importers: every folder of :mod:`warroom.importers` whose API names an ``IMPORTER`` (an
:class:`~warroom.importers.kit.Importer`) registers itself by doing so; nothing else lists the formats. The
``warroom import`` subcommands, the recognition of a file (:mod:`._recognise`) and every refusal's advice come
from here."""

from __future__ import annotations

import functools
import importlib
import pkgutil

from warroom.importers.kit._importer import Importer


@functools.cache
def _registered() -> tuple[Importer, ...]:
    import warroom.importers as package

    found: list[Importer] = []
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if not info.ispkg:
            continue
        module = importlib.import_module(info.name)  # its API only: the importer's reading code is not imported
        if "IMPORTER" in getattr(module, "__all__", ()):
            found.append(module.IMPORTER)
    return tuple(sorted(found, key=lambda i: i.name))


def importers() -> dict[str, Importer]:
    """Every importer by its name (the ``warroom import`` subcommand), in the order of their names."""
    return {i.name: i for i in _registered()}


# The API of warroom.importers.langsmith (its __init__.py loads each name on first use, from the module named here).
# keep: IMPORTER, import_langsmith

from ._importer import IMPORTER, import_langsmith

__all__ = [
    "IMPORTER",
    "import_langsmith",
]

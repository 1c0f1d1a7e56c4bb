# The API of warroom.importers.langsmith (its __init__.py loads each name on first use, from the module named here).
# keep: IMPORTER, convert_file, import_langsmith

from ._importer import IMPORTER, convert_file, import_langsmith

__all__ = [
    "IMPORTER",
    "convert_file",
    "import_langsmith",
]

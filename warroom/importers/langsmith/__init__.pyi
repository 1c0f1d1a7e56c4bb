# The API of warroom.importers.langsmith (its __init__.py loads each name on first use, from the module named here).

from ._runs import convert_file, import_langsmith

__all__ = [
    "convert_file",
    "import_langsmith",
]

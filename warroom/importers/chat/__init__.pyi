# The API of warroom.importers.chat (its __init__.py loads each name on first use, from the module named here).
# keep: IMPORTER, import_chats

from ._importer import IMPORTER, import_chats

__all__ = [
    "IMPORTER",
    "import_chats",
]

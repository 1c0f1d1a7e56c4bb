# The API of warroom.importers.openinference (its __init__.py loads each name on first use, from the module named here).
# keep: IMPORTER, import_openinference

from ._importer import IMPORTER, import_openinference
from ._values import value_messages

__all__ = [
    "IMPORTER",
    "import_openinference",
    "value_messages",
]

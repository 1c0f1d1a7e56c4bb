# The API of warroom.importers.otlp (its __init__.py loads each name on first use, from the module named here).

from ._convert import SUFFIXES, convert_otlp_file, import_otlp
from ._document import read_spans

__all__ = [
    "SUFFIXES",
    "convert_otlp_file",
    "import_otlp",
    "read_spans",
]

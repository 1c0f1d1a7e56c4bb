# The API of warroom.importers.otlp (its __init__.py loads each name on first use, from the module named here).

from ._convention import span_convention
from ._convert import convert_otlp_file
from ._document import read_spans
from ._importer import ConventionImporter

__all__ = [
    "ConventionImporter",
    "convert_otlp_file",
    "read_spans",
    "span_convention",
]

# The API of warroom.cli.author (its __init__.py loads each name on first use, from the module named here).
# keep: annotate, check, cost, migrate, new, project, schema, validate

from ._annotate import annotate
from ._check import check
from ._cost import cost
from ._migrate import migrate
from ._new import new
from ._project import project
from ._schema import schema
from ._validate import validate

__all__ = [
    "annotate",
    "check",
    "cost",
    "migrate",
    "new",
    "project",
    "schema",
    "validate",
]

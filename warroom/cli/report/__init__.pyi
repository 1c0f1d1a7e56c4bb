# The API of warroom.cli.report (its __init__.py loads each name on first use, from the module named here).
# keep: report

from ._command import report

__all__ = [
    "report",
]

# The API of warroom.core.variants (its __init__.py loads each name on first use, from the module named here).
# keep: NoTwinError

from ._apply import VariantError, apply_variant, new_seed
from ._trial import NoTwinError, drill_to_play

__all__ = [
    "NoTwinError",
    "VariantError",
    "apply_variant",
    "drill_to_play",
    "new_seed",
]

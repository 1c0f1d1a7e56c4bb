# The API of warroom.core.variants (its __init__.py loads each name on first use, from the module named here).

from ._apply import VariantError, apply_variant, new_seed

__all__ = [
    "VariantError",
    "apply_variant",
    "new_seed",
]

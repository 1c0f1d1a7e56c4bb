# The API of warroom.core.variants (its __init__.py loads each name on first use, from the module named here).
# keep: DEFAULT_NOISE_RATE, can_play_as, draw_played_as, session_drill

from ._apply import VariantError, apply_variant, new_seed
from ._ids import ids_by_position
from ._trial import DEFAULT_NOISE_RATE, can_play_as, draw_played_as, never_noise, played_drill, session_drill

__all__ = [
    "DEFAULT_NOISE_RATE",
    "VariantError",
    "apply_variant",
    "can_play_as",
    "draw_played_as",
    "ids_by_position",
    "never_noise",
    "new_seed",
    "played_drill",
    "session_drill",
]

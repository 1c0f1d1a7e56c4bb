# The API of warroom.store.live (its __init__.py loads each name on first use, from the module named here).

from ._table import (
    DISCONNECTED,
    FINISHED,
    OPEN_STATES,
    PICKER,
    PLAYING,
    SIGNED_IN,
    TAKEN_OVER,
    LiveTab,
    claim_tab,
    forget_host,
    publish_live,
    read_live,
    take_over_tabs,
)

__all__ = [
    "DISCONNECTED",
    "FINISHED",
    "LiveTab",
    "OPEN_STATES",
    "PICKER",
    "PLAYING",
    "SIGNED_IN",
    "TAKEN_OVER",
    "claim_tab",
    "forget_host",
    "publish_live",
    "read_live",
    "take_over_tabs",
]

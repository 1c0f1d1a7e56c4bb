# The API of warroom.store.live (its __init__.py loads each name on first use, from the module named here).

from ._table import DISCONNECTED, FINISHED, PICKER, PLAYING, SIGNED_IN, LiveTab, forget_host, publish_live, read_live

__all__ = [
    "DISCONNECTED",
    "FINISHED",
    "LiveTab",
    "PICKER",
    "PLAYING",
    "SIGNED_IN",
    "forget_host",
    "publish_live",
    "read_live",
]

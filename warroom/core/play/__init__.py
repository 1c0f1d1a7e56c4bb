"""A drill played on an injected drill clock: the Replay, its release queue, probes in play, the cost meter and what an
escalation cites.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

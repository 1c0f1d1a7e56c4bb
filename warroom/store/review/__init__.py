"""Stored sessions played again on their drill: finding and loading the drill file a session was played on and
telling whether it changed (``_drill``), the after-action review's rows (``_review``: the trace with the answer key
and the trainee's actions marked, no Textual), and re-scoring stored sessions by an edition of the scoring rules
(``_rescore``).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

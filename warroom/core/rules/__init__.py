"""The semantic rules of a drill, beyond its types: ids and references, time order, the answer key, format 2 (agents,
batches, retries, approvals), probes, the variants section.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

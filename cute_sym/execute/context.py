"""The thread a call runs as: the simulation sets it, the algorithms read it.

Outside a simulation there is no thread (``current()`` is None): an algorithm whose atom
spans several threads (ldmatrix, mma.sync) cannot run there, and says so.
"""
from __future__ import annotations

import threading
from typing import Any, Optional

__all__ = ["current", "set_current"]

_LOCAL = threading.local()


def current() -> Optional[Any]:
    """The running simulated thread (an object with ``tid`` and ``collective(...)``), or None."""
    return getattr(_LOCAL, "thread", None)


def set_current(thread: Optional[Any]) -> None:
    _LOCAL.thread = thread

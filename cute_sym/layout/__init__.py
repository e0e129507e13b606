"""The layout: the immutable ``Shape:Stride`` function, its modes, and coordinates."""
from .layout import *  # noqa: F401,F403
from .layout import __all__ as _layout_all
from .coords import crd2idx, idx2crd, as_coordinate

__all__ = [*_layout_all, "crd2idx", "idx2crd", "as_coordinate"]

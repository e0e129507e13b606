"""The layout: the immutable ``Shape:Stride`` function (``layout``), its modes (``modes``), coordinates (``coords``)."""
from .layout import *  # noqa: F401,F403
from .layout import __all__ as _layout_all
from .modes import *  # noqa: F401,F403
from .modes import __all__ as _modes_all
from .coords import crd2idx, idx2crd, as_coordinate

__all__ = [*_layout_all, *_modes_all, "crd2idx", "idx2crd", "as_coordinate"]

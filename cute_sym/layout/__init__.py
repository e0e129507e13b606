"""The layout: the immutable ``Shape:Stride`` function (``layout``), its queries (``queries``), its
modes (``modes``), coordinates (``coords``), the tuple builders (``make``), layouts in a mode
order (``ordered``)."""
from .layout import *  # noqa: F401,F403
from .layout import __all__ as _layout_all
from .queries import *  # noqa: F401,F403
from .queries import __all__ as _queries_all
from .modes import *  # noqa: F401,F403
from .modes import __all__ as _modes_all
from .coords import crd2idx, idx2crd, as_coordinate
from .make import make_shape, make_stride, make_coord, make_step, make_tile
from .ordered import make_ordered_layout, make_layout_like

__all__ = [*_layout_all, *_queries_all, *_modes_all, "crd2idx", "idx2crd", "as_coordinate",
           "make_shape", "make_stride", "make_coord", "make_step", "make_tile", "make_ordered_layout",
           "make_layout_like"]

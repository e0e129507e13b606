"""Pictures of a TMEM copy: which thread and value of a ``tcgen05.ld``/``st`` tiled copy each
element of a TMEM tensor goes to (or comes from), drawn over TMEM's lanes (rows) and
columns.

A load's destination (a store's source) is the registers: thread ``t``'s fragment, value
``v`` in it (the order of ``partition_D`` of a tensor, ``(CPY_V, CPY_M, CPY_N, ...)`` read
column-major). Each register value is one element of the tensor, and the tensor's layout
puts that element at a TMEM offset, ``lane * DP<T> + column`` (for an element narrower than
32 bits, ``column`` counts elements: two ``half_t`` share a 32-bit column). The picture has
one cell per element, at its (lane, column) relative to the tensor's first lane and column,
labelled ``T t`` / ``V v`` and colored by thread as CuTe's TV pictures are; each warp's
cells fill its own 32-lane quarter.

>>> from cute_sym.notation import parse
>>> from cute_sym.tensor.tensor import make_tensor
>>> from cute_sym.tensor.tmem_space import make_tmem_ptr
>>> from cute_sym.tensor.tmem_copy import make_tmem_copy
>>> acc = make_tensor(make_tmem_ptr("float", "acc"), parse("(_128,_4):(_65536,_1)"))
>>> pic = tmem_copy_picture(make_tmem_copy("SM100_TMEM_LOAD_32dp32b2x", acc), acc)
>>> pic.tile, pic.panels[0].cells[:3]           # thread 0: lane 0, its columns 0, 1 are values 0, 1
((128, 4), ((0, 0, 0, 0), (0, 1, 0, 1), (0, 2, 0, 2)))
>>> [c for c in pic.panels[0].cells if c[2] == 33][:2]      # thread 33 (warp 1): lane 33
[(33, 0, 33, 0), (33, 1, 33, 1)]
"""
from __future__ import annotations

import sys
from typing import Any, Optional, TextIO

from ..core.errors import LayoutError
from ..layout import Layout, make_layout, size
from ..tensor.copy import TiledCopy
from ..tensor.tensor import Tensor
from ..tensor.tmem_space import TMEM_DP, is_tmem
from .latex import picture_latex
from .model import Panel, Picture, clip_note
from .svg import picture_svg

__all__ = ["tmem_copy_picture", "latex_tmem_copy", "svg_tmem_copy", "print_latex_tmem_copy", "print_svg_tmem_copy"]


def _static(x: Any, what: str) -> int:
    if type(x) is not int:
        raise LayoutError(f"a TMEM copy picture needs static {what}, got {x}")
    return x


def tmem_copy_picture(tc: TiledCopy, tmem: Tensor, max_rows: Optional[int] = None,
                      max_cols: Optional[int] = None) -> Picture:
    """The picture of the TMEM copy ``tc`` (as :func:`~cute_sym.make_tmem_copy` makes it) over ``tmem``.

    @pre ``tmem`` is a static tensor over a TMEM pointer and ``tc`` a TMEM load or store tiled over it;
         else :class:`LayoutError`.
    @post one ``"tv"`` panel of ``lanes x columns`` (those the tensor spans, from its first); cell
          ``(lane, col, t, v)`` for the register value ``v`` of thread ``t`` holding the element at
          that TMEM place; each element of ``tmem`` drawn once.
    """
    if not isinstance(tc, TiledCopy) or not tc.Traits.is_tmem:
        raise LayoutError(f"tmem_copy_picture: expected a TMEM tiled copy (make_tmem_copy), got {tc!r}")
    if not isinstance(tmem, Tensor) or not is_tmem(tmem) or not isinstance(tmem.layout, Layout):
        raise LayoutError("tmem_copy_picture: expected a tensor over a TMEM pointer with a plain layout")
    load = "_STORE_" not in tc.Traits.name
    data = tmem.layout
    shape = data.shape
    n = _static(size(data), "sizes")
    dp = TMEM_DP(tmem.engine.dtype or "uint32_t")       # type: ignore[union-attr]
    # (thr, val, rest...) -> index of the tensor's coordinate (column-major), on the register side
    frg = tc.tidfrg_D(make_layout(shape)) if load else tc.tidfrg_S(make_layout(shape))
    nthr = _static(size(frg[0]), "thread counts")
    per_thr = _static(size(frg), "sizes") // nthr
    rest = make_layout(frg.shape[1:], frg.stride[1:]) if frg.rank() > 2 else frg[1]
    place: dict[int, tuple[int, int]] = {}
    for t in range(nthr):
        t_off = _static(frg[0](t), "offsets")
        for v in range(per_thr):
            idx = _static(t_off + rest(v), "offsets")
            if 0 <= idx < n and idx not in place:
                place[idx] = (t, v)
    offs = {idx: _static(data(idx), "offsets") for idx in place}
    lanes = {o // dp for o in offs.values()}
    cols = {o % dp for o in offs.values()}
    lane0, col0 = min(lanes), min(cols)
    rows, ncols = max(lanes) - lane0 + 1, max(cols) - col0 + 1
    r = rows if max_rows is None else min(rows, max_rows)
    c = ncols if max_cols is None else min(ncols, max_cols)
    cells = sorted((o // dp - lane0, o % dp - col0) + place[i] for i, o in offs.items())
    cells = [x for x in cells if x[0] < r and x[1] < c]
    header = f"{tc.Traits.name} over {tmem}"
    panel = Panel("TMEM", r, c, "tv", tuple(cells), header, rows, ncols, "lane", "col")
    title = (f"TMEM {'load' if load else 'store'} {tc.Traits.name} of {tc.ValType} over {tmem}",
             f"TMEM lanes {lane0}..{lane0 + rows - 1} (rows) x columns {col0}..{col0 + ncols - 1} (across): "
             f"the register thread T and value V of each element")
    return Picture("tv", (panel,), title, (rows, ncols), f"({rows},{ncols})", clip_note(rows, ncols, r, c))


def latex_tmem_copy(tc: TiledCopy, tmem: Tensor) -> str:
    """TikZ text of :func:`tmem_copy_picture` (in the format of CuTe's ``print_latex_tv``, colored by thread)."""
    return picture_latex(tmem_copy_picture(tc, tmem))


def svg_tmem_copy(tc: TiledCopy, tmem: Tensor, max_rows: Optional[int] = None, max_cols: Optional[int] = None) -> str:
    """cute_sym's SVG of :func:`tmem_copy_picture`."""
    return picture_svg(tmem_copy_picture(tc, tmem, max_rows, max_cols))


def print_latex_tmem_copy(tc: TiledCopy, tmem: Tensor, file: Optional[TextIO] = None) -> None:
    """Print :func:`latex_tmem_copy`."""
    (file or sys.stdout).write(latex_tmem_copy(tc, tmem))


def print_svg_tmem_copy(tc: TiledCopy, tmem: Tensor, file: Optional[TextIO] = None) -> None:
    """Print :func:`svg_tmem_copy`."""
    (file or sys.stdout).write(svg_tmem_copy(tc, tmem) + "\n")

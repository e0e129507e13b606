"""Pictures of the objects above layouts: tensors, MMA atoms and TiledMMA, TiledCopy.

CuTe draws an MMA as three TV panels (C at the origin, A to its left, B on
top) over the tile ``(M, N, K)``, and a copy as two (S, D) over ``(M, N)``;
:func:`mma_picture` and :func:`copy_picture` build them from plain TV layouts
(``(thread, value) -> index`` of the tile, as ``get_layoutC_TV()`` returns).

>>> from cute_sym.notation import parse
>>> p = copy_picture(parse("(_2,_1):(_1,_0)"), parse("(_2,_1):(_1,_0)"), (2, 1))
>>> [q.name for q in p.panels], p.panels[1].cells
(['S', 'D'], ((0, 0, 0, 0), (1, 0, 1, 0)))
"""
from __future__ import annotations

from typing import Any, Optional

from ..core.errors import LayoutError
from .model import Bind, Picture, _clip_note, _tile_extents, tv_panel, tv_source

__all__ = ["mma_picture", "copy_picture", "picture_of", "is_mma"]


def mma_picture(C: Any, A: Any, B: Any, tile_mnk: Any, tile_text: Optional[str] = None,
                title: tuple[str, ...] = (), max_rows: Optional[int] = None,
                max_cols: Optional[int] = None) -> Picture:
    """The panels of CuTe's MMA picture: C ``(m, n)``, A ``(m, k)`` and B drawn ``(k, n)``.

    ``C``, ``A``, ``B`` map ``(thread, value)`` to an index of the ``(M, N)``,
    ``(M, K)`` and ``(N, K)`` tiles (or are coordinate tensors with ``tv_coords``).

    @post panel C has ``M x N`` cells, A ``M x K``, B ``K x N``; each cell is
          owned by the first ``(t, v)`` (thread-major) that reaches it.
    """
    M, N, K = _tile_extents(tile_mnk)
    sc = tv_source(C, (M, N))
    sa = tv_source(A, (M, K))
    sb = tv_source(B, (N, K), swap=True)
    panels = (tv_panel(sc, "C", M, N, "m", "n", max_rows, max_cols),
              tv_panel(sa, "A", M, K, "m", "k", max_rows, max_cols),
              tv_panel(sb, "B", K, N, "k", "n", max_rows, max_cols))
    text = tile_text if tile_text is not None else f"({M},{N},{K})"
    notes = [n for n in (_clip_note(M, N, panels[0].rows, panels[0].cols, "C cells"),
                         _clip_note(M, K, panels[1].rows, panels[1].cols, "A cells"),
                         _clip_note(K, N, panels[2].rows, panels[2].cols, "B cells")) if n]
    return Picture("mma", panels, title or (f"MMA tile {text}",), (M, N, K), text, "; ".join(notes))


def copy_picture(S: Any, D: Any, tile_mn: Any, title: tuple[str, ...] = (),
                 max_rows: Optional[int] = None, max_cols: Optional[int] = None) -> Picture:
    """The panels of CuTe's copy picture: source S and destination D over the ``(M, N)`` tile.

    @post two panels of ``M x N`` cells, each cell owned by the first ``(t, v)`` reaching it.
    """
    M, N = _tile_extents(tile_mn)
    s, d = tv_source(S, (M, N)), tv_source(D, (M, N))
    panels = (tv_panel(s, "S", M, N, max_rows=max_rows, max_cols=max_cols),
              tv_panel(d, "D", M, N, max_rows=max_rows, max_cols=max_cols))
    return Picture("copy", panels, title or (f"copy tile ({M},{N})",), (M, N), f"({M},{N})",
                   _clip_note(M, N, panels[0].rows, panels[0].cols))


def is_mma(x: Any) -> bool:
    """Whether ``x`` is drawn as an MMA (a TiledMMA or an MMA atom)."""
    return callable(getattr(x, "get_layoutC_TV", None)) or callable(getattr(x, "make_tiled_mma", None))


def picture_of(x: Any, bind: Bind, max_rows: Optional[int], max_cols: Optional[int]) -> Picture:
    """The picture of a tensor, an MMA or a copy."""
    raise LayoutError(f"no picture of a {type(x).__name__} ({x}): pictures are of layouts, "
                      "composed layouts, tensors, TiledMMA and TiledCopy")

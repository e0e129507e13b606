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
from ..layout.layout import Layout
from dataclasses import replace

from ..core.int_tuple import _, product_each
from ..layout import make_layout, slice_
from ..tensor import (
    ArrayEngine, CountingEngine, Tensor, composition as tensor_composition, logical_divide, make_identity_tensor,
)
from ..tensor.copy import TiledCopy
from ..tensor.mma import MMA_Atom, TiledMMA, make_tiled_mma
from .model import (
    Bind, Picture, clip_note, tile_extents, bound, drawable, layout_picture, static_int, tv_panel, tv_source,
)

__all__ = ["mma_picture", "copy_picture", "picture_of", "is_mma"]


def mma_picture(C: Any, A: Any, B: Any, tile_mnk: Any, tile_text: Optional[str] = None,
                title: tuple[str, ...] = (), max_rows: Optional[int] = None,
                max_cols: Optional[int] = None, headers: Optional[tuple[str, str, str]] = None) -> Picture:
    """The panels of CuTe's MMA picture: C ``(m, n)``, A ``(m, k)`` and B drawn ``(k, n)``.

    ``C``, ``A``, ``B`` map ``(thread, value)`` to an index of the ``(M, N)``,
    ``(M, K)`` and ``(N, K)`` tiles (or are coordinate tensors with ``tv_coords``);
    ``headers`` replace how C, A, B print in CuTe's comment lines.

    @post panel C has ``M x N`` cells, A ``M x K``, B ``K x N``; each cell is
          owned by the first ``(t, v)`` (thread-major) that reaches it.

    >>> from cute_sym.notation import parse
    >>> p = mma_picture(parse("(_1,_2):(_0,_1)"), parse("(_1,_2):(_0,_1)"), parse("(_1,_1):(_0,_0)"), (2, 1, 1))
    >>> [(q.name, q.rows, q.cols, len(q.cells)) for q in p.panels]
    [('C', 2, 1, 2), ('A', 2, 1, 2), ('B', 1, 1, 1)]
    """
    M, N, K = tile_extents(tile_mnk)
    sc = tv_source(C, (M, N), header=headers[0] if headers else None)
    sa = tv_source(A, (M, K), header=headers[1] if headers else None)
    sb = tv_source(B, (N, K), swap=True, header=headers[2] if headers else None)
    panels = (tv_panel(sc, "C", M, N, "m", "n", max_rows, max_cols),
              tv_panel(sa, "A", M, K, "m", "k", max_rows, max_cols),
              tv_panel(sb, "B", K, N, "k", "n", max_rows, max_cols))
    text = tile_text if tile_text is not None else f"({M},{N},{K})"
    notes = [n for n in (clip_note(M, N, panels[0].rows, panels[0].cols, "C cells"),
                         clip_note(M, K, panels[1].rows, panels[1].cols, "A cells"),
                         clip_note(K, N, panels[2].rows, panels[2].cols, "B cells")) if n]
    return Picture("mma", panels, title or (f"MMA tile {text}",), (M, N, K), text, "; ".join(notes))


def copy_picture(S: Any, D: Any, tile_mn: Any, title: tuple[str, ...] = (),
                 max_rows: Optional[int] = None, max_cols: Optional[int] = None,
                 headers: Optional[tuple[str, str]] = None) -> Picture:
    """The panels of CuTe's copy picture: source S and destination D over the ``(M, N)`` tile.

    @post two panels of ``M x N`` cells, each cell owned by the first ``(t, v)`` reaching it.

    >>> from cute_sym.notation import parse
    >>> copy_picture(parse("(_2,_2):(_1,_2)"), parse("(_2,_2):(_2,_1)"), (2, 2)).panels[1].cells[:2]
    ((0, 0, 0, 0), (1, 0, 0, 1))
    """
    M, N = tile_extents(tile_mn)
    s = tv_source(S, (M, N), header=headers[0] if headers else None)
    d = tv_source(D, (M, N), header=headers[1] if headers else None)
    panels = (tv_panel(s, "S", M, N, max_rows=max_rows, max_cols=max_cols),
              tv_panel(d, "D", M, N, max_rows=max_rows, max_cols=max_cols))
    return Picture("copy", panels, title or (f"copy tile ({M},{N})",), (M, N), f"({M},{N})",
                   clip_note(M, N, panels[0].rows, panels[0].cols))


def is_mma(x: Any) -> bool:
    """Whether ``x`` is drawn as an MMA (a TiledMMA or an MMA atom).

    >>> from cute_sym.tensor.mma import make_tiled_mma
    >>> is_mma(make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN")), is_mma(3)
    (True, False)
    """
    return isinstance(x, (TiledMMA, MMA_Atom))


def coord_header(tile: tuple[int, ...], tv: Layout) -> str:
    """How CuTe prints ``composition(make_identity_tensor(tile), tv)``: ``ArithTuple(_0,_0) o ...``.

    The TV layout's offsets become coordinates of the tile: strides are scaled
    basis elements ``_k@i`` (the tensor layer's composition with an identity layout).

    >>> from cute_sym.notation import parse
    >>> coord_header((4, 2), parse("(_2,_4):(_4,_1)"))
    'ArithTuple(_0,_0) o (_2,_4):(_1@1,_1@0)'
    """
    return str(tensor_composition(make_identity_tensor(tile), tv))


def _mma(mma: TiledMMA, max_rows: Optional[int], max_cols: Optional[int]) -> Picture:
    tile = mma.tile_shape()
    M, N, K = tile_extents(tile)
    C, A, B = mma.get_layoutC_TV(), mma.get_layoutA_TV(), mma.get_layoutB_TV()
    h = (coord_header((M, N), C), coord_header((M, K), A), coord_header((N, K), B))
    title = (f"TiledMMA {mma.atom.name} over atoms {mma.atom_layout_mnk}",
             f"tile (M,N,K) = {tile}: C (m,n) bottom right, A (m,k) left, B (k,n) top")
    return mma_picture(C, A, B, (M, N, K), str(tile), title, max_rows, max_cols, h)


def _copy(tc: TiledCopy, max_rows: Optional[int], max_cols: Optional[int]) -> Picture:
    # CuTe's tile: product_each(shape(logical_divide(make_layout((_1,_1)), Tiler_MN))), the tiler's
    # reach (a tiler mode that is a strided layout spans more than its size)
    M, N = tile_extents(product_each(logical_divide(make_layout((1, 1)), tc.Tiler_MN).shape))
    # CuTe draws tidfrg_S/D(make_identity_tensor(tile))(_,_,0): through the tiler, whose modes may be
    # layouts that reorder the tile (make_tmem_copy's (_4,_32):(_32,_1)), so not get_layoutS_TV
    ref = make_layout((M, N))
    S, D = (_first_tile(f(ref)) for f in (tc.tidfrg_S, tc.tidfrg_D))
    h = (coord_header((M, N), S), coord_header((M, N), D))
    title = (f"TiledCopy {tc.Traits.name} of {tc.ValType}: TiledLayout_TV {tc.TiledLayout_TV}",
             f"tile (M,N) = ({M},{N}): S (source) left, D (destination) right")
    return copy_picture(S, D, (M, N), title, max_rows, max_cols, h)


def _first_tile(frg: Any) -> Layout:
    """``frg(_,_,0)``: the (thread, value) modes of a ``tidfrg`` layout at its first tile."""
    out = slice_((_, _, 0), frg)
    if not isinstance(out, Layout):
        raise LayoutError(f"a copy picture needs a plain layout, got {out}")
    return out


def _element_text(v: Any) -> str:
    """A tensor element in a cell: a number, or a coordinate ``(1,2)`` (no ``_`` marks)."""
    return str(v).replace("_", "")


def tensor_picture(t: Tensor, bind: Bind, max_rows: Optional[int], max_cols: Optional[int]) -> Picture:
    """The picture of a rank <= 2 tensor: its layout's grid, the tensor in the title.

    * over a pointer: each cell holds the element's offset from the pointer's base
      (the pointer's offset plus ``layout(m, n)``), colored as ``print_latex`` colors it;
    * over an array: each cell holds the array's value, colored by its index;
    * a counting (identity) tensor: each cell holds its coordinate, colored by the
      cell's 1-D index ``m + n * M``.

    @post the title's first line is ``str(t)``; symbols take their values from ``bind``.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.tensor import make_identity_tensor, make_gmem_ptr, make_tensor
    >>> tensor_picture(make_identity_tensor((2, 2)), None, None, None).panels[0].texts
    ('(0,0)', '(0,1)', '(1,0)', '(1,1)')
    >>> [c[2] for c in tensor_picture(make_tensor(make_gmem_ptr("A", offset=4), parse("_3:_2")),
    ...                                         None, None, None).panels[0].cells]
    [4, 6, 8]
    """
    shown = bound(t, bind)
    lay, eng = shown.layout, shown.engine
    if isinstance(eng, CountingEngine):
        dom = drawable(make_layout(lay.shape), "picture")
        pic = layout_picture(dom, None, max_rows, max_cols, "picture")
        p = pic.panels[0]
        two = lay.rank() == 2
        texts = tuple(_element_text(shown(m, n) if two else shown(m)) for m, n, _, _ in p.cells)
        panel = replace(p, texts=texts, header=str(shown))
        return replace(pic, panels=(panel,), title=(str(t),) + _bound_line(t, shown, bind))
    pic = layout_picture(lay, None, max_rows, max_cols, "picture")
    p = pic.panels[0]
    base = static_int(getattr(eng, "offset", 0), "pointer offset")
    cells = tuple((m, n, base + idx, 0) for m, n, idx, _ in p.cells)
    values: Optional[tuple[str, ...]] = None
    if isinstance(eng, ArrayEngine):
        values = tuple(_element_text(eng[idx]) for _, _, idx, _ in p.cells)    # the engine adds its offset
    panel = replace(p, cells=cells, texts=values, header=str(shown))
    return replace(pic, panels=(panel,), title=(str(t),) + _bound_line(t, shown, bind))


def _bound_line(t: Tensor, shown: Tensor, bind: Bind) -> tuple[str, ...]:
    if not bind or str(t) == str(shown):
        return ()
    return ("drawn at " + ", ".join(f"{k}={v}" for k, v in sorted(bind.items())) + f": {shown}",)


def picture_of(x: Any, bind: Bind, max_rows: Optional[int], max_cols: Optional[int]) -> Picture:
    """The picture of a tensor, an MMA atom, a TiledMMA or a TiledCopy.

    >>> from cute_sym.tensor.mma import MMA_Atom
    >>> picture_of(MMA_Atom("SM80_16x8x8_F16F16F16F16_TN"), None, None, None).tile_text
    '(_16,_8,_8)'
    """
    if isinstance(x, Tensor):
        return tensor_picture(x, bind, max_rows, max_cols)
    if isinstance(x, MMA_Atom):
        x = make_tiled_mma(x)
    if isinstance(x, TiledMMA):
        return _mma(x, max_rows, max_cols)
    if isinstance(x, TiledCopy):
        return _copy(x, max_rows, max_cols)
    raise LayoutError(f"no picture of a {type(x).__name__} ({x}): pictures are of layouts, "
                      "composed layouts, tensors, TiledMMA and TiledCopy")

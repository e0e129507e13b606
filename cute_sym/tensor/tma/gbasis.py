"""The TMA box: which gmem modes a TMA instruction walks, and how far (CuTe's
``construct_tma_gbasis`` and ``coalesce_256``, ``copy_traits_sm90_tma.hpp``).

The smem layout is inverted (smem index -> tile coordinate: its longest contiguous
vector), composed with the CTA tile's map into gmem coordinates (scaled bases
``_1@i``), and cut where a step stops being one gmem coordinate unit: that prefix is
the box, in smem order. Its gmem strides are merged greedily up to 256 elements (the
largest box extent), and the gmem modes the tile does not walk are appended with
extent 1. The result maps the box (at most rank 5) to gmem modes:

>>> from cute_sym.notation import parse
>>> from cute_sym.tensor.basis_layout import make_identity_layout
>>> from cute_sym.swizzle import composition
>>> g = parse("(512,64,5):(_1,512,32768)")
>>> s = parse("((_32,_2),(_8,_4)):((_1,_256),(_32,_512))")
>>> print(construct_tma_gbasis(g, s, composition(make_identity_layout(g.shape), (64, 32))))
(_32,_8,_1):(_1@0,_1@1,_1@2)
"""
from __future__ import annotations

from typing import Any

from ...core.errors import LayoutError
from ...core.int_tuple import leaves, wrap
from ...layout import Layout, group, make_layout, size
from ...layout.layout import _mk
from ...swizzle import right_inverse
from ..arith_tuple import ScaledBasis, basis_value
from ..basis_layout import make_identity_layout
from ..ops import coalesce, composition

__all__ = ["coalesce_256", "construct_tma_gbasis", "smem_vector"]


def _is_static(x: Any, v: int) -> bool:
    return type(x) is int and x == v


def _flat(layout: Layout) -> tuple[list[Any], list[Any]]:
    s, d = layout.shape, layout.stride
    if type(s) is not tuple:
        return [s], [d]
    return leaves(s), leaves(d)


def coalesce_256(layout: Layout) -> Layout:
    """CuTe's ``detail::coalesce_256``: flatten, drop static-1 modes, and merge a mode into the
    previous one where the strides continue (``s0*d0 == d1``, known statically) and the
    merged extent is at most 256 (a TMA box extent).

    @post same size as ``layout``; the function is unchanged on ``[0, size)``.

    >>> from cute_sym.notation import parse
    >>> print(coalesce_256(parse("(_32,_8,_2):(_1,_32,_256)")), coalesce_256(parse("(_64,_8):(_1,_64)")))
    (_256,_2):(_1,_256) (_64,_8):(_1,_64)
    >>> print(coalesce_256(parse("(_1,_1):(_4,_8)")))
    _1:_0
    """
    fs, fd = _flat(layout)
    ns: Any = fs[0]
    nd: Any = fd[0]
    for s, d in zip(fs[1:], fd[1:]):
        if _is_static(s, 1):
            continue
        if type(ns) is not tuple and _is_static(ns, 1):
            ns, nd = s, d
            continue
        bs = ns[-1] if type(ns) is tuple else ns
        bd = nd[-1] if type(nd) is tuple else nd
        if (type(bs) is int and type(bd) is int and type(s) is int and type(d) is int
                and bs * bd == d and s * bs <= 256):
            ns = ns[:-1] + (s * bs,) if type(ns) is tuple else s * bs
            continue
        ns = (ns if type(ns) is tuple else (ns,)) + (s,)
        nd = (nd if type(nd) is tuple else (nd,)) + (d,)
    if type(ns) is not tuple and _is_static(ns, 1):
        return _mk(1, 0)
    return _mk(ns, nd)


def smem_vector(smem_layout: Layout, cta_v_map: Layout) -> Layout:
    """``coalesce(cta_v_map o right_inverse(smem_layout))``: smem index -> gmem coordinate
    (scaled bases), the smem's contiguous order read in gmem modes."""
    inv = right_inverse(smem_layout)
    out = coalesce(composition(cta_v_map, inv))
    if not isinstance(out, Layout):  # pragma: no cover - plain inputs give plain layouts
        raise LayoutError(f"TMA: unexpected smem vector {out}")
    return out


def construct_tma_gbasis(gmem: Layout, smem_layout: Layout, cta_v_map: Layout) -> Layout:
    """CuTe's ``construct_tma_gbasis``: the TMA box as ``box_shape : gmem mode(s)``.

    ``gmem`` is the gmem tensor's layout (in its element units), ``smem_layout`` the smem
    tile without its swizzle, ``cta_v_map`` the CTA tile in gmem coordinates
    (``make_identity_layout(shape(gmem)).compose(cta_tile)``).

    @pre ``size(smem_layout) == size(cta_v_map)`` ("TMA requires CTA_Tile and SLayout
         top-level size equivalence"); the smem's first contiguous step is one unit of some
         gmem mode ("Could not find a common tile-gmem vectorization"), else
         :class:`LayoutError` saying so in words.
    @post rank at most 5; ``size(result) * size(remaining) == size(smem)`` with the box
          the smem's longest prefix that walks gmem modes by unit steps; every gmem mode
          of extent > 1 and stride != 0 appears among the strides (static 1 extent when the
          tile does not walk it).
    """
    if not _same_size(size(smem_layout), size(cta_v_map)):
        raise LayoutError(
            f"TMA requires CTA_Tile and SLayout top-level size equivalence: the smem layout "
            f"{smem_layout} holds {size(smem_layout)} elements but the CTA tile {cta_v_map.shape} "
            f"has {size(cta_v_map)}; make the smem layout the CTA tile's shape (tile_to_shape(atom, cta_tile))")
    full = smem_vector(smem_layout, cta_v_map)
    fs, fd = _flat(full) if type(full.shape) is tuple else ([full.shape], [full.stride])
    rank_ = 0
    for d in fd:
        if not _is_static(basis_value(d), 1):
            break
        rank_ += 1
    if rank_ == 0:
        raise LayoutError(
            f"TMA: Could not find a common tile-gmem vectorization: the smem's contiguous order "
            f"{full} starts with the step {fd[0]}, not one element of a gmem mode. Does the tile "
            f"select out major gmem modes? Give the smem layout a unit-stride mode along a gmem mode")
    sidx2gmode = _mk(tuple(fs[:rank_]), tuple(fd[:rank_])) if rank_ > 1 else _mk(fs[0], fd[0])
    tile_gstride = composition(gmem, sidx2gmode)
    tma_gstride = coalesce_256(tile_gstride)
    gbasis = make_identity_layout(gmem.shape)
    tile_gbasis_tmp = composition(gbasis, sidx2gmode)
    tile_gbasis = _mk(tile_gstride.shape, tile_gbasis_tmp.stride)
    tma_tile = composition(tile_gbasis, make_layout(wrap(tma_gstride.shape)))
    found = [d for d in _flat(tma_tile)[1]]
    gs, gd = _flat(gmem)
    es = leaves(gbasis.stride)
    remaining: list[Any] = []
    for s, d, e in zip(gs, gd, es):
        if _is_static(s, 1) or _is_static(d, 0):
            continue
        if any(isinstance(tb, ScaledBasis) and tb == e for tb in found):
            continue
        remaining.append(e)
    shape = _as_tuple(tma_tile.shape) + (1,) * len(remaining)
    stride = _as_tuple(tma_tile.stride) + tuple(remaining)
    tma_full = _mk(shape, stride)
    r = len(shape)
    return group(tma_full, min(r, 4), r)


def _as_tuple(x: Any) -> tuple[Any, ...]:
    """CuTe's ``wrap``: a mode as a tuple of modes (a rank-1 TMA tile has one)."""
    return tuple(x) if type(x) is tuple else (x,)


def _same_size(a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a == b
    return bool(a == b)

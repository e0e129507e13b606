"""Partitioning tensors: ``inner_partition``/``local_tile`` and ``outer_partition``/``local_partition``.

As CuTe's ``tensor_impl.hpp``: ``zipped_divide`` the tensor by the tiler into
``((TILE...), (REST...))``, then slice the rest modes with a coordinate (inner:
one tile, what a CTA works on) or the tile modes (outer: one element of every
tile, what a thread works on). The engine moves by the slice's offset, so the
offset is one formula in the coordinate (or the thread index) and the extents.

>>> from cute_sym.notation import parse
>>> T = make_tensor(make_gmem_ptr("A"), parse("(_128,_64):(_1,_128)"))
>>> print(local_tile(T, (32, 32), (2, 0)))
gmem_ptr(A+64) o (_32,_32):(_1,_128)
>>> print(local_partition(T, parse("(_8,_2):(_1,_8)"), 8))
gmem_ptr(A+128) o (_16,_32):(_8,_256)
"""
from __future__ import annotations

from typing import Any, Optional

from ..core.errors import LayoutError
from ..core.int_tuple import _, crd2idx, idx2crd, product_each, unwrap
from ..layout import Layout, dice as _layout_dice, rank as _rank
from .ops import zipped_divide
from .engine import make_gmem_ptr  # noqa: F401  (doctests)
from .tensor import Tensor, make_tensor  # noqa: F401

__all__ = ["inner_partition", "outer_partition", "local_tile", "local_partition", "get_flat_coord", "dice_tuple"]


def _need_tensor(t: Any, what: str) -> Tensor:
    if not isinstance(t, Tensor):
        raise LayoutError(f"{what}: expected a Tensor (make_tensor(ptr, layout)), got {type(t).__name__}")
    return t


def _repeat(n: int, x: Any) -> Any:
    """CuTe's ``repeat<n>(x)``: ``x`` itself when ``n == 1``."""
    return x if n == 1 else (x,) * n


def _append(t: tuple[Any, ...], n: int, x: Any) -> tuple[Any, ...]:
    """CuTe's ``append<n>(t, x)``: pad the tuple ``t`` with ``x`` up to rank ``n``."""
    if len(t) > n:
        raise LayoutError(f"partition: the coordinate {t} has more modes than the {n} it slices")
    return t + (x,) * (n - len(t))


def _mode_rank(layout: Any, k: int) -> int:
    s = layout.shape[k]
    return len(s) if type(s) is tuple else 1


def inner_partition(tensor: Tensor, tiler: Any, coord: Any) -> Tensor:
    """The tile at ``coord``: ``zipped_divide(tensor, tiler)`` sliced in its rest mode.

    A tuple ``coord`` is padded with ``_`` up to the rank of the rest mode (the
    modes the tiler does not cover stay whole); an integer ``coord`` indexes the
    rest mode as a 1-D index.

    @pre ``rank(tiler) <= rank(tensor)``; the tiler divides the tensor's modes (as ``zipped_divide``).
    @post ``result.layout == zipped_divide(tensor, tiler).layout[0]`` (its modes, flattened one level)
          and ``result(c) == tensor`` at the tile's coordinate ``c`` plus ``coord``'s tile origin.

    >>> from cute_sym.notation import parse
    >>> T = make_tensor(make_gmem_ptr("A"), parse("(_16,_8,_3):(_1,_16,_128)"))
    >>> print(inner_partition(T, (4, 4), (1, 1)))
    gmem_ptr(A+68) o (_4,_4,_3):(_1,_16,_128)
    """
    t = zipped_divide(_need_tensor(tensor, "inner_partition"), tiler)
    r0 = _mode_rank(t.layout, 0)
    coord = unwrap(coord)
    if type(coord) is tuple:
        return t(_repeat(r0, _), _append(coord, _mode_rank(t.layout, 1), _))  # type: ignore[no-any-return]
    return t(_repeat(r0, _), coord)  # type: ignore[no-any-return]


def outer_partition(tensor: Tensor, tiler: Any, coord: Any) -> Tensor:
    """The element at ``coord`` of every tile: ``zipped_divide(tensor, tiler)`` sliced in its tile mode.

    @pre as :func:`inner_partition`.
    @post ``result.layout`` is the rest mode of ``zipped_divide(tensor, tiler)`` (flattened one level).

    >>> from cute_sym.notation import parse
    >>> T = make_tensor(make_gmem_ptr("A"), parse("(_128,_64):(_1,_128)"))
    >>> print(outer_partition(T, (32, 32), (2, 0)))
    gmem_ptr(A+2) o (_4,_2):(_32,_4096)
    """
    t = zipped_divide(_need_tensor(tensor, "outer_partition"), tiler)
    r1 = _mode_rank(t.layout, 1)
    coord = unwrap(coord)
    if type(coord) is tuple:
        return t(_append(coord, _mode_rank(t.layout, 0), _), _repeat(r1, _))  # type: ignore[no-any-return]
    return t(coord, _repeat(r1, _))  # type: ignore[no-any-return]


def dice_tuple(proj: Any, t: Any) -> Any:
    """CuTe's ``dice`` of a tuple by a projection: keep the modes where ``proj`` is not ``_`` (``X``).

    >>> dice_tuple((1, _, 1), (32, 64, 4)), dice_tuple((_, 1, _), (32, 64, 4))
    ((32, 4), (64,))
    """
    proj = unwrap(proj)
    t = unwrap(t)
    if type(proj) is tuple:
        if type(t) is not tuple or len(t) != len(proj):
            raise LayoutError(f"dice: Mismatched Ranks (projection {proj} for {t})")
        out: list[Any] = []
        for p, x in zip(proj, t):
            d = dice_tuple(p, x)
            if type(p) is tuple:
                out.extend(d)
            elif p is not _:
                out.append(x)
        return tuple(out)
    return () if proj is _ else (t,)


def local_tile(tensor: Tensor, tiler: Any, coord: Any, proj: Optional[Any] = None) -> Tensor:
    """CuTe's ``local_tile``: :func:`inner_partition`; with ``proj`` (CuTe's ``Step``, ``_`` for ``X``)
    the tiler and the coordinate are first diced to the projected modes.

    >>> from cute_sym.notation import parse
    >>> A = make_tensor(make_gmem_ptr("A"), parse("(_256,_128):(_1,_256)"))     # (M,K)
    >>> print(local_tile(A, (32, 64, 16), (1, 3, _), proj=(1, _, 1)))            # (BLK_M,BLK_K,k)
    gmem_ptr(A+32) o (_32,_16,_8):(_1,_256,_4096)
    """
    if proj is not None:
        tiler = dice_tuple(proj, tiler)
        coord = dice_tuple(proj, coord)
    return inner_partition(tensor, tiler, coord)


def get_flat_coord(layout: Layout, idx: Any) -> Any:
    """CuTe's ``Layout::get_flat_coord``: per top-level mode, the 1-D coordinate of ``idx`` within it.

    ``idx2crd(idx, shape, stride)`` (the coordinate whose value under the layout is
    ``idx``), then each mode's coordinate as a column-major 1-D index.

    @post ``crd2idx(result, shape, stride) == idx`` when ``layout`` is a bijection onto its indices.

    >>> from cute_sym.notation import parse
    >>> get_flat_coord(parse("(_8,(_2,_2)):(_4,(_1,_2))"), 13)
    (3, 1)
    """
    idx = unwrap(idx)
    hier = idx2crd(idx, layout.shape, layout.stride)
    if _rank(layout) == 1:
        return crd2idx(hier, layout.shape) if type(layout.shape) is tuple else hier
    return tuple(crd2idx(c, s) for c, s in zip(hier, layout.shape))  # type: ignore[arg-type]


def local_partition(tensor: Tensor, thr_layout: Layout, thr_idx: Any, proj: Optional[Any] = None) -> Tensor:
    """CuTe's ``local_partition``: the elements of thread ``thr_idx`` when ``thr_layout`` tiles the tensor.

    ``outer_partition(tensor, product_each(shape(thr_layout)), get_flat_coord(thr_layout, thr_idx))``;
    with ``proj`` the thread layout is first diced to the projected modes. ``thr_idx`` may be a
    symbol (``Dyn("tid", max=127, sign="nonnegative")``): the engine's offset is then one formula.

    @pre ``thr_layout`` is a Layout; its per-mode sizes divide the tensor's modes.
    @post for a concrete ``thr_idx``, ``result(j)`` is element ``j`` of that thread's share; the
          shares of all threads cover each element of the tensor exactly once (a compact thread
          layout, extents divisible).

    >>> from cute_sym import Dyn
    >>> from cute_sym.notation import parse
    >>> T = make_tensor(make_gmem_ptr("A"), parse("(_64,_32):(_1,_64)"))
    >>> tid = Dyn("tid", max=127, sign="nonnegative")
    >>> print(local_partition(T, parse("(_16,_8):(_1,_16)"), tid))
    gmem_ptr(A+tid%16+64*(tid//16)) o (_4,_4):(_16,_512)
    """
    if not isinstance(thr_layout, Layout):
        raise LayoutError(f"local_partition: the thread layout must be a Layout, got {type(thr_layout).__name__}")
    if proj is not None:
        thr_layout = _layout_dice(unwrap(proj), thr_layout)
    return outer_partition(tensor, product_each(thr_layout.shape), get_flat_coord(thr_layout, thr_idx))


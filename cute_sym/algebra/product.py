"""The products: logical, zipped, tiled, flat, blocked, raked, and tile_to_shape."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy
from ..core.lazy import is_expr

from ..core import decide
from ..core.errors import LayoutError, RankError
from ..core.int_tuple import (
    _, unwrap, ceil_div, product, product_each,
)
from ..layout.layout import Layout, _mk, make_layout, make_ordered_layout, _Major, LayoutLeft, cosize
from ._util import _is1, _mul, _composed_dispatch
from .coalesce import _transform_layout, coalesce
from .complement import _complement
from .composition import _composition_cute
from .divide import _tile_unzip, _unpack


def logical_product(block: Any, tiler: Any) -> Any:
    """``(block, composition(complement(block, size(block)*cosize(tiler)), tiler))``:
    ``block`` repeated as laid out by ``tiler``. A tuple tiler works mode by mode.

    @pre ``rank(tiler) <= rank(block)`` for a tuple tiler.
    @post ``rank(result) == 2`` for a layout tiler; ``result[0] == block``.

    >>> from cute_sym.notation import parse
    >>> print(logical_product(parse("(_2,_2):(_4,_1)"), parse("_6:_1")))
    ((_2,_2),(_2,_3)):((_4,_1),(_2,_8))
    """
    if not isinstance(block, Layout):
        return _composed_dispatch("logical_product", block, tiler)
    if type(tiler) is not Layout:
        tiler = unwrap(tiler)
    if isinstance(tiler, Layout):
        comp = _complement(block, _mul(product(block._shape), cosize(tiler)))
        rest = _composition_cute(comp, tiler)
        return _mk((block._shape, rest._shape), (block._stride, rest._stride))
    if type(tiler) is tuple:
        return _transform_layout(block, tiler, logical_product, what="logical_product")
    if tiler is _:
        return block
    if type(tiler) is int or is_expr(tiler):
        return logical_product(block, _mk(tiler, 0 if _is1(tiler) else 1))
    return _composed_dispatch("logical_product", block, tiler)


def zipped_product(block: Any, tiler: Any) -> Any:
    """``logical_product`` with modes gathered: ``((BLOCK...), (REST...))``.

    @pre as :func:`logical_product`: ``rank(tiler) <= rank(block)`` for a tuple tiler.
    @post ``rank(result) == 2``; ``result[0]`` gathers the block part (mode 0) of each
          mode of ``logical_product(block, tiler)``, ``result[1]`` the repeat parts;
          for a layout tiler ``result == logical_product(block, tiler)``.

    >>> from cute_sym.notation import parse
    >>> print(zipped_product(parse("(_2,_2):(_1,_2)"), parse("(_3,_4):(_1,_3)")))
    ((_2,_2),(_3,_4)):((_1,_2),(_4,_12))
    """
    if not isinstance(block, Layout):
        return _composed_dispatch("zipped_product", block, tiler)
    if type(tiler) is not Layout:
        tiler = unwrap(tiler)
    return _tile_unzip(logical_product(block, tiler), tiler)


def tiled_product(block: Any, tiler: Any) -> Any:
    """``zipped_product`` with the rest modes unpacked: ``((BLOCK...), r0, r1, ...)``.

    @pre as :func:`zipped_product`.
    @post ``result[0] == zipped_product(block, tiler)[0]``; the rest modes are those
          of ``zipped_product``'s mode 1, unpacked (an integral mode 1 stays one mode).

    >>> from cute_sym.notation import parse
    >>> print(tiled_product(parse("(_2,_2):(_1,_2)"), parse("(_3,_4):(_1,_3)")))
    ((_2,_2),_3,_4):((_1,_2),_4,_12)
    """
    if not isinstance(block, Layout):
        return _composed_dispatch("tiled_product", block, tiler)
    return _unpack(zipped_product(block, tiler), False)


def flat_product(block: Any, tiler: Any) -> Any:
    """``zipped_product`` with both modes unpacked: ``(b0, b1, ..., r0, r1, ...)``.

    @pre as :func:`zipped_product`.
    @post the modes are those of ``zipped_product(block, tiler)[0]`` then those of
          its mode 1, each unpacked (an integral mode stays one mode);
          ``flatten(result) == flatten(zipped_product(block, tiler))``.

    >>> from cute_sym.notation import parse
    >>> print(flat_product(parse("(_2,_2):(_1,_2)"), parse("(_3,_4):(_1,_3)")))
    (_2,_2,_3,_4):(_1,_2,_4,_12)
    """
    if not isinstance(block, Layout):
        return _composed_dispatch("flat_product", block, tiler)
    return _unpack(zipped_product(block, tiler), True)


def _append_rank(layout: Layout, r: int) -> Layout:
    s, d = layout._shape, layout._stride
    if type(s) is not tuple:
        s, d = (s,), (d,)
    k = r - len(s)
    if k <= 0:
        return _mk(s, d)
    return _mk(s + (1,) * k, d + (0,) * k)  # type: ignore[operator]


def zip_layouts(a: Layout, b: Layout) -> Layout:
    """``((a0,b0),(a1,b1),...)``: CuTe's ``zip`` of two layouts of equal rank."""
    sa, da, sb, db = a._shape, a._stride, b._shape, b._stride
    if type(sa) is not tuple:
        sa, da = (sa,), (da,)
    if type(sb) is not tuple:
        sb, db = (sb,), (db,)
    if len(sa) != len(sb):
        raise RankError("zip: Mismatched ranks")
    return _mk(tuple(zip(sa, sb)), tuple(zip(da, db)))  # type: ignore[arg-type]


def _rank_product(block: Layout, tiler: Layout, raked: bool, what: str) -> Layout:
    if not isinstance(block, Layout) or not isinstance(tiler, Layout):
        return _composed_dispatch(what, block, tiler)
    r = max(block.rank(), tiler.rank())
    if r == 1 and (type(block._shape) is not tuple or type(tiler._shape) is not tuple):
        raise RankError(f"{what}: a rank-1 operand must have a tuple shape here "
                        "(CuTe cannot pad an integral shape with append<1>)")
    pb, pt = _append_rank(block, r), _append_rank(tiler, r)
    result = logical_product(pb, pt)
    m0 = _mk(result._shape[0], result._stride[0])
    m1 = _mk(result._shape[1], result._stride[1])
    return zip_layouts(m1, m0) if raked else zip_layouts(m0, m1)


def blocked_product(block: Layout, tiler: Layout) -> Layout:
    """Repeat ``block`` over ``tiler``, block-major: mode ``k`` is ``(block_k, tiler_k)``.

    @post ``rank(result) == max(rank(block), rank(tiler))``.
    @post ``result`` restricted to each block is ``block`` (up to coalescing).

    >>> from cute_sym.notation import parse
    >>> print(blocked_product(parse("(_2,_5):(_5,_1)"), parse("(_3,_4):(_1,_3)")))
    ((_2,_3),(_5,_4)):((_5,_10),(_1,_30))
    """
    return _rank_product(block, tiler, False, "blocked_product")


def raked_product(block: Layout, tiler: Layout) -> Layout:
    """Repeat ``block`` over ``tiler``, interleaved: mode ``k`` is ``(tiler_k, block_k)``.

    @post ``rank(result) == max(rank(block), rank(tiler))``.

    >>> from cute_sym.notation import parse
    >>> print(raked_product(parse("(_2,_5):(_5,_1)"), parse("(_3,_4):(_1,_3)")))
    ((_3,_2),(_4,_5)):((_10,_5),(_30,_1))
    """
    return _rank_product(block, tiler, True, "raked_product")


def tile_to_shape(block: Layout, trg_shape: Any, order: Any = LayoutLeft) -> Layout:
    """Repeat ``block`` (blocked) until it has the target shape.

    @pre ``rank(block) <= rank(trg_shape)``; each block extent divides the target extent.
    @post ``compatible(trg_shape, shape(result))``.

    >>> from cute_sym.notation import parse
    >>> print(tile_to_shape(parse("(_8,_8):(_8,_1)"), (32, 64)))
    (_32,(_8,_8)):(_8,(_1,_256))
    """
    trg_shape = unwrap(trg_shape)
    r = len(trg_shape) if type(trg_shape) is tuple else 1
    if block.rank() > r:
        raise RankError("tile_to_shape: Rank of layout must be <= rank of target shape.")
    padded = _append_rank(block, r)
    block_shape = product_each(padded._shape)
    target_shape = product_each(trg_shape if type(trg_shape) is tuple else (trg_shape,))
    for t, b in zip(target_shape, block_shape):  # type: ignore[arg-type]
        if not decide.require("|", b, t, why="tile_to_shape"):
            raise LayoutError("tile_to_shape: block shape does not divide the target shape.")
    product_shape = ceil_div(target_shape, block_shape)
    if isinstance(order, _Major):
        tiler = make_layout(product_shape, order)
    else:
        tiler = make_ordered_layout(product_shape, order)
    return coalesce(blocked_product(padded, tiler), product_shape)



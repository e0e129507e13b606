"""The products: logical, zipped, tiled, flat, blocked, raked, and tile_to_shape."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy
from ..core.lazy import is_expr

from ..core import decide
from ..core.errors import DivisibilityError, LayoutError, RankError
from ..core.int_tuple import (
    _, leaves, unwrap, ceil_div, product, product_each,
)
from ..layout.layout import (
    Layout, _mk, _mk_static, is_static_layout, make_layout, _Major, LayoutLeft, cosize,
)
from ..layout.ordered import make_ordered_layout
from ._util import _is1, _mul, _composed_dispatch
from .coalesce import _bw_sd, _transform_layout
from .complement import _complement, _complement_ints
from .composition import _check_modes_add, _composition_cute, composition
from .divide import (
    _by_mode_sd, _complement_sd, _compose_modes, _static_tiler, _tile_unzip, _unpack, _unpack_sd, _zip2_sd,
)


def logical_product(block: Any, tiler: Any) -> Any:
    """``(block, composition(complement(block, size(block)*cosize(tiler)), tiler))``:
    ``block`` repeated as laid out by ``tiler``. A tuple tiler works mode by mode.

    @pre ``rank(tiler) <= rank(block)`` for a tuple tiler.
    @post ``rank(result) == 2`` for a layout tiler; ``result[0] == block``.

    >>> from cute_sym.notation import parse
    >>> print(logical_product(parse("(_2,_2):(_4,_1)"), parse("_6:_1")))
    ((_2,_2),(_2,_3)):((_4,_1),(_2,_8))
    """
    if type(block) is Layout and (block._st or block._st is None and is_static_layout(block)):
        r = _product_static(block, block._shape, block._stride, tiler)
        if r is not None:
            return _mk_static(r[0], r[1])
    return _logical_product(block, tiler)


def _logical_product(block: Any, tiler: Any) -> Any:
    """logical_product's general path (symbolic values, parsed tilers, composed layouts)."""
    if not isinstance(block, Layout):
        return _composed_dispatch("logical_product", block, tiler)
    if type(tiler) is not Layout:
        tiler = unwrap(tiler)
    if isinstance(tiler, Layout):
        comp = _complement(block, _mul(product(block._shape), cosize(tiler)))
        rest = _composition_cute(comp, tiler)
        _check_disjoint(block, tiler, comp, rest)
        return _mk((block._shape, rest._shape), (block._stride, rest._stride))
    if type(tiler) is tuple:
        return _transform_layout(block, tiler, _logical_product, what="logical_product")
    if tiler is _:
        return block
    if type(tiler) is int or is_expr(tiler):
        return _logical_product(block, _mk(tiler, 0 if _is1(tiler) else 1))
    return _composed_dispatch("logical_product", block, tiler)


def _product_static(block: Any, s: Any, d: Any, tiler: Any) -> Any:
    """logical_product of the static block ``s:d`` (``block``: its layout, or None) by ``tiler`` as
    ``(shape, stride)``: the general path's steps on plain IntTuples, with the building blocks'
    static kernels; None where the tiler is not plain and static (the general path takes it).

    @pre every leaf of ``s`` and ``d`` is a plain int (the caller checks ``is_static_layout``).
    @post the general path's answer on the same arguments, or its error, the refusal of
          overlapping block copies included (tests/test_product_static.py).

    >>> _product_static(None, (2, 2), (4, 1), Layout(6, 1))
    (((2, 2), (2, 3)), ((4, 1), (2, 8)))
    """
    tt = type(tiler)
    if tt is tuple:
        return _by_mode_sd(s, d, tiler, _product_mode)
    if tt is Layout and (tiler._st or tiler._st is None and is_static_layout(tiler)):
        rest = _product_rest(block, s, d, tiler, tiler._shape, tiler._stride)
        return (s, rest[0]), (d, rest[1])
    if tiler is _:
        return s, d
    t = _static_tiler(tiler)
    if t is None:
        return None
    rest = _product_rest(block, s, d, tiler if tt is Layout else None, t[0], t[1])
    return (s, rest[0]), (d, rest[1])


def _product_mode(s: Any, d: Any, tiler: Any) -> Any:
    """:func:`_product_static` of one mode (no block layout at hand)."""
    return _product_static(None, s, d, tiler)


def _leaves2(s: Any, d: Any) -> tuple[list[Any], list[Any]]:
    """``(leaves(s), leaves(d))`` of a congruent tuple pair in one pass."""
    fs: list[Any] = []
    fd: list[Any] = []
    for i in range(len(s)):
        x = s[i]
        if type(x) is tuple:
            fs.extend(leaves(x))
            fd.extend(leaves(d[i]))
        else:
            fs.append(x)
            fd.append(d[i])
    return fs, fd


def _product_rest(block: Any, s: Any, d: Any, tiler: Any, ts: Any, td: Any) -> tuple[Any, Any]:
    """``composition(complement(block, size(block)*cosize(tiler)), tiler)`` of a static block ``s:d``
    and tiler ``ts:td`` (``block``, ``tiler``: their layouts, or None), with the disjointness check."""
    if block is None:
        block = _mk_static(s, d)
    if type(s) is int:
        size = s
        bl_s, bl_d = [s], [d]
    else:
        bl_s, bl_d = _leaves2(s, d)
        size = 1
        for x in bl_s:
            size *= x
    cos = 1
    if type(ts) is int:
        cos += (ts - 1) * (td if td >= 0 else -td)
    else:
        tl_s, tl_d = _leaves2(ts, td)
        for i in range(len(tl_s)):
            y = tl_d[i]
            cos += (tl_s[i] - 1) * (y if y >= 0 else -y)
    cot = size * cos
    c = _complement_ints(block, tuple(bl_s), tuple(bl_d), cot, False) if cot >= 1 else None
    ls: Any
    ld: Any
    if c is not None:   # positive extents: positive strides, a positive cotarget
        cs, cd = c._shape, c._stride
    else:
        cs, cd = _complement_sd(block, bl_s, bl_d, cot)
    # composition_cute(comp, tiler): the complement coalesced as coalesce_x does
    if type(cs) is int:
        ls, ld = (2 if cs == 1 else cs), cd
    elif c is not None:
        ls, ld = cs, cd     # the kernel's answer is coalesced and flat, without extent 1: coalesce_x keeps it
    else:
        cl_s, cl_d = _leaves2(cs, cd)
        m = len(cl_s)
        ls, ld = _bw_sd(cl_s, cl_d, m - 2, 2 if cl_s[m - 1] == 1 else cl_s[m - 1], cl_d[m - 1], False)
    # strict where it can be: that answer is CuTe's too, and it is comp(tiler(i)) (no overlap)
    pointwise = True
    try:
        rs, rd = _compose_modes(ls, ld, ts, td, True)
    except LayoutError:
        pointwise = False
        rs, rd = _compose_modes(ls, ld, ts, td)
    if pointwise and type(ts) is tuple and type(ls) is tuple:
        try:            # tiler modes add up without a carry across a (non-last) lhs extent
            _check_modes_add(_mk_static(ls, ld), tiler if tiler is not None else _mk_static(ts, td),
                             _mk_static(rs, rd))
        except LayoutError:
            pointwise = False
    if not pointwise:
        _check_disjoint(block, tiler if tiler is not None else _mk_static(ts, td), _mk_static(cs, cd),
                        _mk_static(rs, rd))
    return rs, rd


_CHECK_LIMIT = 1 << 20


def _check_disjoint(block: Layout, tiler: Layout, comp: Layout, rest: Layout) -> None:
    """``(block, rest)`` is injective when ``block`` and ``tiler`` are: CuTe's ``rest`` is
    ``comp o tiler`` mode by mode, which is ``comp(tiler(i))`` unless a tiler mode steps
    unevenly across the complement's modes; then the copies of the block may overlap.
    Checked on static layouts (pointwise first, the full image only where that fails)."""
    if not (block.is_static() and tiler.is_static() and rest.is_static()):
        return
    try:        # structural first: the strict composition is comp(tiler(i)), or raises
        strict = composition(comp, tiler)
        if strict._shape == rest._shape and strict._stride == rest._stride:
            return
    except LayoutError:
        pass
    n = product(tiler._shape)
    if type(n) is not int or n > _CHECK_LIMIT:
        return
    if all(rest(i) == comp(tiler(i)) for i in range(n)):
        return
    b = [tiler(i) for i in range(n)]
    r = [rest(i) for i in range(n)]
    by_b = sorted(range(n), key=lambda i: b[i])
    for i, j in zip(by_b, by_b[1:]):
        if (b[i] < b[j]) != (r[i] < r[j]) or (b[i] == b[j]) != (r[i] == r[j]):
            raise DivisibilityError(
                f"logical_product: the tiler {tiler} steps unevenly across the complement {comp} of the "
                f"block {block}: CuTe's {rest} is not complement(tiler(i)) and does not keep the tiler's order")
    m = product(block._shape)
    if type(m) is not int or m * n > _CHECK_LIMIT:
        return
    a = [block(i) for i in range(m)]
    if len(set(a)) != m or len(set(b)) != n:
        return
    seen = {x + rj for rj in r for x in a}
    if len(seen) != m * n:
        raise DivisibilityError(
            f"logical_product: the tiler {tiler} steps unevenly across the complement {comp} of the "
            f"block {block}: CuTe's {rest} is not complement(tiler(i)), and the copies of the block overlap")


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
    z = _zipped_static(block, tiler)
    if z is not None:
        return _mk_static(z[0], z[1])
    return _zipped_product(block, tiler)


def _zipped_static(block: Any, tiler: Any) -> Any:
    """zipped_product of a static block by a plain static tiler as ``(shape, stride)``; None otherwise."""
    if type(block) is Layout and (block._st or block._st is None and is_static_layout(block)):
        r = _product_static(block, block._shape, block._stride, tiler)
        if r is not None:
            return _zip2_sd(r[0], r[1], tiler)
    return None


def _zipped_product(block: Any, tiler: Any) -> Any:
    """zipped_product's general path."""
    if not isinstance(block, Layout):
        return _composed_dispatch("zipped_product", block, tiler)
    if type(tiler) is not Layout:
        tiler = unwrap(tiler)
    return _tile_unzip(_logical_product(block, tiler), tiler)


def tiled_product(block: Any, tiler: Any) -> Any:
    """``zipped_product`` with the rest modes unpacked: ``((BLOCK...), r0, r1, ...)``.

    @pre as :func:`zipped_product`.
    @post ``result[0] == zipped_product(block, tiler)[0]``; the rest modes are those
          of ``zipped_product``'s mode 1, unpacked (an integral mode 1 stays one mode).

    >>> from cute_sym.notation import parse
    >>> print(tiled_product(parse("(_2,_2):(_1,_2)"), parse("(_3,_4):(_1,_3)")))
    ((_2,_2),_3,_4):((_1,_2),_4,_12)
    """
    z = _zipped_static(block, tiler)
    if z is not None:
        s, d = _unpack_sd(z[0], z[1], False)
        return _mk_static(s, d)
    if not isinstance(block, Layout):
        return _composed_dispatch("tiled_product", block, tiler)
    return _unpack(_zipped_product(block, tiler), False)


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
    z = _zipped_static(block, tiler)
    if z is not None:
        s, d = _unpack_sd(z[0], z[1], True)
        return _mk_static(s, d)
    if not isinstance(block, Layout):
        return _composed_dispatch("flat_product", block, tiler)
    return _unpack(_zipped_product(block, tiler), True)


def _append_rank(layout: Layout, r: int) -> Layout:
    s, d = layout._shape, layout._stride
    if type(s) is not tuple:
        if r <= 1:
            return layout  # CuTe's append<1> keeps an integral layout as it is
        s, d = (s,), (d,)
    k = r - len(s)
    if k <= 0:
        return layout
    return _mk(s + (1,) * k, d + (0,) * k)  # type: ignore[operator]


def zip_layouts(a: Layout, b: Layout) -> Layout:
    """CuTe's ``zip`` of two layouts: ``((a0,b0),(a1,b1),...)``.

    @pre ``a`` has an integral shape, or both shapes are tuples of one rank
         (else :class:`RankError`: CuTe cannot take mode ``k`` of an integer).
    @post an integral ``a`` gives the rank-1 ``((a,b))`` (CuTe wraps a zip whose
          first element is not a tuple); otherwise mode ``k`` is ``(a_k, b_k)``.

    >>> from cute_sym.notation import parse
    >>> print(zip_layouts(parse("(_2,_3):(_1,_2)"), parse("(_4,_5):(_6,_24)")))
    ((_2,_4),(_3,_5)):((_1,_6),(_2,_24))
    >>> print(zip_layouts(parse("_24:_3"), parse("(_3):(_1)")))
    ((_24,(_3))):((_3,(_1)))
    """
    sa, da, sb, db = a._shape, a._stride, b._shape, b._stride
    if type(sa) is not tuple:
        return _mk(((sa, sb),), ((da, db),))
    if type(sb) is not tuple:
        raise RankError("zip: the second layout has an integral shape where the first is a tuple "
                        "(CuTe cannot take a mode of an integer)")
    if len(sa) != len(sb):
        raise RankError("zip: Mismatched ranks")
    return _mk(tuple(zip(sa, sb)), tuple(zip(da, db)))  # type: ignore[arg-type]


def _rank_product(block: Layout, tiler: Layout, raked: bool, what: str) -> Layout:
    if type(block) is Layout and type(tiler) is Layout and (
            block._st or block._st is None and is_static_layout(block)) and (
            tiler._st or tiler._st is None and is_static_layout(tiler)):
        r = _rank_product_static(block, tiler, raked)
        if r is not None:
            return _mk_static(r[0], r[1])
    if not isinstance(block, Layout) or not isinstance(tiler, Layout):
        return _composed_dispatch(what, block, tiler)
    r = max(block.rank(), tiler.rank())
    pb, pt = _append_rank(block, r), _append_rank(tiler, r)
    result = _logical_product(pb, pt)
    m0 = _mk(result._shape[0], result._stride[0])
    m1 = _mk(result._shape[1], result._stride[1])
    return zip_layouts(m1, m0) if raked else zip_layouts(m0, m1)


def _rank_product_static(block: Layout, tiler: Layout, raked: bool) -> Any:
    """blocked/raked product of static layouts as ``(shape, stride)``; None where ``zip`` fails
    (the general path reports it)."""
    bs, bd, ts, td = block._shape, block._stride, tiler._shape, tiler._stride
    r = max(len(bs) if type(bs) is tuple else 1, len(ts) if type(ts) is tuple else 1)
    pb, pt = _append_rank(block, r), _append_rank(tiler, r)
    ps: Any = pb._shape
    pd: Any = pb._stride
    rs, rd = _product_rest(pb, ps, pd, pt, pt._shape, pt._stride)
    if raked:
        ps, pd, rs, rd = rs, rd, ps, pd
    if type(ps) is not tuple:
        return ((ps, rs),), ((pd, rd),)
    if type(rs) is not tuple or len(ps) != len(rs):
        return None
    return tuple(zip(ps, rs)), tuple(zip(pd, rd))


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
    """Repeat ``block`` (blocked) until it has the target shape:
    ``blocked_product(append<R>(block), make_ordered_layout(product_shape, order))``,
    uncoalesced, as in CuTe.

    @pre ``rank(block) <= rank(trg_shape)``; each block extent divides the target extent
         ("tile_to_shape: block shape does not divide the target shape.").
    @post ``product_each(shape(result)) == product_each(trg_shape)``; mode ``k`` of
          ``result`` is ``(block_k, tiles_k)``; ``result`` is injective when ``block`` is.

    >>> from cute_sym.notation import parse
    >>> print(tile_to_shape(parse("(_8,_8):(_8,_1)"), (32, 64)))
    ((_8,_4),(_8,_8)):((_8,_64),(_1,_256))
    >>> print(tile_to_shape(parse("(_4):(_1)"), (16,)))
    ((_4,_4)):((_1,_4))
    """
    if not isinstance(block, Layout):
        return _composed_dispatch("tile_to_shape", block, trg_shape)
    trg_shape = unwrap(trg_shape)
    r = len(trg_shape) if type(trg_shape) is tuple else 1
    if block.rank() > r:
        raise RankError("tile_to_shape: Rank of layout must be <= rank of target shape.")
    padded = _append_rank(block, r)
    bs = padded._shape
    block_shape = product_each(bs if type(bs) is tuple else (bs,))
    target_shape = product_each(trg_shape if type(trg_shape) is tuple else (trg_shape,))
    for t, b in zip(target_shape, block_shape):  # type: ignore[arg-type]
        if not decide.require("|", b, t, why="tile_to_shape"):
            raise LayoutError("tile_to_shape: block shape does not divide the target shape.")
    product_shape = ceil_div(target_shape, block_shape)
    if isinstance(order, _Major):
        tiler = make_layout(product_shape, order)
    else:
        tiler = make_ordered_layout(product_shape, order)
    return blocked_product(padded, tiler)

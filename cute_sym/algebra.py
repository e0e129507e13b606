"""The layout algebra: coalesce, composition, complement, inverses, divides, products.

Names, argument forms and results follow CuTe's ``layout.hpp``. Static
layouts give CuTe's answer exactly (nesting and printing included); dynamic
ones give exact formulas, and every fact an answer depends on is decided by
:mod:`cute_sym.decide` (or the operation raises
:class:`~cute_sym.errors.UndecidableError` naming it).

>>> from cute_sym.notation import parse
>>> print(coalesce(parse("(_2,(_1,_6)):(_1,(_6,_2))")))
_12:_1
>>> print(composition(parse("(_6,_2):(_8,_2)"), parse("(_4,_3):(_3,_1)")))
((_2,_2),_3):((_24,_2),_8)
>>> print(complement(parse("_4:_2"), 24))
(_2,_3):(_1,_8)
>>> print(logical_divide(parse("_16:_3"), parse("_4:_2")))
(_4,(_2,_2)):(_6,(_3,_24))
"""
from __future__ import annotations

from typing import Any, Optional

import sympy

from . import decide
from .errors import DivisibilityError, InjectivityError, LayoutError, RankError
from .int_tuple import (
    IntTuple, _, unwrap, cdiv, ceil_div, compact_major, fmt, iter_leaves, leaves, norm, product, product_each,
    sabs, shape_div, smin, zip2_by,
)
from .integers import IntLike
from .layout import Layout, _mk, make_layout, make_ordered_layout, _Major, LayoutLeft, cosize, filter_zeros

__all__ = [
    "coalesce", "coalesce_shape", "filter", "composition", "complement", "right_inverse", "left_inverse",
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product",
    "tiled_product", "flat_product", "blocked_product", "raked_product", "tile_to_shape",
    "max_common_layout", "max_common_vector", "nullspace", "upcast", "downcast", "recast_layout",
    "zip_layouts",
]



# ---------------------------------------------------------------- helpers
def _is1(x: IntLike) -> bool:
    """Static 1 (CuTe's is_constant<1>): a symbol is never dropped as 1."""
    return type(x) is int and x == 1


def _is0(x: IntLike) -> bool:
    if type(x) is int:
        return x == 0
    return decide.prove("==", x, 0) is True


def _flat(layout: Layout) -> tuple[list[Any], list[Any]]:
    return leaves(layout._shape), leaves(layout._stride)


def _eq_proved(a: IntLike, b: IntLike) -> bool:
    if type(a) is int and type(b) is int:
        return a == b
    return decide.prove("==", a, b) is True


def _mul(a: IntLike, b: IntLike) -> IntLike:
    """Product; a static 0 stays static (CuTe: _0 * x is _0)."""
    if type(a) is int:
        if type(b) is int or a == 0:
            return a * b if type(b) is int else 0
        if a == 1:
            return b
    elif type(b) is int:
        if b == 0:
            return 0
        if b == 1:
            return a
    return a * b


# ---------------------------------------------------------------- coalesce
def _bw_sd(old_s: list[Any], old_d: list[Any], last: int, ns: Any, nd: Any,
           keep_static: bool = True) -> tuple[Any, Any]:
    """CuTe's bw_coalesce over modes ``last, last-1, ..., 0`` onto the stack ``ns:nd``.

    A new mode merges into the front when ``s * d == front stride`` (proved);
    a static 1 mode is skipped; the stack starting at static 1 is replaced.
    With ``keep_static`` (the algebra's internal use, as CuTe) a mode never
    merges into a front of symbolic extent, so static extents stay static.
    Returns ``(shape, stride)``.
    """
    # the stack is a scalar until the first prepend; as lists it is kept reversed
    rs: Optional[list[Any]] = None
    rd: list[Any] = []
    for i in range(last, -1, -1):
        s = old_s[i]
        if type(s) is int and s == 1:
            continue
        d = old_d[i]
        if rs is None:
            if type(ns) is int and ns == 1:
                ns, nd = s, d
                continue
            fs, fd = ns, nd
        else:
            fs, fd = rs[-1], rd[-1]
        if type(s) is int and type(d) is int and type(fs) is int and type(fd) is int:
            merge = s * d == fd
        elif keep_static and type(fs) is not int:
            merge = False
        else:
            merge = _eq_proved(s * d, fd)
        if merge:
            if rs is None:
                ns, nd = s * fs, d
            else:
                rs[-1], rd[-1] = s * fs, d
        elif rs is None:
            rs, rd = [ns, s], [nd, d]
        else:
            rs.append(s)
            rd.append(d)
    if rs is None:
        if type(ns) is int and ns == 1:
            return 1, 0
        return ns, nd
    rs.reverse()
    rd.reverse()
    return tuple(rs), tuple(rd)


def _bw_coalesce(old_s: list[Any], old_d: list[Any], last: int, ns: Any, nd: Any,
                 keep_static: bool = True) -> Layout:
    s, d = _bw_sd(old_s, old_d, last, ns, nd, keep_static)
    return _mk(s, d)


def _coalesce_flat(s: list[Any], d: list[Any], keep_static: bool = True) -> Layout:
    n = len(s)
    if n == 0:
        return _mk(1, 0)
    return _bw_coalesce(s, d, n - 2, s[n - 1], d[n - 1], keep_static)


def _coalesce(layout: Layout) -> Layout:
    """The algebra's internal coalesce: CuTe's structure (static extents stay static)."""
    s, d = _flat(layout)
    return _coalesce_flat(s, d)


def _coalesce_x(layout: Layout) -> Layout:
    """coalesce that also keeps the function outside the domain (a trailing static 1 keeps its stride).

    It merges across symbolic extents too (what is proved contiguous is one mode): the lhs of a
    composition is a function of its values, so (4,b):(1,4) composes as 4*b:1 would.
    """
    s, d = _flat(layout)
    n = len(s)
    if n == 0:
        return _mk(1, 0)
    if type(s[n - 1]) is int and s[n - 1] == 1:
        return _bw_coalesce(s, d, n - 2, 2, d[n - 1], False)
    return _bw_coalesce(s, d, n - 2, s[n - 1], d[n - 1], False)


def coalesce(layout: Layout, profile: Any = None) -> Layout:
    """Simplify a layout by merging modes that are contiguous in the codomain.

    With ``profile`` (an IntTuple whose nesting alone matters), coalesce each
    mode at the terminals of the profile; modes past the profile are kept.

    @post ``size(result) == size(layout)``; ``depth(result) <= 1`` (without profile).
    @post ``result(i) == layout(i)`` for every ``0 <= i < size(layout)``.
    @post a static size-1 mode is dropped; a symbolic extent is never assumed to be 1.

    >>> from cute_sym.notation import parse
    >>> print(coalesce(parse("(_2,(_1,_6)):(_1,(_6,_2))"), parse("(_1,_1)")))
    (_2,_6):(_1,_2)
    >>> N = parse("N")
    >>> print(coalesce(make_layout((16, N), (1, 16))))
    16*N:_1
    """
    if type(layout) is not Layout:
        if not isinstance(layout, Layout):
            return _composed_dispatch("coalesce", layout, profile)
    if profile is not None:
        profile = unwrap(profile)
        if type(profile) is tuple:
            return _transform_layout(layout, profile, coalesce)
    s = leaves(layout._shape)
    d = leaves(layout._stride)
    n = len(s)
    if n == 0:
        return _mk(1, 0)
    rs, rd = _bw_sd(s, d, n - 2, s[n - 1], d[n - 1], False)
    return _mk(rs, rd)


def _transform_layout(layout: Layout, tiler: tuple[Any, ...], f: Any, keep_rest: bool = True,
                      what: str = "") -> Layout:
    s, d = layout._shape, layout._stride
    if type(s) is not tuple:
        s, d = (s,), (d,)
    if len(tiler) > len(s):
        raise RankError(f"{what or 'transform'}: Too many modes in tiler ({len(tiler)} > rank {len(s)})")
    modes = [f(_mk(s[i], d[i]), tiler[i]) for i in range(len(tiler))]  # type: ignore[index]
    rs = [m._shape for m in modes]
    rd = [m._stride for m in modes]
    if keep_rest:
        rs.extend(s[len(tiler):])
        rd.extend(d[len(tiler):])  # type: ignore[index]
    return _mk(tuple(rs), tuple(rd))


def coalesce_shape(shape: IntTuple) -> IntTuple:
    """CuTe's ``coalesce`` of a shape: multiply neighbouring leaves that are both
    static or both dynamic (used for complement's cotarget).

    >>> coalesce_shape((2, (3, 4))), coalesce_shape(((4, 8),))
    (24, 32)
    """
    ls = leaves(shape)
    if not ls:
        return ()
    out = [ls[0]]
    for a in ls[1:]:
        if (type(out[-1]) is int) == (type(a) is int):
            out[-1] = _mul(out[-1], a)
        else:
            out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def filter(layout: Layout, profile: Any = None) -> Layout:
    """Remove stride-0 and size-1 modes (``coalesce(filter_zeros(layout))``).

    @post ``result`` has no static size-1 mode and no stride-0 mode (unless it is ``_1:_0``).
    @post the image of ``result`` is the image of ``layout``.

    >>> from cute_sym.notation import parse
    >>> print(filter(parse("(_4,_2,_3):(_1,_0,_4)")))
    _12:_1
    """
    profile = None if profile is None else unwrap(profile)
    if profile is not None and type(profile) is tuple:
        return _transform_layout(layout, profile, filter)
    return _coalesce(filter_zeros(layout))


# ---------------------------------------------------------------- composition
def _compose_min(a: IntLike, b: IntLike) -> IntLike:
    """``cute::min`` of two positive extents: a ``min`` formula when the order is unknown."""
    if type(a) is int and type(b) is int:
        return a if a <= b else b
    return smin(a, b)


def _compose_abs_sign(r: IntLike) -> tuple[IntLike, IntLike]:
    """``(abs(r), signum(r))`` of a non-zero rhs stride; of unknown sign, the formulas ``abs(r)``, ``sign(r)``.

    @pre ``r != 0`` (CuTe divides by it).
    """
    if type(r) is int:
        return (r, 1) if r > 0 else (-r, -1)
    if decide.prove(">", r, 0):
        return r, 1
    if decide.prove("<", r, 0):
        return norm(-r), -1
    if not decide.require("!=", r, 0, why="composition (the rhs stride divides)"):
        raise DivisibilityError("composition: division by zero (stride 0)")
    return sympy.Abs(r), sympy.sign(r)


def _compose_sd(ls: Any, ld: Any, rs: Any, rd: Any, strict: bool = False) -> tuple[Any, Any]:
    """CuTe's composition_impl on a coalesced (flat) lhs ``ls:ld`` and rhs ``rs:rd``.

    For a tuple lhs and an integral rhs ``rs:rd`` the modes ``0 .. R-2`` of the lhs
    are folded left to right with ``(rest_shape, rest_stride) = (rs, rd)``:

    * Stride Divisibility Condition (checked when ``s_i`` and ``rest_stride`` are
      static): ``rest_stride % s_i == 0`` or ``rest_stride < s_i``;
    * ``next_shape = ceil_div(s_i, |rest_stride|)``,
      ``next_stride = ceil_div(|rest_stride|, s_i) * signum(rest_stride)``;
    * when ``next_shape`` or ``rest_shape`` is a static 1 the mode is skipped;
      otherwise ``new_shape = min(next_shape, rest_shape)`` (Shape Divisibility
      Condition, checked when both are static: ``new_shape | rest_shape``) is
      appended with stride ``rest_stride * d_i`` and ``rest_shape /= new_shape``;
    * ``rest_stride = next_stride``.

    The last lhs mode takes ``rest_shape : rest_stride * d_{R-1}``; it is dropped
    when ``rest_shape`` is a static 1 and something was appended; a single
    resulting mode is unwrapped. No coalesce of the result.
    """
    if type(rs) is tuple:
        ss: list[Any] = []
        dd: list[Any] = []
        for s, d in zip(rs, rd):
            ms, md = _compose_sd(ls, ld, s, d, strict)
            ss.append(ms)
            dd.append(md)
        return tuple(ss), tuple(dd)
    if type(rd) is int and rd == 0:
        return rs, rd
    if type(ls) is not tuple:
        return rs, _mul(rd, ld)
    if type(rd) is not int and decide.prove("==", rd, 0):
        return rs, 0
    R = len(ls)
    if type(rs) is int and type(rd) is int:
        for x in ls:
            if type(x) is not int:
                break
        else:
            for x in ld:
                if type(x) is not int:
                    break
            else:
                return _compose_static(ls, ld, rs, rd, strict)
    res_s: list[Any] = []
    res_d: list[Any] = []
    rest_shape: Any = rs
    rest_stride: Any = rd
    for i in range(R - 1):
        cs = ls[i]
        if type(cs) is int and type(rest_stride) is int:
            # plain-int fast path
            if not (rest_stride % cs == 0 or rest_stride < cs):
                raise DivisibilityError(
                    f"Stride Divisibility Condition: {rest_stride} % {cs} != 0 and {rest_stride} >= {cs}")
            ars = rest_stride if rest_stride >= 0 else -rest_stride
            if ars == 0:
                raise DivisibilityError("composition: division by zero (stride 0)")
            next_shape: Any = (cs + ars - 1) // ars
            next_stride: Any = ((ars + cs - 1) // cs) * ((rest_stride > 0) - (rest_stride < 0))
        else:
            ars, sgn = _compose_abs_sign(rest_stride)
            # CuTe's Stride Divisibility Condition, decided: s_i | r, or r < s_i
            if not (_stride_fits(cs, ars) or decide.prove("|", cs, ars) or decide.prove("<", ars, cs)):
                if not decide.require_any([("|", cs, ars), ("<", ars, cs)],
                                          why="composition (Stride Divisibility Condition)"):
                    raise DivisibilityError(
                        f"Stride Divisibility Condition: {fmt(ars)} % {fmt(cs)} != 0 and {fmt(ars)} >= {fmt(cs)}")
            next_shape = ceil_div(cs, ars)
            next_stride = _mul(ceil_div(ars, cs), sgn)
        if _is1(next_shape) or _is1(rest_shape):
            rest_stride = next_stride
            continue
        new_shape = _compose_min(next_shape, rest_shape)
        if type(new_shape) is int and type(rest_shape) is int:
            if rest_shape % new_shape != 0:
                raise DivisibilityError(
                    f"Shape Divisibility Condition: {rest_shape} % {new_shape} != 0")
            res_s.append(new_shape)
            res_d.append(_mul(rest_stride, ld[i]))
            rest_shape = rest_shape // new_shape
            _check_even_step(ls, ld, i, rest_stride, rest_shape, rd, strict)
        else:
            # CuTe divides at run time; exact only when new_shape | rest_shape
            if not decide.require("|", new_shape, rest_shape, why="composition (Shape Divisibility Condition)"):
                raise DivisibilityError(f"Shape Divisibility Condition: {rest_shape} % {new_shape} != 0")
            res_s.append(new_shape)
            res_d.append(_mul(rest_stride, ld[i]))
            rest_shape = cdiv(rest_shape, new_shape)
            _check_even_step(ls, ld, i, rest_stride, rest_shape, rd, strict)
        rest_stride = next_stride
    last_d = _mul(rest_stride, ld[R - 1])
    if not res_s:
        return rest_shape, last_d
    if _is1(rest_shape):
        if len(res_s) == 1:
            return res_s[0], res_d[0]
        return tuple(res_s), tuple(res_d)
    res_s.append(rest_shape)
    res_d.append(last_d)
    return tuple(res_s), tuple(res_d)



def _check_even_step(ls: Any, ld: Any, i: int, stride: IntLike, rest: IntLike, rd: IntLike, strict: bool) -> None:
    """The rhs steps evenly over the lhs extent ``s_i`` (``|stride|`` divides it), ends inside it,
    or steps over all of it at once.

    Otherwise CuTe's answer is not ``lhs(rhs(i))``. For the divides and products
    (``strict`` false), which follow CuTe's answer, that is fine as long as the lhs
    is the same layout the static values give: mode ``i`` does not merge with
    mode ``i+1`` (``d_{i+1} != s_i * d_i``, and ``s_{i+1} >= 2`` so it is not dropped).
    """
    cs = ls[i]
    if type(cs) is int and type(stride) is int and type(rest) is int:
        if rest == 1 or cs % abs(stride) == 0 or cs <= abs(stride):
            return
        if strict:
            raise DivisibilityError(
                f"composition: stride {rd} steps over extent {cs} unevenly ({cs} % {abs(stride)} != 0) and the "
                f"rhs runs past it: CuTe's answer would not be lhs(rhs(i))")
    ars = _compose_abs_sign(stride)[0]
    alts: list[tuple[str, Any, Any]] = [("|", ars, cs), ("==", rest, 1), ("<=", cs, ars)]
    if not strict and i + 1 < len(ls) and decide.prove(">=", ls[i + 1], 2):
        alts.append(("!=", ld[i + 1], _mul(cs, ld[i])))
    if not decide.require_any(alts, why="composition (the rhs steps evenly over an lhs extent or ends inside it)"):
        raise DivisibilityError(f"composition: stride {fmt(rd)} steps over extent {fmt(cs)} unevenly and the "
                                "rhs runs past it: CuTe's answer would not be lhs(rhs(i))")


def _stride_fits(cs: IntLike, r: IntLike) -> bool:
    """``cs | r or r < cs`` for every value of a symbolic extent ``cs``, when ``r`` is a small static
    stride: checked value by value over the extent's possible values up to ``r``."""
    if type(r) is not int or r > 64 or type(cs) is int:
        return False
    lo, hi = decide.bounds(cs)
    if lo is None or lo < 1:
        return False
    top = r if hi is None else min(int(hi), r)
    return all(r % c == 0 for c in range(int(lo), top + 1))


def _compose_static(ls: tuple[int, ...], ld: tuple[int, ...], rs: int, rd: int,
                    strict: bool = False) -> tuple[Any, Any]:
    """_compose_sd on plain ints: the same fold, without the generic helpers.

    ``strict``: where the stride does not divide an lhs extent (``r < s``, ``r ∤ s``) and the
    rhs runs past that extent, CuTe's answer is not ``lhs(rhs(i))``; raise instead.
    """
    res_s: list[int] = []
    res_d: list[int] = []
    rest_shape = rs
    rest_stride = rd
    last = len(ls) - 1
    for i in range(last):
        cs = ls[i]
        if not (rest_stride % cs == 0 or rest_stride < cs):
            raise DivisibilityError(
                f"Stride Divisibility Condition: {rest_stride} % {cs} != 0 and {rest_stride} >= {cs}")
        if rest_stride > 0:
            ars, sgn = rest_stride, 1
        elif rest_stride < 0:
            ars, sgn = -rest_stride, -1
        else:
            raise DivisibilityError("composition: division by zero (stride 0)")
        next_shape = (cs + ars - 1) // ars
        next_stride = ((ars + cs - 1) // cs) * sgn
        if next_shape != 1 and rest_shape != 1:
            new_shape = next_shape if next_shape <= rest_shape else rest_shape
            if rest_shape % new_shape != 0:
                raise DivisibilityError(f"Shape Divisibility Condition: {rest_shape} % {new_shape} != 0")
            res_s.append(new_shape)
            res_d.append(rest_stride * ld[i])
            rest_shape //= new_shape
            if strict and rest_shape != 1 and cs % ars != 0:
                raise DivisibilityError(
                    f"composition: stride {rd} steps over extent {cs} unevenly ({cs} % {ars} != 0) and the "
                    f"rhs runs past it: CuTe's answer would not be lhs(rhs(i))")
        rest_stride = next_stride
    last_d = rest_stride * ld[last]
    if not res_s:
        return rest_shape, last_d
    if rest_shape == 1:
        if len(res_s) == 1:
            return res_s[0], res_d[0]
        return tuple(res_s), tuple(res_d)
    res_s.append(rest_shape)
    res_d.append(last_d)
    return tuple(res_s), tuple(res_d)


def _compose_impl(ls: Any, ld: Any, rs: Any, rd: Any, strict: bool = False) -> Layout:
    s, d = _compose_sd(ls, ld, rs, rd, strict)
    return _mk(s, d)


def composition(lhs: Any, rhs: Any) -> Any:
    """Functional composition ``lhs o rhs``: ``result(c) = lhs(rhs(c))``.

    ``rhs`` is a layout, a tiler (tuple of layouts / shapes / ``_``, applied mode by
    mode; modes of ``lhs`` past the tiler are dropped, as in CuTe), a shape, an
    integer ``n`` (``n:1``), or a swizzle.

    @pre the strides and shapes of ``rhs`` divide the (coalesced) shape of ``lhs``
         (CuTe's shape_div: "Static shape_div failure" otherwise).
    @post ``compatible(rhs, result)``: the result has the shape of ``rhs``.
    @post ``result(i) == lhs(rhs(i))`` for every ``i < size(rhs)``: where CuTe's weak check lets a
          stride through that steps over an lhs extent unevenly and runs past it, this raises
          (CuTe answers, but not pointwise); the divides and products keep CuTe's answer.

    >>> from cute_sym.notation import parse
    >>> print(composition(parse("_20:_2"), parse("(_5,_4):(_4,_1)")))
    (_5,_4):(_8,_2)
    >>> print(composition(parse("(_12,(_4,_8)):(_59,(_13,_1))"), parse("(_3,_8)")))
    (_3,(_4,_2)):(_59,(_13,_1))
    """
    return _composition(lhs, rhs, True)


def _composition_cute(lhs: Any, rhs: Any) -> Any:
    """composition exactly as CuTe computes it (used by the divides and products)."""
    return _composition(lhs, rhs, False)


def _composition(lhs: Any, rhs: Any, strict: bool) -> Any:
    if not isinstance(lhs, Layout):
        return _composed_dispatch("composition", lhs, rhs)
    if type(rhs) is not Layout:
        rhs = unwrap(rhs)
    if isinstance(rhs, Layout):
        flat = _coalesce_x(lhs)
        return _compose_impl(flat._shape, flat._stride, rhs._shape, rhs._stride, strict)
    if type(rhs) is tuple:
        return _transform_layout(lhs, rhs, composition if strict else _composition_cute,
                                 keep_rest=False, what="composition")
    if rhs is _:
        return lhs
    if type(rhs) is int or isinstance(rhs, sympy.Expr):
        flat = _coalesce_x(lhs)
        return _compose_impl(flat._shape, flat._stride, rhs, 1, strict)
    return _composed_dispatch("composition", lhs, rhs)


def _composed_dispatch(op: str, a: Any, b: Any, *rest: Any) -> Any:
    from . import swizzle
    return swizzle.dispatch(op, a, b, *rest)


# ---------------------------------------------------------------- complement
def _min_index(strides: list[Any]) -> int:
    """Index of the smallest stride (the first of equals), deciding symbolic orders."""
    best = 0
    for j in range(1, len(strides)):
        a, b = strides[j], strides[best]
        if type(a) is int and type(b) is int:
            if a < b:
                best = j
        elif decide.require("<", a, b, assume=False, why="complement (stride order)"):
            best = j
    return best


def _complement(layout: Any, cotarget: Any = None) -> Layout:
    """complement exactly as CuTe computes it (the divides and products use this one); see :func:`complement`."""
    if not isinstance(layout, Layout):
        return _composed_dispatch("complement", layout, cotarget)  # type: ignore[no-any-return]
    if cotarget is not None and type(cotarget) is not int:
        cotarget = unwrap(cotarget)
    fast = _complement_static(layout, cotarget)
    if fast is not None:
        return fast
    filt = filter(layout)
    cotarget = None if cotarget is None else unwrap(cotarget)
    if cotarget is None:
        cotarget = cosize(filt)
    elif isinstance(cotarget, Layout):
        raise LayoutError("complement: the cotarget must be an integer or an IntTuple, not a layout")
    fs, fd = _flat(filt)
    if len(fs) == 1 and _is0(fd[0]):
        cs = coalesce_shape(cotarget)
        return _mk(cs, compact_major(cs))
    shapes, strides = list(fs), list(fd)
    R = len(shapes)
    rshape: list[Any] = []
    rstride: list[Any] = [1]
    # a mode's extent-one check runs after the next tiling check, which may prove it
    pending: Optional[tuple[Any, Any, Any, Any]] = None
    for i in range(R - 1):
        k = _min_index(strides)
        ms = strides[k]
        _check_tiles(ms, rstride[i])
        if pending is not None:
            _check_extent_one(*pending)
        new_shape = cdiv(ms, rstride[i])
        _check_injective(new_shape, ms, rstride[i])
        rshape.append(new_shape)
        rstride.append(_mul(ms, shapes[k]))
        nxt = strides[_min_index([x for j, x in enumerate(strides) if j != k])] if R - 1 - i > 1 else \
            [x for j, x in enumerate(strides) if j != k][0]
        pending = (shapes[k], ms, rstride[i], nxt)
        del strides[k]
        del shapes[k]
    _check_tiles(strides[0], rstride[R - 1])
    if pending is not None:
        _check_extent_one(*pending)
    _check_extent_one(shapes[0], strides[0], rstride[R - 1], product(cotarget))
    new_shape = cdiv(strides[0], rstride[R - 1])
    _check_injective(new_shape, strides[0], rstride[R - 1])
    rshape.append(new_shape)
    new_stride = _mul(strides[0], shapes[0])
    rest_shape = coalesce_shape(ceil_div(cotarget, new_stride))
    rest_stride = compact_major(rest_shape, new_stride)
    s = tuple(rshape) + (rest_shape if type(rest_shape) is tuple else (rest_shape,))
    d = tuple(rstride) + (rest_stride if type(rest_stride) is tuple else (rest_stride,))
    return _coalesce_flat(leaves(s), leaves(d))


def complement(layout: Any, cotarget: Any = None) -> Layout:
    """The layout of the codomain positions ``layout`` does not reach, up to ``cotarget``.

    ``cotarget`` is an integer or an IntTuple (CuTe divides a tuple cotarget mode by
    mode); by default the cosize of the filtered layout.

    @pre ``layout`` is injective (on its filtered modes): "Non-injective Layout detected in complement".
    @post ``result(i) < result(i+1)``: the result is ordered, and disjoint from the image of ``layout``.
    @post ``size(result) >= cotarget / size(filter(layout))``.
    @post (static) ``cosize((layout, result)) >= M`` with ``M = size(cotarget)``: where CuTe's
          weaker checks let an input through that breaks it (strides that do not tile, tuple
          cotargets), this raises instead.

    >>> from cute_sym.notation import parse
    >>> print(complement(parse("_4:_1"), 24)), print(complement(parse("(_2,_2):(_1,_6)"), 24))
    _6:_4
    (_3,_2):(_2,_12)
    (None, None)
    >>> complement(parse("(_2,_3):(_4,_1)"), 24)
    Traceback (most recent call last):
    ...
    cute_sym.errors.DivisibilityError: complement: (_2,_3):(_4,_1) has no complement up to 24: CuTe's answer _3:_8 breaks cosize((A,C)) = 23 >= 24
    """
    if type(layout) is Layout:
        if cotarget is not None and type(cotarget) is not int:
            cotarget = unwrap(cotarget)
        fast = _complement_static(layout, cotarget, check=True)
        if fast is not None:
            return fast
    result = _complement(layout, cotarget)
    if cotarget is None or type(layout) is not Layout or type(result) is not Layout:
        return result       # the default cotarget is covered by construction
    m = unwrap(cotarget)
    if type(m) is tuple:
        m = product(m)
    if type(m) is int:
        whole = 1
        for x, y in zip(leaves(layout._shape) + leaves(result._shape),
                        leaves(layout._stride) + leaves(result._stride)):
            if type(x) is not int or type(y) is not int:
                return result
            whole += (x - 1) * (y if y >= 0 else -y)
        if whole < m:
            raise DivisibilityError(f"complement: {layout} has no complement up to {m}: CuTe's answer "
                                    f"{result} breaks cosize((A,C)) = {whole} >= {m}")
    return result


def _complement_static(layout: Layout, cotarget: Any, check: bool = False) -> Optional[Layout]:
    """complement on plain ints (the same steps, without the generic helpers); None if not static.

    ``check``: raise where the strides do not tile and the answer does not cover the cotarget.
    """
    s0, d0 = layout._shape, layout._stride
    if type(s0) is int and type(d0) is int and d0 > 0 and s0 > 1 and (
            cotarget is None or type(cotarget) is int and cotarget >= 0):
        # one mode s0:d0: the gap below d0, then the rest above s0*d0
        span = s0 * d0
        cot = (s0 - 1) * d0 + 1 if cotarget is None else cotarget
        rest = (cot + span - 1) // span
        if rest == 1:
            return _mk(1, 0) if d0 == 1 else _mk(d0, 1)
        if d0 == 1:
            return _mk(rest, span)
        return _mk((d0, rest), (1, span))
    s = leaves(s0)
    d = leaves(d0)
    for x in s:
        if type(x) is not int:
            return None
    for x in d:
        if type(x) is not int:
            return None
    tc = type(cotarget)
    if tc is tuple:
        for x in leaves(cotarget):
            if type(x) is not int:
                return None
    elif cotarget is not None and tc is not int:
        return None
    # filter: stride-0 modes become size 1, then coalesce
    n = len(s)
    for k in range(n):
        if d[k] == 0:
            s[k] = 1
    fs, fd = _bw_sd(s, d, n - 2, s[n - 1], d[n - 1])
    if type(fs) is not tuple:
        fs, fd = [fs], [fd]
    else:
        fs, fd = list(fs), list(fd)
    if cotarget is None:
        cotarget = 1
        for x, y in zip(fs, fd):
            cotarget += (x - 1) * (y if y >= 0 else -y)
    if len(fs) == 1 and fd[0] == 0:
        cs = coalesce_shape(cotarget)
        return _mk(cs, compact_major(cs))
    rshape: list[int] = []
    rstride: list[int] = [1]
    last = 1
    exact = True
    whole = 1
    if check:
        for x, y in zip(fs, fd):
            whole += (x - 1) * (y if y >= 0 else -y)
    while len(fd) > 1:
        k = 0
        ms = fd[0]
        for j in range(1, len(fd)):
            if fd[j] < ms:
                ms, k = fd[j], j
        ns = cdiv(ms, last)
        if ns == 0:
            _check_injective(0, ms, last)
        if ms % last:
            exact = False
        rshape.append(ns)
        last = ms * fs[k]
        rstride.append(last)
        del fd[k]
        del fs[k]
    ns = cdiv(fd[0], last)
    if ns == 0:
        _check_injective(0, fd[0], last)
    if fd[0] % last:
        exact = False
    rshape.append(ns)
    new_stride = fd[0] * fs[0]
    if tc is not tuple and new_stride > 0 and cotarget >= 0:
        rest = (cotarget + new_stride - 1) // new_stride
        rshape.append(rest)
        rstride.append(0 if rest == 1 else new_stride)
        m = len(rshape)
        rs, rd = _bw_sd(rshape, rstride, m - 2, rshape[m - 1], rstride[m - 1])
        result = _mk(rs, rd)
    else:
        exact = False
        rest_shape = coalesce_shape(ceil_div(cotarget, new_stride))
        rest_stride = compact_major(rest_shape, new_stride)
        result = _coalesce_flat(rshape + leaves(rest_shape), rstride + leaves(rest_stride))
    if check and not exact:
        # the completion (layout, result) must reach the cotarget
        m = product(cotarget)
        for x, y in zip(leaves(result._shape), leaves(result._stride)):
            whole += (x - 1) * (y if y >= 0 else -y)
        if whole < m:
            raise DivisibilityError(f"complement: {layout} has no complement up to {m}: CuTe's answer "
                                    f"{result} breaks cosize((A,C)) = {whole} >= {m}")
    return result


def _check_tiles(stride: IntLike, span: IntLike) -> None:
    """The gap below a stride is a whole number of spans: exact (CuTe divides, rounding down)."""
    if type(stride) is int and type(span) is int:
        return      # static: CuTe's answer; the public complement checks it covers the cotarget
    decide.require("|", span, stride, why="complement (the strides tile)")


def _check_extent_one(s: IntLike, d: IntLike, span: IntLike, nxt: IntLike) -> None:
    """A symbolic extent that may be 1 is no mode at all: its stride must not change the result.

    That holds when the gap below it and the step above it divide exactly
    (``span | d`` and ``d | nxt``); otherwise the extent must be at least 2.
    """
    if type(s) is int or decide.prove(">=", s, 2):
        return
    tiles, steps = decide.prove("|", span, d), decide.prove("|", d, nxt)
    if tiles and steps:
        return
    why = "complement (a mode of extent 1 is no mode)"
    if tiles or steps:
        ok = decide.require_any([(">=", s, 2), ("|", d, nxt) if tiles else ("|", span, d)], why=why)
    else:
        ok = decide.require(">=", s, 2, why=why)
    if not ok:
        raise LayoutError(f"complement: the mode {fmt(s)}:{fmt(d)} has extent 1 and its stride changes "
                          "the result; give the extent statically as _1")


def _check_injective(new_shape: IntLike, stride: IntLike, prev: IntLike) -> None:
    if type(new_shape) is int:
        if new_shape == 0:
            raise InjectivityError(
                f"Non-injective Layout detected in complement (stride {fmt(stride)} below the span {fmt(prev)})")
        return
    if decide.require("!=", new_shape, 0, why="complement (injectivity)") is False:  # pragma: no cover
        raise InjectivityError("Non-injective Layout detected in complement")


# ---------------------------------------------------------------- inverses
def right_inverse(layout: Any) -> Any:
    """A layout ``R`` with ``layout(R(i)) == i`` for every ``i < size(R)``, as large as CuTe's.

    Follows the chain of strides ``1, s0*d0, ...`` through the coalesced layout;
    a symbolic stride joins the chain only when it is *proved* equal to the next
    stride (CuTe ignores dynamic strides). Negative strides start no chain, as in CuTe.

    @post ``layout(result(i)) == i`` for ``i < size(result)``.

    >>> from cute_sym.notation import parse
    >>> print(right_inverse(parse("(_4,_8):(_8,_1)")))
    (_8,_4):(_4,_1)
    """
    if layout is _:
        return _
    if not isinstance(layout, Layout):
        return _composed_dispatch("right_inverse", layout, None)
    ls = leaves(layout._shape)
    ld = leaves(layout._stride)
    n = len(ls)
    cs_, cd_ = _bw_sd(ls, ld, n - 2, ls[n - 1], ld[n - 1])
    fs, fd = (list(cs_), list(cd_)) if type(cs_) is tuple else ([cs_], [cd_])
    for x in fs + fd:
        if type(x) is not int:
            break
    else:
        return _right_inverse_static(fs, fd)
    seq: list[int] = []
    nxt: IntLike = 1
    while True:
        found = -1
        for j, d in enumerate(fd):
            if j in seq:
                continue
            if (d == nxt) if (type(d) is int and type(nxt) is int) else _eq_proved(d, nxt):
                found = j
                break
        if found < 0:
            break
        seq.append(found)
        ns = _mul(fs[found], fd[found])
        if _eq_proved(ns, nxt):
            break
        nxt = ns
    if not seq:
        return _mk(1, 0)
    rstride = compact_major(tuple(fs))
    shp = tuple(fs[i] for i in seq)
    std = tuple(rstride[i] for i in seq)  # type: ignore[index]
    if len(seq) == 1:
        return _mk(shp[0], std[0])
    return _mk(shp, std)


def _right_inverse_static(fs: list[int], fd: list[int]) -> Layout:
    # column-major index strides of the coalesced modes (a static 1 extent gets 0)
    istride = []
    cur = 1
    for x in fs:
        istride.append(0 if x == 1 else cur)
        cur *= x
    shp: list[int] = []
    std: list[int] = []
    nxt = 1
    used = 0
    while True:
        for j in range(len(fd)):
            if fd[j] == nxt and not (used >> j) & 1:
                break
        else:
            break
        used |= 1 << j
        shp.append(fs[j])
        std.append(istride[j])
        ns = fs[j] * fd[j]
        if ns == nxt:
            break
        nxt = ns
    if not shp:
        return _mk(1, 0)
    if len(shp) == 1:
        return _mk(shp[0], std[0])
    return _mk(tuple(shp), tuple(std))


def left_inverse(layout: Any) -> Any:
    """A layout ``L`` with ``L(layout(i)) == i`` for every ``i < size(layout)``.

    The modes of the coalesced layout, ordered by stride, each stretched up to
    the next stride (offsets in between are outside the image and map anywhere);
    a leading gap below the smallest stride gets stride 0; stride-0 modes add
    nothing (an all-zero layout gives ``size:0``).

    @pre ``layout`` is injective off its stride-0 modes, and each stride divides
    the next one ("Left inverse divisibility condition").
    @post ``result(layout(i)) == i`` for ``i < size(layout)`` (on the non-zero-stride part).

    >>> from cute_sym.notation import parse
    >>> print(left_inverse(parse("(_4,_2):(_1,_16)")))
    (_16,_2):(_1,_4)
    >>> print(left_inverse(parse("_4:_2")))
    (_2,_4):(_0,_1)
    """
    if layout is _:
        return _
    if not isinstance(layout, Layout):
        return _composed_dispatch("left_inverse", layout, None)
    ls, ld = _flat(layout)
    n = len(ls)
    cs_, cd_ = _bw_sd(ls, ld, n - 2, ls[n - 1], ld[n - 1])
    fs, fd = (list(cs_), list(cd_)) if type(cs_) is tuple else ([cs_], [cd_])
    istride = leaves(compact_major(tuple(fs)))
    modes = [(fs[k], fd[k], istride[k]) for k in range(len(fs)) if not _is0(fd[k])]
    for m in modes:
        # a symbolic stride that may be 0 would add nothing: the answer depends on it
        if type(m[1]) is not int and not decide.require("!=", m[1], 0, why="left_inverse (a stride-0 mode adds nothing)"):
            raise LayoutError("left_inverse: give a stride that is 0 statically as _0")  # pragma: no cover
    if not modes:
        return _mk(product(tuple(fs)), 0)
    order: list[tuple[Any, Any, Any]] = []
    if all(type(m[1]) is int for m in modes):
        order = sorted(modes, key=lambda m: m[1])     # stable
        modes = []
    # stable sort by stride (decided)
    for m in modes:
        pos = len(order)
        while pos > 0:
            a, b = m[1], order[pos - 1][1]
            less = (a < b) if (type(a) is int and type(b) is int) else decide.require(
                "<", a, b, assume=False, why="left_inverse (stride order)")
            if not less:
                break
            pos -= 1
        order.insert(pos, m)
    rs: list[Any] = []
    rd: list[Any] = []
    first = order[0][1]
    if not _is1(first):
        rs.append(first)
        rd.append(0)
    for k in range(len(order) - 1):
        s, d, ist = order[k]
        nd = order[k + 1][1]
        # d | next stride (CuTe's condition), and the mode ends below the next stride (injective)
        span = _mul(s, d)
        if type(nd) is int and type(d) is int and type(span) is int:
            ok_div, ok_inj = nd % d == 0, span <= nd
        else:
            ok_div = decide.require("|", d, nd, why="left_inverse")
            ok_inj = decide.require("<=", span, nd, why="left_inverse (injectivity)")
        if not ok_div:
            raise DivisibilityError(
                f"Left inverse divisibility condition: stride {fmt(d)} does not divide {fmt(nd)}")
        if not ok_inj:
            raise InjectivityError(
                f"left_inverse: the layout is not injective (mode {fmt(s)}:{fmt(d)} reaches stride {fmt(nd)})")
        rs.append(cdiv(nd, d))
        rd.append(ist)
    rs.append(order[-1][0])
    rd.append(order[-1][2])
    return _coalesce_flat(rs, rd)


def max_common_layout(a: Layout, b: Layout) -> Layout:
    """The largest ``R`` with ``a(R(i)) == i`` and ``b(R(i)) == i``: the common
    contiguous (vectorisable) part of two layouts; static extents only, as in CuTe.

    @post ``a(result(i)) == i == b(result(i))`` for ``i < size(result)``.

    >>> from cute_sym.notation import parse
    >>> print(max_common_layout(parse("(_4,_8):(_1,_4)"), parse("(_4,_8):(_1,_8)")))
    _4:_1
    """
    inv_b = right_inverse(b)
    common = coalesce(_composition_cute(a, inv_b))
    s0 = common._shape[0] if type(common._shape) is tuple else common._shape
    d0 = common._stride[0] if type(common._stride) is tuple else common._stride
    if type(s0) is int and type(d0) is int and d0 == 1:
        return _composition_cute(inv_b, _mk(s0, d0))  # type: ignore[no-any-return]
    return _mk(1, 0)


def max_common_vector(a: Layout, b: Layout) -> IntLike:
    """The number ``N`` of leading elements where ``a`` and ``b`` agree contiguously
    (static, as in CuTe: a symbolic run counts as 1).

    @post ``a(b.get_1d_coord(n)) == n`` for ``n < N``; ``N >= 1``.

    >>> from cute_sym.notation import parse
    >>> max_common_vector(parse("(_4,_8):(_1,_4)"), parse("(_4,_8):(_1,_4)"))
    32
    """
    common = coalesce(_composition_cute(a, right_inverse(b)))
    s0 = common._shape[0] if type(common._shape) is tuple else common._shape
    d0 = common._stride[0] if type(common._stride) is tuple else common._stride
    if type(s0) is int and type(d0) is int and d0 == 1:
        return s0
    return 1


def nullspace(layout: Layout) -> Layout:
    """The modes of stride 0: ``layout(result(i)) == 0`` for ``i < size(result)``.

    @post ``layout(result(i)) == 0`` for ``i < size(result)``; ``result`` is injective
          and ``size(result)`` is the product of the extents of the stride-0 modes
          (``_1:_0`` when there is none).

    >>> from cute_sym.notation import parse
    >>> print(nullspace(parse("(_4,_2):(_1,_4)")))
    _1:_0
    >>> print(nullspace(parse("(_2,_3,_4):(_1,_0,_0)")))
    (_3,_4):(_2,_6)
    """
    fs, fd = _flat(layout)
    seq = [i for i, d in enumerate(fd) if _is0(d)]
    if not seq:
        return _mk(1, 0)
    rstride = compact_major(tuple(fs))
    shp = tuple(fs[i] for i in seq)
    std = tuple(rstride[i] for i in seq)  # type: ignore[index]
    return _mk(shp[0], std[0]) if len(seq) == 1 else _mk(shp, std)


# ---------------------------------------------------------------- divides
def logical_divide(layout: Any, tiler: Any) -> Any:
    """Split ``layout`` into (tile, rest): ``composition(layout, (tiler, complement(tiler, shape(layout))))``.

    A tuple tiler divides mode by mode (extra modes of ``layout`` are kept).

    @pre ``rank(tiler) <= rank(layout)`` for a tuple tiler ("Too many modes in tiler").
    @post ``size(result) == size(layout)`` when the tiler divides the layout.
    @post ``result(i) == layout(tiled(i))`` where ``tiled = (tiler, complement(tiler, shape(layout)))``.

    >>> from cute_sym.notation import parse
    >>> print(logical_divide(parse("(_4,_2,_3):(_2,_1,_8)"), parse("_4:_2")))
    ((_2,_2),(_2,_3)):((_4,_1),(_2,_8))
    """
    if type(layout) is not Layout:
        return _composed_dispatch("logical_divide", layout, tiler)
    tt = type(tiler)
    if tt is int:
        s, d = layout._shape, layout._stride
        if type(s) is int and type(d) is int and s >= 2 and tiler >= 2 and d != 0:
            # one static mode s:d by n (the usual tile of a tuple tiler): (n, ceil(s/n)):(d, n*d)
            q = -(-s // tiler)
            return _mk((tiler, 1), (d, 0)) if q == 1 else _mk((tiler, q), (d, tiler * d))
        tiler = _mk(tiler, 0 if tiler == 1 else 1)
    elif tt is not Layout:
        tiler = unwrap(tiler)
        if type(tiler) is tuple:
            return _transform_layout(layout, tiler, logical_divide, what="logical_divide")
        if tiler is _:
            return layout
        if isinstance(tiler, sympy.Expr):
            tiler = _mk(tiler, 1)
        elif not isinstance(tiler, Layout):
            return _composed_dispatch("logical_divide", layout, tiler)
    fl_s, fl_d = _flat(layout)
    n = len(fl_s)
    flat_s, flat_d = _bw_sd(fl_s, fl_d, n - 2, fl_s[n - 1], fl_d[n - 1])
    comp = _complement(tiler, flat_s)
    last = fl_s[n - 1]
    if not (type(last) is int and last == 1):
        # coalesce_x differs from coalesce only when the last extent is a static 1
        return _compose_impl(flat_s, flat_d, (tiler._shape, comp._shape),
                             (tiler._stride, comp._stride))
    full = _mk((tiler._shape, comp._shape), (tiler._stride, comp._stride))
    return _composition_cute(layout, full)


def _tile_unzip(layout: Layout, tiler: Any) -> Layout:
    return _mk(zip2_by(layout._shape, tiler), zip2_by(layout._stride, tiler))


def zipped_divide(layout: Any, tiler: Any) -> Any:
    """``logical_divide`` with the tile modes gathered: ``((TILE...), (REST...))``.

    @pre as :func:`logical_divide`: ``rank(tiler) <= rank(layout)`` for a tuple tiler.
    @post ``rank(result) == 2``; ``result[0]`` gathers the tile part (mode 0) of each
          mode of ``logical_divide(layout, tiler)`` and ``result[1]`` the rest parts
          (mode 1) followed by the modes the tiler does not cover; for a layout
          tiler ``result == logical_divide(layout, tiler)``.

    >>> from cute_sym.notation import parse
    >>> print(zipped_divide(parse("(_8,_6):(_1,_8)"), parse("(_2,_3)")))
    ((_2,_3),(_4,_2)):((_1,_8),(_2,_24))
    >>> print(zipped_divide(parse("(_4096,_4096):(_4096,_1)"), parse("(_128,_32)")))
    ((_128,_32),(_32,_128)):((_4096,_1),(_524288,_32))
    """
    if not isinstance(layout, Layout):
        return _composed_dispatch("zipped_divide", layout, tiler)
    if type(tiler) is not Layout:
        tiler = unwrap(tiler)
    return _tile_unzip(logical_divide(layout, tiler), tiler)


def _unpack(layout: Layout, first: bool) -> Layout:
    """``result(_, repeat<R1>(_))`` or ``result(repeat<R0>(_), repeat<R1>(_))``."""
    s, d = layout._shape, layout._stride
    s0, s1 = s[0], s[1]  # type: ignore[index]
    d0, d1 = d[0], d[1]  # type: ignore[index]
    # CuTe's repeat<1>(_) is a plain _: a rank-1 mode is kept whole
    def items(x: Any) -> tuple[Any, ...]:
        return x if type(x) is tuple and len(x) != 1 else (x,)
    if first:
        return _mk(items(s0) + items(s1), items(d0) + items(d1))
    return _mk((s0,) + items(s1), (d0,) + items(d1))


def tiled_divide(layout: Any, tiler: Any) -> Any:
    """``zipped_divide`` with the rest modes unpacked: ``((TILE...), r0, r1, ...)``.

    @pre as :func:`zipped_divide`.
    @post ``result[0] == zipped_divide(layout, tiler)[0]``; the rest modes are those
          of ``zipped_divide``'s mode 1, unpacked (an integral mode 1 stays one mode);
          the same function as ``zipped_divide`` (same flattened shape and stride).

    >>> from cute_sym.notation import parse
    >>> print(tiled_divide(parse("(_8,_6):(_1,_8)"), parse("(_2,_3)")))
    ((_2,_3),_4,_2):((_1,_8),_2,_24)
    >>> print(tiled_divide(parse("_24:_2"), parse("_4:_2")))
    (_4,_2,_3):(_4,_2,_16)
    """
    if not isinstance(layout, Layout):
        return _composed_dispatch("tiled_divide", layout, tiler)
    return _unpack(zipped_divide(layout, tiler), False)


def flat_divide(layout: Any, tiler: Any) -> Any:
    """``zipped_divide`` with both modes unpacked: ``(t0, t1, ..., r0, r1, ...)``.

    @pre as :func:`zipped_divide`.
    @post the modes are those of ``zipped_divide(layout, tiler)[0]`` then those of
          its mode 1, each unpacked (an integral mode stays one mode);
          ``flatten(result) == flatten(zipped_divide(layout, tiler))``.

    >>> from cute_sym.notation import parse
    >>> print(flat_divide(parse("(_8,_6):(_1,_8)"), parse("(_2,_3)")))
    (_2,_3,_4,_2):(_1,_8,_2,_24)
    """
    if not isinstance(layout, Layout):
        return _composed_dispatch("flat_divide", layout, tiler)
    return _unpack(zipped_divide(layout, tiler), True)


# ---------------------------------------------------------------- products
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
    if type(tiler) is int or isinstance(tiler, sympy.Expr):
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


# ---------------------------------------------------------------- recast
def _positive_count(n: Any, what: str) -> int:
    """A static positive integer argument (a factor or a bit width)."""
    n = unwrap(n)
    if type(n) is not int or n < 1:
        raise LayoutError(f"{what}: expected a static positive integer, got {n!r}")
    return n


def _need_layout(layout: Any, what: str) -> None:
    if not isinstance(layout, Layout):
        raise LayoutError(f"{what}: expected a Layout, got {type(layout).__name__}")


def upcast(layout: Layout, n: int) -> Layout:
    """View ``layout`` in units ``n`` times larger: the stride-1 mode shrinks by ``n``,
    other strides are divided by ``n``.

    @pre ``n >= 1``; for each static non-zero stride ``d``, ``d`` and ``n`` divide one
         another, and so do the mode's extent and ``n / |d|`` when ``|d| < n``
         (CuTe's ``shape_div``, else :class:`DivisibilityError`); a symbolic stride
         not below ``n`` is a multiple of ``n``.
    @post congruent with ``layout``; stride-0 modes are unchanged; every other mode
          ``s:d`` becomes ``shape_div(s, shape_div(n, |d|)):shape_div(d, n)``.

    >>> from cute_sym.notation import parse
    >>> print(upcast(parse("(_4,_8):(_8,_1)"), 4), upcast(parse("(_2,_8):(_0,_1)"), 4))
    (_4,_2):(_2,_1) (_2,_2):(_0,_1)
    >>> print(upcast(parse("(_4,_8):(_1,_4)"), 2))
    (_2,_8):(_1,_2)
    """
    _need_layout(layout, "upcast")
    n = _positive_count(n, "upcast")

    def go(s: Any, d: Any) -> tuple[Any, Any]:
        if type(s) is tuple:
            parts = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        if _is0(d):
            return s, d
        if type(d) is int or decide.prove("<", sabs(d), n) is not False:
            return shape_div(s, shape_div(n, sabs(d))), shape_div(d, n)
        if not decide.require("|", n, d, why="upcast"):
            raise LayoutError(f"upcast: stride {d} is not a multiple of {n}")
        return s, cdiv(d, n)
    s, d = go(layout._shape, layout._stride)
    return _mk(s, d)


def downcast(layout: Layout, n: int) -> Layout:
    """View ``layout`` in units ``n`` times smaller: the stride-±1 mode grows by ``n``,
    other strides are multiplied by ``n``.

    @pre some stride is 1 ("Downcast requires adjacent elements").

    >>> from cute_sym.notation import parse
    >>> print(downcast(parse("(_4,_8):(_1,_4)"), 2))
    (_8,_8):(_1,_8)
    """
    _need_layout(layout, "downcast")
    n = _positive_count(n, "downcast")
    if not any(type(d) is int and d == 1 for d in iter_leaves(layout._stride)):
        raise LayoutError("Downcast requires adjacent elements (a static stride-1 mode)")

    def go(s: Any, d: Any) -> tuple[Any, Any]:
        if type(s) is tuple:
            parts = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        if type(d) is int and d in (1, -1):
            return _mul(s, n), d
        return s, _mul(d, n)
    s, d = go(layout._shape, layout._stride)
    return _mk(s, d)


def recast_layout(layout: Layout, old_bits: int, new_bits: int) -> Layout:
    """Re-express ``layout`` from elements of ``old_bits`` to elements of ``new_bits``.

    @pre ``old_bits, new_bits > 0`` and one divides the other (else :class:`LayoutError`
         "Recast not supported"); the preconditions of :func:`upcast` / :func:`downcast`.
    @post ``layout`` when the widths are equal; ``upcast(layout, new_bits // old_bits)``
          when wider; ``downcast(layout, old_bits // new_bits)`` when narrower.

    >>> from cute_sym.notation import parse
    >>> print(recast_layout(parse("(_4,_8):(_1,_4)"), 32, 8))
    (_16,_8):(_1,_16)
    >>> try:
    ...     recast_layout(parse("(_4,_8):(_1,_4)"), 16, 24)
    ... except LayoutError as e:
    ...     print(e)
    Recast not supported: 16 bits to 24 bits
    >>> print(recast_layout(parse("(_4,_8):(_1,_4)"), 16, 32))
    (_2,_8):(_1,_2)
    """
    import math
    _need_layout(layout, "recast_layout")
    old_bits = _positive_count(old_bits, "recast_layout (old_bits)")
    new_bits = _positive_count(new_bits, "recast_layout (new_bits)")
    g = math.gcd(new_bits, old_bits)
    num, den = new_bits // g, old_bits // g
    if num == 1 and den == 1:
        return layout
    if num == 1:
        return downcast(layout, den)
    if den == 1:
        return upcast(layout, num)
    raise LayoutError(f"Recast not supported: {old_bits} bits to {new_bits} bits")

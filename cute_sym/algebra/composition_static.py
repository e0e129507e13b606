"""composition on plain ints: the static pipeline of :mod:`.composition`.

Plain-int twins of ``_coalesce_x``, ``_compose_sd``, ``_check_modes_add`` and ``_transform_layout``
for layouts whose leaves are all ``int``: the same answers and errors (the general path calls the
same fold per rhs leaf), without the generic helpers' per-leaf dispatch and without sympy.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Optional, Sequence

from ..core.errors import DivisibilityError, RankError
from ..core.int_tuple import _, fmt, leaves
from ..layout.layout import Layout, _mk, _mk_static, is_static_layout


def _compose_static(ls: tuple[int, ...], ld: tuple[int, ...], rs: int, rd: int,
                    strict: bool = False) -> tuple[Any, Any]:
    """_compose_sd on plain ints: the same fold, without the generic helpers.

    ``strict``: where the stride does not divide an lhs extent (``r < s``, ``r ∤ s``) and the
    rhs runs past that extent, CuTe's answer is not ``lhs(rhs(i))``; raise instead.

    @pre ``ls:ld`` is a coalesced flat lhs of at least one mode; ``rd != 0``.
    @post the modes the stride steps over whole (a positive multiple of their extent) only
          divide the stride, as CuTe's fold does for them (``next_shape == 1``).

    >>> _compose_static([4, 8], [1, 16], 8, 2)
    ((2, 4), (2, 16))
    """
    rest_stride = rd
    last = len(ls) - 1
    i = 0
    while i < last:     # the modes a positive multiple of their extent steps over: next_shape is 1
        cs = ls[i]
        if rest_stride >= cs > 0 and rest_stride % cs == 0:
            rest_stride //= cs
            i += 1
        else:
            break
    if i == last:
        return rs, rest_stride * ld[last]
    return _compose_fold(ls, ld, rs, rd, strict, i, rest_stride)


def _compose_fold(ls: Any, ld: Any, rs: int, rd: int, strict: bool, i: int, rest_stride: int) -> tuple[Any, Any]:
    """_compose_static from lhs mode ``i`` on, ``rest_stride`` what the modes before it left.

    @pre ``0 <= i < len(ls) - 1``; the modes before ``i`` were stepped over whole.
    @post CuTe's fold: Stride and Shape Divisibility Conditions checked (DivisibilityError),
          a single resulting mode unwrapped, a trailing static 1 dropped.
    """
    # the first mode taken is kept in locals (most leaves give one or two modes)
    last = len(ls) - 1
    rest_shape = rs
    k = 0
    s0 = d0 = 0
    res_s: list[int] = []
    res_d: list[int] = []
    while i < last:
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
        if next_shape != 1 and rest_shape != 1:
            new_shape = next_shape if next_shape <= rest_shape else rest_shape
            if rest_shape % new_shape != 0:
                raise DivisibilityError(f"Shape Divisibility Condition: {rest_shape} % {new_shape} != 0")
            if k == 0:
                s0, d0 = new_shape, rest_stride * ld[i]
            else:
                res_s.append(new_shape)
                res_d.append(rest_stride * ld[i])
            k += 1
            rest_shape //= new_shape
            if strict and rest_shape != 1 and cs % ars != 0:
                raise DivisibilityError(
                    f"composition: stride {rd} steps over extent {cs} unevenly ({cs} % {ars} != 0) and the "
                    f"rhs runs past it: CuTe's answer would not be lhs(rhs(i))")
        rest_stride = ((ars + cs - 1) // cs) * sgn
        i += 1
    if k == 0:
        return rest_shape, rest_stride * ld[last]
    if rest_shape == 1:
        if k == 1:
            return s0, d0
        return (s0, *res_s), (d0, *res_d)
    return (s0, *res_s, rest_shape), (d0, *res_d, rest_stride * ld[last])


_DIGIT_SCAN_LIMIT = 1 << 16


def _max_digit(s: int, d: int, p: int, n: int) -> int:
    """The largest digit ``(t*d // p) % n`` for ``0 <= t < s``."""
    if d % (p * n) == 0:
        return 0
    top = (s - 1) * d
    if top < p * n:                     # no wrap: the digit grows with t
        return top // p
    if d % p == 0:                      # multiples of q = d/p modulo n
        q = d // p
        g = math.gcd(q, n)
        if s >= n // g:
            return n - g
        return max((t * q) % n for t in range(s))
    if p % d == 0:                      # every value up to top // p is reached
        return n - 1
    period = p * n // math.gcd(d, p * n)
    count = min(s, period)
    if count > _DIGIT_SCAN_LIMIT:
        return n - 1            # too many to scan: assume the worst digit (a refusal, never a wrong answer)
    return max((t * d // p) % n for t in range(count))


def _coalesce_x_ints(s0: Any, d0: Any) -> tuple[list[int], list[int]]:
    """``_coalesce_x`` of a static layout as lists of modes (one mode: the flat lhs is a scalar).

    Front to back: a mode merges into the one before when ``s*d`` of that one is its stride
    (the same neighbours merge as in CuTe's back-to-front fold); a static 1 is skipped, except
    that a trailing 1 keeps its stride as an extent-2 mode (the lhs extends past its last mode).

    >>> _coalesce_x_ints((2, (4, 1)), (1, (2, 7)))
    ([8, 2], [1, 7])
    """
    if type(s0) is not tuple:
        return [s0 if s0 != 1 else 2], [d0]
    fs: list[int] = []
    fd: list[int] = []
    a = b = 0
    for i in range(len(s0)):
        x = s0[i]
        if type(x) is int:
            a = x
            b = d0[i]
            if a != 1:
                if fs and fs[-1] * fd[-1] == b:
                    fs[-1] *= a
                else:
                    fs.append(a)
                    fd.append(b)
            continue
        y = d0[i]
        if not _ints(x):            # deeper than 2 (the lhs is static: no other leaf)
            x, y = leaves(x), leaves(y)
        for j in range(len(x)):
            a = x[j]
            b = y[j]
            if a != 1:
                if fs and fs[-1] * fd[-1] == b:
                    fs[-1] *= a
                else:
                    fs.append(a)
                    fd.append(b)
    if a == 1:                  # the last leaf (a:b) is a static 1
        if fs and fs[-1] * fd[-1] == b:
            fs[-1] *= 2
        else:
            fs.append(2)
            fd.append(b)
    elif not fs:                # no leaf at all: _coalesce_x's 1:0
        return [1], [0]
    return fs, fd


def _ints(t: tuple[Any, ...]) -> bool:
    for x in t:
        if type(x) is not int:
            return False
    return True


def _compose_ints(fs: Any, fd: Any, rs: Any, rd: Any, strict: bool,
                  modes: Optional[list[tuple[int, int]]]) -> Optional[tuple[Any, Any]]:
    """``_compose_sd`` on a static flat lhs ``fs:fd`` (sequences; one mode: a scalar lhs), leaf by
    leaf over ``rs:rd``; None when a leaf of the rhs is not a plain int (nothing raised before it
    differs from the general fold, which goes leaf by leaf too).

    ``modes`` collects the rhs leaves that move (extent != 1, stride != 0) for the carry check.

    @pre ``fs:fd`` is ``_coalesce_x`` of the lhs (all ints, at least one mode).
    @post ``_compose_sd(fs, fd, rs, rd, strict)`` (same nesting as ``rs``, same errors), or None.

    >>> _compose_ints([24, 8], [1, 7], ((2, 3), 48), ((3, 1), 12), False, None)
    (((2, 3), (2, 24)), ((3, 1), (12, 7)))
    """
    if type(rs) is not tuple:
        if type(rs) is not int or type(rd) is not int:
            return None
        if rd == 0:
            return rs, 0
        if modes is not None and rs != 1:
            modes.append((rs, rd))
        if len(fs) == 1:
            return rs, rd * fd[0]
        return _compose_static(fs, fd, rs, rd, strict)
    out_s: list[Any] = []
    out_d: list[Any] = []
    for i in range(len(rs)):
        s = rs[i]
        d = rd[i]
        if type(s) is int and type(d) is int:
            if d == 0:
                out_s.append(s)
                out_d.append(0)
                continue
            if modes is not None and s != 1:
                modes.append((s, d))
            ms, md = _compose_static(fs, fd, s, d, strict)
        else:
            sub = _compose_ints(fs, fd, s, d, strict, modes)
            if sub is None:
                return None
            ms, md = sub
        out_s.append(ms)
        out_d.append(md)
    return tuple(out_s), tuple(out_d)


def _compose_layouts_static(ls: Any, ld: Any, rhs: Layout, strict: bool) -> tuple[Any, Any]:
    """``_composition`` of a static lhs ``ls:ld`` and a static layout, as ``(shape, stride)``: coalesce
    the lhs, fold each rhs leaf, and (strict) check that the rhs modes add without a carry.

    @pre every leaf of ``ls:ld`` and of ``rhs`` is a plain int.
    @post the general path's answer and errors; strict: ``R(i) == lhs(rhs(i))`` or a DivisibilityError.

    >>> _compose_layouts_static((16, 16), (16, 1), Layout((4, 8), (32, 1)), True)
    ((4, 8), (2, 16))
    """
    fs, fd = _coalesce_x_ints(ls, ld)
    modes: Optional[list[tuple[int, int]]] = [] if strict and len(fs) > 1 else None
    r = _compose_ints(fs, fd, rhs._shape, rhs._stride, strict, modes)
    if modes is not None and len(modes) > 1:
        _check_modes_add_ints(fs, fd, modes, rhs, r)  # type: ignore[arg-type]
    return r  # type: ignore[return-value]


# a negative rhs stride is checked point by point up to this many points (above: CuTe's answer kept)
_POINTWISE_LIMIT = 1 << 14


def _check_modes_add_ints(fs: Sequence[int], fd: Sequence[int], modes: list[tuple[int, int]], rhs: Layout,
                          result: tuple[Any, Any]) -> None:
    """``_check_modes_add`` on plain ints (``modes``: the moving rhs leaves, at least two).

    @pre ``fs:fd`` is the coalesced lhs; ``modes`` the rhs leaves with extent != 1 and stride != 0;
         ``result`` the mode-by-mode answer as ``(shape, stride)``.
    @post when in every lhs mode but the last the largest digits of the modes sum below its extent
          (or the next lhs stride continues it), returns; with a negative stride among the modes
          (digits do not bound its values), ``result(i) == lhs(rhs(i))`` at every ``i`` whose
          ``rhs(i)`` lies in the lhs's domain, checked point by point; else a DivisibilityError.
    """
    for _s, d in modes:
        if d < 0:
            _check_pointwise(fs, fd, rhs, result)
            return
    p = 1
    run = 1     # the extent of earlier modes a carry joined to mode j (as in _check_modes_add)
    for j in range(len(fs) - 1):
        n = run * fs[j]
        pn = p * n
        total = 0
        for s, d in modes:
            if d % pn:                  # _max_digit's first two cases, inline
                top = (s - 1) * d
                total += top // p if top < pn else _max_digit(s, d, p, n)
        if total < n:
            p, run = pn, 1
            continue
        if fd[j + 1] != fs[j] * fd[j]:
            raise DivisibilityError(
                f"composition: the rhs modes {fmt(rhs._shape)}:{fmt(rhs._stride)} add up past the lhs extent "
                f"{fmt(fs[j])} (mode {j}) with a carry: CuTe's mode-by-mode answer would not be lhs(rhs(i))")
        run = n


def _check_pointwise(fs: Sequence[int], fd: Sequence[int], rhs: Layout, result: tuple[Any, Any]) -> None:
    """``result(i) == lhs(rhs(i))`` wherever ``0 <= rhs(i) < size(lhs)`` (the lhs ``fs:fd``, flat): the
    composition's post-condition where it is defined (a negative stride takes rhs values below 0,
    where CuTe's mode-by-mode answer extends the lhs its own way). Up to ``_POINTWISE_LIMIT`` points.
    """
    n = 1
    for x in leaves(rhs._shape):
        n *= x
    if n > _POINTWISE_LIMIT:
        return
    lhs = _mk_static(tuple(fs), tuple(fd))
    res = _mk_static(*result)
    m = 1
    for x in fs:
        m *= x
    for i in range(n):
        b = rhs(i)
        if 0 <= b < m and res(i) != lhs(b):
            raise DivisibilityError(
                f"composition: the rhs {rhs} has a negative stride and its modes cross the lhs modes "
                f"{lhs}: CuTe's mode-by-mode answer {res} is not lhs(rhs(i)) (at i = {i}: {res(i)}, "
                f"lhs(rhs(i)) = lhs({b}) = {lhs(b)})")


def _tiler_static(s: Any, d: Any, tiler: tuple[Any, ...], strict: bool,
                  f: Callable[[Layout, Any], Layout]) -> tuple[Any, Any]:
    """``_transform_layout(lhs, tiler, f, keep_rest=False)`` of a static lhs ``s:d`` (``f``: the
    composition, strict or CuTe's): the static modes of the tiler (layouts, ints, ``_``, tuples)
    here, anything else through ``f``.

    @pre every leaf of ``s:d`` is a plain int.
    @post mode ``k`` of the result is ``f(lhs[k], tiler[k])`` (``_`` keeps the mode); a tiler longer
          than the lhs's rank raises the general path's RankError.
    """
    if type(s) is not tuple:
        s, d = (s,), (d,)
    if len(tiler) > len(s):
        raise RankError(f"composition: Too many modes in tiler ({len(tiler)} > rank {len(s)})")
    out_s: list[Any] = []
    out_d: list[Any] = []
    for i in range(len(tiler)):
        t = tiler[i]
        tt = type(t)
        if tt is Layout and is_static_layout(t):
            ms, md = _compose_layouts_static(s[i], d[i], t, strict)
        elif tt is int:
            ms, md = _compose_ints(*_coalesce_x_ints(s[i], d[i]), t, 1, strict, None)  # type: ignore[misc]
        elif t is _:
            ms, md = s[i], d[i]
        elif tt is tuple:
            ms, md = _tiler_static(s[i], d[i], t, strict, f)
        else:
            m = f(_mk(s[i], d[i]), t)
            ms, md = m._shape, m._stride
        out_s.append(ms)
        out_d.append(md)
    return tuple(out_s), tuple(out_d)

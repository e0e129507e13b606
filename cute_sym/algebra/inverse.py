"""right_inverse and left_inverse."""
from __future__ import annotations

from itertools import accumulate
from math import prod
from operator import mul
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core import decide
from ..core.errors import DivisibilityError, InjectivityError, LayoutError
from ..core.int_tuple import (
    _, cdiv, compact_major, fmt, leaves, product,
)
from ..core.integers import IntLike, scaled_symbol, symbol_facts
from ..layout.layout import Layout, _mk, _mk_static, is_static_layout
from ._util import _eq_proved, _flat, _is0, _is1, _mul, _composed_dispatch, _require_ordered
from .inverse_f2 import f2_left_inverse, f2_right_inverse, is_f2_layout
from .coalesce import _bw_sd, _coalesce_flat, coalesce_static


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
    if layout._st or (layout._st is None and is_static_layout(layout)):
        cl = coalesce_static(layout)
        fs: Any = cl._shape
        fd: Any = cl._stride
        if type(fs) is not tuple:
            # one mode: it is the chain when its stride is 1
            return _mk_static(fs, 1) if fd == 1 else _mk_static(1, 0)
        return _right_inverse_static(fs, fd)
    if is_f2_layout(layout):
        return f2_right_inverse(layout)     # linear algebra over F2 (a swizzle's inverse)
    _require_ordered(layout, "right_inverse")
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
    # CuTe sorts the static strides (ties as its sort leaves them); symbolic ones after them
    ints = [k for k, d in enumerate(fd) if type(d) is int]
    order = [ints[i] for i in cute_sort_order([fd[k] for k in ints])] + [k for k, d in enumerate(fd)
                                                                         if type(d) is not int]
    while True:
        found = -1
        # the same formula first (the usual case, no reasoning), then a proved equality
        for j in order:
            d = fd[j]
            # the same class first: an int against a formula would go through sympify
            if type(d) is type(nxt) and d == nxt and j not in seq:
                found = j
                break
        else:
            # a number never equals a (scaled) symbol its own facts leave unbounded above
            skip_ints = type(nxt) is not int and _unbounded_symbol(nxt)
            for j, d in enumerate(fd):
                if j in seq or (type(d) is int and (type(nxt) is int or skip_ints)):
                    continue
                if _eq_proved(d, nxt):
                    found = j
                    break
        if found < 0:
            break
        seq.append(found)
        # s*d == d (the chain stops) exactly when s == 1 or d == 0
        if _eq_proved(fs[found], 1) or _is0(fd[found]):
            break
        nxt = _mul(fs[found], fd[found])
    if not seq:
        return _mk(1, 0)
    # compact_major's strides, only as far as the chain reaches (each is a product of extents)
    rstride: list[IntLike] = [1]
    for x in fs[:max(seq)]:
        rstride.append(_mul(rstride[-1], x))
    shp = tuple(fs[i] for i in seq)
    std = tuple(0 if type(fs[i]) is int and fs[i] == 1 else rstride[i] for i in seq)
    if len(seq) == 1:
        return _mk(shp[0], std[0])
    return _mk(shp, std)


def cute_sort_order(keys: Sequence[int]) -> list[int]:
    """The indices of ``keys`` in the order CuTe's ``detail::SortByKey`` gives them: its
    ``exchange_sort``, which is not stable (equal keys may swap), so the inverses pick the same
    mode of equal strides as CuTe.

    >>> cute_sort_order([1, 1, 32, 0]), cute_sort_order([2, 1, 1])
    ([3, 1, 0, 2], [1, 2, 0])
    """
    a = [(k, i) for i, k in enumerate(keys)]
    n = len(a)
    for i in range(n):
        for j in range(i + 1, n):
            if a[j][0] < a[i][0]:
                a[i], a[j] = a[j], a[i]
    return [i for _, i in a]


def _unbounded_symbol(x: Any) -> bool:
    """``x`` is ``S`` or ``k*S`` for a symbol ``S`` with no upper bound, and no fact is in force:
    it takes infinitely many values, so no number is proved equal to it."""
    sym = scaled_symbol(x)[1]
    return sym is not None and decide.unconditional() and symbol_facts(sym)[2] is None


def _right_inverse_static(fs: Sequence[int], fd: Sequence[int]) -> Layout:
    """right_inverse of the coalesced static layout ``fs:fd`` (CuTe's ``inverse_seq`` from stride 1).

    The chain ``1, s*d, ...`` is strictly increasing while ``s >= 2`` (a coalesced extent is
    never 1 but in ``_1:_0``), or ends at 0 after a 0 extent; so a stride is never met twice.
    Of modes with the same stride (a layout that is not injective) the chain takes the one CuTe's
    sort by stride puts first (:func:`cute_sort_order`), as CuTe's fold over that order does.
    """
    if 1 not in fd:
        return _mk_static(1, 0)
    # column-major index strides of the coalesced modes
    istride = list(accumulate(fs, mul, initial=1))
    shp: list[int] = []
    std: list[int] = []
    nxt = 1
    # of modes with equal strides, the one CuTe's sort puts first (distinct strides: the only one)
    order = cute_sort_order(fd) if len(set(fd)) != len(fd) else None
    while True:
        j = fd.index(nxt) if order is None else next(k for k in order if fd[k] == nxt)
        s = fs[j]
        shp.append(s)
        std.append(istride[j])
        ns = s * nxt
        if ns == nxt or ns not in fd:
            break
        nxt = ns
    if len(shp) == 1:
        return _mk_static(shp[0], std[0])
    return _mk_static(tuple(shp), tuple(std))


def left_inverse(layout: Any) -> Any:
    """A layout ``L`` with ``L(layout(i)) == i`` for every ``i < size(layout)``.

    The modes of the coalesced layout, ordered by stride, each stretched up to
    the next stride (offsets in between are outside the image and map anywhere);
    a leading gap below the smallest stride gets stride 0; stride-0 modes add
    nothing (an all-zero layout gives ``size:0``).

    @pre each stride divides the next one ("Left inverse divisibility condition");
    ``layout`` is injective off its stride-0 modes, or (static) CuTe's answer picks a
    preimage: ``layout(result(layout(i))) == layout(i)`` (checked), else :class:`InjectivityError`.
    @post ``result(layout(i)) == i`` for ``i < size(layout)`` (on the non-zero-stride part)
    when ``layout`` is injective; ``layout(result(layout(i))) == layout(i)`` always.

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
    if layout._st or (layout._st is None and is_static_layout(layout)):
        return _left_inverse_static(layout)
    if is_f2_layout(layout):
        return f2_left_inverse(layout)
    _require_ordered(layout, "left_inverse")
    ls, ld = _flat(layout)
    n = len(ls)
    cs_, cd_ = _bw_sd(ls, ld, n - 2, ls[n - 1], ld[n - 1])
    fs, fd = (list(cs_), list(cd_)) if type(cs_) is tuple else ([cs_], [cd_])
    istride = leaves(compact_major(tuple(fs)))
    # (s, d, index stride, s and d positive monomials): a positive stride is not 0, read off its
    # structure once (decide for the rest)
    modes = []
    kept: list[int] = []        # the index of each mode kept
    for k in range(len(fs)):
        d = fd[k]
        dpos = _least(d) > 0
        if dpos or not _is0(d):
            modes.append((fs[k], d, istride[k], dpos and _least(fs[k]) > 0))
            kept.append(k)
    for m in modes:
        # a symbolic stride that may be 0 would add nothing: the answer depends on it
        if type(m[1]) is not int and not m[3] and not decide.require(
                "!=", m[1], 0, why="left_inverse (a stride-0 mode adds nothing)"):
            raise LayoutError("left_inverse: give a stride that is 0 statically as _0")  # pragma: no cover
    if not modes:
        return _mk(product(tuple(fs)), 0)
    order: list[tuple[Any, Any, Any, bool]] = []
    spans: set[tuple[int, int]] = set()     # (id(mode), id(next mode)): the mode ends at the next stride
    if all(type(d) is int for d in fd):
        # CuTe's order of every mode (ties as its sort leaves them), the stride-0 ones dropped
        by_index = dict(zip(kept, modes))
        order = [by_index[k] for k in cute_sort_order(fd) if k in by_index]
        modes = []
    # stable sort by stride (decided)
    for m in modes:
        pos = len(order)
        while pos > 0:
            a, b = m[1], order[pos - 1][1]
            if type(a) is int and type(b) is int:
                less = a < b
            elif order[pos - 1][3] and _spans_to(order[pos - 1][0], b, a):
                less = False    # a == s*b >= b
                spans.add((id(order[pos - 1]), id(m)))
            else:
                less = decide.require("<", a, b, assume=False, why="left_inverse (stride order)")
            if not less:
                break
            pos -= 1
        order.insert(pos, m)
    rs: list[Any] = []
    rd: list[Any] = []
    overlap = ""
    first = order[0][1]
    if not _is1(first):
        rs.append(first)
        rd.append(0)
    for k in range(len(order) - 1):
        s, d, ist, mono = order[k]
        nd = order[k + 1][1]
        # d | next stride (CuTe's condition), and the mode ends below the next stride (injective)
        span = _mul(s, d)
        if type(nd) is int and type(d) is int and type(span) is int:
            ok_div, ok_inj = nd % d == 0, span <= nd
        elif mono and ((id(order[k]), id(order[k + 1])) in spans or _spans_to(s, d, nd)):
            # the mode ends at the next stride: d | nd, s*d <= nd and nd/d == s (cdiv's answer)
            rs.append(sympy.Integer(s) if type(s) is int else s)
            rd.append(ist)
            continue
        else:
            ok_div = decide.require("|", d, nd, why="left_inverse")
            ok_inj = decide.require("<=", span, nd, why="left_inverse (injectivity)")
        if not ok_div:
            raise DivisibilityError(
                f"Left inverse divisibility condition: stride {fmt(d)} does not divide {fmt(nd)}")
        if not ok_inj:
            overlap = overlap or f"mode {fmt(s)}:{fmt(d)} reaches stride {fmt(nd)}"
        rs.append(cdiv(nd, d))
        rd.append(ist)
    rs.append(order[-1][0])
    rd.append(order[-1][2])
    result = _coalesce_flat(rs, rd)
    for x in leaves(result._shape):
        if (x <= 0) if type(x) is int else (not _least(x) and decide.prove("<=", x, 0) is True):
            raise LayoutError(f"left_inverse: {layout} has a negative stride: CuTe's answer {result} has the "
                              f"non-positive extent {fmt(x)} (left_inverse needs non-negative strides)")
    if overlap:
        _check_generalized_inverse(layout, result, overlap)
    return result


def _left_inverse_static(layout: Layout) -> Layout:
    """left_inverse of a static layout in pure ints: the general path's answer and errors.

    @pre ``is_static_layout(layout)``.
    """
    cl = coalesce_static(layout)
    fs: Any = cl._shape
    fd: Any = cl._stride
    if type(fs) is not tuple:
        fs, fd = (fs,), (fd,)
    # stride-0 modes add nothing; the rest in CuTe's stride order (its sort of every mode, ties too)
    if len(set(fd)) == len(fd):     # distinct strides: any sort gives CuTe's order
        order = sorted((k for k in range(len(fd)) if fd[k]), key=fd.__getitem__)
    else:
        order = [k for k in cute_sort_order(fd) if fd[k]]
    if not order:
        return _mk_static(prod(fs), 0)
    istride = list(accumulate(fs, mul, initial=1))
    k = order[0]
    d = fd[k]
    rs = [d] if d != 1 else []
    rd = [0] if d != 1 else []
    overlap = ""
    for kn in order[1:]:
        nd = fd[kn]
        s = fs[k]
        # d | next stride (CuTe's condition), and the mode ends below the next stride (injective)
        if nd % d:
            raise DivisibilityError(
                f"Left inverse divisibility condition: stride {fmt(d)} does not divide {fmt(nd)}")
        if s * d > nd and not overlap:
            overlap = f"mode {fmt(s)}:{fmt(d)} reaches stride {fmt(nd)}"
        rs.append(nd // d)      # exact: d divides nd
        rd.append(istride[k])
        k, d = kn, nd
    rs.append(fs[k])
    rd.append(istride[k])
    result = coalesce_static(_mk_static(tuple(rs), tuple(rd)))
    ms = result._shape
    for x in (ms if type(ms) is tuple else (ms,)):
        if x <= 0:
            raise LayoutError(f"left_inverse: {layout} has a negative stride: CuTe's answer {result} has the "
                              f"non-positive extent {fmt(x)} (left_inverse needs non-negative strides)")
    if overlap:
        _check_generalized_inverse(layout, result, overlap)
    return result


def _least(x: Any) -> int:
    """A lower bound ``>= 1`` of ``x`` when it is a product of positive integers (ints, sympy
    integers, positive integer symbols read with their divisor and least value, positive powers
    of those); 0 when it is not one. A structural read, no reasoning: what it bounds, decide proves.

    >>> from cute_sym.core.integers import Dyn
    >>> M, K = Dyn("M", divisible_by=4), Dyn("K")
    >>> _least(3 * M * K), _least(M - 1), _least(-2)
    (12, 0, 0)
    """
    if type(x) is int:
        return x if x > 0 else 0
    if x.is_Symbol:
        if x.is_positive is not True or x.is_integer is not True:
            return 0
        d, lo, _ = symbol_facts(x)
        return max(d, lo or 1)
    if x.is_Integer:
        return int(x.p) if x.p > 0 else 0
    if x.is_Mul:
        v = 1
        for f in x.args:
            k = _least(f)
            if not k:
                return 0
            v *= k
        return v
    if x.is_Pow and x.exp.is_Integer and x.exp.p > 0:
        return int(_least(x.base) ** int(x.exp.p))
    return 0


def _spans_to(s: Any, d: Any, nd: Any) -> bool:
    """``nd`` is the expression ``s * d`` itself: the mode ``s:d`` ends exactly at stride ``nd``.

    @pre ``s`` and ``d`` are positive integer monomials (:func:`_least` > 0); then ``d | nd``,
         ``s*d <= nd``, ``d <= nd`` and ``nd / d == s`` hold whatever the facts, no reasoning needed.
    """
    sd = s if type(d) is int and d == 1 else _mul(s, d)
    return sd is nd or sd == nd


_CHECK_LIMIT = 1 << 16


def _check_generalized_inverse(layout: Layout, result: Layout, why: str) -> None:
    """A non-injective layout has no left inverse; CuTe's answer is still usable when
    ``layout(result(layout(i))) == layout(i)`` (result picks one preimage): checked."""
    n = product(layout._shape)
    if type(n) is not int or not layout.is_static() or n > _CHECK_LIMIT:
        raise InjectivityError(f"left_inverse: the layout is not injective ({why})")
    for i in range(n):
        y = layout(i)
        if layout(result(y)) != y:
            raise InjectivityError(f"left_inverse: the layout is not injective ({why}), and CuTe's answer "
                                   f"{result} does not even pick a preimage: layout(result({y})) != {y}")



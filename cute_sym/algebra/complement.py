"""complement: the layout that fills the gaps of a layout up to a cotarget."""
from __future__ import annotations

from functools import cmp_to_key
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy


from ..stride.kind import orderable
from .complement_basis import complement_of_kinds
from ..core import decide
from ..core.errors import DivisibilityError, InjectivityError, LayoutError
from ..core.int_tuple import (
    unwrap, cdiv, ceil_div, compact_major, fmt, leaves, product,
)
from ..core.integers import IntLike
from ..core.monomials import div
from ..core.lazy import is_expr
from ..layout.layout import Layout, _mk, _mk_static, cosize, is_static_layout
from ._util import _flat, _is0, _mul, _composed_dispatch
from .coalesce import _bw_sd, _coalesce_flat, coalesce_shape, filter


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


class _Unsettled(Exception):
    """A comparison the decision procedure leaves open (ends :func:`_proved_order`)."""


def _less(a: Any, b: Any) -> int:
    """A comparison for a stable sort: -1 when ``a < b`` is proved, 0 when refuted."""
    if type(a) is int and type(b) is int:
        return -1 if a < b else 0
    r = decide.prove("<", a, b)
    if r is None:
        raise _Unsettled
    return -1 if r else 0


def _proved_order(strides: list[Any]) -> Optional[list[int]]:
    """The indices of ``strides`` in the order CuTe takes them (the smallest, the first of equals,
    again and again), when every comparison a stable sort makes is decided; None otherwise.

    A sort asks O(r log r) questions (r - 1 for strides already in order) where taking the
    minimum r times asks O(r**2). Each answer holds for every value of the symbols, so the
    order does too. None: the caller takes the minima one by one, which names the open fact.
    """
    for x in strides:
        if type(x) is not int:
            break
    else:
        return sorted(range(len(strides)), key=lambda i: strides[i])
    def cmp(i: int, j: int) -> int:
        return _less(strides[i], strides[j])
    try:
        return sorted(range(len(strides)), key=cmp_to_key(cmp))
    except _Unsettled:
        return None


def _complement(layout: Any, cotarget: Any = None) -> Layout:
    """complement as CuTe computes it (the divides and products use this one); see :func:`complement`.

    @post every extent of the result is positive: CuTe's steps give a negative stride of
          ``layout`` a negative extent, which no layout has; that raises instead.
    """
    if type(layout) is Layout and (layout._st or layout._st is None and is_static_layout(layout)):
        c = cotarget if cotarget is None or type(cotarget) is int else unwrap(cotarget)
        # (a symbolic cotarget is compared with 0 only when it is a number: sympy's != sympifies)
        e: Any = c
        nonzero = c != 0 if type(c) is int or c is None or type(c) is tuple else not (e.is_Number and e == 0)
        fast = _complement_ints(layout, layout._shape, layout._stride, c, False) if nonzero else None
        if fast is not None:
            return fast     # its extents are positive by construction
        cotarget = c
    return _positive_extents(layout, _complement_raw(layout, cotarget))


def _positive_extents(layout: Any, result: Layout) -> Layout:
    for x in leaves(result._shape):
        if (x <= 0) if type(x) is int else \
                not (is_expr(x) and decide.positive_by_shape(x)) and decide.prove("<=", x, 0) is True:
            raise LayoutError(f"complement: {layout} has a negative stride: CuTe's answer {result} has the "
                              f"non-positive extent {x} (complement needs non-negative strides)")
    return result


def _complement_raw(layout: Any, cotarget: Any = None) -> Layout:
    if not isinstance(layout, Layout):
        return _composed_dispatch("complement", layout, cotarget)  # type: ignore[no-any-return]
    if not all(type(d) is int or orderable(d) for d in leaves(layout._stride)):
        return complement_of_kinds(layout, cotarget, _complement)     # scaled bases: per position
    if cotarget is not None and type(cotarget) is not int:
        cotarget = unwrap(cotarget)
    if is_static_layout(layout):     # a symbolic layout takes the general steps at once
        fast = _complement_static(layout, cotarget)
        if fast is not None:
            return fast
    return _complement_general(layout, cotarget)


def _complement_general(layout: Layout, cotarget: Any) -> Layout:
    """CuTe's steps with the generic helpers, for every kind of integer (the reference of the fast paths)."""
    # every stride a static 0: filter leaves _1:_0 whatever the extents
    filt = _mk(1, 0) if _zero_strides(layout) else filter(layout, undecided="keep")
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
    order = _proved_order(strides) if R > 1 else None
    if order is not None:
        shapes, strides = [shapes[j] for j in order], [strides[j] for j in order]
    rshape: list[Any] = []
    rstride: list[Any] = [1]
    # a mode's extent-one check runs after the next tiling check, which may prove it
    pending: Optional[tuple[Any, Any, Any, Any]] = None
    for i in range(R - 1):
        k = 0 if order is not None else _min_index(strides)
        ms = strides[k]
        _check_tiles(ms, rstride[i])
        if pending is not None:
            _check_extent_one(*pending)
        new_shape = cdiv(ms, rstride[i])
        _check_injective(new_shape, ms, rstride[i])
        rshape.append(new_shape)
        rstride.append(_mul(ms, shapes[k]))
        if order is not None:
            nxt = strides[1]
        else:
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
    cute_sym.DivisibilityError: complement: (_2,_3):(_4,_1) has no complement up to 24: CuTe's answer _3:_8 breaks cosize((A,C)) = 23 >= 24
    """
    if type(layout) is Layout:
        if cotarget is not None and type(cotarget) is not int:
            cotarget = unwrap(cotarget)
        if layout._st or layout._st is None and is_static_layout(layout):
            fast = _complement_ints(layout, layout._shape, layout._stride, cotarget, True)
            if fast is not None:
                return fast
            fast = _complement_static(layout, cotarget, check=True)
            if fast is not None:
                return _positive_extents(layout, fast)
        elif (cotarget is None or type(cotarget) is int and cotarget >= 1) and _zero_strides(layout):
            # the image is {0}: the complement is the cotarget's compact layout
            return _mk(1, 0) if cotarget is None or cotarget == 1 else _mk(cotarget, 1)
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
    """complement on plain ints where :func:`_complement_ints` declines (an extent below 1, a
    negative stride, a cotarget below 1 or nested, a tuple cotarget with symbolic modes when
    ``check`` is off); None if the layout is not static.

    ``check``: raise where the strides do not tile and the answer does not cover the cotarget.
    """
    s = leaves(layout._shape)
    d = leaves(layout._stride)
    for x in s:
        if type(x) is not int:
            return None
    for x in d:
        if type(x) is not int:
            return None
    tc = type(cotarget)
    if tc is tuple:
        for x in leaves(cotarget):
            # symbolic modes (a divide's shape) only enter the rest mode, built as the general
            # steps build it; the coverage check below is for static cotargets
            if type(x) is not int and (check or not is_expr(x)):
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


def _complement_ints(layout: Layout, s: Any, d: Any, cotarget: Any, check: bool) -> Optional[Layout]:
    """complement of a static layout on plain ints: CuTe's steps in one pass when the strides
    come in increasing order (:func:`_complement_unordered` otherwise).

    ``s``, ``d``: the layout's shape and stride (nested modes are flattened here);
    ``cotarget``: None, an int >= 0, a flat tuple of positive ints or one symbolic integer.
    ``check``: raise where the strides do not tile and the answer does not cover the cotarget.

    @pre every leaf of ``layout`` is an ``int``.
    @post the same layout as the general steps (filter, modes by increasing stride, the
          rest up to the cotarget, coalesce), the same errors; None for what they handle
          alone: an extent below 1, a negative stride, another cotarget.

    >>> from cute_sym.notation import parse
    >>> L = parse("((_2,_2),_3):((_1,_12),_2)")
    >>> print(_complement_ints(L, L._shape, L._stride, 96, True))
    (_2,_4):(_6,_24)
    """
    tc = type(cotarget)
    if tc is int:
        if cotarget < 0:
            return None
    elif tc is tuple:
        if not cotarget:
            return None
        for c in cotarget:
            if type(c) is not int or c < 1:
                return None
    elif cotarget is not None and not is_expr(cotarget):
        return None
    if type(s) is int:
        if s > 1 and d > 0 and (tc is int or cotarget is None):
            # one mode s:d: the gap below d, then the rest above s*d (the cosize is below s*d)
            span = s * d
            rest = 1 if cotarget is None else (cotarget + span - 1) // span
            if d == 1:
                return _mk_static(rest, span) if rest != 1 else _mk_static(1, 0)
            return _mk_static((d, rest), (1, span)) if rest != 1 else _mk_static(d, 1)
        s, d = (s,), (d,)
    # Each leaf in stride order leaves the gap below its stride. CuTe coalesces the filtered
    # layout first; that changes nothing here: a leaf contiguous with the one before has the
    # gap 1, which the result's coalesce drops. The fast passes leave any failing leaf (the
    # strides out of order, or an injectivity error, with the message of the coalesced
    # modes) to the next pass.
    rs: list[int] = []
    rd: list[int] = []
    last = 1        # the span of the leaves taken so far
    exact = True
    for x, y in zip(s, d):
        if type(x) is not int:
            return _complement_unordered(layout, s, d, cotarget, check)
        if x == 1 or y == 0:
            continue
        if x < 1 or y < 0:
            return None
        ns = y // last
        if ns != 1:
            if ns == 0:     # below the span: out of order (or not injective)
                return _complement_unordered(layout, s, d, cotarget, check)
            rs.append(ns)
            rd.append(last)
        if exact and y % last:
            exact = False
        last = y * x
    if last == 1:
        return _complement_nothing(layout, cotarget)
    return _complement_rest(layout, s, d, cotarget, check, rs, rd, last, exact, True)


def _complement_unordered(layout: Layout, s: Any, d: Any, cotarget: Any, check: bool) -> Optional[Layout]:
    """:func:`_complement_ints` for strides out of order or nested modes: the leaves sorted.

    @pre ``s``, ``d`` congruent tuples of ints; ``cotarget`` as :func:`_complement_ints` admits.
    """
    leaves_yx: list[tuple[int, int]] = []
    for x, y in zip(s, d):
        if type(x) is int:
            if x != 1 and y != 0:
                if x < 1 or y < 0:
                    return None
                leaves_yx.append((y, x))
        else:
            for x, y in zip(x, y):
                if type(x) is not int:
                    return _complement_sorted(layout, s, d, cotarget, check)    # deeper nesting
                if x != 1 and y != 0:
                    if x < 1 or y < 0:
                        return None
                    leaves_yx.append((y, x))
    if not leaves_yx:
        return _complement_nothing(layout, cotarget)
    # equal strides sort by extent, not as CuTe takes them; they fail below (then exactly)
    leaves_yx.sort()
    rs: list[int] = []
    rd: list[int] = []
    last = 1
    exact = True
    for y, x in leaves_yx:
        ns = y // last
        if ns != 1:
            if ns == 0:
                return _complement_sorted(layout, s, d, cotarget, check)
            rs.append(ns)
            rd.append(last)
        if exact and y % last:
            exact = False
        last = y * x
    return _complement_rest(layout, s, d, cotarget, check, rs, rd, last, exact)


def _complement_nothing(layout: Layout, cotarget: Any) -> Optional[Layout]:
    """CuTe's special case: nothing left but ``_1:_0``, the complement is the cotarget itself
    (None for the cotarget 0: the general steps refuse the extent 0)."""
    if is_expr(cotarget):
        return _positive_extents(layout, _mk(cotarget, 1))
    m = 1 if cotarget is None else cotarget if type(cotarget) is int else product(cotarget)
    if m == 0:
        return None
    return _mk_static(m, 1) if m != 1 else _mk_static(1, 0)


def _complement_sorted(layout: Layout, s: Any, d: Any, cotarget: Any, check: bool) -> Optional[Layout]:
    """:func:`_complement_ints` as CuTe's steps: filter and coalesce, then the modes by stride
    (the first of equal strides first); its errors name the coalesced modes.

    @pre ``s``, ``d`` congruent tuples of ints; ``cotarget`` as :func:`_complement_ints` admits.
    """
    fs: list[int] = []
    fd: list[int] = []
    end = 0
    for x, y in zip(leaves(s), leaves(d)):
        if x == 1 or y == 0:
            continue
        if y == end:
            if x < 1:
                return None
            fs[-1] *= x
            end *= x
            continue
        if x < 1 or y < 0:
            return None
        fs.append(x)
        fd.append(y)
        end = x * y
    # CuTe takes the smallest stride (the first of equals) again and again: a stable sort
    rs: list[int] = []
    rd: list[int] = []
    last = 1
    exact = True
    for y, _, x in sorted(zip(fd, range(len(fd)), fs)):
        ns = y // last
        if ns != 1:
            if ns == 0:
                _check_injective(0, y, last)
            rs.append(ns)
            rd.append(last)
        if exact and y % last:
            exact = False
        last = y * x
    return _complement_rest(layout, s, d, cotarget, check, rs, rd, last, exact)


def _complement_rest(layout: Layout, s: Any, d: Any, cotarget: Any, check: bool,
                     rs: list[int], rd: list[int], last: int, exact: bool, flat: bool = False) -> Layout:
    """The kernels' last step: the rest mode up to the cotarget, the layout, the coverage check.

    ``rs``, ``rd``: the gap modes (extent-1 ones dropped); ``last``: the span of all modes;
    ``exact``: every stride was a multiple of the span below it; ``flat``: ``s``, ``d`` are
    flat (no need to take their leaves). Each gap ``ns*last`` ends
    below the next span, so the result's coalesce only drops extent-1 modes.
    """
    tc = type(cotarget)
    if tc is int:
        rest = (cotarget + last - 1) // last
    elif tc is tuple:
        exact = False
        rest, span = 1, last
        for c in cotarget:
            rest *= (c + span - 1) // span
            span = (span + c - 1) // c
    elif cotarget is None:
        rest = 1    # the cosize of the filtered layout is below the last span
    else:
        # a symbolic cotarget: CuTe's rest mode ceil_div(cotarget, last):last, never merged
        rest = _ceil_div_by(cotarget, last)
        rs.append(rest)
        rd.append(last)
        result = _mk(tuple(rs), tuple(rd)) if len(rs) > 1 else _mk(rest, last)
        return _positive_extents(layout, result)
    if rest != 1:
        rs.append(rest)
        rd.append(last)
    if not rs:
        result = _mk_static(1, 0)
    elif len(rs) == 1:
        result = _mk_static(rs[0], rd[0])
    else:
        result = _mk_static(tuple(rs), tuple(rd))
    if check and not exact and cotarget is not None:
        # the completion (layout, result) must reach the cotarget (dropped modes add 0)
        m = cotarget if tc is int else product(cotarget)
        whole = 1
        for x, y in zip(s, d) if flat else zip(leaves(s), leaves(d)):
            whole += (x - 1) * y
        for x, y in zip(rs, rd):
            whole += (x - 1) * y
        if whole < m:
            raise DivisibilityError(f"complement: {layout} has no complement up to {m}: CuTe's answer "
                                    f"{result} breaks cosize((A,C)) = {whole} >= {m}")
    return result


def _ceil_div_by(a: Any, n: int) -> Any:
    """``ceil_div(a, n)`` for a symbolic ``a`` and an int ``n > 0``, the same formula: where
    ``a = c * s1**k1 * ...`` is a multiple of ``n`` by its coefficient and the divisors its
    symbols carry (a sufficient test, read off the structure), the exact quotient directly."""
    c, m = a.as_coeff_Mul()
    if c.is_Integer:
        v = int(c)
        for f in m.args if m.is_Mul else (m,):
            k = 1
            if f.is_Pow and f.exp.is_Integer and f.exp > 0:
                f, k = f.base, int(f.exp)
            if not (f.is_Symbol and f.is_integer is True):
                break
            v *= getattr(f, "divisor", 1) ** k     # symbol_facts' divisor: a DynSymbol's own, else 1
        else:
            if v % n == 0:
                return div(a, n)    # what cdiv gives a monomial it divides exactly
    return ceil_div(a, n)


def _zero_strides(layout: Layout) -> bool:
    """Every stride a static 0 (whatever the extents, static or symbolic)."""
    for x in leaves(layout._stride):
        if type(x) is not int or x != 0:
            return False
    return True


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


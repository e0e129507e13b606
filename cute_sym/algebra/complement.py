"""complement: the layout that fills the gaps of a layout up to a cotarget."""
from __future__ import annotations

from typing import Any, Optional


from ..core import decide
from ..core.errors import DivisibilityError, InjectivityError, LayoutError
from ..core.int_tuple import (
    unwrap, cdiv, ceil_div, compact_major, fmt, leaves, product,
)
from ..core.integers import IntLike
from ..layout.layout import Layout, _mk, cosize
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


def _complement(layout: Any, cotarget: Any = None) -> Layout:
    """complement as CuTe computes it (the divides and products use this one); see :func:`complement`.

    @post every extent of the result is positive: CuTe's steps give a negative stride of
          ``layout`` a negative extent, which no layout has; that raises instead.
    """
    return _positive_extents(layout, _complement_raw(layout, cotarget))


def _positive_extents(layout: Any, result: Layout) -> Layout:
    for x in leaves(result._shape):
        if (x <= 0) if type(x) is int else decide.prove("<=", x, 0) is True:
            raise LayoutError(f"complement: {layout} has a negative stride: CuTe's answer {result} has the "
                              f"non-positive extent {x} (complement needs non-negative strides)")
    return result


def _complement_raw(layout: Any, cotarget: Any = None) -> Layout:
    if not isinstance(layout, Layout):
        return _composed_dispatch("complement", layout, cotarget)  # type: ignore[no-any-return]
    if cotarget is not None and type(cotarget) is not int:
        cotarget = unwrap(cotarget)
    elif cotarget is None or cotarget >= 0:
        ils = _int_leaves(layout._shape)
        ild = _int_leaves(layout._stride) if ils is not None else None
        if ils is not None and ild is not None:
            quick = _complement_ints(layout, ils, ild, cotarget, False)
            if quick is not None:
                return quick
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
    cute_sym.DivisibilityError: complement: (_2,_3):(_4,_1) has no complement up to 24: CuTe's answer _3:_8 breaks cosize((A,C)) = 23 >= 24
    """
    if type(layout) is Layout:
        if cotarget is not None and type(cotarget) is not int:
            cotarget = unwrap(cotarget)
        elif cotarget is None or cotarget >= 0:
            s = _int_leaves(layout._shape)
            d = _int_leaves(layout._stride) if s is not None else None
            if d is not None:
                fast = _complement_ints(layout, s, d, cotarget, True)  # type: ignore[arg-type]
                if fast is not None:
                    return fast
        fast = _complement_static(layout, cotarget, check=True)
        if fast is not None:
            return _positive_extents(layout, fast)
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
    if cotarget is None or type(cotarget) is int and cotarget >= 0:
        fast = _complement_ints(layout, s, d, cotarget, check)
        if fast is not None:
            return fast
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


def _int_leaves(t: Any) -> Optional[list[int]]:
    """The leaves of ``t`` when all are static (None otherwise): one pass for a flat tuple."""
    if type(t) is int:
        return [t]
    if type(t) is not tuple:
        return None
    out: list[int] = []
    for x in t:
        if type(x) is int:
            out.append(x)
        elif type(x) is tuple:
            for y in leaves(x):
                if type(y) is not int:
                    return None
                out.append(y)
        else:
            return None
    return out


def _complement_ints(layout: Layout, s: list[int], d: list[int], cotarget: Optional[int],
                     check: bool) -> Optional[Layout]:
    """The usual static case in one pass: positive strides, an integral cotarget.

    The same steps as CuTe (filter and coalesce, modes by increasing stride,
    the rest up to the cotarget, coalesce), on plain lists; None when a stride
    is negative or an extent is 0 (the general path handles those).
    """
    # filter (stride-0 and size-1 modes go) and coalesce, front to back
    fs: list[int] = []
    fd: list[int] = []
    for i in range(len(s)):
        x = s[i]
        y = d[i]
        if x == 1 or y == 0:
            continue
        if x < 1 or y < 0:
            return None
        if fs and fs[-1] * fd[-1] == y:
            fs[-1] *= x
        else:
            fs.append(x)
            fd.append(y)
    whole = 1
    for i in range(len(fs)):
        whole += (fs[i] - 1) * fd[i]
    if cotarget is None:
        cotarget = whole
    if not fs:
        return None
    order = sorted(range(len(fd)), key=fd.__getitem__) if len(fd) > 1 else (0,)
    rshape: list[int] = []
    rstride: list[int] = [1]
    last = 1
    exact = True
    for k in order:
        ms = fd[k]
        ns = ms // last
        if ns == 0:
            _check_injective(0, ms, last)
        if ms % last:
            exact = False
        rshape.append(ns)
        last = ms * fs[k]
        rstride.append(last)
    rest = (cotarget + last - 1) // last
    rshape.append(rest)
    if rest == 1:
        rstride[-1] = 0
    # coalesce the result, front to back
    cs: list[int] = []
    cd: list[int] = []
    for i in range(len(rshape)):
        x = rshape[i]
        if x == 1:
            continue
        y = rstride[i]
        if cs and cs[-1] * cd[-1] == y:
            cs[-1] *= x
        else:
            cs.append(x)
            cd.append(y)
    if not cs:
        result = _mk(1, 0)
    elif len(cs) == 1:
        result = _mk(cs[0], cd[0])
    else:
        result = _mk(tuple(cs), tuple(cd))
    if check and not exact:
        # the completion (layout, result) must reach the cotarget
        for i in range(len(cs)):
            whole += (cs[i] - 1) * cd[i]
        if whole < cotarget:
            raise DivisibilityError(f"complement: {layout} has no complement up to {cotarget}: CuTe's answer "
                                    f"{result} breaks cosize((A,C)) = {whole} >= {cotarget}")
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

"""coalesce and filter: the same function with fewer modes."""
from __future__ import annotations

from typing import Any, Optional

from ..core.errors import RankError
from ..core.int_tuple import (
    IntTuple, unwrap, leaves,
)
from ..core.monomials import mul
from ..layout.layout import Layout, _Builder, _mk, _mk_static, _new, is_static_layout
from ..layout.modes import filter_zeros
from ..core import decide
from ..core.lazy import is_expr
from ..stride.kind import StrideKind, stride_continues
from ._util import _eq_proved, _flat, _mul, _composed_dispatch


# ---------------------------------------------------------------- coalesce
def _bw_sd(old_s: list[Any], old_d: list[Any], last: int, ns: Any, nd: Any,
           keep_static: bool = True) -> tuple[Any, Any]:
    """CuTe's bw_coalesce over modes ``last, last-1, ..., 0`` onto the stack ``ns:nd``, over
    strides of any kind (a scaled basis or an F2 vector compares itself: ``cute_sym.stride``).

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
        elif isinstance(d, StrideKind) or isinstance(fd, StrideKind):
            # a scaled basis, an F2 vector: its kind says whether s:d continues into fd
            f = stride_continues(s, d, fd)
            merge = f if type(f) is bool else decide.prove(*f) is True
        elif type(d) is int and type(fd) is int and d != 0:
            # s*d == fd exactly when s == fd/d: asked without building the product
            merge = fd % d == 0 and _eq_proved(s, fd // d)
        else:
            # s*d is the next stride itself (same object) in the usual contiguous case: no proof needed
            sd = s if type(d) is int and d == 1 else mul(s, d)
            merge = sd is fd or _eq_proved(sd, fd)
        if merge:
            if rs is None:
                ns, nd = mul(s, fs), d
            else:
                rs[-1], rd[-1] = mul(s, fs), d
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
    >>> from cute_sym.layout import make_layout
    >>> N = parse("N")
    >>> print(coalesce(make_layout((16, N), (1, 16))))
    16*N:_1
    """
    if type(layout) is not Layout:
        if not isinstance(layout, Layout):
            return _composed_dispatch("coalesce", layout, profile)
    # the static path first: one pure-int pass (the layout caches whether it is static)
    if layout._st or (layout._st is None and is_static_layout(layout)):
        if profile is None:
            # coalesce_static, inline: a call less on the algebra's hottest entry
            o: Any = _new(_Builder)
            o._shape, o._stride = _coalesce_static(layout._shape, layout._stride)
            o._st = True
            o.__class__ = Layout
            return o  # type: ignore[no-any-return]
        if type(profile) is tuple:
            fast = _coalesce_by_mode(layout, profile, True)
            if fast is not None:
                return fast
    if profile is not None:
        profile = unwrap(profile)
        if type(profile) is tuple:
            flat = _coalesce_by_mode(layout, profile, False)
            return flat if flat is not None else _transform_layout(layout, profile, coalesce)
        if layout._st:
            return coalesce_static(layout)
    rs, rd = _coalesce_sd(layout._shape, layout._stride)
    return _mk(rs, rd)


def _coalesce_sd(shape: Any, stride: Any) -> tuple[Any, Any]:
    """coalesce of one (possibly symbolic) layout's ``shape:stride``, as ``(shape, stride)``."""
    s = leaves(shape)
    d = leaves(stride)
    n = len(s)
    if n == 0:
        return 1, 0
    return _bw_sd(s, d, n - 2, s[n - 1], d[n - 1], False)


def coalesce_static(layout: Layout) -> Layout:
    """coalesce of a static layout: the pure-int kernel :func:`_coalesce_static`, its result built
    static.

    @pre ``is_static_layout(layout)`` (every leaf a plain ``int``).
    @post ``result == coalesce(layout)``; raises nothing.

    >>> print(coalesce_static(Layout((2, (1, 6)), (1, (6, 2)))))
    _12:_1
    >>> print(coalesce_static(Layout((2, (1, 6), 3), (1, (7, 2), 24))))
    (_12,_3):(_1,_24)
    >>> print(coalesce_static(Layout((((2, 2),), 1), (((1, 2),), 5))))
    _4:_1
    """
    o: Any = _new(_Builder)     # _mk_static, inline: this is the hottest call of the algebra
    o._shape, o._stride = _coalesce_static(layout._shape, layout._stride)
    o._st = True
    o.__class__ = Layout
    return o  # type: ignore[no-any-return]


def _coalesce_static(s0: Any, d0: Any) -> tuple[Any, Any]:
    """coalesce of the plain-int modes ``s0:d0`` (any nesting): the merged ``(shape, stride)``.

    @pre every leaf of ``s0`` and ``d0`` a plain ``int``, congruent.
    @post the same function on ``range(size)``; merging ``s_i:d_i`` into the mode before it when
          that mode's ``s*d`` is ``d_i`` merges the same neighbours as CuTe's back-to-front fold;
          one mode is unwrapped, every extent 1 gives ``1:0``.

    >>> _coalesce_static((2, (1, 6), 3), (1, (7, 2), 24))
    ((12, 3), (1, 24))
    >>> _coalesce_static((1, 1), (3, 4))
    (1, 0)
    """
    if type(s0) is not tuple:
        return (s0, d0) if s0 != 1 else (1, 0)
    if len(s0) == 2:
        a, b = s0
        if type(a) is int and type(b) is int:
            # two flat modes (a 2-D tile, the commonest layout): the loop below, unrolled
            x, y = d0
            if a == 1:
                return (b, y) if b != 1 else (1, 0)
            if b == 1:
                return a, x
            return (a * b, x) if a * x == y else (s0, d0)
    # the last mode is ms:md (span = ms*md, None before the first); earlier ones in rs:rd
    rs: list[int] = []
    rd: list[int] = []
    ms, md = 1, 0
    span: Any = None
    for x, y in zip(s0, d0):
        if type(x) is int:
            if x == 1:
                continue
            if span == y:
                ms *= x
                span *= x
                continue
            if span is not None:
                rs.append(ms)
                rd.append(md)
            ms, md = x, y
            span = x * y
        else:
            # the first nesting level inline (the loop above, per leaf): through
            # _coalesce_into the kernel measured 18% slower on the benchmark's layouts
            for a, b in zip(x, y):
                # a tuple (a deeper mode) is neither 1 nor a stride: it reaches the type test
                if a == 1:
                    continue
                if span == b:
                    ms *= a
                    span *= a
                    continue
                if type(a) is not int:
                    ms, md, span = _coalesce_into(rs, rd, ms, md, span, a, b)
                    continue
                if span is not None:
                    rs.append(ms)
                    rd.append(md)
                ms, md = a, b
                span = a * b
    if not rs:
        return ms, md
    rs.append(ms)
    rd.append(md)
    return tuple(rs), tuple(rd)


def _coalesce_into(rs: list[int], rd: list[int], ms: int, md: int, span: Any,
                   s0: tuple[Any, ...], d0: tuple[Any, ...]) -> tuple[int, int, Any]:
    """Merge the leaves of the static modes ``s0:d0`` (any depth) as :func:`coalesce_static`
    does, onto the finished modes ``rs:rd`` and the last mode ``ms:md`` of extent ``span``;
    returns the new last mode and span."""
    for a, b in zip(s0, d0):
        if type(a) is tuple:
            ms, md, span = _coalesce_into(rs, rd, ms, md, span, a, b)
        elif a == 1:
            continue
        elif span == b:
            ms *= a
            span *= a
        else:
            if span is not None:
                rs.append(ms)
                rd.append(md)
            ms, md = a, b
            span = a * b
    return ms, md, span


def _coalesce_by_mode(layout: Layout, profile: tuple[Any, ...], static: bool) -> Optional[Layout]:
    """coalesce by mode for a flat profile of ints: each profiled mode coalesced in place (what
    :func:`_transform_layout` with coalesce gives, without a layout and a call per mode); with
    ``static`` (every leaf a plain int) the pure-int kernel. None for any other profile."""
    s, d = layout._shape, layout._stride
    if type(s) is not tuple:
        s, d = (s,), (d,)
    n = len(profile)
    if n > len(s):
        return None     # the general path reports the rank error
    for p in profile:
        if type(p) is not int:
            return None
    rs = list(s)
    rd = list(d)   # type: ignore[arg-type]
    for i in range(n):
        x = s[i]
        if not static:
            rs[i], rd[i] = _coalesce_sd(x, d[i])     # type: ignore[index]
        elif type(x) is tuple:
            rs[i], rd[i] = _coalesce_static(x, d[i])   # type: ignore[index]
        elif x == 1:
            rd[i] = 0
    if not static:
        return _mk(tuple(rs), tuple(rd))
    o: Any = _new(_Builder)     # _mk_static, inline
    o._shape = tuple(rs)
    o._stride = tuple(rd)
    o._st = True
    o.__class__ = Layout
    return o  # type: ignore[no-any-return]


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


def filter(layout: Layout, profile: Any = None, *, undecided: str = "raise") -> Layout:
    """Remove stride-0 and size-1 modes (``coalesce(filter_zeros(layout))``).

    @pre a symbolic stride of a mode of extent > 1 is not 0: the decision procedure proves it, or
         :class:`~cute_sym.UndecidableError` names the fact (``d != 0``); inside
         :func:`~cute_sym.collect_guards` the fact is recorded as a guard instead. (CuTe keeps such
         a mode, as a dynamic stride is never 0 to its type system; at 0 the kept mode would make
         the answer no filtered layout.) ``undecided="keep"`` is CuTe's rule: the mode stays and
         the fact is asked only inside ``collect_guards`` (the algebra's own callers, which keep
         the image either way).
    @post ``result`` has no static size-1 mode and no stride-0 mode (unless it is ``_1:_0``).
    @post the image of ``result`` is the image of ``layout``.

    >>> from cute_sym.notation import parse
    >>> print(filter(parse("(_4,_2,_3):(_1,_0,_4)")))
    _12:_1
    >>> from cute_sym.core.decide import collect_guards
    >>> with collect_guards() as g:
    ...     print(filter(parse("(_4,_8):(_1,s)")))
    (_4,_8):(_1,s)
    >>> g.describe()
    ['s != 0']
    >>> filter(parse("(_4,_8):(_1,s)"))
    Traceback (most recent call last):
    ...
    cute_sym.UndecidableError: filter (a stride that may be 0 keeps its mode) needs s != 0 (cannot be decided)
    """
    profile = None if profile is None else unwrap(profile)
    if profile is not None and type(profile) is tuple:
        return _transform_layout(layout, profile, filter)
    if type(layout) is Layout and (layout._st or (layout._st is None and is_static_layout(layout))):
        # filter_zeros makes a stride-0 leaf an extent 1, which coalesce skips: drop it here
        s0, d0 = layout._shape, layout._stride
        if type(s0) is tuple:
            fd = leaves(d0)
            fs = leaves(s0)
            rs, rd = _coalesce_static(tuple(x for x, y in zip(fs, fd) if y != 0),
                                      tuple(y for y in fd if y != 0))
        else:
            rs, rd = _coalesce_static(s0 if d0 != 0 else 1, d0)
        return _mk_static(rs, rd)
    from ..core import decide
    from ..core.decide.base import _GUARDS
    if undecided == "raise" or _GUARDS.get() is not None:     # filtered where each possibly-0 stride is not 0
        for x, d in zip(leaves(layout._shape), leaves(layout._stride)):
            if is_expr(d) and not (type(x) is int and x == 1) and decide.prove("==", d, 0) is not True:
                decide.require("!=", d, 0, why="filter (a stride that may be 0 keeps its mode)")
    return _coalesce(filter_zeros(layout))


# ---------------------------------------------------------------- composition

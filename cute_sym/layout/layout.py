"""Layout: an immutable ``Shape:Stride`` pair, a function from coordinates to offsets.

>>> L = make_layout((4, 8))              # column-major, CuTe's LayoutLeft
>>> print(L)
(_4,_8):(_1,_4)
>>> L(5), L(1, 1), L((1, 1))
(5, 5, 5)
>>> print(L(_, 2))                       # slice: keep mode 0, fix mode 1
(_4):(_1)
>>> from cute_sym import Dyn
>>> M = Dyn("M")
>>> print(make_layout((M, 8)))
(M,_8):(_1,M)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional, Union, overload

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy
from typing import TypeAlias

from ..core.decide.expansion import expand
from ..core.errors import LayoutError, RankError
from ..core.int_tuple import (
    IntTuple, _, Underscore, compact_major, congruent, crd2idx, depth as tuple_depth, fmt, leaf_str, leaves, norm, product, rank as tuple_rank, sabs,
    unwrap,
)
from ..core.integers import IntLike, UserInt, UserIntTuple, as_int_like
from ..core.lazy import is_basic
from ..stride.kind import StrideKind




__all__ = [
    "Layout",
    "LayoutLeft",
    "LayoutRight",
    "make_layout",
    "cosize",
    "coshape",
    "get_path",
    "as_int_tuple",
    "MAX_NESTING",
    "slice_",
    "is_layout",
    "is_static_layout",
    "Tiler",
]


class _Major:
    __slots__ = ("row",)

    def __init__(self, row: bool) -> None:
        self.row = row

    def __repr__(self) -> str:
        return "LayoutRight" if self.row else "LayoutLeft"


#: Column-major (CuTe's LayoutLeft, the default) and row-major compact strides.
LayoutLeft = _Major(False)
LayoutRight = _Major(True)


#: Deepest nesting a user-built shape, stride or notation may have (CuTe's are a few levels
#: deep); past it the recursive algebra would exhaust Python's stack.
MAX_NESTING = 100


def _init_checked(o: "Layout", shape: Any, stride: Any, names: bool) -> None:
    s = _check_tuple(shape, "shape")
    d = compact_major(s) if stride is None else _check_tuple(stride, "stride")
    if not congruent(s, d):
        raise RankError(f"Layout: shape {fmt(s)} and stride {fmt(d)} are not congruent")
    _set_shape(o, s)
    _set_stride(o, d)
    static = _all_int(s) and _all_int(d)     # the leaves were just checked: the flag is cheap here
    _set_st(o, static)
    if names and not static:
        symbols_by_name(s, d)


def symbols_by_name(*trees: Any, what: str = "layout") -> dict[str, Any]:
    """The symbols of the leaves of ``trees`` by name. Two different symbols of one name
    (``Dyn("M", divisible_by=4)`` and ``Dyn("M")``) print alike and substitute together: refused
    (a name is one integer, as :func:`~cute_sym.notation.parse` reads it)."""
    seen: dict[str, Any] = {}
    for leaf in leaves(trees):
        if type(leaf) is int:
            continue
        for x in (leaf.int_leaves() if isinstance(leaf, StrideKind) else (leaf,)):
            if type(x) is int:
                continue
            for sym in x.free_symbols:
                if seen.setdefault(sym.name, sym) != sym:
                    raise LayoutError(f"two different symbols named {sym.name} in one {what} (made with different "
                                      "facts: Dyn's sign, divisible_by, min or max): make the name once and use it")
    return seen


def _check_tuple(t: Any, what: str, level: int = 0) -> IntTuple:
    """A user's shape/stride as an IntTuple: integer leaves, extents not negative, bounded nesting."""
    if isinstance(t, (tuple, list)):
        if level >= MAX_NESTING:
            raise LayoutError(f"{what} nests deeper than {MAX_NESTING} levels")
        return tuple(_check_tuple(e, what, level + 1) for e in t)
    if isinstance(t, StrideKind) and what == "stride":
        return t        # a scaled basis, an arithmetic tuple, an F2 vector (cute_sym.stride)
    x = as_int_like(t, what)
    if what == "shape" and (x < 0 if isinstance(x, int) else x.is_negative is True):
        raise LayoutError(f"shape extents must not be negative, got {leaf_str(x)}")
    return x


def as_int_tuple(t: Any, what: str = "IntTuple") -> IntTuple:
    """A user's IntTuple checked: integer leaves (lists become tuples), at most MAX_NESTING deep.

    >>> as_int_tuple([2, (3, 4)])
    (2, (3, 4))
    """
    return _check_tuple(t, what)


class Layout:
    """An immutable layout ``shape:stride`` with congruent nested shape and stride.

    Call it with a 1-D index, a natural coordinate, or a coordinate holding
    ``_`` (a slice); ``L[k]`` is mode ``k``.

    @pre ``congruent(shape, stride)``.
    @post ``L.shape``/``L.stride`` are the given ones (stride defaults to the
          compact column-major ``compact_major(shape)``); ``L(c) == crd2idx(c, shape, stride)``.

    >>> L = Layout((4, (2, 3)), (1, (4, 8)))
    >>> print(L, L[1])
    (_4,(_2,_3)):(_1,(_4,_8)) (_2,_3):(_4,_8)
    >>> L(5), L(1, (1, 2))
    (5, 21)
    >>> print(L(_, (1, _)), Layout((2, 3)))
    (_4,_3):(_1,_8) (_2,_3):(_1,_2)
    """

    # _st caches whether every leaf is a plain int (None: not yet known); see is_static_layout
    __slots__ = ("_shape", "_stride", "_st")

    _shape: IntTuple
    _stride: IntTuple
    _st: Optional[bool]

    def __init__(self, shape: Any, stride: Any = None) -> None:
        _init_checked(self, shape, stride, True)

    @classmethod
    def _read(cls, shape: Any, stride: Any) -> "Layout":
        """A user's layout checked but for one symbol a name (parse's reading: it unifies the names
        of a text afterwards, then checks)."""
        o = _new(cls)
        _init_checked(o, shape, stride, False)
        return o

    @classmethod
    def _make(cls, shape: IntTuple, stride: IntTuple) -> "Layout":
        """Trusted constructor for the algebra (no checks)."""
        o = _new(cls)
        _set_shape(o, shape)
        _set_stride(o, stride)
        _set_st(o, None)
        return o

    @property
    def shape(self) -> UserIntTuple:
        return self._shape

    @property
    def stride(self) -> UserIntTuple:
        return self._stride

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Layout is immutable")

    def rank(self) -> int:
        return tuple_rank(self._shape)

    def depth(self) -> int:
        return tuple_depth(self._shape)

    def size(self) -> IntLike:
        return product(self._shape)

    def cosize(self) -> IntLike:
        return cosize(self)

    def is_static(self) -> bool:
        return is_static_layout(self)

    @overload
    def __call__(self, *coord: Coord) -> UserInt: ...  # type: ignore[overload-overlap]
    @overload
    def __call__(self, *coord: SliceCoord) -> "Layout": ...

    def __call__(self, *coord: Any) -> Any:
        c: Any = coord[0] if len(coord) == 1 else coord
        if type(c) is not int:
            if isinstance(c, StrideKind):
                # an arithmetic tuple or a scaled basis as a coordinate (its implicit zeros written)
                c = _pad_coord(c.coordinate(), self._shape)
            c = unwrap(c)       # a parsed Tup, a list, a numpy integer ...
            _check_coord(c, 0)
        if _has_underscore(c):
            return slice_(c, self)
        try:
            if type(c) is not tuple and type(self._shape) is tuple and (
                    type(c) is not int or not (self._st or self._st is None and is_static_layout(self))):
                return index_offset(c, self._shape, self._stride)     # a formula index, or symbolic modes
            return crd2idx(c, self._shape, self._stride)
        except (TypeError, AttributeError):
            raise LayoutError(f"a coordinate is an integer or a tuple of them, got {c!r}") from None

    def get_flat_coord(self, idx: Any) -> Any:
        """CuTe's ``Layout::get_flat_coord``: per top-level mode, the 1-D coordinate of the index
        ``idx`` within it (``idx2crd(idx, shape, stride)``, each mode's part as a column-major index).

        The index is a run-time one (a CTA's rank in its cluster, CuTe's ``int``): a Python ``int``
        is read as that dynamic integer, so the coordinates of modes of extent ``_1`` are static
        ``_0`` and the others dynamic, as CuTe prints them; pass ``Int[k]`` for a static index.

        >>> print(Layout(((1,), 2, 1, 1), ((0,), 1, 0, 0)).get_flat_coord(1))
        (0, 1, 0, 0)
        """
        from ..core.int_tuple import crd2idx as _c2i, idx2crd as _i2c
        shp: Any = self._shape
        run_time = type(idx) is int and type(self._shape) is tuple and self.is_static()
        if isinstance(idx, int):       # a StaticInt (Int[k]): static
            idx = int(idx)
        hier = _i2c(idx, self._shape, self._stride)
        if run_time:
            from ..core.lazy import sympy
            return tuple(_c2i(c, s) if product(s) == 1 else sympy.Integer(_c2i(c, s)) for c, s in zip(hier, shp))
        if type(self._shape) is not tuple:
            return hier
        return tuple(_c2i(c, s) for c, s in zip(hier, shp))

    def __getitem__(self, k: Union[int, tuple[int, ...]]) -> "Layout":
        if not isinstance(k, int) or isinstance(k, bool):
            if type(k) is not tuple:
                raise RankError(f"a mode index is an int or a tuple of ints, got {k!r}")
        if type(k) is tuple:
            out = self
            for i in k:
                out = out[i]
            return out
        s, d = self._shape, self._stride
        if type(s) is not tuple:
            if k in (0, -1):
                return self
            raise RankError(f"mode {k} out of range for a rank-1 layout")
        try:
            return Layout._make(s[k], d[k])  # type: ignore[index]
        except IndexError:
            raise RankError(f"mode {k} out of range for rank {len(s)}") from None

    def __iter__(self) -> Iterator["Layout"]:
        for k in range(self.rank()):
            yield self[k]

    def __str__(self) -> str:
        return fmt(self._shape) + ":" + fmt(self._stride)

    def _cute_str(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Layout({self})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self._shape == other._shape and self._stride == other._stride

    def __hash__(self) -> int:
        return hash((self._shape, self._stride))

    # immutable: a copy is the layout itself; pickling rebuilds it through the trusted constructor
    # (the default protocol would set the slots through __setattr__, which refuses)
    def __copy__(self) -> "Layout":
        return self

    def __deepcopy__(self, memo: Any) -> "Layout":
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_mk, (self._shape, self._stride))


_new = object.__new__
_set_shape = Layout.__dict__["_shape"].__set__
_set_stride = Layout.__dict__["_stride"].__set__
_set_st = Layout.__dict__["_st"].__set__


class _Builder:
    """Layout's slots without its ``__setattr__`` guard: the trusted constructors fill one with
    plain attribute stores and then make it a Layout (CPython allows the class change because
    the slots are the same), which costs less than three slot-descriptor calls."""

    __slots__ = ("_shape", "_stride", "_st")


def _mk(shape: IntTuple, stride: IntTuple) -> Layout:
    """Trusted constructor (a module function: cheaper than the classmethod on hot paths)."""
    o: Any = _new(_Builder)
    o._shape = shape
    o._stride = stride
    o._st = None
    o.__class__ = Layout
    return o  # type: ignore[no-any-return]


def _mk_static(shape: IntTuple, stride: IntTuple) -> Layout:
    """Trusted constructor of a layout known to have plain-int leaves only (the static kernels')."""
    o: Any = _new(_Builder)
    o._shape = shape
    o._stride = stride
    o._st = True
    o.__class__ = Layout
    return o  # type: ignore[no-any-return]


def _all_int(t: Any) -> bool:
    if type(t) is not tuple:
        return type(t) is int
    for x in t:
        if type(x) is not int and (type(x) is not tuple or not _all_int(x)):
            return False
    return True


def is_static_layout(layout: Layout) -> bool:
    """True when every extent and stride of ``layout`` is a plain ``int`` (no symbol, no scaled basis).

    The answer is cached on the layout (layouts are immutable), so the static fast paths
    pay the scan once per layout.

    >>> from cute_sym import Dyn
    >>> is_static_layout(Layout((4, (2, 3)))), is_static_layout(Layout((4, Dyn("M"))))
    (True, False)
    """
    st = layout._st
    if st is None:
        st = _all_int(layout._shape) and _all_int(layout._stride)
        _set_st(layout, st)
    return st


Tiler: TypeAlias = Union[Layout, IntTuple, Underscore, tuple[Any, ...]]
#: A natural or 1-D coordinate; with ``_`` in it, a slice (typed as user code sees integers).
Coord: TypeAlias = Union[UserInt, tuple["Coord", ...]]
SliceCoord: TypeAlias = Union[UserInt, Underscore, tuple["SliceCoord", ...]]


def is_layout(x: object) -> bool:
    return isinstance(x, Layout)


def _has_underscore(c: Any) -> bool:
    if c is _:
        return True
    if type(c) is tuple:
        return any(_has_underscore(e) for e in c)
    return False


# ---------------------------------------------------------------- construction
@overload
def make_layout(shape: Any, stride: Any = None) -> Layout: ...
@overload
def make_layout(*layouts: Layout) -> Layout: ...


def make_layout(*args: Any, **kw: Any) -> Layout:
    """Make a layout from a shape (and stride), or concatenate layouts.

    * ``make_layout(shape)``: compact column-major (``LayoutLeft``).
    * ``make_layout(shape, LayoutRight)``: compact row-major.
    * ``make_layout(shape, stride)``: the given strides (congruent to ``shape``).
    * ``make_layout(L0, L1, ...)`` or ``make_layout((L0, L1, ...))``: the layout
      whose modes are ``L0, L1, ...`` (a nested tuple of layouts nests the modes).

    @post ``congruent(result.shape, result.stride)``; two different symbols of one name
          (made with different facts) are refused: a name is one integer.

    >>> print(make_layout((2, (1, 3))))
    (_2,(_1,_3)):(_1,(_0,_2))
    >>> print(make_layout((2, 3), LayoutRight))
    (_2,_3):(_3,_1)
    >>> print(make_layout(make_layout(4, 2), make_layout(3, 8)))
    (_4,_3):(_2,_8)
    >>> print(make_layout((make_layout(4, 2), make_layout(3, 8))))
    (_4,_3):(_2,_8)
    """
    stride = kw.pop("stride", None)
    if kw:
        raise LayoutError(f"make_layout: unexpected arguments {sorted(kw)}")
    if len(args) == 1 and stride is None and _is_layout_tuple(args[0]):
        args = tuple(args[0])     # make_layout((L0, L1)) is make_layout(L0, L1)
    if args and all(isinstance(a, Layout) or _is_layout_tuple(a) for a in args):
        if stride is not None:
            raise LayoutError("make_layout: a stride cannot follow layouts")
        return Layout._make(tuple(_join(a, "_shape") for a in args), tuple(_join(a, "_stride") for a in args))
    if len(args) == 2 and stride is None:
        stride = args[1]
        args = args[:1]
    if len(args) != 1:
        raise LayoutError("make_layout takes a shape (and a stride), or layouts")
    shape = _check_tuple(args[0], "shape")
    if isinstance(stride, _Major):
        return Layout._make(shape, compact_major(shape, 1, stride.row))
    return Layout(shape, stride)


def _is_layout_tuple(x: Any, level: int = 0) -> bool:
    """A non-empty (nested, at most MAX_NESTING deep) tuple whose leaves are all layouts."""
    return isinstance(x, (tuple, list)) and len(x) > 0 and level < MAX_NESTING and all(
        isinstance(e, Layout) or _is_layout_tuple(e, level + 1) for e in x)


def _join(x: Any, part: str) -> IntTuple:
    return getattr(x, part) if isinstance(x, Layout) else tuple(_join(e, part) for e in x)


# ---------------------------------------------------------------- extents (the other queries are in queries.py)
def get_path(x: Any, idx: tuple[Any, ...], what: str = "get") -> Any:
    """``get<I...>(x)``: mode ``I0`` of ``x``, then mode ``I1`` of that, ... (layouts and IntTuples).

    @pre every index is an ``int`` in range for the mode it indexes (an integer
         has the one mode 0, itself, as in CuTe).
    @post ``get_path(x, ()) is x``.
    """
    out = x
    for i in idx:
        if not isinstance(i, int) or isinstance(i, bool):
            raise RankError(f"{what}: a mode index is an int, got {i!r}")
        if isinstance(out, tuple):
            if not -len(out) <= i < len(out):
                raise RankError(f"{what}: mode {i} out of range for rank {len(out)}")
            out = out[i]
        elif isinstance(out, Layout) or hasattr(out, "_domain"):
            out = out[i]
        elif i in (0, -1):
            pass                # get<0> of an integer is the integer
        else:
            raise RankError(f"{what}: mode {i} out of range for an integer (rank 1)")
    return out


def coshape(layout: Layout) -> IntLike:
    """CuTe's ``coshape`` of an integer-strided layout: ``1 + sum((s - 1) * |d|)`` over
    every leaf, i.e. :func:`cosize` (strides by absolute value).

    @post ``size(coshape(layout)) == cosize(layout)``: one integer for integer strides.

    >>> coshape(make_layout((4, 8), (1, 8))), coshape(make_layout((9, 4), (0, -4)))
    (60, 13)
    >>> from cute_sym.core.integers import Dyn
    >>> M = Dyn("M")
    >>> coshape(make_layout((4, M), (M, 1)))
    4*M
    """
    return cosize(layout)


def cosize(layout: Any, *idx: int) -> IntLike:
    """Smallest ``M`` with ``layout(i) < M`` for every ``i`` in the domain (strides taken by absolute value).

    @post ``cosize == 1 + layout(size - 1)`` for non-negative strides;
          ``cosize(L, i) == cosize(get(L, i))`` (CuTe's ``cosize<i>(L)``).

    >>> cosize(make_layout((4, 8), (1, 8))), cosize(make_layout((2, 3), (0, 2))), cosize(make_layout((4, 8), (1, 8)), 1)
    (60, 5, 57)
    """
    if idx:
        layout = get_path(layout, idx, "cosize")
    if not isinstance(layout, Layout):
        f = getattr(layout, "cosize", None)
        if callable(f):
            return f()
        raise LayoutError(f"cosize: not a layout: {layout!r}")
    static = 1
    terms: list[Any] = []
    for s, d in zip(leaves(layout._shape), leaves(layout._stride)):
        if type(s) is int and type(d) is int:
            static += (s - 1) * (d if d >= 0 else -d)
        elif (type(d) is int and d == 0) or (type(s) is int and s == 1):
            continue        # a static 0 factor: CuTe's term is a static 0, whatever the other one
        else:
            # s*|d| - |d|, not (s-1)*|d|, in one sum: with monomial strides it collects its own
            # terms (those of a compact layout cancel to one product), with nothing to expand
            ad = sabs(d)
            terms += (s * ad, -ad)
    if not terms:
        return static
    return norm(expand(sympy.Add(static, *terms)))



def _slice_t(c: Any, t: Any) -> Any:
    if type(c) is tuple:
        if type(t) is not tuple or len(c) != len(t):
            raise RankError(f"slice: Mismatched Ranks ({fmt(c)} for {fmt(t)})")
        out: list[Any] = []
        for ci, ti in zip(c, t):
            if type(ci) is tuple:
                out.extend(_slice_t(ci, ti))
            elif ci is _:
                out.append(ti)
            else:
                _check_coord_leaf(ci)
        return tuple(out)
    if c is _:
        return t
    _check_coord_leaf(c)
    return ()


def index_offset(i: Any, shape: Any, stride: Any) -> Any:
    """``layout(i)`` for a 1-D index ``i`` (a formula: a thread's, a loop's), over the modes merged
    where one continues the previous (``d_{k+1} == s_k * d_k`` as formulas) and the extent-1 modes
    but the last dropped: the same value at every ``i`` (the last mode extends as before,
    ``(i % s)*d + (i // s)*s*d == i*d``), a shorter formula (``i``, not ``i%M + M*(i//M)``).

    >>> from cute_sym.core.integers import Dyn
    >>> M, i = Dyn("M"), Dyn("i", sign="nonnegative")
    >>> index_offset(i, (M, 4), (1, M)), index_offset(i, (4, (1, M)), (M, (0, 4*M)))
    (i, M*i)
    """
    ss, dd = leaves(shape), leaves(stride)
    ms: list[Any] = []
    md: list[Any] = []
    for k, (s, d) in enumerate(zip(ss, dd)):
        if not (type(d) is int or is_basic(d)):
            return crd2idx(i, shape, stride)        # a scaled basis (a coordinate layout): as it is
        if s == 1 and k < len(ss) - 1:
            continue        # coordinate i//p % 1 == 0
        if ms and md[-1] * ms[-1] == d:
            ms[-1] = norm(ms[-1] * s)
            continue
        ms.append(s)
        md.append(d)
    if len(ms) == 1:
        return crd2idx(i, ms[0], md[0])
    return crd2idx(i, tuple(ms), tuple(md))


def _pad_coord(c: Any, shape: Any) -> Any:
    """A coordinate with the trailing positions ``shape`` has and it lacks written as 0."""
    if type(c) is not tuple or type(shape) is not tuple:
        return c
    if len(c) > len(shape):
        raise LayoutError(f"the coordinate {fmt(c)} has more modes than the shape {fmt(shape)}")
    return tuple(_pad_coord(x, t) for x, t in zip(c + (0,) * (len(shape) - len(c)), shape))


def _check_coord(c: Any, level: int) -> None:
    """Integers, ``_`` and tuples of them, at most MAX_NESTING deep (a string times a stride is a string)."""
    if type(c) is tuple:
        if level >= MAX_NESTING:
            raise LayoutError(f"a coordinate nests deeper than {MAX_NESTING} levels")
        for e in c:
            _check_coord(e, level + 1)
    elif c is not _:
        _check_coord_leaf(c)


def _check_coord_leaf(c: Any) -> None:
    if not (isinstance(c, int) and not isinstance(c, bool) or isinstance(c, sympy.Expr)):
        raise LayoutError(f"a coordinate holds integers and _, got {c!r}")



def slice_(coord: Any, layout: Layout) -> Layout:
    """The sub-layout of the modes where ``coord`` holds ``_`` (CuTe's ``slice``).

    @pre ``coord`` is weakly congruent with ``layout.shape`` ("Mismatched Ranks").
    @post ``layout(c) == result(c') + layout(coord with _ as 0)`` where ``c`` is
          ``coord`` with the ``_`` filled by ``c'``; ``size(result)`` is the
          product of the sliced modes.

    >>> print(slice_((_, (1, _)), make_layout((4, (2, 3)))))
    (_4,_3):(_1,_8)
    """
    return Layout._make(_slice_t(coord, layout._shape), _slice_t(coord, layout._stride))



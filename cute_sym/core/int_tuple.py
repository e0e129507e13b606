"""Int tuples: nested tuples of static/dynamic integers, with CuTe's operations.

An *IntTuple* is an integer (:data:`~cute_sym.core.integers.IntLike`) or a Python
``tuple`` of IntTuples. Names and semantics follow CuTe's ``int_tuple.hpp``;
integer division is C's (truncating), as in CuTe. Every function takes a
plain-``int`` path when its arguments are static; symbolic arguments give exact
sympy formulas, and any fact that must be decided goes through
:mod:`cute_sym.core.decide`.

>>> shape_div((12, 8), 6)
(2, 8)
>>> idx2crd(16, (3, (2, 3)))
(1, (1, 2))
>>> crd2idx((1, 5), (3, (2, 3)), (3, (12, 1)))
17
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Union

import sympy
from typing_extensions import TypeAlias

from . import decide
from .errors import DivisibilityError, LayoutError, RankError
from .integers import IMod, IntLike

__all__ = [
    "IntTuple", "Underscore", "_", "is_tuple", "is_int", "rank", "depth", "product", "size",
    "flatten", "unflatten", "congruent", "weakly_congruent", "compatible", "evenly_divides",
    "shape_div", "ceil_div", "shape_min", "prefix_product", "inner_product", "elem_scale",
    "crd2idx", "idx2crd", "crd2crd", "compact_col_major", "compact_row_major", "compact_major",
    "transform", "zip_tuples", "zip2_by", "repeat_like", "product_each", "fmt", "leaf_str",
    "signum", "cdiv", "cmod", "smin", "smax", "sabs", "norm",
]

IntTuple: TypeAlias = Union[IntLike, tuple[Any, ...]]


class Underscore:
    """CuTe's ``_``: "keep this mode" in slices and tilers. Use the singleton ``_``."""

    __slots__ = ()
    _instance: "Underscore | None" = None

    def __new__(cls) -> "Underscore":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "_"

    __str__ = __repr__

    def __reduce__(self) -> str:
        return "_"


_ = Underscore()


class StaticInt(int):
    """A static integer as returned to users: an ``int`` that prints as CuTe does (``_4``).

    @post equal to (and hashing as) the plain ``int``; only ``str``/``repr``
          differ. Arithmetic on it gives plain ``int`` s.

    >>> StaticInt(4), StaticInt(4) == 4, type(StaticInt(4) + 1).__name__
    (_4, True, 'int')
    """

    __slots__ = ()

    def __str__(self) -> str:
        return f"_{int(self)}"

    def __repr__(self) -> str:
        return f"_{int(self)}"


class Tup(tuple):  # type: ignore[type-arg]
    """An IntTuple as returned to users: a ``tuple`` that prints in CuTe notation.

    @post equal to the plain ``tuple`` of the same items; only ``str``/``repr`` differ.

    >>> Tup((4, (2, 8))), Tup((4, (2, 8))) == (4, (2, 8)), str(Tup((8,)))
    ((_4,(_2,_8)), True, '(_8)')
    """

    __slots__ = ()

    def __str__(self) -> str:
        return fmt(tuple(self))

    def __repr__(self) -> str:
        return fmt(tuple(self))


def wrap(x: Any) -> Any:
    """Give a result its CuTe printing (``_4``, ``(_2,M)``) without changing its value."""
    t = type(x)
    if t is int:
        return StaticInt(x)
    if t is tuple:
        return Tup(x)
    return x


def plain(x: Any) -> Any:
    """A top-level ``Tup`` (as ``parse`` returns) as a plain ``tuple``."""
    return tuple(x) if type(x) is Tup else x


def unwrap(x: Any) -> Any:
    """Plain ``int``/``tuple`` for user-supplied values (StaticInt, Tup, lists, numpy ints)."""
    t = type(x)
    if t is int or t.__name__ == "Layout":
        return x
    if t is tuple or t is Tup:
        for e in x:
            if type(e) is not int:
                break
        else:
            return x if t is tuple else tuple(x)
    if isinstance(x, bool):
        return x
    if isinstance(x, (tuple, list)):
        return tuple(unwrap(e) for e in x)
    if isinstance(x, int):
        return int(x)
    if not isinstance(x, sympy.Basic) and hasattr(x, "__index__") and not hasattr(x, "_shape"):
        return int(x.__index__())
    return x


def is_tuple(x: object) -> bool:
    return type(x) is tuple


def is_int(x: object) -> bool:
    """True for an integer leaf (static or dynamic), False for tuples and ``_``."""
    return type(x) is int or isinstance(x, sympy.Expr)


# ---------------------------------------------------------------- scalars
def norm(x: Any) -> Any:
    """Results computed from a dynamic input stay dynamic, even when their value
    is known (a sympy ``Integer``), as in CuTe: static-ness follows the inputs."""
    return x


def signum(a: IntLike) -> IntLike:
    if type(a) is int:
        return (a > 0) - (a < 0)
    if decide.prove(">", a, 0):
        return 1
    if decide.prove("<", a, 0):
        return -1
    if decide.prove("==", a, 0):
        return 0
    return sympy.sign(a)


def sabs(a: IntLike) -> IntLike:
    if type(a) is int:
        return a if a >= 0 else -a
    if decide.prove(">=", a, 0):
        return a
    if decide.prove("<=", a, 0):
        return norm(-a)
    return sympy.Abs(a)


def cdiv(a: IntLike, b: IntLike) -> IntLike:
    """C's truncating division ``a / b`` (CuTe's ``operator/`` on integers).

    @pre ``b != 0``.

    >>> cdiv(7, 2), cdiv(-7, 2), cdiv(2, 8)
    (3, -3, 0)
    """
    if type(a) is int and type(b) is int:
        if b == 0:
            raise DivisibilityError("division by zero")
        if (a >= 0) == (b > 0):
            return a // b if a >= 0 else (-a) // (-b)
        return -((-a) // b) if a < 0 else -(a // (-b))
    if decide.require("==", b, 0, assume=False, why="division"):
        raise DivisibilityError(f"division by zero: {b} == 0")
    if decide.prove("|", b, a):
        sb = sympy.sympify(b)
        if decide.is_big(a, sb) or not (decide.is_polynomial(sympy.sympify(a)) and decide.is_polynomial(sb)):
            # exact; cancel() over floors and mins costs seconds and gains little
            return norm(sympy.sympify(a) / sb)
        if sb.is_Number or sb.is_Symbol or (sb.is_Mul and not any(f.is_Add for f in sb.args)):
            return norm(sympy.expand(sympy.sympify(a) / sb))     # a monomial divisor: no cancel needed
        return norm(sympy.cancel(sympy.sympify(a) / sb))
    a_nonneg = decide.prove(">=", a, 0)
    b_pos = decide.prove(">", b, 0)
    if a_nonneg and b_pos:
        return norm(sympy.floor(sympy.sympify(a) / b))
    if a_nonneg is None or b_pos is None:
        # the sign decides the rounding direction
        if a_nonneg is None:
            decide.require(">=", a, 0, why="truncating division")
        if b_pos is None:
            decide.require(">", b, 0, why="truncating division")
        return cdiv(a, b)
    # at least one negative: truncation toward zero
    q = sympy.floor(sabs(a) / sympy.sympify(sabs(b)))
    return norm(q if (a_nonneg == b_pos) else -q)


def cmod(a: IntLike, b: IntLike) -> IntLike:
    """``a % b`` for a non-negative ``a`` and positive ``b`` (coordinates)."""
    if type(a) is int and type(b) is int:
        return a % b
    if decide.prove("|", b, a):
        return 0
    if decide.prove("<", a, b) and decide.prove(">=", a, 0):
        return a
    return norm(IMod(a, b))


def smin(a: IntLike, b: IntLike) -> IntLike:
    if type(a) is int and type(b) is int:
        return a if a <= b else b
    if decide.prove("<=", a, b):
        return a
    if decide.prove("<=", b, a):
        return b
    return sympy.Min(a, b, evaluate=False)  # the order is undecided: no sympy search for one


def smax(a: IntLike, b: IntLike) -> IntLike:
    if type(a) is int and type(b) is int:
        return a if a >= b else b
    if decide.prove(">=", a, b):
        return a
    if decide.prove(">=", b, a):
        return b
    return sympy.Max(a, b, evaluate=False)


def _shape_div1(a: IntLike, b: IntLike) -> IntLike:
    if type(a) is int and type(b) is int:
        if b == 0 or a % b != 0 and (a == 0 or b % a != 0):
            raise DivisibilityError(f"Static shape_div failure: neither {a} nor {b} divides the other")
        q = cdiv(a, b)
        return q if q != 0 else ((a > 0) - (a < 0)) * ((b > 0) - (b < 0))
    # symbolic: a / b when b | a; a sign when a | b (|a| <= |b|)
    if decide.prove("|", b, a):
        q = cdiv(a, b)
        return q
    if decide.prove("|", a, b):
        # |a| <= |b|: a/b is 0 or a sign, and CuTe rounds away from zero to the sign
        return norm(signum(a) * signum(b))
    if decide.prove(">", a, 0) and decide.prove(">", b, 0):
        # one of them divides the other (the precondition): ceil(a/b) is right either way
        if not decide.require_any([("|", b, a), ("|", a, b)], why=f"shape_div({a}, {b})"):
            raise DivisibilityError(f"shape_div failure: neither {a} nor {b} divides the other")
        return norm(sympy.ceiling(sympy.sympify(a) / b))
    if decide.require("|", b, a, why=f"shape_div({a}, {b}) (or {a} | {b})"):
        return cdiv(a, b)
    raise DivisibilityError(f"shape_div failure: neither {a} nor {b} divides the other")  # pragma: no cover


def _ceil_div1(a: IntLike, b: IntLike) -> IntLike:
    if type(a) is int and type(b) is int:
        return cdiv(a + b - 1, b)
    if decide.prove("|", b, a):
        return cdiv(a, b)
    if decide.prove(">", b, 0) and decide.prove(">=", a, 0):
        return norm(sympy.ceiling(sympy.sympify(a) / b))
    return cdiv(sympy.sympify(a) + b - 1, b)


# ---------------------------------------------------------------- structure
def rank(t: IntTuple) -> int:
    """Number of top-level modes (1 for an integer).

    >>> rank(4), rank((4, (2, 3))), rank(())
    (1, 2, 0)
    """
    return len(t) if type(t) is tuple else 1


def depth(t: IntTuple) -> int:
    """Nesting depth: 0 for an integer, 1 for a flat tuple.

    >>> depth(4), depth((4, 2)), depth((4, (2, 3)))
    (0, 1, 2)
    """
    if type(t) is tuple:
        d = 0
        for e in t:
            x = depth(e)
            if x > d:
                d = x
        return 1 + d
    return 0


def product(t: IntTuple) -> IntLike:
    """Product of every leaf (CuTe's ``product``/``size`` of an IntTuple).

    @pre ``t`` is an IntTuple (else :class:`LayoutError`).
    @post static when every leaf is static; ``product(()) == 1``; an integer is its own product.

    >>> product((2, (3, 4))), product(())
    (24, 1)
    >>> from cute_sym.core.integers import Dyn
    >>> product((2, (Dyn("M"), 4)))
    8*M
    """
    if type(t) is int:
        return t
    if type(t) is tuple:
        p: IntLike = 1
        for e in t:
            p = p * product(e)
        return norm(p) if type(p) is not int else p
    if isinstance(t, sympy.Expr):
        return t
    raise LayoutError(f"product: not an IntTuple: {t!r}")


size = product


def flatten(t: IntTuple) -> IntTuple:
    """The leaves of ``t`` as a flat tuple (an integer stays an integer).

    >>> flatten(((2, 3), 5, (7,)))
    (2, 3, 5, 7)
    """
    if type(t) is not tuple:
        return t
    out: list[Any] = []
    _flatten_into(t, out)
    return tuple(out)


def _flatten_into(t: tuple[Any, ...], out: list[Any]) -> None:
    for e in t:
        if type(e) is tuple:
            _flatten_into(e, out)
        else:
            out.append(e)


def flatten_to_tuple(t: IntTuple) -> tuple[Any, ...]:
    return flatten(t) if type(t) is tuple else (t,)  # type: ignore[return-value]


def unflatten(flat: IntTuple, profile: IntTuple) -> IntTuple:
    """Fold a flat tuple back into the nesting of ``profile``.

    @pre ``rank(flat) == rank(flatten(profile))``.
    @post ``flatten(result) == flat`` and ``result`` is congruent to ``profile``.

    >>> unflatten((2, 3, 5, 7), ((0, 0), 0, (0,)))
    ((2, 3), 5, (7,))
    """
    items = flatten_to_tuple(flat)
    if type(profile) is not tuple:
        if len(items) != 1:
            raise RankError(f"unflatten: Mismatched ranks ({len(items)} leaves for an integral profile)")
        return items[0]
    pos = [0]

    def go(p: Any) -> Any:
        if type(p) is tuple:
            return tuple(go(e) for e in p)
        if pos[0] >= len(items):
            raise RankError("unflatten: Mismatched ranks (too few leaves)")
        v = items[pos[0]]
        pos[0] += 1
        return v

    r = go(profile)
    if pos[0] != len(items):
        raise RankError("unflatten: Mismatched ranks (too many leaves)")
    return r


def congruent(a: IntTuple, b: IntTuple) -> bool:
    """Same nesting (profile), leaves ignored.

    @post symmetric; ``True`` iff both are integers, or both are tuples of equal
          length with congruent items. A shape and its stride are congruent.

    >>> congruent((1, (2, 3)), (4, (5, 6))), congruent((1, 2), (1, (2,)))
    (True, False)
    """
    if type(a) is tuple and type(b) is tuple:
        return len(a) == len(b) and all(congruent(x, y) for x, y in zip(a, b))
    return type(a) is not tuple and type(b) is not tuple


def weakly_congruent(a: IntTuple, b: IntTuple) -> bool:
    """``a`` is a coarsening of ``b``: an integer of ``a`` may stand for a tuple of ``b``.

    @post ``congruent(a, b)`` implies ``weakly_congruent(a, b)``; an integer ``a``
          is weakly congruent with anything.

    >>> weakly_congruent(1, (2, 3)), weakly_congruent((1, 2), ((2, 3), 4)), weakly_congruent((1, 2), 3)
    (True, True, False)
    """
    if type(a) is not tuple:
        return True
    if type(b) is not tuple:
        return False
    return len(a) == len(b) and all(weakly_congruent(x, y) for x, y in zip(a, b))


def compatible(a: IntTuple, b: IntTuple) -> bool:
    """Every coordinate of shape ``a`` is a coordinate of shape ``b``
    (``a``'s integers equal the sizes of ``b``'s corresponding modes).

    @post ``True`` implies ``weakly_congruent(a, b)`` and ``product(a) == product(b)``;
          a symbolic size equality that cannot be proved counts as ``False``.

    >>> compatible(24, (4, 6)), compatible((4, 6), (4, (2, 3))), compatible((4, 6), (6, 4))
    (True, True, False)
    """
    if type(a) is tuple:
        return type(b) is tuple and len(a) == len(b) and all(compatible(x, y) for x, y in zip(a, b))
    r = decide.prove("==", a, product(b))
    return bool(r)


def evenly_divides(a: IntTuple, b: IntTuple) -> bool:
    """``b`` divides ``a`` mode by mode (CuTe's ``evenly_divides``)."""
    if type(b) is tuple:
        if type(a) is not tuple or len(a) < len(b):
            return False
        return all(evenly_divides(x, y) for x, y in zip(a, b))
    return bool(decide.prove("|", b, product(a)))


def transform(t: IntTuple, f: Callable[[Any], Any]) -> Any:
    """Apply ``f`` to every top-level element (to ``t`` itself when it is an integer)."""
    if type(t) is tuple:
        return tuple(f(e) for e in t)
    return f(t)


def transform_leaf(t: IntTuple, f: Callable[[Any], Any]) -> Any:
    if type(t) is tuple:
        return tuple(transform_leaf(e, f) for e in t)
    return f(t)


def zip_tuples(*ts: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(zip(*ts))


def repeat_like(t: IntTuple, v: Any) -> Any:
    """``t``'s nesting with every leaf replaced by ``v``."""
    if type(t) is tuple:
        return tuple(repeat_like(e, v) for e in t)
    return v


def product_each(t: IntTuple) -> IntTuple:
    """The size of each top-level mode."""
    if type(t) is tuple:
        return tuple(product(e) for e in t)
    return t


# ---------------------------------------------------------------- arithmetic
def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``shape_div``: divide shape ``a`` by ``b``, mode by mode or folding.

    * int int: ``a / b`` when ``b | a``; ``signum(a*b)`` when ``a | b``; else an error
      ("Static shape_div failure").
    * tuple int: divide the modes left to right, carrying what is left of ``b``.
    * int tuple: ``shape_div(a, product(b))``; tuple tuple: mode by mode (equal ranks).

    @post ``product(result) * product(b) == product(a)`` when ``product(b) | product(a)``.

    >>> shape_div(12, 3), shape_div(3, 12), shape_div((3, 4), 6), shape_div((6, 8), (2, 4))
    (4, 1, (1, 2), (3, 2))
    """
    if type(a) is tuple:
        if type(b) is tuple:
            if len(a) != len(b):
                raise RankError(f"shape_div: Mismatched ranks ({len(a)} vs {len(b)})")
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        rest: IntTuple = b
        for ai in a:
            out.append(shape_div(ai, rest))
            rest = shape_div(rest, ai)
        return tuple(out)
    if type(b) is tuple:
        return _shape_div1(a, product(b))
    return _shape_div1(a, b)


def ceil_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``ceil_div``: ``(a + b - 1) / b``, mode by mode or folding.

    * tuple tuple: mode by mode; missing modes of ``b`` count as 1 (``rank(a) >= rank(b)``).
    * tuple int: fold left to right, carrying ``ceil_div(rest, a_i)``.
    * int tuple: ``ceil_div(a, product(b))``.

    @pre ``rank(a) >= rank(b)`` when both are tuples ("Mismatched ranks"); ``b`` is non-zero.
    @post int int: ``result * b >= a > (result - 1) * b``; the result has ``a``'s profile.

    >>> ceil_div(7, 2), ceil_div((4, 7), 8), ceil_div((10, 7, 3), (4, 2))
    (4, (1, 4), (3, 4, 3))
    >>> from cute_sym.core.integers import Dyn
    >>> ceil_div(Dyn("M"), 4)
    ceiling(M/4)
    """
    if type(a) is tuple:
        if type(b) is tuple:
            if len(a) < len(b):
                raise RankError(f"ceil_div: Mismatched ranks ({len(a)} < {len(b)})")
            return tuple(ceil_div(x, b[i] if i < len(b) else 1) for i, x in enumerate(a))
        out = []
        rest: IntTuple = b
        for ai in a:
            out.append(ceil_div(ai, rest))
            rest = ceil_div(rest, ai)
        return tuple(out)
    if type(b) is tuple:
        return _ceil_div1(a, product(b))
    return _ceil_div1(a, b)


def shape_min(a: IntLike, b: IntLike) -> IntLike:
    """``min(a, b)`` with CuTe's rule that a static 1 wins (it preserves static-ness)."""
    if type(a) is int and type(b) is int:
        return a if a <= b else b
    if a == 1 or b == 1:
        return 1
    return smin(a, b)


def prefix_product(a: IntTuple, init: IntLike = 1) -> IntTuple:
    """Exclusive prefix product, CuTe's column-major strides.

    @post congruent with ``a``; the first leaf is ``init`` and each next leaf is
          the previous one times the previous leaf of ``a``.

    >>> prefix_product((2, (3, 4), 5))
    (1, (2, 6), 24)
    >>> prefix_product((2, 3), 4), prefix_product(5)
    ((4, 8), 1)
    """
    if type(a) is tuple:
        out = []
        cur: IntTuple = init
        for e in a:
            out.append(prefix_product(e, cur))
            cur = cur * product(e)
        return tuple(out)
    return init


def inner_product(a: IntTuple, b: IntTuple) -> IntLike:
    """Sum of products of corresponding leaves (congruent tuples).

    @pre ``congruent(a, b)`` ("Mismatched ranks", a :class:`RankError`).
    @post an integer; ``crd2idx(c, shape, stride) == inner_product(c, stride)``
          for a natural coordinate ``c``.

    >>> inner_product((2, (3, 4)), (1, (2, 6)))
    32
    >>> from cute_sym.core.integers import Dyn
    >>> M = Dyn("M")
    >>> inner_product((M, 2), (1, M))
    3*M
    """
    if type(a) is tuple:
        if type(b) is not tuple or len(a) != len(b):
            raise RankError("inner_product: Mismatched ranks")
        s: IntLike = 0
        for x, y in zip(a, b):
            s = s + inner_product(x, y)
        return norm(s)
    if type(b) is tuple:
        raise RankError("inner_product: Mismatched ranks")
    return a * b  # type: ignore[operator]


def elem_scale(a: IntTuple, b: IntTuple) -> IntTuple:
    """``a`` scaled leafwise by ``b`` (an integer of ``a`` by the product of ``b``'s mode).

    @pre ``weakly_congruent(a, b)`` ("Mismatched ranks", a :class:`RankError`).
    @post congruent with ``a``.

    >>> elem_scale((2, 3), (4, (5, 6))), elem_scale(2, (3, 4))
    ((8, 90), 24)
    """
    if type(a) is tuple:
        if type(b) is not tuple or len(a) != len(b):
            raise RankError("elem_scale: Mismatched ranks")
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    r = a * product(b)
    return r if type(r) is int else norm(r)


def compact_major(shape: IntTuple, current: IntLike = 1, row: bool = False) -> IntTuple:
    """Compact strides for ``shape`` starting at ``current`` (CuTe's compact_major).

    A static size-1 mode gets stride 0, as in CuTe.

    >>> compact_major((4, 1, (2, 3)))
    (1, 0, (4, 8))
    >>> compact_major((4, 2, 3), row=True)
    (6, 3, 1)
    """
    return _compact(shape, current, row)[0]


def _compact(shape: IntTuple, current: IntLike, row: bool) -> tuple[IntTuple, IntLike]:
    if type(shape) is tuple:
        out: list[Any] = [None] * len(shape)
        order = range(len(shape) - 1, -1, -1) if row else range(len(shape))
        for i in order:
            out[i], current = _compact(shape[i], current, row)
        return tuple(out), current
    if type(shape) is int and shape == 1:
        return 0, current
    nxt = current * shape
    return current, (nxt if type(nxt) is int else norm(nxt))


def compact_col_major(shape: IntTuple, current: IntLike = 1) -> IntTuple:
    return compact_major(shape, current, False)


def compact_row_major(shape: IntTuple, current: IntLike = 1) -> IntTuple:
    return compact_major(shape, current, True)


# ---------------------------------------------------------------- coordinates
def crd2idx(coord: Any, shape: IntTuple, stride: IntTuple | None = None) -> IntLike:
    """Coordinate -> index: the inner product of a natural coordinate with the strides.

    An integer coordinate on a tuple shape is a 1-D (colexicographic) index:
    every mode but the last takes ``coord % size(mode)``; the last takes the rest.
    ``stride`` defaults to the compact column-major strides of ``shape``.

    @pre ``coord`` is weakly congruent with ``shape`` ("Mismatched Ranks").

    >>> crd2idx(16, (3, (2, 3)), (3, (12, 1)))
    17
    >>> crd2idx((1, (1, 2)), (3, (2, 3)), (3, (12, 1)))
    17
    """
    if stride is None:
        stride = compact_col_major(shape)
    if type(coord) is tuple:
        if type(shape) is not tuple:
            raise RankError(f"crd2idx: Invalid parameters (tuple coordinate {coord} for integral shape {shape})")
        if len(coord) != len(shape) or type(stride) is not tuple or len(stride) != len(shape):
            raise RankError(f"crd2idx: Mismatched Ranks ({coord} for {shape})")
        s: IntLike = 0
        for c, sh, d in zip(coord, shape, stride):
            t = crd2idx(c, sh, d)
            if not (type(t) is int and t == 0):
                s = t if (type(s) is int and s == 0) else s + t
        return s
    if type(shape) is tuple:
        if type(stride) is not tuple or len(stride) != len(shape):
            raise RankError("crd2idx: Mismatched Ranks (shape vs stride)")
        if not shape:
            return 0
        s = 0
        last = len(shape) - 1
        for i in range(last + 1):
            if i < last:
                n = product(shape[i])
                t = crd2idx(cmod(coord, n), shape[i], stride[i])
                coord = cdiv(coord, n)
            else:
                t = crd2idx(coord, shape[last], stride[last])
            if not (type(t) is int and t == 0):
                s = t if (type(s) is int and s == 0) else s + t
        return s
    if type(stride) is tuple:
        raise RankError("crd2idx: Mismatched Ranks (integral shape, tuple stride)")
    if type(coord) is int and coord == 0 or type(stride) is int and stride == 0:
        return 0    # a static zero stays static, as in CuTe
    r = coord * stride
    return r if type(r) is int else norm(r)


def idx2crd(idx: Any, shape: IntTuple, stride: IntTuple | None = None) -> Any:
    """Index -> natural coordinate of ``shape`` (CuTe's ``idx2crd``).

    An integer index on a tuple shape gives ``(idx / stride) % extent`` per leaf,
    with compact column-major ``stride`` by default (a static extent 1 gives
    ``0``). A tuple index is taken mode by mode; an integer index on an integer
    shape is already a coordinate and is returned as it is.

    >>> idx2crd(16, (3, (2, 3))), idx2crd((1, 5), (3, (2, 3)))
    ((1, (1, 2)), (1, (1, 2)))
    """
    if type(idx) is tuple:
        if type(shape) is not tuple:
            raise RankError(f"idx2crd: Invalid parameters (tuple index {idx} for integral shape {shape})")
        if len(idx) != len(shape):
            raise RankError(f"idx2crd: Mismatched Ranks ({idx} for {shape})")
        if stride is None:
            return tuple(idx2crd(i, s) for i, s in zip(idx, shape))
        return tuple(idx2crd(i, s, d) for i, s, d in zip(idx, shape, stride))  # type: ignore[arg-type]
    if type(shape) is tuple:
        if stride is None:
            return _idx2crd_rest(idx, shape)
        if type(stride) is not tuple or len(stride) != len(shape):
            raise RankError("idx2crd: Mismatched Ranks (shape vs stride)")
        return tuple(_idx2crd_leaf(idx, s, d) for s, d in zip(shape, stride))
    if stride is None:
        return idx
    return _idx2crd_leaf(idx, shape, stride)


def _idx2crd_rest(idx: Any, shape: IntTuple) -> Any:
    """Every mode but the last takes ``idx % size(mode)``; the last takes the rest (as crd2idx)."""
    if type(shape) is not tuple:
        return 0 if type(shape) is int and shape == 1 else idx
    out = []
    last = len(shape) - 1
    for k, s in enumerate(shape):
        if k == last:
            out.append(_idx2crd_rest(idx, s))
        else:
            n = product(s)
            out.append(_idx2crd_rest(cmod(idx, n), s))
            idx = cdiv(idx, n)
    return tuple(out)


def _idx2crd_leaf(idx: Any, shape: IntTuple, stride: IntTuple) -> Any:
    if type(shape) is tuple:
        return tuple(_idx2crd_leaf(idx, s, d) for s, d in zip(shape, stride))  # type: ignore[arg-type]
    if type(shape) is int and shape == 1:
        return 0
    return cmod(cdiv(idx, stride), shape)


def crd2crd(coord: Any, src_shape: IntTuple, dst_shape: IntTuple) -> Any:
    """Re-express a coordinate of ``src_shape`` as a coordinate of ``dst_shape``.

    @pre ``size(src_shape) == size(dst_shape)``; when ``coord``, ``src_shape`` and
         ``dst_shape`` are all tuples they have one rank ("Mismatched Ranks").
    @post ``crd2idx(result, dst_shape) == crd2idx(coord, src_shape)`` (colexicographic indices).

    >>> crd2crd(5, 6, (2, 3)), crd2crd((1, 2), (2, 3), 6)
    ((1, 2), 5)
    """
    if type(coord) is tuple and type(dst_shape) is tuple and type(src_shape) is tuple:
        if not (len(coord) == len(src_shape) == len(dst_shape)):
            raise RankError("crd2crd: Mismatched Ranks")
        return tuple(crd2crd(c, s, d) for c, s, d in zip(coord, src_shape, dst_shape))
    return idx2crd(crd2idx(coord, src_shape), dst_shape)


def zip2_by(t: Any, guide: Any) -> Any:
    """Gather the rank-2 terminals of ``t`` found at the leaves of ``guide`` into
    two modes (CuTe's ``zip2_by``, used by zipped divides and products)."""
    if type(guide) is not tuple:
        if type(t) is not tuple or len(t) != 2:
            raise RankError("zip2_by: Mismatched ranks (terminal is not rank 2)")
        return t
    n = len(guide)
    if type(t) is not tuple or len(t) < n:
        raise RankError("zip2_by: Mismatched ranks")
    first: list[Any] = []
    second: list[Any] = []
    for i in range(n):
        x = t[i]
        if type(guide[i]) is tuple:
            x = zip2_by(x, guide[i])
        elif type(x) is not tuple or len(x) != 2:
            raise RankError("zip2_by: Mismatched ranks (terminal is not rank 2)")
        first.append(x[0])
        second.append(x[1])
    second.extend(t[n:])
    return tuple(first), tuple(second)


# ---------------------------------------------------------------- printing
def leaf_str(x: Any) -> str:
    """CuTe's print of one leaf: ``_4`` static, ``4`` known dynamic, a formula otherwise."""
    if type(x) is int:
        return f"_{x}"
    if x is _:
        return "_"
    if isinstance(x, sympy.Basic):
        from .formula import formula_str
        return formula_str(x)
    if isinstance(x, int):
        return f"_{int(x)}"
    return str(x)


def fmt(t: Any) -> str:
    """CuTe notation of an IntTuple: ``(_2,(_3,M))``.

    >>> fmt((2, (3, 4))), fmt((4,)), fmt(())
    ('(_2,(_3,_4))', '(_4)', '()')
    """
    if type(t) is tuple:
        return "(" + ",".join([fmt(e) for e in t]) + ")"
    if type(t) is int:
        return f"_{t}"
    if hasattr(t, "_cute_str"):
        return t._cute_str()  # type: ignore[no-any-return]
    return leaf_str(t)


def leaves(t: Any) -> list[Any]:
    """The leaves of ``t`` as a list (an integer gives a one-element list)."""
    if type(t) is not tuple:
        return [t]
    out: list[Any] = []
    for e in t:
        if type(e) is tuple:
            out.extend(leaves(e))
        else:
            out.append(e)
    return out


def iter_leaves(t: Any) -> Iterable[Any]:
    if type(t) is tuple:
        for e in t:
            yield from iter_leaves(e)
    else:
        yield t

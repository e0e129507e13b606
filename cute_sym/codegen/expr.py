"""Index expressions of layouts: the offset formula, simplified from what is known.

A layout ``L`` maps a 1-D index ``i`` to ``sum_k ((i // P_k) % S_k) * D_k``
over its flattened modes (``P_k`` the product of the earlier extents; the last
mode takes the rest, without a modulo). :func:`index_expr` builds that formula
as a sympy expression, simplified at the layout level first:

* the layout is coalesced (:func:`cute_sym.algebra.coalesce`), so contiguous
  modes are one term;
* the first mode needs no division, the last no modulo, a zero-stride mode no
  term at all;
* a coordinate that is provably below its extent (from the bounds of the index
  or of the coordinate symbols) needs no modulo, one provably zero no term;
* quotients are shared: ``(i // 4) % 8`` and ``(i // 4) // 8`` use the same
  ``i // 4`` (a chain, so a dynamic divisor ``4*M`` is never formed);

then by a small set of rewrite rules on the known form (:func:`rewrite`).

Integer division and modulo are the sympy functions :class:`FloorDiv` (here)
and :class:`cute_sym.core.integers.IMod` (exact integer semantics for non-negative
operands, printed ``a // b`` and ``a % b``), not ``floor(a/b)`` over the
rationals; bounds are :func:`cute_sym.core.decide.bounds`'.

>>> from cute_sym.notation import parse
>>> print(index_expr(parse("(_4,_8):(_8,_1)")))
i // 4 + 8*(i % 4)
>>> print(index_expr(parse("(_4,M):(_1,_4)")))
i
>>> print(coord_expr((4, 8)))
(i % 4, i // 4)
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Optional, Sequence, Union

import sympy
from sympy.printing.precedence import PRECEDENCE

from ..core import decide
from ..algebra import coalesce
from ..core.errors import LayoutError, RankError
from ..core.integers import IMod, Dyn
from ..core.int_tuple import iter_leaves, product, unwrap
from ..layout.layout import Layout

__all__ = [
    "FloorDiv",
    "IMod",
    "index_expr",
    "coord_expr",
    "index_symbol",
    "rewrite",
    "expr_bounds",
    "dynamic_divisors",
]

Bound = Optional[int]


# ---------------------------------------------------------------- functions
def _paren(printer: Any, e: Any) -> str:
    s = printer._print(e)
    if e.is_Atom and not (e.is_Number and e < 0):
        return s  # type: ignore[no-any-return]
    return f"({s})"


class FloorDiv(sympy.Function):  # type: ignore[misc]
    """Integer floor division ``a // b`` (``b > 0``; exact for ``a >= 0``).

    Evaluates on numbers; ``x // 1`` is ``x``; ``0 // b`` is ``0``;
    ``(c*x) // c`` is ``x``. Nested divisions are kept as a chain (they share
    the inner quotient); :func:`rewrite` merges them where nothing shares them.

    @pre ``b > 0`` (a number ``b <= 0`` raises :class:`LayoutError`); ``a >= 0`` for exactness.
    @post ``b * result <= a < b * (result + 1)``; an integer, non-negative when
          ``a >= 0``.

    >>> x = sympy.Symbol("x", integer=True, nonnegative=True)
    >>> FloorDiv(17, 4), FloorDiv(x, 1), FloorDiv(8 * x, 8)
    (4, x, x)
    >>> print(FloorDiv(FloorDiv(x, 4), 8))
    (x // 4) // 8
    """

    nargs = 2
    is_integer = True
    precedence = PRECEDENCE["Mul"]

    @classmethod
    def eval(cls, a: Any, b: Any) -> Any:
        if b.is_Integer and int(b) <= 0:
            raise LayoutError(f"FloorDiv: the divisor must be positive, got {b}")
        if a.is_Integer and b.is_Integer:
            return sympy.Integer(int(a) // int(b))
        if b == 1:
            return a
        if a == 0:
            return sympy.S.Zero
        if a == b:
            return sympy.S.One
        if b.is_Integer and a.is_Mul:
            c, rest = a.as_coeff_Mul()
            if c.is_Integer and int(c) % int(b) == 0 and rest.is_nonnegative:
                return (int(c) // int(b)) * rest
        return None

    def _eval_is_nonnegative(self) -> Optional[bool]:
        a, b = self.args
        if a.is_nonnegative and b.is_positive:
            return True
        return None

    def _sympystr(self, printer: Any) -> str:
        return f"{_paren(printer, self.args[0])} // {_paren(printer, self.args[1])}"




# ---------------------------------------------------------------- bounds
def _as_int(x: Any) -> Any:
    """A sympy Integer becomes an int; anything else is returned as it is."""
    if type(x) is int:
        return x
    if isinstance(x, sympy.Integer):
        return int(x)
    return x


def expr_bounds(e: Any) -> tuple[Bound, Bound]:
    """Inclusive integer bounds ``(lo, hi)`` of an index expression (``None``: unbounded).

    :func:`cute_sym.core.decide.bounds` with :class:`FloorDiv` read as ``floor(a/b)``.

    >>> i = Dyn("i", sign="nonnegative", max=127)
    >>> expr_bounds(IMod(FloorDiv(i, 4), 8)), expr_bounds(FloorDiv(i, 32) * 8 + 1)
    ((0, 7), (1, 25))
    """
    lo, hi = decide.bounds(_floor_form(sympy.sympify(e)))
    return (None if lo is None else math.ceil(lo)), (None if hi is None else math.floor(hi))


@lru_cache(maxsize=8192)
def _floor_form(e: Any) -> Any:
    """``e`` with every ``FloorDiv(a, b)`` written ``floor(a/b)``, which :mod:`decide` bounds."""
    if e.is_Atom:
        return e
    args = tuple(_floor_form(a) for a in e.args)
    if isinstance(e, FloorDiv):
        return sympy.floor(args[0] / args[1], evaluate=False)
    return e if args == e.args else e.func(*args)


def _below(e: Any, limit: Any) -> bool:
    """Proved: ``0 <= e < limit``."""
    lo, hi = expr_bounds(e)
    if lo is None or lo < 0:
        return False
    if hi is None:
        return False
    if type(limit) is int:
        return hi < limit
    return decide.prove("<", hi, limit) is True


# ---------------------------------------------------------------- symbols
def index_symbol(size: Any = None, name: str = "i") -> sympy.Symbol:
    """The non-negative integer symbol ``name`` for an index below ``size``.

    With a static ``size`` the symbol carries the bound ``max=size-1`` (so
    expressions and emitters know it); otherwise it is only non-negative.

    >>> from cute_sym.core.integers import symbol_facts
    >>> s = index_symbol(128)
    >>> s, symbol_facts(s)
    (i, (1, 0, 127))
    """
    size = _as_int(size)
    if type(size) is int:
        if size < 1:
            raise LayoutError(f"index_symbol: size must be positive, got {size}")
        return Dyn(name, sign="nonnegative", max=size - 1)
    return Dyn(name, sign="nonnegative")


def _coord_symbol(c: Any, size: Any) -> Any:
    if isinstance(c, str):
        return index_symbol(size, c)
    if isinstance(c, bool):
        raise LayoutError(f"a coordinate must be an integer or a symbol, got {c!r}")
    if type(c) is int or isinstance(c, sympy.Expr):
        return sympy.sympify(c)
    index = getattr(c, "__index__", None)
    if index is not None:
        return sympy.Integer(int(index()))
    raise LayoutError(f"a coordinate must be an integer, a sympy expression or a name, got {c!r}")


def _is_zero(x: Any) -> bool:
    x = _as_int(x)
    if type(x) is int:
        return x == 0
    return decide.prove("==", x, 0) is True


def _mul(a: Any, b: Any) -> Any:
    r = a * b
    return _as_int(r)


# ---------------------------------------------------------------- index_expr
def _offset_1d(shape: Any, stride: Any, x: Any) -> sympy.Expr:
    """Offset of the 1-D index ``x`` (``0 <= x < size``) in the layout ``shape:stride``."""
    lay = coalesce(Layout._make(shape, stride))
    S = [_as_int(s) for s in iter_leaves(lay._shape)]
    D = [_as_int(d) for d in iter_leaves(lay._stride)]
    n = len(S)
    terms: list[Any] = []
    base = x          # base == x // P at the last computed quotient
    r: Any = 1        # product of the extents since that quotient
    for k in range(n):
        sk, dk = S[k], D[k]
        if _is_zero(dk):
            r = _mul(r, sk)
            continue
        if k == 0:
            q = x
        else:
            if _below(base, r):           # x // P_k is provably 0: so are all later ones
                break
            q = FloorDiv(base, r)
            base, r = q, 1
        c = q if k == n - 1 or _below(q, sk) else IMod(q, sk)
        terms.append(c * dk)
        r = _mul(r, sk)
    return rewrite(sympy.Add(*terms))


def index_expr(layout: Layout, *coords: Any) -> sympy.Expr:
    """The offset of ``layout`` as a simplified sympy expression.

    Without ``coords`` the argument is the 1-D index symbol ``i`` (non-negative,
    with ``max=size-1`` when the size is static: see :func:`index_symbol`).
    Otherwise ``coords`` is one coordinate or one per mode: each an integer, a
    sympy expression, a name (made a non-negative symbol bounded by its mode's
    size) or a tuple matching the mode, exactly as ``layout(*coords)`` takes
    them; an integer coordinate of a tuple mode is a 1-D index of that mode.

    @pre every coordinate is in range (``0 <= c < size(mode)``), divisors positive.
    @post substituting any in-range values gives ``layout(values)``.
    @post the formula has at most the operations of the coalesced canonical
          form ``sum_k ((x // P_k) % S_k) * D_k``: no division for the first
          mode, no modulo for the last one or where the quotient is provably
          below the extent, no term for a zero stride; quotients are chained.

    >>> from cute_sym.notation import parse
    >>> L = parse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))")
    >>> e = index_expr(L)
    >>> print(e)
    8*(((i // 4) // 8) // 2) + 32*(i % 4) + (i // 4) % 8 + 16*(((i // 4) // 8) % 2)
    >>> all(e.subs(s, v) == L(v) for s in e.free_symbols for v in range(32))
    True
    >>> print(index_expr(parse("(_4,M):(M,_1)")))
    M*(i % 4) + i // 4
    >>> print(index_expr(L, "t", "v"))
    t // 4 + 8*(v // 2) + 32*(t % 4) + 16*(v % 2)
    """
    if not isinstance(layout, Layout):
        raise LayoutError(f"index_expr takes a Layout, got {type(layout).__name__}")
    names = _symbol_names((layout._shape, layout._stride))
    if not coords:     # the index is never named like a symbol of the layout (it would capture it)
        i = "i"
        while i in names:
            i += "_"
        return _offset_1d(layout._shape, layout._stride, index_symbol(product(layout._shape), i))
    _check_capture(coords, names, "index_expr")
    c: Any = coords[0] if len(coords) == 1 else tuple(coords)
    return rewrite(sympy.sympify(_offset_crd(c, layout._shape, layout._stride)))


def _symbol_names(t: Any) -> set[str]:
    return {x.name for x in iter_leaves(t) if isinstance(x, sympy.Basic) for x in x.free_symbols}


def _check_capture(coords: Any, names: set[str], who: str) -> None:
    """A coordinate given by name must not be named like a symbol of the layout (it would stand for both)."""
    for c in iter_leaves(coords):
        if isinstance(c, str) and c in names:
            raise LayoutError(f"{who}: the coordinate name {c!r} is also a symbol of the layout; "
                              "a name must not stand for both (choose another coordinate name)")


def _offset_crd(c: Any, s: Any, d: Any) -> Any:
    if isinstance(c, tuple):
        if not isinstance(s, tuple):
            raise RankError(f"index_expr: tuple coordinate {c} for the integral mode {s}")
        if len(c) != len(s):
            raise RankError(f"index_expr: Mismatched Ranks (coordinate of rank {len(c)} for a mode of rank {len(s)})")
        return sympy.Add(*[_offset_crd(ci, si, di) for ci, si, di in zip(c, s, d)])
    x = _coord_symbol(c, product(s))
    return _offset_1d(s, d, x)


# ---------------------------------------------------------------- coord_expr
def coord_expr(shape: Any, index: Any = None) -> Any:
    """idx2crd as expressions: the natural coordinate of ``index`` in ``shape``.

    ``index`` is a 1-D index (an integer, a sympy expression, a name, or
    ``None`` for the symbol ``i`` of :func:`index_symbol`) or a tuple of them,
    one per mode. Leaf ``k`` gets ``(index // P_k) % S_k`` with the quotients
    chained; the first leaf needs no division, the last leaf (or one provably
    in range) no modulo; a static extent 1 gives ``0``.

    @pre ``0 <= index < size(shape)``.
    @post ``crd2idx(result, shape) == index`` for every in-range value.

    >>> print(coord_expr((4, (2, 3))))
    (i % 4, ((i // 4) % 2, (i // 4) // 2))
    >>> coord_expr((4, 8), 13)
    (1, 3)
    >>> print(coord_expr((4, 1, 8), "j"))
    (j % 4, 0, j // 4)
    """
    if isinstance(shape, Layout):
        shape = shape._shape
    shape = unwrap(shape)       # a parsed Tup or a list is a plain tuple here
    if isinstance(index, (tuple, list)):
        index = tuple(index)
    if isinstance(index, tuple):
        if not isinstance(shape, tuple) or len(shape) != len(index):
            raise RankError(f"coord_expr: Mismatched Ranks (index {index} for shape {shape})")
        return tuple(coord_expr(s, x) for s, x in zip(shape, index))
    names = _symbol_names(shape)
    if isinstance(index, str) and index in names:
        _check_capture((index,), names, "coord_expr")
    i = "i"
    while i in names:       # the index is never named like a symbol of the shape
        i += "_"
    x = index_symbol(product(shape), i) if index is None else _coord_symbol(index, product(shape))
    leaves = [_as_int(s) for s in iter_leaves(shape)]
    out: list[Any] = []
    base, r = x, 1
    for k, sk in enumerate(leaves):
        if type(sk) is int and sk == 1:
            out.append(sympy.S.Zero)
            continue
        if k == 0 or (type(r) is int and r == 1):
            q = base
        elif _below(base, r):
            q = sympy.S.Zero
        else:
            q = FloorDiv(base, r)
            base, r = q, 1
        last = all(type(s) is int and s == 1 for s in leaves[k + 1:])
        out.append(q if last or _below(q, sk) else IMod(q, sk))
        r = _mul(r, sk)
    it = iter(out)

    def build(s: Any) -> Any:
        if isinstance(s, tuple):
            return tuple(build(e) for e in s)
        return next(it)
    return build(shape)


# ---------------------------------------------------------------- rewriting
def rewrite(e: Any) -> Any:
    """Apply the rewrite rules of the known form, bottom-up, to a fixed point.

    * ``x % m -> x`` and ``x // m -> 0`` when ``0 <= x < m`` is proved;
    * ``(x % a) % b -> x % b`` when ``b | a``;
    * ``(x % (a*b)) // a -> (x // a) % b``;
    * ``(x // a) // b -> x // (a*b)`` for static ``a``, ``b`` when ``x // a``
      occurs nowhere else in the expression (a shared quotient stays shared).

    >>> x = Dyn("x", sign="nonnegative", max=99)
    >>> print(rewrite(IMod(x, 128) + FloorDiv(IMod(x, 64), 8) + FloorDiv(FloorDiv(x, 2), 4)))
    x + x // 8 + (x // 8) % 8
    """
    e = sympy.sympify(e)
    for _ in range(4):
        shared = _shared_quotients(e)
        new = _rw(e, shared)
        if new == e:
            return new
        e = new
    return e


def _shared_quotients(e: Any) -> set[Any]:
    counts: dict[Any, int] = {}
    for node in sympy.preorder_traversal(e):
        if isinstance(node, (FloorDiv, IMod)):
            a = node.args[0]
            if isinstance(a, FloorDiv):
                counts[a] = counts.get(a, 0) + 1
    return {k for k, v in counts.items() if v > 1}


def _rw(e: Any, shared: set[Any]) -> Any:
    if e.is_Atom:
        return e
    args = [_rw(a, shared) for a in e.args]
    if isinstance(e, (FloorDiv, IMod)):
        a, m = args
        if isinstance(e, IMod):
            if _below(a, m):
                return a
            if isinstance(a, IMod) and decide.prove("|", m, a.args[1]) is True:
                return IMod(a.args[0], m)
            return IMod(a, m)
        if _below(a, m):
            return sympy.S.Zero
        if isinstance(a, IMod) and decide.prove("|", m, a.args[1]) is True:
            inner, mod = a.args
            q = sympy.cancel(mod / m)
            return IMod(FloorDiv(inner, m), q)
        if isinstance(a, FloorDiv) and a not in shared and a.args[1].is_Integer and m.is_Integer:
            return FloorDiv(a.args[0], a.args[1] * m)
        return FloorDiv(a, m)
    if all(x is y for x, y in zip(args, e.args)):
        return e
    return e.func(*args)


def dynamic_divisors(e: Any) -> tuple[Any, ...]:
    """The divisors and moduli of ``e`` that are not static (for the emitters).

    A run-time division is far slower than a shift; emitters flag these.

    >>> from cute_sym.notation import parse
    >>> dynamic_divisors(index_expr(parse("(_4,_8):(_8,_1)")))
    ()
    >>> dynamic_divisors(index_expr(parse("(_4,M,N):(_1,_4,4*P)")))
    (4*M,)
    >>> dynamic_divisors(index_expr(parse("(M,N):(N,_1)")))
    (M,)
    """
    found: list[Any] = []
    for node in sympy.preorder_traversal(sympy.sympify(e)):
        if isinstance(node, (FloorDiv, IMod, sympy.Mod)) and not node.args[1].is_Integer:
            if node.args[1] not in found:
                found.append(node.args[1])
    return tuple(sorted(found, key=sympy.default_sort_key))


IndexLike = Union[int, sympy.Expr, str]
CoordLike = Union[IndexLike, Sequence[Any]]

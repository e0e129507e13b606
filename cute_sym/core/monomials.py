"""Monomials: products and quotients of ``c * S1**k1 * S2**k2 ...`` (``c`` rational, ``Si``
integer symbols or roundings and mins such as ``ceiling(8/S)``, ``ki`` integers), built as sympy
builds them, without its evaluation.

The symbolic algebra multiplies and divides strides and extents all the time. sympy's
``a * b`` on a pair it has not seen flattens, sorts and deduces facts: 25-200 us each,
most of a symbolic operation's time with sympy's cache cold. For monomials the result is
known from the exponents alone; :func:`mul` and :func:`div` build the very object sympy
builds (equal, the same ``args``, the same hash) in a few microseconds, and anything else
through sympy itself. A repeated question is a dict lookup (the memo plays the part of
sympy's own cache, and is cleared with it by ``decide.clear_caches(symbols=True)``).

The roundings the algebra builds (:func:`unevaluated`) and other expressions built directly
(:func:`remembered`) go through the same memo: made once, the same object again, as sympy's
cache would give it, so later memo hits keyed by them are identity hits.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:
    import sympy
else:
    from .lazy import sympy
from .lazy import is_expr

# (op, a, b) -> a product or quotient; (f, args...) -> an expression built directly; a pure
# function's answers (bounded: cleared when full)
_MEMO: dict[tuple[Any, ...], Any] = {}
_MEMO_MAX = 8192

# sympy's Basic.compare orders by class first (its table ``ordering_of_classes``, searched
# linearly on every comparison), then by content: the class's place, computed once per class
_RANK: dict[type, tuple[int, str]] = {}
_COMPARE_KEY: list[Any] = []


def mul(a: Any, b: Any) -> Any:
    """``a * b`` for integers (``int`` or sympy): two ints multiply as ints; else sympy's product,
    the same object, built directly for two monomials (any other value: its own ``*``).

    @post ``mul(a, b) == sympify(a) * b``, with the same ``args`` (same structure, same hash).

    >>> from cute_sym.core.integers import Dyn
    >>> S, T = Dyn("S"), Dyn("T")
    >>> mul(4, 6), mul(S, T), mul(S / 8, 2 * S * T)
    (24, S*T, S**2*T/4)
    """
    if type(a) is int and type(b) is int:
        return a * b
    return _op(0, a, b)


def div(a: Any, b: Any) -> Any:
    """``a / b`` for integers (``int`` or sympy, ``b != 0``) as sympy divides (an exact rational
    formula, not rounded); built directly for two monomials.

    @pre ``b != 0``.
    @post ``div(a, b) == sympify(a) / b``, with the same ``args``.

    >>> from cute_sym.core.integers import Dyn
    >>> S, T = Dyn("S"), Dyn("T")
    >>> div(S * T, 8), div(8 * S * T, S), div(3, 6 * S), div(S, S)
    (S*T/8, 8*T, 1/(2*S), 1)
    """
    return _op(1, a, b)


def _op(op: int, a: Any, b: Any) -> Any:
    if not ((type(a) is int or is_expr(a)) and (type(b) is int or is_expr(b))):
        return a * b if op == 0 else a / b       # another kind of value (a scaled basis): its own operator
    key = (op, a, b)
    r = _MEMO.get(key)
    if r is None:
        r = _build(op, a, b)
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        _MEMO[key] = r
    return r


def _build(op: int, a: Any, b: Any) -> Any:
    pa = monomial_parts(a)
    pb = monomial_parts(b) if pa is not None else None
    if pa is None or pb is None:
        sa = sympy.sympify(a)
        return sa * b if op == 0 else sa / b
    (na, da, ea), (nb, db, eb) = pa, pb
    if op == 0:
        num, den = na * nb, da * db
    else:
        if nb == 0:
            return sympy.sympify(a) / b         # sympy's zoo / nan, as it gives them
        num, den = na * db, da * nb
    if num == 0:
        return sympy.S.Zero
    powers = dict(ea)
    for s, k in eb.items():
        powers[s] = powers.get(s, 0) + (k if op == 0 else -k)
    factors = [s if k == 1 else _power(s, k) for s, k in powers.items() if k]
    coeff = sympy.Rational(num, den)
    if not factors:
        return coeff
    if len(factors) > 1:
        _sort(factors)      # the canonical order of a product's factors, as Mul.flatten sorts them
    if coeff == 1:
        return factors[0] if len(factors) == 1 else sympy.Mul._from_args(factors)
    return sympy.Mul._from_args([coeff, *factors])


def _power(s: Any, k: int) -> Any:
    """``Pow(s, k, evaluate=False)`` for an integer symbol or a rounding or min ``s`` (a
    monomial's factor): the object sympy's constructor builds (its commutativity from the base's,
    the exponent being an integer), without the constructor's cached lookups (7 us cold)."""
    obj = sympy.Expr.__new__(sympy.Pow, s, sympy.Integer(k))
    obj.is_commutative = s.is_commutative
    return obj


def remembered(key: tuple[Any, ...], build: Callable[[], Any]) -> Any:
    """The object ``build()`` makes for ``key``, made once (the memo that stands for sympy's
    cache): an expression built again is the same object, so later memo hits keyed by it are
    identity hits. ``key`` holds what ``build`` depends on."""
    obj = _MEMO.get(key)
    if obj is None:
        obj = build()
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        _MEMO[key] = obj
    return obj


def unevaluated(f: Any, q: Any) -> Any:
    """``f(q, evaluate=False)`` for ``f`` sympy's ``ceiling`` or ``floor``, built as sympy builds it
    (its class, its argument, the ``nargs`` sympy gives every application) without the
    constructor's other work, a set built and sorted per new object (15 us with sympy's cache
    cold). Any other ``f``: sympy's own call.

    @post ``unevaluated(f, q) == f(q, evaluate=False)``, with the same ``args``, hash and ``nargs``.

    >>> from cute_sym.core.integers import Dyn
    >>> S = sympy.sympify(Dyn("S"))
    >>> unevaluated(sympy.ceiling, S / 8), unevaluated(sympy.floor, 8 / S) == sympy.floor(8 / S, evaluate=False)
    (ceiling(S/8), True)
    """
    if f is not sympy.ceiling and f is not sympy.floor:
        return f(q, evaluate=False)
    return remembered((f, q), lambda: _rounding(f, q))


def _rounding(f: Any, q: Any) -> Any:
    if not _ONE_ARG:
        _ONE_ARG.append(sympy.FiniteSet(1))     # what sympy sets on each application of a 1-ary function
    obj = sympy.Basic.__new__(f, sympy.sympify(q))
    obj.nargs = _ONE_ARG[0]
    return obj


_ONE_ARG: list[Any] = []


def _sort(factors: list[Any]) -> None:
    """Sort in place as ``sympy.core.mul._mulsort`` does (by ``Basic.compare``): by the class's
    place in sympy's table (an unknown class after every known one, by name), then, within a
    class name, by ``Basic.compare`` itself. The same total order, so the same result."""
    if not _COMPARE_KEY:
        from functools import cmp_to_key
        _COMPARE_KEY.append(cmp_to_key(sympy.Basic.compare))
    key = _COMPARE_KEY[0]
    factors.sort(key=lambda f: (_RANK.get(type(f)) or _rank(type(f)), key(f)))


def _rank(cls: type) -> tuple[int, str]:
    from sympy.core.basic import ordering_of_classes
    name = cls.__name__
    try:
        r = (ordering_of_classes.index(name), "")
    except ValueError:
        r = (len(ordering_of_classes) + 1, name)
    _RANK[cls] = r
    return r


def monomial_parts(e: Any) -> Optional[tuple[int, int, dict[Any, int]]]:
    """``e`` as ``(num, den, {factor: exponent})`` for ``e = num/den * prod(factor**exponent)``
    (the factors integer commutative symbols or roundings and mins, integer exponents,
    ``den > 0``); None for any other shape."""
    if type(e) is int:
        return e, 1, {}
    if e.is_Symbol:
        return (1, 1, {e: 1}) if e.is_integer and e.is_commutative else None
    if e.func in _GENERATOR_FUNCS:
        return 1, 1, {e: 1}
    if e.is_Rational:
        return int(e.p), int(e.q), {}
    if e.is_Pow:
        s, k = e.args
        return (1, 1, {s: int(k)}) if _is_int_symbol(s) and k.is_Integer else None
    if not e.is_Mul:
        return None
    num = den = 1
    powers: dict[Any, int] = {}
    for f in e.args:
        if f.is_Rational:
            num, den = int(f.p), int(f.q)
        elif f.is_Symbol:
            if not (f.is_integer and f.is_commutative):
                return None
            powers[f] = 1
        elif f.func in _GENERATOR_FUNCS:
            powers[f] = 1
        elif f.is_Pow and f.args[1].is_Integer and _is_int_symbol(f.args[0]):
            powers[f.args[0]] = int(f.args[1])
        else:
            return None
    return num, den, powers


def _is_int_symbol(s: Any) -> bool:
    """An integer symbol, or a rounding or min/max the algebra builds: a factor sympy's product
    keeps as it is (no evaluation of its own against numbers or powers)."""
    return bool(s.is_Symbol and s.is_integer and s.is_commutative) or s.func in _GENERATOR_FUNCS


class _Funcs:
    """The set of opaque factors' functions, filled on first use (sympy is imported lazily)."""
    __slots__ = ("funcs",)

    def __init__(self) -> None:
        self.funcs: Optional[frozenset[Any]] = None

    def __contains__(self, f: Any) -> bool:
        if self.funcs is None:
            self.funcs = frozenset((sympy.ceiling, sympy.floor, sympy.Min, sympy.Max))
        return f in self.funcs


_GENERATOR_FUNCS = _Funcs()


def clear() -> None:
    """Forget the memoised products (for cold-start measurements)."""
    _MEMO.clear()

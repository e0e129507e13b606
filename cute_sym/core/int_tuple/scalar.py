"""Integer arithmetic as CuTe does it (C's truncating division), static or symbolic."""
from __future__ import annotations


from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from .. import decide
from ..lazy import is_expr
from ..decide.expansion import expand
from ..decide.rounding import rounded
from ..decide.values import value_set
from ..errors import DivisibilityError
from ..integers import PLAIN_ASSUMPTIONS, IntLike, scaled_symbol, symbol_facts
from ..monomials import div, monomial_parts, remembered, unevaluated
from .types import norm


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
    >>> from cute_sym.core.integers import Dyn
    >>> m = 4 / sympy.Min(4, sympy.sympify(Dyn("S")) / 2)
    >>> cdiv(m, m)
    1
    """
    if type(b) is int and b == 1:
        return a
    if type(a) is int and type(b) is int:
        if b == 0:
            raise DivisibilityError("division by zero")
        if (a >= 0) == (b > 0):
            return a // b if a >= 0 else (-a) // (-b)
        return -((-a) // b) if a < 0 else -(a // (-b))
    if type(a) is not int and type(b) is not int:
        if a == b and decide.positive_by_shape(b):
            return norm(sympy.S.One)        # a formula over itself (a rest extent used up)
        q = _int_quotient(a, b)
        if q is not None:
            return q
    elif type(a) is int and a >= 1:
        k, x = scaled_symbol(b)
        if x is not None and _unbounded(x, 1):
            d, lo, _ = symbol_facts(x)
            if lo is not None and k * (-(-lo // d) * d) > a:      # (_unbounded: lo >= 1)
                return norm(sympy.S.Zero)   # every value of b is above a: 0, as _pinned gives it
            # a positive b, unbounded above, does not divide a at large values: floor(a/b),
            # pinned where the bounds allow, as the steps below would give it
            return _pinned(_rounded(sympy.floor, div(a, b)))
    # (a formula positive by its structure, the usual divisor, is no 0: no question)
    if not (type(b) is not int and decide.positive_by_shape(b)) and \
            decide.require("==", b, 0, assume=False, why="division"):
        raise DivisibilityError(f"division by zero: {b} == 0")
    if decide.prove("|", b, a):
        sb = sympy.sympify(b)
        if sb.is_Number and type(a) is not int and _symbol_monomial(a) or \
                not (decide.is_polynomial(sympy.sympify(a)) and decide.is_polynomial(sb)) or decide.is_big(a, sb):
            # a product of symbols over a number is already in canonical form; otherwise exact:
            # cancel() over floors and mins costs seconds and gains little
            return norm(div(a, sb))
        if sb.is_Number or sb.is_Symbol or (sb.is_Mul and not any(f.is_Add for f in sb.args)):
            return norm(expand(sympy.sympify(a) / sb))     # a monomial divisor: no cancel needed
        return norm(sympy.cancel(sympy.sympify(a) / sb))
    a_nonneg = decide.prove(">=", a, 0)
    b_pos = decide.prove(">", b, 0)
    if a_nonneg and b_pos:
        return _pinned(_rounded(sympy.floor, div(a, b)))
    if a_nonneg is None or b_pos is None:
        # the sign decides the rounding direction
        if a_nonneg is None:
            decide.require(">=", a, 0, why="truncating division")
        if b_pos is None:
            decide.require(">", b, 0, why="truncating division")
        return cdiv(a, b)
    # at least one negative: truncation toward zero
    q = rounded(sympy.floor, sabs(a) / sympy.sympify(sabs(b)))
    return norm(q if (a_nonneg == b_pos) else -q)


def _int_quotient(a: Any, b: Any, ceil: bool = False) -> Optional[IntLike]:
    """``a / b`` where sympy's own cancellation leaves an integer monomial (``8*S / S`` is 8,
    ``S*T / S`` is T): then ``b | a`` and that is the exact quotient; None otherwise. With
    ``ceil``, a positive constant ratio (``3*S / 5*S``) gives its ceiling.

    @post a result ``q`` has ``q * b == a`` and is an integer at every value of the symbols.

    >>> from cute_sym.core.integers import Dyn
    >>> S, T = Dyn("S"), Dyn("T")
    >>> _int_quotient(8 * S * T, S), _int_quotient(S, 2 * S), _int_quotient(S, T) is None
    (8*T, None, True)
    >>> _int_quotient(S * T / 16, S / 16), _int_quotient(3 * S, 5 * S, ceil=True)
    (T, 1)
    """
    # b != 0 from its factors' own assumptions (no query): positive symbols and numbers
    if b.is_Symbol:
        if not b.is_positive:
            return None
    elif b.is_Mul:
        for f in b.args:
            if not ((f.is_Symbol or f.is_Rational) and f.is_positive):
                return None
    else:
        return None
    q = div(a, b)
    if q.is_Integer:
        return norm(q)
    if ceil and q.is_Rational and q.p > 0:
        return norm(sympy.Integer(-(-q.p // q.q)))     # a constant ratio: its ceiling, at every value
    if q.is_Symbol:
        return q if q.is_integer else None
    if not q.is_Mul:
        return None
    for f in q.args:
        if f.is_Integer or f.is_Symbol and f.is_integer or \
                f.is_Pow and f.base.is_Symbol and f.base.is_integer and f.exp.is_Integer and f.exp.p > 0:
            continue
        return None
    return norm(q)


def whole_multiple(a: IntLike, b: IntLike) -> Optional[IntLike]:
    """``a / b`` for formulas ``a``, ``b`` (``b`` positive by its structure) whose quotient ``q`` is
    an integer at every value and positive, read off its structure: a positive integer times
    positive integer symbols and roundings or mins (``8*T``, ``S*T``), over at most one rounding
    or min every value of which divides what the numerator's factors are multiples of
    (``S1*S2/ceil_div(8,S0)`` with ``S1*S2`` a multiple of 6 and ``ceil_div(8,S0)`` in {1, 2}).
    Then ``b | a`` and ``b <= a`` (a positive integer is at least 1). None otherwise (not known
    this way).

    @post a result ``q`` has ``q * b == a`` and ``q >= 1`` at every value of the symbols.

    >>> from cute_sym.core.integers import Dyn
    >>> S, T = Dyn("S", divisible_by=32), Dyn("T")
    >>> whole_multiple(S * T / 16, S / 16), whole_multiple(S / 16, S * T / 16) is None
    (T, True)
    """
    if type(a) is int or type(b) is int or not decide.positive_by_shape(b):
        return None
    q = div(a, b)
    parts = monomial_parts(q)
    if parts is None:
        return None
    num, den, powers = parts
    if den != 1 or num < 1:
        return None
    multiple = num      # every value of the numerator is a multiple of this
    below: Any = None   # the one factor below the line, and its power
    for f, k in powers.items():
        if k > 0:
            # a positive integer symbol, or a rounding or min that is a positive integer
            if not (f.is_positive if f.is_Symbol else decide.positive_by_shape(f) and decide.integer_valued(f)):
                return None
            if f.is_Symbol:
                multiple *= symbol_facts(f)[0] ** k
        elif below is not None or f.is_Symbol:
            return None     # a symbol below the line takes values that divide nothing fixed
        else:
            below = (f, -k)
    if below is None:
        return norm(q)
    f, k = below
    if not (decide.positive_by_shape(f) and decide.integer_valued(f)):
        return None
    vals = value_set(f)     # (every value of f is among these integers)
    if vals is None or any(multiple % (v ** k) for v in vals[0]):
        return None
    return norm(q)


def _symbol_monomial(a: Any) -> bool:
    """``c * s1**k1 * ...``: symbols and numbers only (``expand`` would not change it)."""
    if a.is_Symbol:
        return True
    if not a.is_Mul:
        return False
    for f in a.args:
        if not (f.is_Symbol or f.is_Number or (f.is_Pow and f.base.is_Symbol and f.exp.is_Integer)):
            return False
    return True


def cmod(a: IntLike, b: IntLike) -> IntLike:
    """``a % b`` for a non-negative ``a`` and positive ``b`` (coordinates); C's
    remainder (the sign of ``a``) for a static negative ``a``, as CuTe computes ``L(-1)``.

    @post ``result == a % b`` at every value (C's remainder for a static negative ``a``); a
          remainder of a remainder by a multiple of ``b`` is one remainder.

    >>> cmod(7, 4), cmod(-1, 4), cmod(-5, 4)
    (3, -1, -1)
    >>> from cute_sym.core.integers import Dyn
    >>> T = Dyn("T")
    >>> cmod(cmod(T, 32), 4), cmod(cmod(T, 4), 32), cmod(cmod(T, 32), 3)
    (T % 4, T % 4, (T % 32) % 3)
    """
    if type(a) is int and type(b) is int:
        return a % b if a >= 0 or b <= 0 else -((-a) % b)
    if decide.prove("|", b, a):
        return 0
    if decide.prove("<", a, b) and decide.prove(">=", a, 0):
        return a
    from ..symbolic import IMod
    if type(b) is int and isinstance(a, IMod) and a.args[1].is_Integer and int(a.args[1]) % b == 0:
        return norm(IMod(a.args[0], b))     # (x % (k*b)) % b == x % b (x >= 0)
    return norm(IMod(a, b))


def smin(a: IntLike, b: IntLike) -> IntLike:
    if type(a) is int and type(b) is int:
        return a if a <= b else b
    return _pick("<=", a, b, sympy.Min)


def smax(a: IntLike, b: IntLike) -> IntLike:
    if type(a) is int and type(b) is int:
        return a if a >= b else b
    return _pick(">=", a, b, sympy.Max)


def _pick(rel: decide.Rel, a: IntLike, b: IntLike, f: Any) -> IntLike:
    """``a`` where ``a rel b`` at every value, ``b`` where ``b rel a`` (or ``a rel b`` is refuted);
    else ``f(a, b)`` (sympy's Min or Max) unevaluated: the order is undecided, no sympy search."""
    if type(a) is not int and type(b) is not int:
        # two formulas: the bounds first, both ways. One side below the other at every value by
        # the intervals alone skips a full question the other way round (b rel a everywhere: b,
        # even where a == b). A number against a formula has quicker exact paths in prove.
        quick = decide.by_bounds(rel, a, b)
        if quick is not None:
            return a if quick else b
        if decide.by_bounds(rel, b, a):
            return b
    first = decide.prove(rel, a, b)
    if first is not None:
        return a if first else b        # refuted: the other order at every value
    if decide.prove(rel, b, a):
        return b
    return _minmax(f, a, b)


def _minmax(f: Any, a: IntLike, b: IntLike) -> Any:
    """``f(a, b, evaluate=False)`` (``f`` sympy's Min or Max), built as sympy builds it; a number
    and a formula directly (the number sorts first), as sympy's sort would put them, without its
    sort keys (which cost ten times the rest).

    >>> from cute_sym.core.integers import Dyn
    >>> S = Dyn("S")
    >>> m = _minmax(sympy.Min, S / 4, 8)
    >>> m, m == sympy.Min(S / 4, 8, evaluate=False)
    (Min(8, S/4), True)
    """
    sa, sb = sympy.sympify(a), sympy.sympify(b)
    if sa.is_Number != sb.is_Number and sa != sb:
        args = (sa, sb) if sa.is_Number else (sb, sa)
        return remembered((f, *args), lambda: _minmax_of(f, args))
    return f(sa, sb, evaluate=False)


def _minmax_of(f: Any, args: tuple[Any, Any]) -> Any:
    obj = sympy.Expr.__new__(f, *args)
    obj._argset = frozenset(args)
    return obj


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
        return norm(rounded(sympy.ceiling, sympy.sympify(a) / b))
    if decide.require("|", b, a, why=f"shape_div({a}, {b}) (or {a} | {b})"):
        return cdiv(a, b)
    raise DivisibilityError(f"shape_div failure: neither {a} nor {b} divides the other")  # pragma: no cover


def _ceil_div1(a: IntLike, b: IntLike) -> IntLike:
    if type(a) is int and type(b) is int:
        return cdiv(a + b - 1, b)
    # a dynamic number (a pinned ceil_div, such as the 1 a fold carries): its int, the result
    # dynamic as before (two numbers: the int answer as a dynamic number)
    # (getattr: a sympy integer's flag; an int has none, and is_expr costs a call)
    if getattr(b, "is_Integer", False):
        if type(a) is int or getattr(a, "is_Integer", False):
            return norm(sympy.Integer(cdiv(int(a) + int(b) - 1, int(b))))
        b = int(b)
    elif getattr(a, "is_Integer", False):
        if type(b) is int:
            return norm(sympy.Integer(cdiv(int(a) + b - 1, b)))
        a = int(a)      # b is a formula: so is the result
    if type(b) is int and b == 1:
        return a
    # the quick answers, read off a symbol's facts (the answers the general path gives)
    if type(b) is int:
        if b > 0:
            k, x = scaled_symbol(a)
            if x is not None and (k * symbol_facts(x)[0]) % b == 0:
                return norm(div(a, b))       # b divides k times the symbol's divisor: exact
    elif type(a) is int and a >= 1:
        lo, hi = decide.bounds(b)
        if lo is not None and (lo > a or lo == a and (hi is None or hi > lo)):
            # every value of b is at least a (and b is not pinned to a): ceil(a/b) is 1
            return norm(sympy.S.One)
    # a formula (a number on the other side is an int now): its answer again, or the steps
    memo = decide.answers()
    if memo is None:
        return _ceil_div_formula(a, b)
    key = ("ceil_div", a, b)
    r = memo.get(key)
    if r is None:
        r = memo[key] = _ceil_div_formula(a, b)
    return r


def _ceil_div_formula(a: IntLike, b: IntLike) -> IntLike:
    """ceil_div of a formula and a formula or int (numbers as ints).

    @pre the quick answers of :func:`_ceil_div1` did not apply: ``b`` an int does not divide ``k``
         times the divisor of ``a = k*S``; ``a`` an int is not below every value of ``b``.
    """
    # the usual cases of a fold, read off a symbol's facts (the answers the general path gives)
    sa: Any = a
    sb: Any = b
    if type(b) is int and b > 0:
        k, x = scaled_symbol(sa)
        if x is not None and _unbounded(x, 0):
            # b does not divide every value (@pre), none is negative, and the ceiling takes
            # every value from its least on: the formula, as the steps below would give it
            return norm(_rounded(sympy.ceiling, div(sa, b)))
    elif type(a) is int and a >= 1:
        # (some value of b is at most a, or b is pinned to a: @pre)
        x = scaled_symbol(sb)[1]
        if x is not None and _unbounded(x, 1):
            # a positive b, unbounded above, does not divide a at large values, and is below a
            # at its least (@pre): ceil(a/b) takes more than one value, the formula
            return norm(_rounded(sympy.ceiling, div(a, sb)))
    elif type(a) is not int and type(b) is not int:
        q = _int_quotient(sa, sb, True)
        if q is not None:
            return q
        r = _ceil_div_values(sa, sb)
        if r is not None:
            return r
    if decide.prove("|", b, a):
        return cdiv(a, b)
    if decide.prove(">", b, 0) and decide.prove(">=", a, 0):
        q = _rounded(sympy.ceiling, div(a, b))
        # a number over k*S, S unbounded above, not pinned to 1 (@pre), takes more
        # than one value (1 for large b): no bounds to compute
        if type(a) is int:
            x = scaled_symbol(sb)[1]
            if x is not None and symbol_facts(x)[2] is None:
                return norm(q)
        return _pinned(q)
    return cdiv(sympy.sympify(a) + b - 1, b)


def _ceil_div_values(a: Any, b: Any) -> Optional[IntLike]:
    """``ceil_div(a, b)`` read off the values of ``b`` (a formula of a few values, such as
    ``ceiling(32/S)``), as the general steps would give it: 1 where ``1 <= a <= b`` at every
    value; the formula ``ceiling(a/b)`` for ``a = k*T`` (``T`` unbounded, not in ``b``) where
    some value of ``b`` does not divide ``k`` times ``T``'s divisor (so not every value of
    ``a``); the exact quotient ``a/b`` where every value does (``b`` a rounding or min, not a
    polynomial); None otherwise."""
    if not decide.unconditional():
        return None
    lo_b = decide.bounds(b)[0]
    if lo_b is None or lo_b < 1:
        return None
    lo_a, hi_a = decide.bounds(a)
    if lo_a is not None and lo_a >= 1 and hi_a is not None and hi_a <= lo_b:
        return norm(sympy.S.One)
    k, x = scaled_symbol(a)
    if x is None or not _unbounded(x, 0) or decide.mentions(b, x):
        return None
    vals = value_set(b)
    if vals is None or not vals[1]:
        return None
    kd = k * symbol_facts(x)[0]
    if all(kd % v == 0 for v in vals[0]):
        # b divides a at every value: the exact quotient, as cdiv's steps build it for a b that is
        # no polynomial (a rounding, a min), without asking their questions again
        return None if decide.is_polynomial(b) else norm(div(a, b))
    q = div(a, b)
    # not an integer (a value of b does not divide a), one term: sympy's evaluation would only
    # ask its assumption system that (milliseconds on a fresh formula) and build this
    return norm(unevaluated(sympy.ceiling, q) if q.is_Mul else _rounded(sympy.ceiling, q))


def _unbounded(x: Any, least: int) -> bool:
    """A symbol whose values are every multiple of its divisor from a least one ``>= least`` on
    (no upper bound, no other assumption, no fact in force about it)."""
    if not _plain_symbol(x) or not decide.unconditional():
        return False
    _, lo, hi = symbol_facts(x)
    return hi is None and lo is not None and lo >= least


def _rounded(f: Any, q: Any) -> Any:
    """``f(q)`` (sympy's floor or ceiling). For ``q`` = ``S/c`` or ``c/S`` (a symbol with no
    assumption beyond integer and sign) sympy's evaluation would leave it as it is, after
    assumption queries that cost milliseconds on a fresh expression: built unevaluated; any
    other ``q`` by :func:`~cute_sym.core.decide.rounding.rounded`.

    >>> from cute_sym.core.integers import Dyn
    >>> S = Dyn("S", divisible_by=4)
    >>> _rounded(sympy.ceiling, S / 8) == sympy.ceiling(S / 8), _rounded(sympy.floor, 8 / S)
    (True, floor(8/S))
    >>> _rounded(sympy.floor, 1 / S) == sympy.floor(1 / S), _rounded(sympy.ceiling, 1 / S)
    (True, 1)
    """
    if q.is_Pow and q.exp == -1 and _plain_symbol(q.base) and q.base.is_positive:
        if f is sympy.ceiling:
            return sympy.S.One      # 0 < 1/S <= 1 (sympy's own answer, without its queries)
        return unevaluated(f, q)        # floor(1/S): 1 at S = 1, else 0 (sympy leaves it as it is)
    if q.is_Mul and len(q.args) == 2:
        k, x = q.args
        if k.is_Integer and k.p >= 2 and x.is_Pow and x.exp == -1:
            x = x.base      # c/S, c >= 2 (sympy settles 1/(2*S) by its bounds: not this shape)
        elif not (k.is_Rational and not k.is_Integer and k.p > 0):
            return rounded(f, q)    # S/c and 3*S/8 here; an integer multiple is itself
        if _plain_symbol(x):
            return unevaluated(f, q)
    return rounded(f, q)


def _plain_symbol(x: Any) -> bool:
    """A symbol with no assumption beyond integer and sign (none makes ``S/c`` an integer)."""
    return bool(x.is_Symbol) and PLAIN_ASSUMPTIONS.issuperset(getattr(x, "_assumptions_orig", ("?",)))


def _pinned(q: Any) -> IntLike:
    """A floor or ceiling the symbols' facts pin to one value (``ceil_div(16, S)`` for a
    multiple ``S`` of 32 is 1) as that value, dynamic; else the formula.

    @post equal to ``q`` at every value of the symbols their facts allow.
    """
    if q.is_Integer:
        return norm(q)
    lo, hi = decide.bounds(q)
    if lo is not None and lo == hi:
        return norm(sympy.Integer(lo))     # a known value, still dynamic (as CuTe computes it)
    return norm(q)


# ---------------------------------------------------------------- structure

"""core.monomials: mul and div build the very object sympy's own arithmetic builds."""
from __future__ import annotations

import itertools

import sympy
from hypothesis import given, strategies as st

from cute_sym import Dyn
from cute_sym.core import monomials
from cute_sym.core.monomials import div, mul

SYMS = [sympy.sympify(Dyn("S", divisible_by=4)), sympy.sympify(Dyn("T")), sympy.sympify(Dyn("U", divisible_by=2)),
        sympy.Symbol("k", integer=True, positive=True), sympy.Symbol("x")]


def _same(r: object, want: object) -> None:
    """Equal, and the same object as far as sympy can tell (args, hash, srepr); ints stay ints."""
    assert type(r) is type(want) or (isinstance(r, sympy.Basic) and isinstance(want, sympy.Basic)), (r, want)
    assert r == want, (r, want)
    if isinstance(want, sympy.Basic):
        assert isinstance(r, sympy.Basic)
        assert r.args == want.args and hash(r) == hash(want) and sympy.srepr(r) == sympy.srepr(want), (r, want)
        assert r.func == want.func

FUNCS = [sympy.ceiling(8 / SYMS[0]), sympy.ceiling(SYMS[0] / 8), sympy.floor(SYMS[1] / 3),
         sympy.Min(4, SYMS[0] / 2), sympy.Max(SYMS[1], SYMS[2]), sympy.Min(SYMS[1], 2 * SYMS[0])]


@st.composite
def _monomial(draw: st.DrawFn) -> object:
    num = draw(st.integers(-6, 12))
    den = draw(st.sampled_from([1, 1, 2, 3, 8]))
    e: object = sympy.Rational(num, den) if (den != 1 or draw(st.booleans())) else num
    for s in draw(st.lists(st.sampled_from(SYMS), max_size=3)):
        e = e * s ** draw(st.sampled_from([1, 1, 2, -1, -2]))     # type: ignore[operator]
    if draw(st.booleans()):
        e = e + draw(st.sampled_from(SYMS))                           # type: ignore[operator]
    if draw(st.integers(0, 5)) == 0:
        e = sympy.ceiling(sympy.sympify(e) / 3)
    for f in draw(st.lists(st.sampled_from(FUNCS), max_size=2)):
        e = e * f ** draw(st.sampled_from([1, 1, 2, -1]))              # type: ignore[operator]
    return e


@given(_monomial(), _monomial())
def test_prop_mul_div_are_sympys(a: object, b: object) -> None:
    monomials.clear()
    _same(mul(a, b), sympy.sympify(a) * b if not (type(a) is int and type(b) is int) else a * b)  # type: ignore[operator]
    if b != 0:
        _same(div(a, b), sympy.sympify(a) / b)                      # type: ignore[operator]
        _same(div(a, b), sympy.sympify(a) / b)                      # a memo hit: the same answer


def test_exhaustive_small_monomials() -> None:
    S, T, U = SYMS[:3]
    forms = [1, 2, -3, sympy.Integer(4), sympy.Rational(1, 8), S, T, 2 * S, S * T, S / 8, S ** 2 * T / 4, 1 / S,
             3 / (2 * S * T), U * S, S ** -2 * U, *FUNCS, S * T * FUNCS[1] / FUNCS[0], 4 / FUNCS[3]]
    for a, b in itertools.product(forms, repeat=2):
        _same(mul(a, b), a * b if type(a) is int and type(b) is int else sympy.sympify(a) * b)
        _same(div(a, b), sympy.sympify(a) / b)


def test_ints_stay_static() -> None:
    assert type(mul(4, 6)) is int and type(mul(sympy.Integer(4), 6)) is not int


def test_mul_by_a_number_is_sympys_product() -> None:
    """``mul(k, s)`` (built without sympy's evaluation) is the very object ``k * s`` gives, for
    symbols of every kind the package makes, and behaves the same afterwards."""
    syms = [sympy.sympify(Dyn("M")), sympy.sympify(Dyn("K", divisible_by=8, max=64)),
            sympy.sympify(Dyn("T", sign="nonnegative")), sympy.sympify(Dyn("U", sign="any")),
            sympy.Symbol("E", integer=True, even=True), sympy.Symbol("x")]
    for s in syms:
        for k in (-7, -1, 2, 3, 16, 4096):
            got, want = mul(k, s), k * s
            assert got == want and hash(got) == hash(want) and got.args == want.args
            assert sympy.srepr(got) == sympy.srepr(want) and str(got) == str(want)
            assert got.is_integer == want.is_integer and got.is_positive == want.is_positive
            assert got * 3 == want * 3 and got / k == s and (got + s) == (want + s)


def test_div_of_a_number_and_a_scaled_symbol_is_sympys_division() -> None:
    """``div(a, b)`` (a number and a scaled symbol, built without sympy's evaluation) is the very
    object ``a / b`` gives, and behaves the same afterwards."""
    syms = [sympy.sympify(Dyn("M")), sympy.sympify(Dyn("K", divisible_by=8, max=64)),
            sympy.sympify(Dyn("U", sign="any")), sympy.Symbol("E", integer=True, even=True)]
    for s in syms:
        for k in (1, 2, 3, 16):
            for c in (-6, -1, 1, 2, 3, 8, 16, 48):
                for a, b in ((k * s, c), (c, k * s)):
                    got, want = div(a, b), sympy.sympify(a) / b
                    assert got == want and hash(got) == hash(want) and sympy.srepr(got) == sympy.srepr(want)
                    assert str(got) == str(want) and got.is_integer == want.is_integer
                    assert sympy.ceiling(got) == sympy.ceiling(want) and got * b == want * b


def test_unevaluated_rounding_is_sympys() -> None:
    """monomials.unevaluated builds ceiling/floor as sympy's constructor does with evaluate=False:
    equal, same args, hash, srepr, nargs and facts, for the formulas the algebra rounds."""
    from sympy.core.cache import clear_cache
    from cute_sym.core.monomials import unevaluated
    S, T = SYMS[0], SYMS[1]
    qs = [S / 8, 8 / S, 1 / S, 3 * S / 8, S * T / 16, 32 / (S * T), S / FUNCS[0], FUNCS[1] / 3, sympy.Rational(7, 2)]
    for f in (sympy.ceiling, sympy.floor):
        for q in qs:
            clear_cache()       # a fresh object from sympy too
            monomials.clear()
            want = f(q, evaluate=False)
            got = unevaluated(f, q)
            _same(got, want)
            assert got.nargs == want.nargs and got.is_integer == want.is_integer
            assert got.is_nonnegative == want.is_nonnegative and got.is_positive == want.is_positive
            assert unevaluated(f, q) is got         # asked again: the same object (a memo hit)


def test_powers_built_as_sympy_builds_them() -> None:
    """The powers inside mul/div results carry the facts sympy's own Pow gives them."""
    from sympy.core.cache import clear_cache
    from cute_sym.core.monomials import _power
    for base in [*SYMS[:4], *FUNCS]:
        for k in (-3, -2, -1, 2, 3):
            clear_cache()
            want = sympy.Pow(base, sympy.Integer(k), evaluate=False)
            got = _power(base, k)
            _same(got, want)
            for fact in ("commutative", "integer", "positive", "nonnegative", "rational", "finite"):
                assert getattr(got, "is_" + fact) == getattr(want, "is_" + fact), (base, k, fact)

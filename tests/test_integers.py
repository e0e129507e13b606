"""Static and dynamic integers (issue 2, item 3)."""
from __future__ import annotations

import operator

import pytest
import sympy
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym import Dyn, Int, is_static
from cute_sym.core.integers import StaticInt


def test_int_is_a_plain_static_int() -> None:
    x = Int[4]      # an int that prints as CuTe prints Int<4>{}: _4
    assert isinstance(x, int) and x == 4 and is_static(x) and str(x) == repr(x) == "_4"
    assert type(Int[4] * Int[8]) is StaticInt and Int[4] * Int[8] == 32 and str(Int[4] * Int[8]) == "_32"
    assert Int[4] + 3 == 7 and is_static(Int[4] + 3)


def test_int_refuses_non_ints() -> None:
    for bad in ("4", 4.0, None):
        with pytest.raises(cs.LayoutError, match="int"):
            Int[bad]  # type: ignore[index]


def test_static_mixed_with_dynamic_is_a_formula() -> None:
    M = Dyn("M")
    e = Int[4] * M
    assert isinstance(e, sympy.Expr) and not is_static(e)
    assert e == 4 * M
    for v in (1, 3, 17):
        assert int(e.subs(M, v)) == 4 * v


def test_dyn_symbol_facts() -> None:
    M = Dyn("M")
    assert M.is_integer and M.is_positive
    c = Dyn("c", sign="nonnegative")
    assert c.is_nonnegative and c.is_positive is None
    d = Dyn("d", sign="any")
    assert d.is_integer and d.is_positive is None
    K = Dyn("K", divisible_by=16, min=32, max=1024)
    assert (K.divisor, K.lo, K.hi) == (16, 32, 1024)
    assert cs.prove("|", 16, K) is True
    assert cs.prove(">=", K, 32) is True and cs.prove("<=", K, 1024) is True


@pytest.mark.parametrize("kw", [dict(divisible_by=0), dict(divisible_by=-2), dict(min=5, max=4), dict(sign="weird")])
def test_dyn_rejects_bad_facts(kw: dict[str, object]) -> None:
    with pytest.raises(cs.LayoutError) as ei:
        Dyn("M", **kw)  # type: ignore[arg-type]
    assert str(ei.value)


def test_is_static_on_structures() -> None:
    M = Dyn("M")
    assert is_static((4, (2, 8))) and not is_static((4, (M, 8)))
    assert is_static(cs.make_layout((4, 8))) and not is_static(cs.make_layout((4, M)))
    assert not is_static(M + 1)


def test_results_print_cute_notation() -> None:
    s = cs.size(cs.parse("(_4,_8):(_1,_4)"))
    assert str(s) == "_32" and s == 32
    t = cs.shape_div((12, 8), 6)
    assert str(t) == "(_2,_8)" and t == (2, 8)


def test_bool_and_float_leaves_are_refused() -> None:
    with pytest.raises(cs.LayoutError):
        cs.make_layout((True, 4))
    with pytest.raises(cs.LayoutError):
        cs.make_layout((4.5, 4))


OPS = [operator.add, operator.sub, operator.mul]


@given(st.integers(-1000, 1000), st.integers(-1000, 1000), st.sampled_from(OPS))
def test_prop_static_arithmetic_is_int_arithmetic(a: int, b: int, op: object) -> None:
    r = op(Int[a], Int[b])  # type: ignore[operator]
    assert type(r) is StaticInt and r == op(a, b)  # type: ignore[operator]
    assert is_static(r)


@given(st.integers(1, 500), st.integers(1, 500))
def test_prop_static_division_helpers(a: int, b: int) -> None:
    r = cs.ceil_div(a, b)
    assert cs.is_static(r) and r == -(-a // b)
    if a % b == 0 or b % a == 0:
        q = cs.shape_div(a, b)
        assert cs.is_static(q) and q == (a // b if a % b == 0 else 1)
    p = cs.product((a, (b, 3)))
    assert cs.is_static(p) and p == a * b * 3


@given(st.integers(1, 50), st.integers(1, 50))
def test_prop_symbolic_arithmetic_substitutes_to_static(a: int, b: int) -> None:
    M, N = Dyn("M"), Dyn("N")
    e = Int[3] * M + N * Int[2]
    assert int(e.subs({M: a, N: b})) == 3 * a + 2 * b



def test_dyn_symbol_equality_is_sympys() -> None:
    """DynSymbol's own == (its content kept once) agrees with sympy's Basic.__eq__ and with hashing,
    for equal but distinct symbols (a pickled copy, a symbol made twice) and for other facts."""
    import pickle
    import sympy
    from sympy.core.basic import Basic
    made = [Dyn("S"), Dyn("S"), Dyn("S", divisible_by=4), Dyn("S", divisible_by=4, max=64), Dyn("T"),
            Dyn("S", sign="nonnegative"), Dyn("S", min=3)]
    made += [pickle.loads(pickle.dumps(x)) for x in made]
    others = [sympy.Symbol("S", integer=True, positive=True), sympy.Integer(4), 4, sympy.sympify(Dyn("S")) * 2]
    for a in made:
        for b in made + others:
            want = Basic.__eq__(a, b)
            want = False if want is NotImplemented else want      # then int's own == says no
            assert (a == b) == want == (not a != b), (a, b)
            if a == b:
                assert hash(a) == hash(b)


def test_a_symbol_with_no_value_is_refused() -> None:
    # a positive multiple of 8 up to 7 has no value: every question about it would hold vacuously
    for kw, what in ((dict(divisible_by=8, max=7), "multiple of 8 in \\[1, 7\\]"),
                     (dict(divisible_by=8, min=3, max=7), "in \\[3, 7\\]"),
                     (dict(sign="nonnegative", max=-1), "nonnegative value in \\[0, -1\\]")):
        with pytest.raises(cs.LayoutError, match=what):
            Dyn("M", **kw)  # type: ignore[arg-type]
    assert Dyn("M", divisible_by=8, max=8) is not None and Dyn("M", divisible_by=4, sign="any", max=-3) is not None


# ---------------------------------------------------------------- issue 33: static integers combine into static integers
def test_static_int_arithmetic_stays_static() -> None:
    import operator
    from cute_sym import Int
    from cute_sym.core.integers import StaticInt
    ops = [operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod]
    for a in range(-4, 9):
        for b in range(-3, 9):
            for op in ops:
                if op in (operator.floordiv, operator.mod) and b == 0:
                    continue
                r = op(Int[a], Int[b])
                assert type(r) is StaticInt and r == op(a, b) and str(r) == f"_{op(a, b)}"
                # a plain int is a dynamic value: the result is a plain int
                assert type(op(Int[a], b)) is int and type(op(a, Int[b])) is int
                assert op(Int[a], b) == op(a, b) == op(a, Int[b])
    assert str(Int[4] * Int[8]) == "_32" and str(-Int[3]) == "_-3"

"""decide.rounding: floor and ceiling built from structure and the symbols' own bounds."""
from __future__ import annotations

from typing import Any

import sympy
from hypothesis import given, strategies as st

from cute_sym import Dyn
from cute_sym.core.decide.rounding import integral, rounded

from postconditions import check_rounding

_SYMS = [sympy.sympify(s) for s in (Dyn("A"), Dyn("B", divisible_by=2), Dyn("C", divisible_by=4, min=8),
                                    Dyn("T", sign="nonnegative", max=9), Dyn("U", sign="any", min=-5, max=5))]


def check_rounded(f: Any, q: Any) -> Any:
    """:func:`rounded`'s result, its post-condition checked."""
    r = rounded(f, q)
    check_rounding(f, q, r)
    return r


def test_rounded_examples() -> None:
    A, B, C = _SYMS[:3]
    assert check_rounded(sympy.ceiling, sympy.Rational(7, 2)) == 4
    assert check_rounded(sympy.floor, A * B + 3) == A * B + 3          # an integer: itself
    assert check_rounded(sympy.ceiling, A / 2 + B + 1) == sympy.ceiling(A / 2) + B + 1
    assert check_rounded(sympy.ceiling, -1 / C) == 0                   # C >= 8: -1/8 <= q < 0
    assert check_rounded(sympy.floor, 7 / C) == 0
    assert check_rounded(sympy.ceiling, 9 / C) == sympy.ceiling(9 / C)  # 1 or 2: left as it is
    nested = sympy.ceiling(sympy.ceiling(A / 8) / B)
    assert check_rounded(sympy.floor, nested * A) == nested * A


def test_rounded_without_pin_is_the_unevaluated_rounding() -> None:
    C = _SYMS[2]
    assert rounded(sympy.floor, 7 / C, pin=False) == sympy.floor(7 / C, evaluate=False)


def test_integral_by_structure() -> None:
    A, B = _SYMS[:2]
    assert integral(sympy.ceiling(A / 3) * B + sympy.Min(A, 4)) and integral(sympy.Abs(A - B) ** 2)
    assert not integral(A / 2) and not integral(A ** -1)


_ATOMS = st.sampled_from(_SYMS)


@given(st.lists(st.tuples(st.sampled_from([1, -1, 2, 3, -3, 5, 16]), st.sampled_from([1, 2, 3, 4, 8, 16]),
                          st.lists(st.tuples(_ATOMS, st.sampled_from([1, 1, 2, -1, -1, -2])), max_size=2)),
                min_size=1, max_size=3),
       st.booleans(), st.sampled_from([sympy.floor, sympy.ceiling]))
def test_rounded_equals_the_rounding_at_every_value(terms: list[tuple[int, int, list[tuple[Any, int]]]],
                                                     wrap: bool, f: Any) -> None:
    q: Any = sympy.Integer(0)
    for p, d, factors in terms:
        t: Any = sympy.Rational(p, d)
        for s, k in factors:
            t = t * s ** k
        q = q + t
    if wrap:
        q = sympy.ceiling(q) / 2 + q     # a rounding inside the argument
    check_rounded(f, q)

"""The algebra as a whole: bad input, error types, cute's error cases, unary sweeps: examples, sweeps and properties, judged by tests/postconditions.py."""
from __future__ import annotations

from typing import Any

import pytest

import cute_sym as cs
from cute_sym import Dyn, make_layout, parse

from postconditions import (
    check_coalesce, check_coalesce_profile, check_complement,
    check_filter, check_left_inverse, check_nullspace, check_right_inverse, check_zipped_divide,
    is_injective, same_function, to_static,
)

from algebra_support import ALL, ERROR_CASES


@pytest.mark.parametrize("call", [
    lambda: cs.composition(parse("(_4,_6):(_1,_8)"), parse("_3:_5")),          # stride divisibility
    lambda: cs.complement(parse("(_2,_2):(_1,_1)"), 8),                        # not injective
    lambda: cs.logical_divide(parse("(_4,_4):(_1,_4)"), parse("(_2,_2,_2)")),  # too many tiler modes
    lambda: cs.downcast(parse("(_4,_8):(_2,_8)"), 2),                          # no stride-1 mode
])
def test_bad_input_raises_layout_error(call: Any) -> None:
    with pytest.raises(cs.LayoutError) as ei:
        call()
    assert str(ei.value), "the error message names the condition"


def test_error_types() -> None:
    with pytest.raises(cs.InjectivityError, match="(?i)injective"):
        cs.complement(parse("(_2,_2):(_1,_1)"), 8)
    with pytest.raises(cs.RankError, match="(?i)tiler|rank"):
        cs.logical_divide(parse("(_4,_4):(_1,_4)"), parse("(_2,_2,_2)"))
    with pytest.raises(cs.DivisibilityError, match="(?i)divi"):
        cs.composition(parse("(_4,_6):(_1,_8)"), parse("_3:_5"))


@pytest.mark.skipif(not ERROR_CASES, reason="conformance corpus not found")
@pytest.mark.parametrize("case", ERROR_CASES)
def test_conformance_error_cases(case: dict[str, Any]) -> None:
    """Inputs CuTe rejects raise a LayoutError (never another exception, never a result)."""
    args = [parse(a) for a in case["args"]]
    fn = getattr(cs, case["op"])
    with pytest.raises(cs.LayoutError) as ei:
        fn(*args)
    assert str(ei.value)


def test_sweep_unary() -> None:
    """coalesce, filter, right_inverse, nullspace, left_inverse on every small layout."""
    for L in ALL:
        check_coalesce(L, cs.coalesce(L))
        check_filter(L, cs.filter(L))
        check_right_inverse(L, cs.right_inverse(L))
        check_nullspace(L, cs.nullspace(L))
        if is_injective(L):
            check_left_inverse(L, cs.left_inverse(L))
        if cs.rank(L) == 2:
            check_coalesce_profile(L, (1, 1), cs.coalesce(L, (1, 1)))


def test_dynamic_tile_extent_stays_static() -> None:
    M, N = Dyn("M", divisible_by=128), Dyn("N", divisible_by=64)
    L = make_layout((M, N))
    Z = cs.zipped_divide(L, parse("(_128,_64)"))
    assert cs.is_static(cs.size(Z[0]))
    assert int(cs.size(Z[0])) == 128 * 64
    for m, n in ((128, 64), (256, 128), (384, 192)):
        S = to_static(L, {"M": m, "N": n})
        check_zipped_divide(S, (128, 64), to_static(Z, {"M": m, "N": n}))


def test_dynamic_undecidable_names_fact() -> None:
    L = parse("(_2,M):(_1,d)")
    with pytest.raises(cs.UndecidableError) as ei:
        cs.complement(L, 64)
    assert "d" in str(ei.value) and ei.value.fact
    # the facts stated on the symbols decide it (M >= 2: an extent-1 mode is no mode; 2 | d: the gap tiles)
    L = parse("(_2,M):(_1,d)", {"d": Dyn("d", sign="any", min=2, divisible_by=2), "M": Dyn("M", min=2)})
    C = cs.complement(L, 64)
    for m, dv in ((2, 2), (4, 2), (2, 4), (4, 8), (8, 8)):
        S = to_static(L, {"M": m, "d": dv})
        want = cs.complement(S, 64)
        got = to_static(C, {"M": m, "d": dv})
        assert same_function(want, got), (m, dv, C)
        check_complement(S, 64, got)


def test_cast_arguments_are_checked() -> None:
    L = cs.parse("(_4,_8):(_1,_4)")
    assert str(cs.upcast(L, cs.parse("_2"))) == str(cs.upcast(L, 2)) == "(_2,_8):(_1,_2)"
    for bad in [lambda: cs.upcast(L, 0), lambda: cs.downcast(L, cs.Dyn("n")),
                lambda: cs.recast_layout(16, 8, L), lambda: cs.recast_layout(L, 16, -8)]:
        with pytest.raises(cs.LayoutError):
            bad()

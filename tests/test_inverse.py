"""Right_inverse and left_inverse: examples, sweeps and properties, judged by tests/postconditions.py."""
from __future__ import annotations


import pytest
from hypothesis import assume, given

import cute_sym as cs
from cute_sym import Dyn, Int, Layout, make_layout, parse

from postconditions import (
    check_coalesce, check_left_inverse, check_right_inverse, is_injective, nsize, to_static,
)

from algebra_support import MASKS, P2, _complementable, _positive_shapes, _symbolize, layouts


@pytest.mark.parametrize("a", ["(_4,_8):(_8,_1)", "((_4,_32),_8):((_256,_1),_32)", "(_2,_3):(_3,_1)",
                               "_8:_2", "(_4,_2):(_1,_0)", "(_2,_4):(_1,_-2)"])
def test_inverses_examples(a: str) -> None:
    L = parse(a)
    R = cs.right_inverse(L)
    check_right_inverse(L, R)
    if is_injective(L) and _complementable(L):
        Li = cs.left_inverse(L)
        check_left_inverse(L, Li)


def test_right_inverse_seed() -> None:
    L = parse("((_4,_32),_8):((_256,_1),_32)")
    R = cs.right_inverse(L)
    assert str(R) == "(_256,_4):(_4,_1)"
    check_right_inverse(L, R)


def test_left_inverse_non_injective() -> None:
    # no inverse exists; CuTe's answer is kept where it picks a preimage, checked point by point
    for text in ("(_2,_2):(_1,_1)", "((_18,_64)):((_4,_64))"):
        L = parse(text)
        R = cs.left_inverse(L)
        assert all(int(L(int(R(int(L(i)))))) == int(L(i)) for i in range(nsize(L)))
    with pytest.raises(cs.InjectivityError, match="not injective.*does not even pick a preimage"):
        cs.left_inverse(parse("(_3,_2,_2):(_1,_2,_8)"))


def test_left_inverse_negative_stride_refused() -> None:
    # CuTe answers (_-1,_4):(_0,_1) (corpus left_inverse/0025, marked cute_contract)
    with pytest.raises(cs.LayoutError, match="negative stride.*non-positive extent"):
        cs.left_inverse(parse("(_4):(_-1)"))


def test_right_inverse_dynamic_is_16N_contiguous() -> None:
    # CuTe's mode structure is kept ((_16,N):(_1,_16)); as a function it is 16*N:_1
    N = Dyn("N")
    R = cs.right_inverse(make_layout((Int[16], N), (Int[1], Int[16])))
    assert str(cs.coalesce(R)) == "16*N:_1"
    for n in (1, 2, 5):
        Rn = cs.subs(R, {"N": n}, ignore_unknown=True)
        Ln = make_layout((16, n), (1, 16))
        assert all(int(Ln(int(Rn(i)))) == i for i in range(16 * n))


@given(layouts())
def test_prop_right_inverse(L: Layout) -> None:
    check_right_inverse(L, cs.right_inverse(L))


@given(layouts(max_rank=2))
def test_prop_left_inverse(L: Layout) -> None:
    assume(is_injective(L) and _complementable(L))
    check_left_inverse(L, cs.left_inverse(L))


@given(layouts(ext=P2, max_rank=2), MASKS)
def test_prop_symbolic_right_inverse(L: Layout, mask: list[bool]) -> None:
    """A symbolic right inverse, substituted, is a right inverse of the substituted layout."""
    text, bind = _symbolize(L, mask)
    try:
        R = cs.right_inverse(parse(text))
    except cs.UndecidableError:
        return
    check_right_inverse(L, to_static(R, bind))


def test_dynamic_coalesce_and_right_inverse() -> None:
    N = Dyn("N")
    L = make_layout((Int[16], N), (Int[1], Int[16]))
    C = cs.coalesce(L)
    assert str(C) == "16*N:_1"
    R = cs.right_inverse(L)
    for n in (1, 2, 3, 7, 64):
        S = to_static(L, {"N": n})
        check_coalesce(S, to_static(C, {"N": n}))
        check_right_inverse(S, to_static(R, {"N": n}))
        assert nsize(to_static(R, {"N": n})) == 16 * n


def test_right_inverse_symbolic_extent_against_static_strides() -> None:
    # the chain reaches a symbolic extent: a static stride joins it only where the symbol is pinned
    # to it (its own min and max), never for a symbol unbounded above; checked at its values
    for sym, values, joined in ((Dyn("S", divisible_by=4), (4, 8, 12, 64), False),
                                (Dyn("S", divisible_by=4, min=4, max=4), (4,), True)):
        L = make_layout((sym, Int[8]), (Int[1], Int[4]))
        R = cs.right_inverse(L)
        for s in values:
            Rs = to_static(R, {"S": s})
            check_right_inverse(to_static(L, {"S": s}), Rs)
            assert nsize(Rs) == (8 * s if joined else s)


def test_right_inverse_of_equal_strides_takes_cutes_mode() -> None:
    """Two modes of stride 1 (not injective): either gives a right inverse, and CuTe's sort by
    stride (an exchange sort, not stable) puts the second first: _2:_2, as CuTe prints it."""
    L = cs.parse("(_2,(_2,_32,_8),_4):(_1,(_1,_32,_0),_0)")
    R = cs.right_inverse(L)
    assert str(R) == "_2:_2" and all(L(R(i)) == i for i in range(2))
    from cute_sym.algebra.inverse import cute_sort_order
    assert cute_sort_order([1, 1, 32, 0]) == [3, 1, 0, 2]

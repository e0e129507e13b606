"""Complement: examples, sweeps and properties, judged by tests/postconditions.py."""
from __future__ import annotations


from typing import Any

import pytest
from hypothesis import assume, given, strategies as st

import cute_sym as cs
from cute_sym import Layout, make_layout, parse

from postconditions import (
    check_complement,
    image, is_injective, nsize, same_function, to_static,
)

from algebra_support import ALL, MASKS, P2, _complementable, _positive_shapes, _static_vs_symbolic, layouts


@pytest.mark.parametrize("a, m, expect", [
    ("_4:_1", 24, "_6:_4"),
    ("_6:_4", 24, "_4:_1"),
    ("(_4,_6):(_1,_4)", 24, "_1:_0"),
    ("_4:_2", 24, "(_2,_3):(_1,_8)"),
    ("(_2,_4):(_1,_6)", 24, "_3:_2"),
    ("(_2,_2):(_1,_6)", 24, "(_3,_2):(_2,_12)"),
    ("(_2,_2):(_4,_1)", 24, "(_2,_3):(_2,_8)"),
])
def test_complement_examples(a: str, m: int, expect: str) -> None:
    A = parse(a)
    C = cs.complement(A, m)
    assert str(C) == expect
    check_complement(A, m, C)


def test_complement_default_cotarget() -> None:
    A = parse("(_2,_2):(_1,_6)")
    C = cs.complement(A)
    check_complement(A, nsize(cs.filter(A)) and int(cs.cosize(cs.filter(A))), C)


def test_complement_non_complementable_strides() -> None:
    A = parse("(_2,_3):(_4,_1)")
    try:
        C = cs.complement(A, 24)
    except cs.LayoutError:
        return
    check_complement(A, 24, C)
    assert int(cs.cosize(make_layout(A, C))) >= 24


def test_complement_negative_stride() -> None:
    A = parse("_4:_-1")
    try:
        C = cs.complement(A, 8)
    except cs.LayoutError:
        return
    assert _positive_shapes(C), f"complement(_4:_-1, 8) = {C}"
    im = image(C)
    assert all(x < y for x, y in zip(im, im[1:]))
    assert is_injective(to_static(make_layout(A, C)))


def test_sweep_complement() -> None:
    n = 0
    for L in ALL:
        for M in (1, 6, 8, 24):
            if not is_injective(cs.filter(L)):
                with pytest.raises(cs.LayoutError):
                    cs.complement(L, M)
                continue
            if not _complementable(L):
                continue
            check_complement(L, M, cs.complement(L, M))
            n += 1
    assert n > 100


@given(layouts(max_rank=2), st.sampled_from([1, 16, 64, 100]))
def test_prop_complement(L: Layout, M: int) -> None:
    assume(is_injective(cs.filter(L)) and _complementable(L))
    check_complement(L, M, cs.complement(L, M))


@given(layouts(ext=P2, max_rank=2), MASKS, st.sampled_from([32, 64, 128]))
def test_prop_symbolic_complement(L: Layout, mask: list[bool], M: int) -> None:
    assume(is_injective(cs.filter(L)) and _complementable(L))
    _static_vs_symbolic(cs.complement, L, mask, M)


def test_dynamic_complement_exact_formula() -> None:
    c = parse("c")
    C = cs.complement(parse("_4:_2"), c)
    for v in (8, 16, 24, 28, 64):
        Cs = to_static(C, {"c": v})
        want = cs.complement(parse("_4:_2"), v)
        assert same_function(want, Cs), (v, C)


@pytest.mark.parametrize("text", ["(_4):(_0)", "(_4,_2):(_0,_0)", "((_2,_3),_5):((_0,_0),_0)"])
@pytest.mark.parametrize("M", [None, 1, 8, 24])
def test_symbolic_zero_strides_complement(text: str, M: Any) -> None:
    """Every stride a static 0 (the shortcut past filter): the symbolic answer is the static one,
    for every way of making the extents symbolic."""
    L = parse(text)
    n = len(cs.flatten(L.shape))
    for k in range(1, 2 ** n):
        mask = [bool(k >> i & 1) for i in range(n)]
        _static_vs_symbolic(cs.complement, L, mask, *(() if M is None else (M,)))
        got = cs.complement(L, *(() if M is None else (M,)))
        check_complement(L, 1 if M is None else M, got)

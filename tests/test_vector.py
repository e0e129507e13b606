"""Max_common_layout/vector, nullspace, upcast/downcast/recast_layout: examples, sweeps and properties, judged by tests/postconditions.py."""
from __future__ import annotations


import pytest
from hypothesis import given

import cute_sym as cs
from cute_sym import Layout, parse

from postconditions import (
    check_downcast_upcast, check_filter, check_max_common_layout, check_max_common_vector, check_nullspace, nsize,
)

from algebra_support import POW2, layouts


@pytest.mark.parametrize("a, b", [("(_4,_8):(_1,_4)", "(_4,_8):(_1,_4)"), ("(_4,_8):(_1,_4)", "(_4,_8):(_1,_8)"),
                                  ("(_4,_8):(_8,_1)", "(_4,_8):(_1,_4)"), ("(_2,_4):(_1,_2)", "_8:_1")])
def test_max_common(a: str, b: str) -> None:
    A, B = parse(a), parse(b)
    n = int(cs.max_common_vector(A, B))
    check_max_common_vector(A, B, n)
    R = cs.max_common_layout(A, B)
    check_max_common_layout(A, B, R)
    assert nsize(R) == n


def test_max_common_vector_values() -> None:
    assert cs.max_common_vector(parse("(_4,_8):(_1,_4)"), parse("(_4,_8):(_1,_4)")) == 32
    assert cs.max_common_vector(parse("(_4,_8):(_1,_4)"), parse("(_4,_8):(_1,_8)")) == 4
    assert cs.max_common_vector(parse("(_4,_8):(_8,_1)"), parse("(_4,_8):(_1,_4)")) == 1


def test_nullspace_example() -> None:
    L = parse("(_2,_3,_4):(_1,_0,_0)")
    N = cs.nullspace(L)
    assert str(N) == "(_3,_4):(_2,_6)"
    check_nullspace(L, N)


@pytest.mark.parametrize("a, n", [("(_4,_8):(_1,_4)", 2), ("(_4,_8):(_8,_1)", 4), ("(_2,(_4,_2)):(_8,(_1,_4))", 2)])
def test_downcast_upcast(a: str, n: int) -> None:
    L = parse(a)
    check_downcast_upcast(L, n, cs.downcast(L, n))


def test_recast_layout() -> None:
    L = parse("(_4,_8):(_1,_4)")
    assert str(cs.recast_layout(L, 16, 32)) == str(cs.upcast(L, 2))
    assert str(cs.recast_layout(L, 32, 16)) == str(cs.downcast(L, 2))
    assert cs.recast_layout(L, 16, 16) == L
    # 24 -> 16 bits is 2/3: CuTe's downcast<3>(upcast<2>(L))
    assert str(cs.recast_layout(L, 24, 16)) == str(cs.downcast(cs.upcast(L, 2), 3)) == "(_6,_8):(_1,_6)"
    # a partial vector counts as a whole one there (CuTe's ceil_div): 3 elements of 6 bits
    assert str(cs.recast_layout(parse("(_3,_2):(_1,_4)"), 6, 4)) == "(_6,_2):(_1,_6)"


def test_sweep_max_common() -> None:
    n = 0
    for A in POW2:
        for B in POW2:
            if nsize(A) != nsize(B):
                continue
            try:
                v = cs.max_common_vector(A, B)
                R = cs.max_common_layout(A, B)
            except cs.LayoutError:
                continue
            check_max_common_vector(A, B, int(v))
            check_max_common_layout(A, B, R)
            n += 1
    assert n > 100


@given(layouts())
def test_prop_filter_and_nullspace(L: Layout) -> None:
    check_filter(L, cs.filter(L))
    check_nullspace(L, cs.nullspace(L))


# ---------------------------------------------------------------- swizzled layouts
def test_sweep_casts_of_swizzled_layouts() -> None:
    """upcast/downcast/recast of every small swizzled layout, checked pointwise; an upcast
    past the swizzle's low bit M is refused, naming it."""
    from postconditions import check_downcast, check_upcast, swizzled_layouts
    done = refused = 0
    for C in swizzled_layouts():
        for n in (2, 4, 8):
            try:
                R = cs.upcast(C, n)
            except cs.LayoutError as e:
                assert "below log2" in str(e) or "multiple" in str(e) or "shape_div" in str(e), str(e)
                refused += 1
                continue
            check_upcast(C, n, R)
            assert str(cs.recast_layout(C, 8, 8 * n)) == str(R)
            done += 1
        for n in (2, 4):
            D = cs.downcast(C, n)
            check_downcast(C, n, D)
            assert str(cs.recast_layout(C, 8 * n, 8)) == str(D)
    assert done > 20 and refused > 20


def test_casts_of_swizzled_corpus_examples() -> None:
    from postconditions import check_upcast
    C = parse("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)")
    R = cs.upcast(C, 8)
    assert str(R) == "Sw<3,0,3> o _0 o (_16,_8):(_8,_1)"      # CuTe's answer (fuzz upcast/50005)
    check_upcast(C, 8, R)
    with pytest.raises(cs.LayoutError, match="N must be a power of two"):
        cs.upcast(C, 3)
    with pytest.raises(cs.LayoutError, match="N must be a power of two"):
        cs.recast_layout(C, 24, 8)
    with pytest.raises(cs.LayoutError, match="moves bit 3, below log2\\(16\\)"):
        cs.upcast(C, 16)


def test_sweep_max_common_of_swizzled_layouts() -> None:
    from postconditions import check_max_common_vector_any, swizzled_layouts
    n = 0
    for A in swizzled_layouts():
        for B in swizzled_layouts():
            if nsize(A) != nsize(B):
                continue
            check_max_common_vector_any(A, B, int(cs.max_common_vector(A, B)))
            check_max_common_vector_any(A, B.layout_b, int(cs.max_common_vector(A, B.layout_b)))
            check_max_common_layout(A, B.layout_b, cs.max_common_layout(A, B.layout_b))
            check_max_common_layout(B.layout_b, A, cs.max_common_layout(B.layout_b, A))
            n += 1
    assert n > 100


def test_max_common_refusals_name_the_condition() -> None:
    off = cs.composition(cs.Swizzle(1, 2, 2), cs.make_layout(16))
    shifted = parse("Sw<1,2,2> o _4 o _16:_1")
    with pytest.raises(cs.LayoutError, match="offset must be 0"):
        cs.max_common_vector(shifted, cs.make_layout(16))
    with pytest.raises(cs.LayoutError, match="two swizzled layouts"):
        cs.max_common_layout(off, off)
    # a common run of symbolic length: CuTe keeps its static part (its coalesce merges a static
    # mode only with static ones): fuzz max_common_layout/50083 with a = 30 answers _16:_1
    a = cs.Dyn("a")
    A = cs.make_layout(((16, 1, a), (1, 2, 2)), ((1, 16, 16), (480, 480, 960)))
    B = parse("(_3,_16):(_1,_3)")
    with cs.collect_guards() as g:
        R = cs.max_common_layout(A, B)
        assert str(R) == "_16:_1" and cs.max_common_vector(A, B) == 16
    for v in (1, 3, 30):
        assert g.holds({"a": v})
        check_max_common_layout(cs.subs(A, {"a": v}), B, R)
    # a run that starts symbolic: CuTe drops it
    assert str(cs.max_common_layout(cs.make_layout((a, 4), (1, a)), cs.make_layout((a, 4), (1, a)))) == "_1:_0"


def test_symbolic_stride_that_may_be_0_decides_the_nullspace() -> None:
    """nullspace(_4:a) is _4:_1 at a = 0 and _1:_0 otherwise: the fact is named, or recorded as a guard."""
    with pytest.raises(cs.UndecidableError, match="a != 0"):
        cs.nullspace(parse("_4:a"))
    with cs.collect_guards() as g:
        R = cs.nullspace(parse("_4:a"))
    assert str(R) == "_1:_0" and "a != 0" in str(g)
    N = cs.Dyn("N", min=1)
    assert str(cs.nullspace(cs.make_layout((4, 8), (N, 0)))) == "_8:_4"            # N >= 1: not 0
    assert str(cs.nullspace(cs.make_layout((1, 8), (cs.Dyn("b"), 0)))) == "_8:_1"  # extent 1: no question
    for v in (1, 3):    # the answer under the guard is the static one at every value it allows
        assert str(cs.nullspace(cs.subs(parse("(_4,_8):(a,_0)"), {"a": v}))) == "_8:_4"


def test_symbolic_stride_that_may_be_1_decides_the_downcast() -> None:
    """CuTe grows only the static stride-1 mode; a symbolic stride of 1 would be a unit mode too."""
    with pytest.raises(cs.UndecidableError, match="b != 1"):
        cs.downcast(parse("(_4,_8):(_1,b)"), 2)
    M = cs.Dyn("M", min=4)
    R = cs.downcast(cs.make_layout((4, 8), (1, M)), 2)
    assert str(R) == "(_8,_8):(_1,2*M)"
    for v in (4, 5, 8):
        Rv, Lv = cs.subs(R, {"M": v}), cs.make_layout((4, 8), (1, v))
        # element (i, j) of the wide view is the 2 narrow ones at (2i, j) and (2i+1, j)
        assert all(Rv(2 * i + k, j) == 2 * Lv(i, j) + k for i in range(4) for j in range(8) for k in range(2))


def test_upcast_of_several_modes_inside_one_vector_is_cutes() -> None:
    """CuTe rounds each mode up (ceil_div); where two modes step inside one vector, together they
    make whole vectors, so a mode whose extent does not divide n/|d| is no failure there."""
    L = parse("((_4,_1),(_2,_3,_4),_2):((_-1,_-1),(_64,_1,_32),_16)")
    R = cs.upcast(L, 8)
    assert str(R) == "((_1,_1),(_2,_1,_4),_2):((_-1,_-1),(_8,_1,_4),_2)"        # CuTe's answer
    with pytest.raises(cs.DivisibilityError):     # one mode alone: a failure as before
        cs.upcast(parse("_3:_1"), 8)

"""F2 strides, swizzles as layouts, and Triton's linear layouts.

The expected bases are Triton's published ones (its LinearLayoutConversionsTest: blocked, MMAv2
and swizzled shared layouts); the cute_sym side is built independently, from the encoding's
parameters as a CuTe layout, from CuTe's MMA atom table, or from CuTe's swizzle functor."""
from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import cute_sym as cs
from cute_sym import LayoutError, make_layout
from cute_sym.stride import F2, clmul
from cute_sym.swizzle.composed import ComposedLayout
from cute_sym.swizzle.linear import as_f2_layout, f2_layout, from_linear_layout, to_linear_layout
from cute_sym.swizzle.swizzle import Swizzle

SWIZZLES = [Swizzle(b, m, s) for b, m, s in [(0, 0, 0), (1, 0, 1), (2, 0, 2), (2, 3, 3), (3, 0, 3), (3, 3, 3),
                                            (2, 1, 2), (3, 4, 3), (2, 2, -3)]]


# ------------------------------------------------------------------ F2 strides
def test_f2_is_xor_and_carry_less_product() -> None:
    for a, b in itertools.product(range(40), repeat=2):
        assert F2(a) + F2(b) == F2(a ^ b) and F2(a) + F2(a) == 0
        assert int(a * F2(b)) == clmul(a, b) == clmul(b, a)
    assert F2(5) * 3 == 15 and F2(7) * 0 == 0


def test_an_f2_layout_xors_its_modes() -> None:
    L = make_layout((4, 8), (F2(1), F2(8)))
    assert all(int(L(c0, c1)) == c0 ^ (8 * c1) for c0 in range(4) for c1 in range(8))
    M = make_layout((4, 4), (F2(1), F2(4)))
    assert all(int(M(c0, c1) + M(c0, c1)) == 0 for c0 in range(4) for c1 in range(4))


@pytest.mark.parametrize("shape,stride", [
    (8, (F2(1),)), ((4, 4), (F2(1), F2(4))), ((2, 2, 2, 2), (F2(1), F2(2), F2(4), F2(8))), ((3, 4), (F2(1), F2(3))),
    ((3, 3), (F2(1), F2(3))), ((2, 2, 3), (F2(1), F2(2), F2(4))), ((3, 2, 2), (F2(1), F2(3), F2(6))),
    (((2, 2), (3, 2)), ((F2(1), F2(2)), (F2(4), F2(12)))), ((2, 1, 2), (F2(1), F2(7), F2(2)))])
def test_coalesce_of_f2_strides_is_the_same_function(shape: Any, stride: Any) -> None:
    """PyCuTe's F2 coalesce cases: a mode merges only across a power-of-two extent."""
    L = make_layout(shape, stride[0] if type(shape) is int else stride)
    R = cs.coalesce(L)
    assert cs.size(R) == cs.size(L) and all(R(i) == L(i) for i in range(cs.size(L)))


# ------------------------------------------------------------------ swizzles are layouts
@pytest.mark.parametrize("sw", SWIZZLES, ids=str)
def test_a_swizzle_is_its_f2_layout(sw: Swizzle) -> None:
    n = 1 << (sw.bits + sw.base + abs(sw.shift) + 1)
    L = f2_layout(sw, n)
    assert cs.size(L) == n and all(int(L(i)) == sw(i) for i in range(n))


@given(st.sampled_from(SWIZZLES), st.integers(0, 3), st.integers(0, 3))
@settings(max_examples=60, deadline=None)
def test_the_algebra_composes_a_swizzle_with_a_layout(sw: Swizzle, a: int, b: int) -> None:
    """composition(F2 layout of sw, L) is the swizzled layout sw o L, value for value, for a
    layout L of power-of-two strides (where the algebra's fold stays linear over F2)."""
    L = make_layout((2 ** a, 2 ** b), (2 ** b, 1)) if a + b else make_layout(1, 0)
    big = f2_layout(sw, max(cs.cosize(L), 1 << (sw.bits + sw.base + abs(sw.shift))))
    R = cs.composition(big, L)
    assert all(int(R(i)) == sw(L(i)) for i in range(cs.size(L)))


def test_a_carrying_factor_is_refused() -> None:
    with pytest.raises(LayoutError, match="power of two"):
        cs.composition(make_layout(16, F2(3)), make_layout(4, 3))


@pytest.mark.parametrize("sw", SWIZZLES[1:6], ids=str)
def test_a_swizzled_layout_converts(sw: Swizzle) -> None:
    C = ComposedLayout(sw, 0, make_layout((8, 8), (8, 1)))
    F = as_f2_layout(C)
    assert all(int(F(i)) == C(i) for i in range(64))


def test_a_nonlinear_layout_is_refused() -> None:
    with pytest.raises(LayoutError, match="not linear"):
        as_f2_layout(make_layout((4, 4), (1, 3)))
    with pytest.raises(LayoutError, match="power of two"):
        as_f2_layout(make_layout((3, 4), (1, 3)))


# ------------------------------------------------------------------ Triton's linear layouts
def test_triton_simple_blocked() -> None:
    """SimpleBlocked: tensor {16}, 1 register, 4 lanes, 4 warps."""
    L = make_layout((1, 4, 4), (0, 1, 4))
    got = to_linear_layout(L, (16,), in_dims=("register", "lane", "warp"))
    assert got == {"register": [], "lane": [(1,), (2,)], "warp": [(4,), (8,)]}


def test_triton_blocked_cta_broadcast() -> None:
    """CTABroadcast: {64,128}, sizePerThread {8,1}, threadsPerWarp {8,4}, warpsPerCTA {1,4}, two CTAs
    along dim1, order {0,1} (dim0 most minor). The CuTe layout of the same facts: register
    (8 along dim0, 4 repeats along dim1 at 16), lane (8 along dim0 at 8, 4 along dim1), warp (4
    along dim1 at 4), block (2 along dim1 at 64); an offset is d0 + 64*d1."""
    L = make_layout(((8, 4), (8, 4), 4, 2), ((1, 16 * 64), (8, 64), 4 * 64, 64 * 64))
    got = to_linear_layout(L, (64, 128), order=(0, 1), in_dims=("register", "lane", "warp", "block"))
    assert got == {"register": [(1, 0), (2, 0), (4, 0), (0, 16), (0, 32)],
                   "lane": [(8, 0), (16, 0), (32, 0), (0, 1), (0, 2)],
                   "warp": [(0, 4), (0, 8)], "block": [(0, 64)]}


def test_triton_mma_v2_from_cute_atom() -> None:
    """MMAv2_16x16: CuTe's SM80 16x8x16 C layout ((4,8),(2,2)):((32,1),(16,8)) in (m + 16n), tiled
    twice along N (a third value mode at n = 8), is Triton's MMAv2 layout of a 16x16 tensor."""
    C = cs.MMA_Traits("SM80_16x8x16_F32F16F16F32_TN").CLayout
    thr, val = C[0], C[1]
    reg = make_layout(cs.flatten(val.shape) + (2,), cs.flatten(val.stride) + (8 * 16,))
    L = make_layout(reg, thr)
    got = to_linear_layout(L, (16, 16), order=(0, 1), in_dims=("register", "lane"))
    assert got == {"register": [(0, 1), (8, 0), (0, 8)],
                   "lane": [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)]}


@pytest.mark.parametrize("sw,shape,bases", [
    # LeadingOffset_8x64_1_8: 128-byte swizzle of 16-bit elements (CuTe's Sw<3,3,3>)
    (Swizzle(3, 3, 3), (8, 64), [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (0, 32), (1, 8), (2, 16), (4, 32)]),
    # LeadingOffset_8x32_2_4: 64-byte swizzle (Sw<2,3,3>)
    (Swizzle(2, 3, 3), (8, 32), [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (1, 0), (2, 8), (4, 16)]),
    # LeadingOffset_8x16_4_2: 32-byte swizzle (Sw<1,3,3>)
    (Swizzle(1, 3, 3), (8, 16), [(0, 1), (0, 2), (0, 4), (0, 8), (1, 0), (2, 0), (4, 8)]),
    # SharedSwizzled2D_Vec: vec 2, perPhase 1, maxPhase 4 (Sw<2,1,2>)
    (Swizzle(2, 1, 2), (4, 8), [(0, 1), (0, 2), (0, 4), (1, 2), (2, 4)]),
])
def test_triton_swizzled_shared(sw: Swizzle, shape: tuple[int, int], bases: list[tuple[int, int]]) -> None:
    """Triton's shared layouts map an offset to a (row, col) coordinate, dim1 most minor: CuTe's
    swizzle functor over the tile, read so, gives the published bases."""
    n = shape[0] * shape[1]
    got = to_linear_layout(f2_layout(sw, n), shape, order=(1, 0), in_dims=("offset",))
    assert got == {"offset": bases}
    back = from_linear_layout(got, shape, order=(1, 0))
    assert all(int(back(i)) == sw(i) for i in range(n))


@given(st.lists(st.integers(0, 63), min_size=0, max_size=6), st.lists(st.integers(0, 63), min_size=0, max_size=3))
@settings(max_examples=80, deadline=None)
def test_linear_layouts_round_trip(a: list[int], b: list[int]) -> None:
    """from_linear_layout then to_linear_layout gives the bases back; the layout's value at an
    index is the XOR of its bits' bases."""
    shape = (8, 8)
    bases = {"x": [(v // 8, v % 8) for v in a], "y": [(v // 8, v % 8) for v in b]}
    L = from_linear_layout(bases, shape, order=(1, 0))
    assert to_linear_layout(L, shape, order=(1, 0), in_dims=("x", "y"), in_sizes=(2 ** len(a), 2 ** len(b))) == bases
    enc = [v for v in a] + [v for v in b]
    for i in range(cs.size(L)):
        want = 0
        for j, v in enumerate(enc):
            if i >> j & 1:
                want ^= v
        assert int(L(i)) == want


# ------------------------------------------------------------------ inverses over F2
@given(st.lists(st.integers(0, 63), min_size=1, max_size=5))
@settings(max_examples=120, deadline=None)
def test_f2_inverses(images: list[int]) -> None:
    """right_inverse: L(R(i)) == i on R's domain (the longest prefix of reached offsets);
    left_inverse: R(L(i)) == i for every i where L is injective, else an InjectivityError."""
    L = make_layout((2,) * len(images), tuple(F2(v) for v in images))
    R = cs.right_inverse(L)
    assert all(int(L(R(i))) == i for i in range(cs.size(R)))
    assert cs.size(R) not in {int(L(i)) for i in range(cs.size(L))}     # the next offset is not reached
    injective = len({int(L(i)) for i in range(cs.size(L))}) == cs.size(L)
    if injective:
        Li = cs.left_inverse(L)
        assert all(int(Li(int(L(i)))) == i for i in range(cs.size(L)))
    else:
        with pytest.raises(LayoutError, match="injective"):
            cs.left_inverse(L)


@pytest.mark.parametrize("sw", SWIZZLES, ids=str)
def test_a_swizzle_is_its_own_inverse(sw: Swizzle) -> None:
    L = f2_layout(sw, 1 << (sw.bits + sw.base + abs(sw.shift)))
    R = cs.right_inverse(L)
    assert cs.size(R) == cs.size(L) and all(int(R(i)) == int(L(i)) for i in range(cs.size(L)))

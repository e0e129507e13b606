"""A thread index as coordinates and as one formula: equal to the integer answers at every value."""
from __future__ import annotations

import itertools

import sympy
from hypothesis import given, strategies as st

from cute_sym.core.integers import Dyn
from cute_sym.layout import Layout, make_layout, size
from cute_sym.notation import parse
from cute_sym.tensor.thread_index import floor_mod, index_formula, thread_coord, upper_bound


def at(e: object, x: sympy.Symbol, v: int) -> int:
    return int(sympy.sympify(e).xreplace({x: sympy.Integer(v)}))


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    n = draw(st.integers(1, 4))
    shape = tuple(draw(st.sampled_from([1, 2, 3, 4, 8])) for _ in range(n))
    stride = tuple(draw(st.integers(0, 40)) for _ in range(n))
    return make_layout(shape, stride)


@given(layouts(), st.integers(0, 300))
def test_index_formula_is_the_layout(lay: Layout, hi: int) -> None:
    hi = min(hi, size(lay) - 1)                                # the layout's domain
    x = Dyn("x", max=hi, sign="nonnegative")
    e = index_formula(lay, x)
    for v in range(0, hi + 1, max(1, hi // 40)):
        assert at(e, x, v) == lay(v)


def test_floor_mod_and_bounds() -> None:
    x = Dyn("x", max=99, sign="nonnegative")
    for d, s in itertools.product((1, 2, 3, 8, 64, 128), (None, 1, 2, 5, 16)):
        e = floor_mod(x, d, s)
        assert all(at(e, x, v) == (v // d if s is None else (v // d) % s) for v in range(100))
    assert upper_bound(x) == 99 and upper_bound(Dyn("y")) is None


def test_thread_coord_inverts_the_thread_layout() -> None:
    t = Dyn("t", max=255, sign="nonnegative")
    for text in ("(_32,_2,_2,_1):(_1,_32,_64,_0)", "((_4,_2),_2,_2,_1):((_1,_16),_4,_8,_0)",
                 "(_128,_2,_1,_1):(_1,_128,_0,_0)", "((_4,_2),_1,_2,_2):((_1,_16),_0,_4,_8)"):
        vmnk = parse(text)
        sym = thread_coord(vmnk, t)
        image = sorted(set(vmnk(i) for i in range(size(vmnk))))
        for tid in range(256):
            c = thread_coord(vmnk, tid)
            if tid in image:
                assert vmnk(c) == tid
            assert tuple(at(e, t, tid) for e in sym) == c


# ---------------------------------------------------------------- issue 33: a thread index is one of the threads
def test_get_slice_refuses_a_thread_past_the_last() -> None:
    import pytest
    import cute_sym as cs
    mma = cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    tc = cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint64_t>", "float"), parse("(_4,_8):(_8,_1)"), parse("(_1,_2)"))
    with pytest.raises(cs.LayoutError, match=r"thread index 128 is past the last thread of the tiled MMA \(thread indices 0..127"):
        mma.get_slice(128)          # it wrapped to thread 0
    sm70 = cs.make_tiled_mma("SM70_8x8x4_F16F16F16F16_TN", (1, 2))       # quad pairs: indices with holes
    assert sm70.get_slice(51).thr_vmnk == thread_coord(sm70.thr_layout_vmnk, 51)     # CuTe's reading, kept
    with pytest.raises(cs.LayoutError, match=r"thread index 1000 is past the last thread of the tiled copy \(thread indices 0..31"):
        tc.get_slice(1000)
    with pytest.raises(cs.LayoutError, match=r"may be 1000, past the last thread of the tiled MMA"):
        mma.get_slice(Dyn("tid", max=1000))
    with pytest.raises(cs.UndecidableError, match=r"needs tid < 32"):
        tc.get_slice(Dyn("tid", sign="nonnegative"))
    # every thread in range is taken, and the symbolic slice is each of them
    T = parse("(_8,_32):(_32,_1)")
    tid = Dyn("tid", max=31, sign="nonnegative")
    sym = tc.get_slice(tid).partition_S(cs.make_tensor(cs.make_gmem_ptr("T", "float"), T))
    for t in range(32):
        got = tc.get_slice(t).partition_S(cs.make_tensor(cs.make_gmem_ptr("T", "float"), T))
        assert sym.engine.offset.xreplace({tid: sympy.Integer(t)}) == got.engine.offset
    with cs.collect_guards() as guards:
        tc.get_slice(Dyn("tid", sign="nonnegative"))
    assert guards.holds({"tid": 31}) and not guards.holds({"tid": 32})

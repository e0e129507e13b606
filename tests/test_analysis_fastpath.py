"""The analyses' integer hot path against their general path: the same answers, every field.

The hot path reads a layout as a table of integers (or of linear forms in its symbols), a
tiled copy's partition as a table of tile indices, and counts words and sectors on plain
integers. The general path evaluates ``tidfrg_S(layout)`` and ``layout(i)`` one offset at a
time, as sympy expressions, and compares addresses one pair at a time. Both run here on
generated and hand-picked cases, static and symbolic; their answers (text, every field,
every phase and its words, every case) must be identical.
"""
from __future__ import annotations

import importlib
import random
from typing import Any, Callable

import pytest

from analysis_cases import answer_of, generated, tv_layout
from cute_sym import Copy_Atom, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_mma
from cute_sym.analysis import bank_conflicts, coalescing, vector_width
from cute_sym.analysis.tables import copy_index_table, layout_table
from cute_sym.core.integers import Dyn
from cute_sym.layout import make_layout
from cute_sym.notation import parse
from cute_sym.swizzle import ComposedLayout, Swizzle

access_mod, banks_mod, coal_mod, vec_mod = (importlib.import_module(f"cute_sym.analysis.{m}")
                                            for m in ("access", "banks", "coalescing", "vector"))


_answer = answer_of          # the error, or the answer with every field, phase and case


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """Send every analysis down its general path (the one before the hot path)."""
    monkeypatch.setattr(access_mod, "copy_index_table", lambda *a: None)
    monkeypatch.setattr(access_mod, "layout_table", lambda *a: None)
    for mod in (banks_mod, coal_mod, vec_mod):
        monkeypatch.setattr(mod, "static_offsets", lambda *a: None)
    monkeypatch.setattr(vec_mod, "_rows_ok", lambda *a: False)


def _both(fn: Callable[[], Any]) -> tuple[Any, Any]:
    fast = _answer(fn)
    with pytest.MonkeyPatch.context() as mp:
        _general(mp)
        slow = _answer(fn)
    return fast, slow


TV_CASES = list(generated(80, seed=39))


@pytest.mark.parametrize("k", range(len(TV_CASES)))
def test_tv_layouts_same_answer(k: int) -> None:
    c = TV_CASES[k]
    for fn in (lambda: bank_conflicts(c.tv, c.layout, c.bits, c.vector_bits),
               lambda: coalescing(c.tv, c.layout, c.bits, c.vector_bits),
               lambda: vector_width(c.tv, c.layout, c.bits)):
        fast, slow = _both(fn)
        assert fast == slow


def _copies() -> list[Any]:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    out = [make(Copy_Atom(op, "half_t"), mma) for op in ("SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U16x8_LDSM_T")
           for make in (make_tiled_copy_A, make_tiled_copy_B)]
    out.append(make_tiled_copy(Copy_Atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t"),
                               parse("(_32,_4):(_4,_1)"), parse("(_1,_8)")))
    out.append(make_tiled_copy(Copy_Atom("UniversalCopy<uint64_t>", "float"), parse("(_8,_16):(_1,_8)"), parse("(_2,_1)")))
    return out


K = Dyn("K", min=32)
LAYOUTS = ["(_128,_32):(_32,_1)", "Sw<3,3,3> o _0 o (_128,_32):(_32,_1)", "Sw<2,3,3> o _0 o (_128,_32):(_32,_1)",
           "(_128,_32):(_1,_128)", "(_128,_32):(_40,_1)", "Sw<3,3,3> o _0 o ((_8,_16),(_8,_4)):((_64,_512),(_1,_8))",
           "(_128,_32):(K,_1)", "(_128,_32):(_1,K)", "Sw<2,3,3> o _0 o (_128,_32):(K,_1)"]


@pytest.mark.parametrize("k", range(len(_copies())))
def test_tiled_copies_same_answer(k: int) -> None:
    tc = _copies()[k]
    for text in LAYOUTS:
        lay = parse(text)
        for side in ("S", "D"):
            for fn in (lambda: bank_conflicts(tc, lay, warp=1, side=side), lambda: vector_width(tc, lay, side=side)):
                fast, slow = _both(fn)
                assert fast == slow, (text, side)
    fast, slow = _both(lambda: bank_conflicts(tc, make_layout((128, 32), (K, 1))))
    assert fast == slow


@pytest.mark.parametrize("seed", range(18))
def test_symbolic_same_answer(seed: int) -> None:
    rng = random.Random(seed)
    tv, M, N = tv_layout(rng)
    bits = rng.choice([8, 16, 32, 64])
    sw = Swizzle(b := rng.randint(1, 3), rng.randint(0, 3), rng.randint(b, 4)) if rng.random() < 0.4 else None
    P = Dyn("P", sign="any") if seed % 3 == 0 else Dyn("P", min=N, max=None if seed % 2 else 4 * N)
    base = make_layout((M, N), (P, 1)) if seed % 2 else make_layout((M, N), (1, P))
    lay = base if sw is None else ComposedLayout(sw, 0, base)
    for fn in (bank_conflicts, coalescing, vector_width):
        fast, slow = _both(lambda: fn(tv, lay, bits))
        assert fast == slow


def test_layout_table_is_the_layout() -> None:
    """@post of layout_table: the table is the layout at every index (static and linear strides)."""
    rng = random.Random(5)
    for _ in range(60):
        shape = tuple(rng.choice([1, 2, 3, 4, 8]) for _ in range(rng.randint(1, 3)))
        stride = tuple(rng.choice([0, 1, 2, 5, 16, -3]) for _ in shape)
        lay = make_layout(shape, stride)
        tab = layout_table(lay)
        assert tab is not None and list(tab.const) == [lay(i) for i in range(lay.size())]
    N = Dyn("N", min=1)
    lay = make_layout(((2, 4), 3), ((N, 2 * N + 1), 7))
    tab = layout_table(lay)
    assert tab is not None
    for i in range(lay.size()):
        assert tab.const[i] + tab.coeffs[0][i] * N - lay(i) == 0


def test_copy_index_table_is_the_partition() -> None:
    """@post of copy_index_table: the layout at the tabled index is tidfrg_S(layout)(t, (v, x), r)."""
    for tc in _copies():
        for text in ("(_128,_32):(_32,_1)", "(_64,_64):(_1,_64)", "((_8,_16),_32):((_32,_256),_1)"):
            lay = parse(text)
            got = copy_index_table(tc, lay.shape, "S")
            if got is None:
                continue
            T, V, X, R, index, (lo, hi) = got
            assert (lo, hi) == (min(index), max(index))
            part = tc.tidfrg_S(lay)
            for t in range(0, T, 7):
                for r in range(R):
                    for x in range(X):
                        for v in range(V):
                            assert lay(index[t + T * (v + V * (x + X * r))]) == part((t, (v, x), r))

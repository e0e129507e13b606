"""vector_width against the brute-force model, static and symbolic."""
from __future__ import annotations

import pytest

from analysis_bruteforce import thread_bytes, widest
from analysis_cases import check_cases, generated
from cute_sym.analysis import Cases, VectorWidth, vector_width
from cute_sym.core.errors import UndecidableError
from cute_sym.core.integers import Dyn
from cute_sym.layout import make_layout
from cute_sym.notation import parse
from cute_sym.swizzle import ComposedLayout, Swizzle

CASES = list(generated(200, seed=7))


@pytest.mark.parametrize("k", range(len(CASES)))
def test_matches_brute_force(k: int) -> None:
    c = CASES[k]
    addrs = thread_bytes(c.tv, c.layout, c.bits, range(32))
    got = vector_width(c.tv, c.layout, c.bits)
    assert isinstance(got, VectorWidth)
    assert got.bits == widest(addrs, c.bits) * c.bits
    assert got.values * c.bits == got.bits and got.reason


def test_reasons_name_the_limit() -> None:
    tv = parse("((_8,_16),_8):((_512,_1),_64)")
    assert "widest access" in vector_width(tv, parse("(_64,_64):(_64,_1)"), 16).reason  # type: ignore[union-attr]
    got = vector_width(tv, parse("(_64,_64):(_1,_64)"), 16)
    assert isinstance(got, VectorWidth) and got.bits == 16 and "64 elements after" in got.reason
    padded = vector_width(tv, parse("(_64,_64):(_66,_1)"), 16)   # rows of 132 bytes: 4-byte aligned
    assert isinstance(padded, VectorWidth) and padded.bits == 32 and "aligned" in padded.reason
    few = vector_width(parse("(_32,_2):(_2,_1)"), parse("_64:_1"), 16)
    assert isinstance(few, VectorWidth) and few.bits == 32 and "2 value(s)" in few.reason


def test_swizzle_keeps_or_breaks_vectors() -> None:
    tv = parse("((_8,_4),_8):((_1,_256),_32)")   # 8 consecutive halves of a row of 64
    lay = make_layout((32, 64), (64, 1))
    assert vector_width(tv, ComposedLayout(Swizzle(3, 3, 3), 0, lay), 16).bits == 128  # type: ignore[union-attr]
    assert vector_width(tv, ComposedLayout(Swizzle(1, 2, 4), 0, lay), 16).bits == 64  # type: ignore[union-attr]


@pytest.mark.parametrize("bits", [8, 16, 32, 64])
def test_symbolic_equals_concrete(bits: int) -> None:
    tv = parse("((_8,_4),_4):((_1,_32),_8)")    # thread t: row t%8, 4 consecutive values at column 4*(t//8)
    sym = vector_width(tv, make_layout((8, 16), (Dyn("N", min=16), 1)), bits)
    n_decided = 0
    for n in range(16, 200):
        want = vector_width(tv, make_layout((8, 16), (n, 1)), bits)
        try:
            got = sym.at(N=n) if isinstance(sym, Cases) else sym
        except UndecidableError:
            continue
        assert isinstance(got, VectorWidth) and isinstance(want, VectorWidth)
        assert got.bits == want.bits, (n, str(sym))
        n_decided += 1
    assert n_decided > 150


@pytest.mark.parametrize("bits", [16, 32])
def test_symbolic_extent_in_the_shape_is_decided(bits: int) -> None:
    # offsets 4*(i % M) + i // M: each case (M = 64*M' + r) settles the modulo and the floor
    # again (1 % M is 1 once M >= 2), so no case is left undecidable
    tv = parse("(_32,_4):(_4,_1)")
    sym = vector_width(tv, parse("(M,_4):(_4,_1)"), bits)
    assert isinstance(sym, Cases) and not sym.undecidable, str(sym)
    for m in range(1, 200):
        want = vector_width(tv, make_layout((m, 4), (4, 1)), bits)
        got = sym.at(M=m)
        assert isinstance(got, VectorWidth) and isinstance(want, VectorWidth)
        assert got.bits == want.bits, (m, str(sym))


@pytest.mark.parametrize("bits", [8, 16, 32])
def test_every_printed_case_holds_where_its_condition_does(bits: int) -> None:
    tv = parse("(_32,_8):(_64,_1)")
    sym = vector_width(tv, parse("(_64,_64):(_1,P)", {"P": Dyn("P")}), bits)
    n = check_cases(sym, [{"P": p} for p in range(1, 200)],
                    lambda env: vector_width(tv, make_layout((64, 64), (1, env["P"])), bits),
                    lambda r: (r.bits, r.values, r.element_bits, r.reason.split(":")[0]))   # the offset is P's formula
    assert n == 199

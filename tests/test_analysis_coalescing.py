"""coalescing against the brute-force model, static and symbolic."""
from __future__ import annotations

import pytest

from analysis_bruteforce import gmem_sectors, thread_bytes, widest
from analysis_cases import check_cases, generated
from cute_sym.analysis import Cases, Coalescing, coalescing
from cute_sym.core.errors import LayoutError, UndecidableError
from cute_sym.core.integers import Dyn
from cute_sym.layout import make_layout
from cute_sym.notation import parse
from cute_sym import Copy_Atom
from cute_sym import make_tiled_copy

CASES = [c for c in generated(300, seed=3) if not hasattr(c.layout, "layout_a")]   # global tensors: unswizzled


def _legal(addrs: list[list[int]], bits: int, n: int) -> bool:
    nb = bits // 8
    return all(a[j] % (n * nb) == 0 and all(a[j + k] == a[j] + k * nb for k in range(n))
               for a in addrs for j in range(0, len(a), n))


@pytest.mark.parametrize("k", range(len(CASES)))
def test_matches_brute_force(k: int) -> None:
    c = CASES[k]
    addrs = thread_bytes(c.tv, c.layout, c.bits, range(32))
    n = (c.vector_bits // c.bits) if c.vector_bits else widest(addrs, c.bits)
    if not _legal(addrs, c.bits, n):
        with pytest.raises(LayoutError):
            coalescing(c.tv, c.layout, c.bits, c.vector_bits)
        return
    got = coalescing(c.tv, c.layout, c.bits, c.vector_bits)
    assert isinstance(got, Coalescing)
    assert (got.sectors, got.requests, got.min_sectors) == gmem_sectors(addrs, c.bits, n)
    assert 0 < got.efficiency <= 1 and sum(got.per_request) == got.sectors


def test_row_major_tile_by_128_threads_128_bit() -> None:
    atom = Copy_Atom("UniversalCopy<uint128_t>", "half_t")
    tc = make_tiled_copy(atom, parse("(_16,_8):(_8,_1)"), parse("(_1,_8)"))   # 16x64 halves a step
    g = make_layout((64, 64), (64, 1))
    for w in range(4):
        got = coalescing(tc, g, warp=w)
        assert isinstance(got, Coalescing) and got.sectors == got.min_sectors and got.vector_bits == 128
        assert got.per_request == (16,) * got.requests


@pytest.mark.parametrize("bits", [16, 32])
def test_symbolic_equals_concrete(bits: int) -> None:
    tv = parse("((_4,_8),_4):((_4,_16),_1)")     # 8 rows of 16 elements, 4 threads a row
    sym = coalescing(tv, make_layout((16, 8), (1, Dyn("M", min=16))), bits)
    for m in range(16, 200):
        try:
            want = coalescing(tv, make_layout((16, 8), (1, m)), bits)
        except LayoutError:
            want = None
        try:
            got = sym.at(M=m) if isinstance(sym, Cases) else sym
        except UndecidableError:
            continue
        except LayoutError:
            got = None
        if want is None or got is None:
            assert want is None and got is None
            continue
        assert isinstance(got, Coalescing) and isinstance(want, Coalescing)
        assert got.key() == want.key(), (m, str(sym))


@pytest.mark.parametrize("bits", [16, 32])
def test_every_printed_case_holds_where_its_condition_does(bits: int) -> None:
    # the sectors of each request differ between residues of equal sums (8+8+8+9, 9+8+8+8)
    tv = parse("((_4,_8),_4):((_4,_16),_1)")
    sym = coalescing(tv, parse("(_64,_64):(_1,P)", {"P": Dyn("P")}), bits)
    n = check_cases(sym, [{"P": p} for p in range(1, 200)],
                    lambda env: coalescing(tv, make_layout((64, 64), (1, env["P"])), bits))
    assert n == 199

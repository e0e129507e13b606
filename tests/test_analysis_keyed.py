"""The keyed (symbolic) hot path read off flat columns, against the pair-by-pair reading.

In keyed mode an access's offsets are linear forms in its symbols; each case of the symbols
reads them as whole columns (:class:`cute_sym.analysis.space._Rows`): vectors are checked
per steady run (:meth:`KeyColumns.steady`), bank words and coalesced sectors counted per
vector. Here, on generated symbolic cases: every column read is :meth:`Space.addr` key by
key; ``first_bad`` names exactly the first run that is no vector; and every answer (text,
fields, phases and their words, cases, errors) is the one the element-by-element keyed path
gives (runs never taken as steady).
"""
from __future__ import annotations

import random
from typing import Any, Callable

import pytest

from analysis_cases import answer_of, tv_layout
from cute_sym import Copy_Atom, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_mma
from cute_sym.analysis import bank_conflicts, coalescing, vector_width
from cute_sym.analysis import tables
from cute_sym.analysis.access import access_of, analyze
from cute_sym.analysis.space import Space
from cute_sym.core.errors import UndecidableError
from cute_sym.core.integers import Dyn
from cute_sym.layout import make_layout
from cute_sym.swizzle import ComposedLayout, Swizzle


_answer = answer_of          # the error, or the answer with every field, phase and case


def _symbolic(seed: int) -> tuple[Any, Any, int, Any]:
    """(TV layout, symbolic layout, bits, vector bits) of a generated case: one or two symbols
    in strides, padded, swizzled, or a symbolic base offset."""
    rng = random.Random(seed)
    tv, M, N = tv_layout(rng)
    bits = rng.choice([8, 16, 32, 64, 128])
    P = [Dyn("P", sign="any"), Dyn("P", min=N), Dyn("P", min=N, max=4 * N),
         Dyn("P", min=N, divisible_by=rng.choice([2, 4, 8]))][seed % 4]
    form = rng.randrange(4)
    if form == 0:
        lay = make_layout((M, N), (P + rng.choice([0, 1, 8]), 1))
    elif form == 1:
        lay = make_layout((M, N), (1, P))
    elif form == 2 and M % 2 == 0:
        lay = make_layout(((M // 2, 2), N), ((P, Dyn("Q", min=0)), 1))
    else:
        lay = make_layout((M, N), (2 * P, 1))
    if rng.random() < 0.5:
        b = rng.randint(1, 3)
        off = rng.choice([0, 8, Dyn("B", min=0) * rng.choice([1, 8])])
        lay = ComposedLayout(Swizzle(b, rng.randint(0, 3), rng.randint(b, 4)), off, lay)
    nv = tv[1].size()
    widths = [w for w in (bits, 2 * bits, 4 * bits, 8 * bits, 16 * bits) if w <= 128 and nv % (w // bits) == 0]
    return tv, lay, bits, rng.choice(widths + [None])


SEEDS = [s for s in range(40) if s not in (12, 25, 29, 38)]     # those four: seconds of cases each


@pytest.mark.parametrize("seed", SEEDS)
def test_columns_are_the_keys_read_one_by_one(seed: int) -> None:
    """@post of _Rows: rows, residues and high parts are Space.addr's, key by key; first_bad
    names the first run that is no vector (or -1), only for steady runs."""
    tv, lay, bits, _ = _symbolic(seed)
    acc = access_of(tv, lay, bits)
    if acc.syms is None:
        pytest.skip("not keyed")
    cols = acc.columns()
    width = cols.width
    assert width is not None
    for n in (1, 2, 4, 8):
        if cols.steady(n):         # @post of steady
            for x in range(0, len(cols.const), n):
                assert all(cols.const[x + k] == cols.const[x] + k for k in range(n))
                assert all(col[x + k] == col[x] for col in cols.coeffs for k in range(n))
    seen = []

    def check(space: Space, _: Any) -> int:
        rows = space.rows(cols)
        keys = [k for row in acc.keys for k in row]
        want = [space.addr(k) for k in keys]
        assert [qc for i in range(len(rows)) for qc in rows[i]] == want
        for n in (1, 2, 4, 8):
            if width % n:
                continue
            assert rows.residues(n) == [c for _, c in want[::n]]
            assert rows.highs(n) == [q for q, _ in want[::n]]
            bad = rows.first_bad(n)
            if bad is None:
                assert not cols.steady(n)
                continue
            runs = [all(want[x + k] == (want[x][0], want[x][1] + k) for k in range(n)) and want[x][1] % n == 0
                    for x in range(0, len(want), n)]
            assert bad == (-1 if all(runs) else runs.index(False) * n)
        seen.append(1)
        return 0
    try:
        analyze(acc, check, lambda r: r)
    except UndecidableError as e:      # more cases than MAX_CASES: refused before any is read
        assert "too many cases" in str(e) and not seen
        return
    assert seen


def _copies() -> list[Any]:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    return [make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma),
            make_tiled_copy_B(Copy_Atom("SM75_U32x2_LDSM_N", "half_t"), mma),
            make_tiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), make_layout((16, 8), (8, 1)),
                            make_layout((1, 8))),
            make_tiled_copy(Copy_Atom("UniversalCopy<uint16_t>", "uint8_t"), make_layout((32, 4), (1, 32)),
                            make_layout((2, 1)))]


def _element_by_element(mp: pytest.MonkeyPatch) -> None:
    """No run is steady: vectors checked pair by pair, words and sectors element by element."""
    mp.setattr(tables.KeyColumns, "steady", lambda self, n: False)


def _both(fn: Callable[[], Any]) -> tuple[Any, Any]:
    fast = _answer(fn)
    with pytest.MonkeyPatch.context() as mp:
        _element_by_element(mp)
        slow = _answer(fn)
    return fast, slow


@pytest.mark.parametrize("seed", SEEDS)
def test_runs_answer_as_element_by_element(seed: int) -> None:
    tv, lay, bits, vb = _symbolic(seed)
    for fn in (lambda: bank_conflicts(tv, lay, bits, vb), lambda: coalescing(tv, lay, bits, vb),
               lambda: vector_width(tv, lay, bits)):
        fast, slow = _both(fn)
        assert fast == slow, seed


L = Dyn("L", sign="any")


@pytest.mark.parametrize("k", range(4))
def test_copies_answer_as_element_by_element(k: int) -> None:
    tc = _copies()[k]
    lays = [make_layout((128, 32), (Dyn("K"), 1)),
            ComposedLayout(Swizzle(1, 3, 3), 8 * Dyn("B", min=0), make_layout((128, 32), (40, 1)))]
    if k == 3:      # two symbols, one of any sign (K == 0 peeled): tens of seconds element by element for the others
        lays.append(make_layout(((64, 2), 32), ((L, Dyn("M", min=0)), 1)))
    for lay in lays:
        for fn in (bank_conflicts, coalescing):
            fast, slow = _both(lambda: fn(tc, lay, warp=1))
            assert fast == slow, (k, str(lay), fn.__name__)


def test_an_undecided_pair_is_named_as_element_by_element() -> None:
    # K == 0 is no case of its own here (K of any sign, one residue class); rows K apart are
    # one address exactly when K == 0: the keyed counting asks Space.same as the element by
    # element one does, and both split or name the same question
    tv = make_layout((32, 1), (1, 0))
    lay = make_layout((32, 8), (Dyn("K", sign="any"), 1))
    for fn in (lambda: bank_conflicts(tv, lay, 32), lambda: coalescing(tv, lay, 32)):
        fast, slow = _both(fn)
        assert fast == slow

"""check_copy_mma: a copy fits an MMA's fragment iff every thread gets exactly its fragment's elements."""
from __future__ import annotations

import pytest

from cute_sym.analysis import check_copy_mma
from cute_sym.core.errors import LayoutError
from cute_sym.notation import parse
from cute_sym import Copy_Atom
from cute_sym import make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C
from cute_sym import make_tiled_mma

MMAS = [("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16)),
        ("SM80_16x8x16_F16F16F16F16_TN", (1, 1, 1), None),
        ("SM80_16x8x8_F16F16F16F16_TN", (2, 1, 1), None),
        ("SM75_16x8x8_F32F16F16F32_TN", (1, 2, 1), None)]


def _fragment_sets(tv: object, nthr: int, M: int) -> list[list[tuple[int, int]]]:
    nv = tv[1].size()  # type: ignore[index]
    return [sorted(((tv(t, v) % M), (tv(t, v) // M)) for v in range(nv)) for t in range(nthr)]  # type: ignore[operator]


@pytest.mark.parametrize("k", range(len(MMAS)))
def test_built_for_the_mma_fits(k: int) -> None:
    name, lay, perm = MMAS[k]
    mma = make_tiled_mma(name, lay, perm)
    for op, make, operand in (("SM75_U32x4_LDSM_N", make_tiled_copy_A, "A"), ("SM75_U32x2_LDSM_N", make_tiled_copy_B, "B")):
        try:
            tc = make(Copy_Atom(op, "half_t"), mma)
        except LayoutError:
            continue
        got = check_copy_mma(tc, mma, operand)
        # the post-condition, recomputed: per-thread element sets agree
        M = int(mma.tile_size_mnk(0 if operand == "A" else 1))
        same = _fragment_sets(tc.get_layoutD_TV(), int(mma.thr_size()), M) == \
            _fragment_sets(getattr(mma, f"get_layout{operand}_TV")(), int(mma.thr_size()), M)
        assert bool(got) == same, str(got)
        assert got.ok, str(got)
        assert "fits" in str(got)


def test_first_mismatch_in_words() -> None:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    ldsm = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    wrong = check_copy_mma(ldsm, mma, "B")
    assert not wrong and "thread 0" in wrong.mismatch
    fp32 = make_tiled_copy_A(Copy_Atom("UniversalCopy<uint32_t>", "float"), mma)
    assert "16-bit" in check_copy_mma(fp32, mma, "A").mismatch
    few = make_tiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), parse("(_32,_1):(_1,_0)"), parse("(_1,_8)"))
    assert "threads" in check_copy_mma(few, mma, "A").mismatch
    c = make_tiled_copy_C(Copy_Atom("UniversalCopy<uint32_t>", "half_t"), mma)
    assert check_copy_mma(c, mma, "C", side="S").ok


def test_bad_input() -> None:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN")
    tc = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    with pytest.raises(LayoutError):
        check_copy_mma(tc, mma, "D")
    with pytest.raises(LayoutError):
        check_copy_mma(tc, mma, "A", side="X")

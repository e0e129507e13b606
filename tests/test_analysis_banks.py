"""bank_conflicts against the brute-force model (every word of every thread), static and symbolic."""
from __future__ import annotations

import pytest

from analysis_bruteforce import phase_of, smem_wavefronts, thread_bytes, widest
from analysis_cases import TYPES, check_cases, generated
from cute_sym.analysis import BankConflicts, Cases, bank_conflicts
from cute_sym.analysis.cases import Space
from cute_sym.core.errors import LayoutError, UndecidableError
from cute_sym.core.integers import Dyn
from cute_sym.layout import make_layout
from cute_sym.notation import parse
from cute_sym.swizzle import ComposedLayout, Swizzle
from cute_sym import Copy_Atom
from cute_sym import make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B
from cute_sym import make_tiled_mma


def _legal(addrs: list[list[int]], bits: int, n: int) -> bool:
    nb = bits // 8
    return all(a[j] % (n * nb) == 0 and all(a[j + k] == a[j] + k * nb for k in range(n))
               for a in addrs for j in range(0, len(a), n))


CASES = list(generated(300, seed=14))


@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
def test_tv_layouts_match_brute_force(case: object) -> None:
    c = case  # type: ignore[assignment]
    addrs = thread_bytes(c.tv, c.layout, c.bits, range(32))
    n = (c.vector_bits // c.bits) if c.vector_bits else widest(addrs, c.bits)
    if not _legal(addrs, c.bits, n):
        with pytest.raises(LayoutError):
            bank_conflicts(c.tv, c.layout, c.bits, c.vector_bits)
        return
    got = bank_conflicts(c.tv, c.layout, c.bits, c.vector_bits)
    assert isinstance(got, BankConflicts)
    assert (got.wavefronts, got.ideal) == smem_wavefronts(addrs, c.bits, n, phase_of(n * c.bits))
    assert got.vector_bits == n * c.bits
    assert sum(p.wavefronts for p in got.phases) == got.wavefronts
    assert all(p.wavefronts >= p.ideal >= 1 for p in got.phases)


def _tiled_copies() -> list[tuple[object, object, int]]:
    """(tiled copy, smem layout, ldmatrix matrices or 0)."""
    out: list[tuple[object, object, int]] = []
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    for op, mats in (("SM75_U32x4_LDSM_N", 4), ("SM75_U32x2_LDSM_N", 2), ("SM75_U32x1_LDSM_N", 1)):
        for make in (make_tiled_copy_A, make_tiled_copy_B):
            tc = make(Copy_Atom(op, "half_t"), mma)
            for ld in (16, 24, 32, 64, 0):
                for sw in (None, Swizzle(2, 3, 3), Swizzle(3, 3, 3), Swizzle(1, 3, 3)):
                    # the tile of the copy (32 x 16), K-major with leading dimension ld, or M-major
                    lay = make_layout((32, 16), (ld, 1)) if ld else make_layout((32, 16), (1, 32))
                    out.append((tc, lay if sw is None else ComposedLayout(sw, 0, lay), mats))
    for bits, vec in ((16, 128), (32, 64), (8, 32), (64, 128), (16, 32)):
        n = vec // bits
        atom = Copy_Atom(f"UniversalCopy<uint{vec}_t>" if vec < 128 else "UniversalCopy<uint128_t>", TYPES[bits])
        for thr, val in (("(_8,_4):(_4,_1)", f"(_1,_{n})"), ("(_32,_1):(_1,_0)", f"(_{n},_1)"),
                         ("(_4,_8):(_1,_4)", f"(_1,_{n})")):
            tc = make_tiled_copy(atom, parse(thr), parse(val))
            for sw in (None, Swizzle(3, 3, 3), Swizzle(2, 4, 3)):
                for rowmajor in (True, False):
                    shape = tuple(int(x) for x in tc._tiler_shape())
                    lay = make_layout(shape, (shape[1], 1) if rowmajor else (1, shape[0]))
                    out.append((tc, lay if sw is None else ComposedLayout(sw, 0, lay), 0))
    return out


TCS = _tiled_copies()


@pytest.mark.parametrize("k", range(len(TCS)))
def test_tiled_copies_match_brute_force(k: int) -> None:
    tc, lay, mats = TCS[k]
    bits = tc.bits  # type: ignore[attr-defined]
    tv = tc.get_layoutS_TV()  # type: ignore[attr-defined]
    n = tc.AtomNumVal if not mats else 128 // bits  # type: ignore[attr-defined]
    threads = range(32) if not mats else range(8 * mats)
    addrs = thread_bytes(tv, lay, bits, threads)
    if not _legal(addrs, bits, n):
        with pytest.raises(LayoutError):
            bank_conflicts(tc, lay)  # type: ignore[arg-type]
        return
    got = bank_conflicts(tc, lay)  # type: ignore[arg-type]
    assert isinstance(got, BankConflicts)
    phase = 8 if mats else phase_of(n * bits)
    assert (got.wavefronts, got.ideal) == smem_wavefronts(addrs, bits, n, phase)


def test_ldmatrix_k_major_tile_needs_a_swizzle() -> None:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    tc = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    plain = bank_conflicts(tc, parse("(_128,_32):(_32,_1)"))
    assert isinstance(plain, BankConflicts) and plain.degree == 4 and plain.conflicts == 96
    for sw in ("Sw<2,3,3>", "Sw<3,3,3>"):
        got = bank_conflicts(tc, parse(f"{sw} o _0 o (_128,_32):(_32,_1)"))
        assert isinstance(got, BankConflicts) and got.conflicts == 0 and got.wavefronts == 32
    # the worst phase names four threads on one bank
    worst = max(plain.phases, key=lambda p: p.wavefronts)
    assert len(worst.words) == 4 and "bank" in str(worst)


def test_broadcast_is_no_conflict() -> None:
    # every thread reads the same 32-bit word, then the same 16-bit half of it
    for bits in (32, 16):
        got = bank_conflicts(parse("(_32,_1):(_0,_0)"), parse("_64:_1"), bits)
        assert isinstance(got, BankConflicts) and (got.wavefronts, got.ideal) == (1, 1)


SYMBOLIC = [
    ("((_8,_4),_8):((_1,_256),_8)", "rowmajor", 16, None, 32),
    ("((_8,_4),_8):((_1,_256),_8)", "rowmajor", 16, Swizzle(3, 3, 3), 32),
    ("(_32,_2):(_1,_32)", "rowmajor", 32, None, 64),
    ("(_32,_4):(_4,_1)", "colmajor", 64, None, 16),
    ("(_32,_1):(_1,_0)", "rowmajor", 8, Swizzle(2, 0, 4), 1),
]


@pytest.mark.parametrize("k", range(len(SYMBOLIC)))
def test_symbolic_equals_concrete(k: int) -> None:
    tv_text, order, bits, sw, ncols = SYMBOLIC[k]
    tv = parse(tv_text)
    nidx = tv.cosize()
    rows = -(-nidx // ncols)
    K = Dyn("K", min=ncols)

    def lay(ld: object) -> object:
        base = make_layout((rows, ncols), (ld, 1)) if order == "rowmajor" else make_layout((ncols, rows), (1, ld))
        return base if sw is None else ComposedLayout(sw, 0, base)
    sym = bank_conflicts(tv, lay(K), bits)  # type: ignore[arg-type]
    decided = undecided = 0
    for kv in range(ncols, ncols + 100):
        try:
            want = bank_conflicts(tv, lay(kv), bits)  # type: ignore[arg-type]
        except LayoutError:
            want = None
        try:
            got = sym.at(K=kv) if isinstance(sym, Cases) else sym
        except UndecidableError:      # named, not guessed: K' == 0 is a case of its own
            undecided += 1
            continue
        except LayoutError:
            got = None
        if want is None or got is None:
            assert want is None and got is None, kv
            continue
        assert isinstance(want, BankConflicts) and isinstance(got, BankConflicts)
        assert got.key() == want.key(), (kv, str(sym))
        decided += 1
    assert decided > 0 and undecided * 20 <= decided


def test_symbolic_text_names_residues() -> None:
    tv = parse("(_32,_1):(_1,_0)")      # thread t reads row t, column 0
    got = bank_conflicts(tv, make_layout((32, 8), (Dyn("K", min=8), 1)), 32)
    assert isinstance(got, Cases)
    text = str(got)
    assert "32-way bank conflicts" in text and "K % 32 == 0" in text
    assert "conflict-free" in text and "K % 2 == 1" in text
    assert got.at(K=33).wavefronts == 1 and got.at(K=64).wavefronts == 32


def test_symbolic_text_names_the_shorter_residue_set() -> None:
    # ldmatrix of a K-major tile of leading dimension K: 7 misaligned residues of K modulo 8
    # against 1 aligned; the text names the one left out, and each residue answers as it says
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    ldsm = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    got = bank_conflicts(ldsm, parse("(_128,_32):(K,_1)", {"K": Dyn("K")}))
    assert isinstance(got, Cases)
    assert [cond for cond, _ in got.invalid] == ["K % 8 != 0"], str(got)
    for k in range(1, 80):
        if k % 8:
            with pytest.raises(LayoutError):
                got.at(K=k)
        else:
            assert got.at(K=k).wavefronts == bank_conflicts(ldsm, make_layout((128, 32), (k, 1))).wavefronts


def test_a_symbol_of_any_sign_is_split_at_0() -> None:
    # a leading dimension K of any sign: K == 0 (every row at one address, a broadcast), K >= 64
    # and K <= -64 are cases of their own in K % 64 == 0; every one decided, as the static answers
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    ldsm = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    got = bank_conflicts(ldsm, parse("(_128,_32):(K,_1)"))
    assert isinstance(got, Cases) and not got.undecidable, str(got)
    assert "K == 0" in str(got) and "K <= -64" in str(got)
    for k in range(-200, 201, 8):
        assert got.at(K=k).key() == bank_conflicts(ldsm, make_layout((128, 32), (k, 1))).key(), k


def test_two_symbols_split_only_where_the_question_is() -> None:
    # K == 0 is split off alone: the text reads the other symbol as a class, and each point of a
    # grid answers as the static layout does
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    ldsm = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    got = bank_conflicts(ldsm, parse("((_64,_2),_32):((K,L),_1)"))
    assert isinstance(got, Cases) and not got.undecidable, str(got)
    assert "K == 0 and L % 8 == 0" in str(got)
    for k in range(-96, 97, 16):
        for lv in (0, 8, 24, 64, 72, -8):
            want = bank_conflicts(ldsm, make_layout(((64, 2), 32), ((k, lv), 1)))
            assert got.at(K=k, L=lv).key() == want.key(), (k, lv)
    # and the printed conditions, over both symbols at once
    grid = [{"K": k, "L": lv} for k in range(-72, 73, 8) for lv in range(-24, 80, 8)]
    assert check_cases(got, grid, lambda env: bank_conflicts(
        ldsm, make_layout(((64, 2), 32), ((env["K"], env["L"]), 1)))) == len(grid)


def test_an_open_equality_is_named_in_the_users_symbols() -> None:
    # the case's own symbol K' (K = 64*K' + 16) is written back: 4*K' + 1 == 0 reads K == 0
    K = Dyn("K", sign="any")
    Kp = Dyn("K'", sign="any")
    space = Space(64, {K: 64 * Kp + 16})
    assert str(space._user_text(4 * Kp + 1)) == "K"
    assert str(space._user_text(Kp - 2)) == "K - 144"


def test_divisibility_fact_prunes_cases() -> None:
    tv = parse("(_32,_1):(_1,_0)")
    got = bank_conflicts(tv, make_layout((32, 8), (Dyn("K", divisible_by=32), 1)), 32)
    assert isinstance(got, BankConflicts) and got.degree == 32


def test_bad_input() -> None:
    with pytest.raises(LayoutError):
        bank_conflicts(parse("(_32,_1):(_1,_0)"), parse("_64:_1"), 24)
    with pytest.raises(LayoutError):
        bank_conflicts(parse("(_32,_1):(_1,_0)"), parse("_64:_1"))
    with pytest.raises(LayoutError):
        bank_conflicts(parse("(_32,_2):(_2,_1)"), parse("_64:_1"), 16, vector_bits=48)
    with pytest.raises(LayoutError):
        bank_conflicts(parse("(_32,_2):(_2,_1)"), parse("_64:_1"), 16, warp=1)


def test_static_path_makes_no_sympy_object() -> None:
    import sympy
    from cute_sym.analysis import coalescing, vector_width
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    tc = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    sA = parse("Sw<3,3,3> o _0 o (_128,_32):(_32,_1)")
    tv, g = parse("((_8,_16),_8):((_512,_1),_64)"), parse("(_64,_64):(_64,_1)")
    made: list[str] = []
    orig = sympy.Basic.__new__

    def spy(cls: object, *args: object, **kw: object) -> object:
        made.append(getattr(cls, "__name__", "?"))
        return orig(cls, *args, **kw)   # type: ignore[arg-type]
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(sympy.Basic, "__new__", staticmethod(spy))
        bank_conflicts(tc, sA)
        vector_width(tv, g, 16)
        coalescing(tv, g, 16)
    finally:
        mp.undo()
    assert made == []


PRINTED = [
    # (tv, shared-memory layout text over P, element bits, values of P)
    ("(_32,_8):(_64,_1)", "(_64,_64):(_1,P)", 16, range(1, 200)),     # vectors 16..128 bits by P's residue
    ("((_8,_4),_8):((_1,_256),_8)", "(_32,_64):(P,_1)", 16, range(64, 200)),
    ("(_32,_4):(_4,_1)", "Sw<3,3,3> o _0 o (_32,_64):(P,_1)", 16, range(64, 200)),
]


@pytest.mark.parametrize("k", range(len(PRINTED)))
def test_every_printed_case_holds_where_its_condition_does(k: int) -> None:
    # a case groups residues: what it prints (instructions, vector width, each phase, its worst
    # bank) must hold at every one of them, not only at the residue it was computed for
    tv_text, lay_text, bits, values = PRINTED[k]
    tv = parse(tv_text)
    sym = bank_conflicts(tv, parse(lay_text, {"P": Dyn("P", min=min(values))}), bits)
    n = check_cases(sym, [{"P": p} for p in values],
                    lambda env: bank_conflicts(tv, parse(lay_text.replace("P", f"_{env['P']}")), bits))
    assert n > len(values) * 0.9


def test_ldmatrix_cases_hold_where_their_conditions_do() -> None:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    ldsm = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    for sym, values in ((bank_conflicts(ldsm, parse("(_128,_32):(K,_1)", {"K": Dyn("K")})), range(1, 200)),
                        (bank_conflicts(ldsm, parse("(_128,_32):(K,_1)")), range(-130, 200))):   # K of any sign
        n = check_cases(sym, [{"K": k} for k in values],
                        lambda env: bank_conflicts(ldsm, make_layout((128, 32), (env["K"], 1))))
        assert n > len(values) * 0.9

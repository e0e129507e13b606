"""copy moves exactly the elements the partitions say: every destination element of the tile
is written, from the source element of the same coordinate, by every copy atom family (run
by the threads of a simulated CTA), and the plain copy follows the 1-D index."""
from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import cute_sym as cs  # noqa: E402
from cute_sym import LayoutError, _, make_layout  # noqa: E402
from cute_sym.tensor.numeric import storage_dtype  # noqa: E402

PAIRS = [("_8:_1", "_8:_1"), ("(_4,_8):(_8,_1)", "(_4,_8):(_1,_4)"), ("(_2,_3):(_4,_1)", "_6:_1"),
         ("_6:_1", "(_2,_3):(_4,_1)"), ("_7:_0", "_7:_1"), ("(_4,(_2,_3)):(_1,(_4,_12))", "(_4,_6):(_1,_4)"),
         ("(_4,_3,_5):(_1,_7,_42)", "(_6,_10):(_1,_9)"), ("(_5,_7):(_7,_1)", "(_7,_5):(_5,_1)"),
         ("_12:_1", "(_3,_4):(_4,_1)"), ("(_5,_4):(_0,_1)", "(_5,_4):(_4,_1)")]


@pytest.mark.parametrize("src,dst", PAIRS)
def test_plain_copy_follows_the_index(src: str, dst: str) -> None:
    S, D = cs.parse(src), cs.parse(dst)
    s = cs.make_tensor(np.arange(int(S.cosize()), dtype=np.float64) + 1, S)
    d = cs.make_tensor(np.zeros(int(D.cosize())), D)
    cs.copy(s, d)
    for i in range(cs.size(S)):
        assert d[i] == s[i]
    reached = {D(i) for i in range(cs.size(D))}
    assert all(d.engine.array[k] == 0 for k in range(int(D.cosize())) if k not in reached)


def test_copy_checks_sizes_and_converts_types() -> None:
    with pytest.raises(LayoutError, match="size"):
        cs.copy(cs.make_tensor(np.zeros(4), make_layout(4)), cs.make_tensor(np.zeros(8), make_layout(8)))
    s = cs.make_tensor(np.array([0.1, 1e6, -2.5]), make_layout(3))
    d = cs.make_tensor(make_layout(3), dtype="half_t")
    cs.copy(s, d)
    assert [float(d[i]) for i in range(3)] == [float(np.float16(0.1)), float("inf"), -2.5]


def _tile_shape(tc: Any) -> tuple[int, ...]:
    t = tc.Tiler_MN
    return tuple(int(cs.size(x)) for x in t) if isinstance(t, tuple) else (int(cs.size(t)),)


def _values(dtype: str, n: int) -> Any:
    sd = storage_dtype(dtype)
    return (np.arange(n) % (250 if sd.itemsize == 1 else 30000) + 1).astype(sd)


def _run_tiled(tc: Any, dtype: str, src_layout: Any = None) -> tuple[Any, Any, Any]:
    shape = _tile_shape(tc)
    n = int(np.prod(shape))
    sim = cs.Simulation(tc.TiledNumThr)
    S = sim.global_tensor(_values(dtype, n), src_layout or make_layout(shape), dtype=dtype, name="S")
    D = sim.shared_tensor(make_layout(shape, tuple(int(np.prod(shape[i + 1:])) for i in range(len(shape)))), dtype,
                          name="D")                     # another order than S: the copy goes by coordinate

    def kernel(t: int) -> None:
        thr = tc.get_slice(t)
        cs.copy(tc, thr.partition_S(S), thr.partition_D(D))
        cs.cp_async_fence()             # (cp.async lands at its wait; for other atoms these do nothing)
        cs.cp_async_wait(0)

    return S, D, sim.run(kernel)


def _injective(layout: Any) -> bool:
    vals = [layout(i) for i in range(cs.size(layout))]
    return len(set(vals)) == len(vals)


def _check(tc: Any, dtype: str) -> None:
    S, D, report = _run_tiled(tc, dtype)
    shape = _tile_shape(tc)
    for c in np.ndindex(*shape):
        crd = tuple(int(x) for x in c)
        assert D.engine.array[D.layout(crd)] == S.engine.array[S.layout(crd)], (tc, crd)    # the same bits
    # every destination element written, and once: the threads' destination values are distinct
    if _injective(tc.get_layoutD_TV()):
        assert report.ok, report
    else:
        assert {f.kind for f in report.faults} <= {"race"}


MMA16 = "SM80_16x8x16_F16F16F16F16_TN"
WARP_ATOMS = ["SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N", "SM75_U16x2_LDSM_T",
              "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T", "SM90_U32x1_STSM_N", "SM90_U32x2_STSM_N",
              "SM90_U32x4_STSM_N", "SM90_U16x2_STSM_T", "SM90_U16x4_STSM_T", "SM90_U16x8_STSM_T",
              "SM75_U32x1_MOVM_T"]


@pytest.mark.parametrize("op", WARP_ATOMS)
def test_ldmatrix_and_stmatrix_move_by_coordinate(op: str) -> None:
    _check(cs.make_tiled_copy_A(cs.Copy_Atom(op, "half_t"), cs.make_tiled_mma(MMA16, (2, 1, 1))), "half_t")
    try:        # B of two atoms along N: the .x4 forms take more values than a thread holds there
        tc = cs.make_tiled_copy_B(cs.Copy_Atom(op, "half_t"), cs.make_tiled_mma(MMA16, (1, 2, 1)))
    except LayoutError:
        tc = cs.make_tiled_copy_B(cs.Copy_Atom(op, "half_t"), cs.make_tiled_mma(MMA16, (1, 2, 1), (_, 32, _)))
    _check(tc, "half_t")


@pytest.mark.parametrize("op", ["SM100_U8x8_LDSM_T", "SM100_U8x16_LDSM_T", "SM100_U8x4_STSM_T", "SM100_U8x8_STSM_T",
                                "SM100_U8x16_STSM_T", "SM100_SU4_DU8x16_x1_LDSM_N", "SM100_SU6_DU8x16_x2_LDSM_N",
                                "SM100_SU4_DU8x16_x4_LDSM_N", "SM50_Shuffle_U32_2x2Trans_XOR1",
                                "SM50_Shuffle_U32_2x2Trans_XOR4"])
def test_eight_bit_matrix_copies_and_shuffles(op: str) -> None:
    _check(cs.make_tiled_copy_A(cs.Copy_Atom(op, "uint8_t"), cs.make_tiled_mma("SM89_16x8x32_F32E4M3E4M3F32_TN")),
           "uint8_t")


def _random_tiled_copies(seed: int, count: int) -> list[tuple[Any, str]]:
    rng = random.Random(seed)
    ops = [("UniversalCopy<uint32_t>", ["half_t", "float", "int8_t"]),
           ("UniversalCopy<uint64_t>", ["half_t", "float", "bfloat16_t"]),
           ("UniversalCopy<uint128_t>", ["half_t", "float", "uint8_t"]),
           ("UniversalCopy<uint8_t>", ["uint8_t"]), ("UniversalCopy<double>", ["double", "float"]),
           ("SM80_CP_ASYNC_CACHEALWAYS<uint32_t>", ["half_t", "float"]),
           ("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", ["half_t", "float_e4m3_t"]),
           ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", ["half_t", "int8_t", "float"]),
           ("SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>", ["bfloat16_t"]),
           ("SM100_LOAD_256bit_CACHE_NOALLOCATION", ["float", "half_t"]),
           ("DefaultCopy", ["float"]), ("AutoVectorizingCopy", ["half_t"])]
    out = []
    while len(out) < count:
        op, types = rng.choice(ops)
        dtype = rng.choice(types)
        atom = cs.Copy_Atom(op, dtype)
        v = atom.NumValSrc if not op.startswith("Auto") and op != "DefaultCopy" else 1
        thr = rng.choice([(4, 8), (8, 4), (16, 2), (2, 16), (32, 1)])
        thr_layout = make_layout(thr, (thr[1], 1)) if rng.random() < 0.5 else make_layout(thr)
        val = (v, 1) if rng.random() < 0.5 else (1, v)
        if rng.random() < 0.3:
            val = (val[0] * 2, val[1])
        val_layout = make_layout(val, (val[1], 1)) if val[0] == 1 or rng.random() < 0.5 else make_layout(val)
        try:
            out.append((cs.make_tiled_copy(atom, thr_layout, val_layout), dtype))
        except LayoutError:
            continue
    return out


@pytest.mark.parametrize("seed", range(6))
def test_random_tiled_copies_of_one_thread_atoms(seed: int) -> None:
    for tc, dtype in _random_tiled_copies(seed, 3):
        _check(tc, dtype)


def test_a_copy_atom_of_several_threads_needs_a_simulation() -> None:
    tc = cs.make_tiled_copy_A(cs.Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), cs.make_tiled_mma(MMA16))
    S = cs.make_tensor(np.zeros(512, dtype=np.float16), make_layout((32, 16)))
    with pytest.raises(LayoutError, match="simulate"):
        cs.copy(tc, tc.get_slice(0).partition_S(S), tc.get_slice(0).partition_D(S))


def test_copy_if_keeps_the_predicated_elements() -> None:
    s = cs.make_tensor(np.arange(12.0) + 1, make_layout((3, 4)))
    d = cs.make_tensor(np.zeros(12), make_layout((3, 4), (4, 1)))
    pred = cs.make_tensor(np.array([i % 3 != 1 for i in range(12)]), make_layout((3, 4)))
    cs.copy_if(pred, s, d)
    for i in range(12):
        assert d[i] == (s[i] if i % 3 != 1 else 0)
    atom = cs.Copy_Atom("UniversalCopy<uint64_t>", "half_t")
    hs = cs.make_tensor(np.arange(16, dtype=np.float16), make_layout((4, 4)))
    hd = cs.make_tensor(np.zeros(16, dtype=np.float16), make_layout((4, 4)))
    cs.copy_if(atom, lambda j: j != 2, hs, hd)          # instruction j moves column j
    assert [float(hd[1, j]) for j in range(4)] == [1.0, 5.0, 0.0, 13.0]


def test_partition_caches_keep_dynamic_and_static_extents_apart() -> None:
    """A dynamic 128 equals and hashes as a static _128: the partitions kept per layout (which the
    simulation relies on) must not hand one's answer to the other."""
    tc = cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint128_t>", "half_t"), make_layout((32, 4)), make_layout((8, 1)))
    static, dynamic = cs.parse("(_256,_128):(_128,_1)"), cs.parse("(256,128):(128,_1)")
    for first, second in ((static, dynamic), (dynamic, static)):
        a, b = tc.get_slice(110).partition_S(first), tc.get_slice(110).partition_S(second)
        assert cs.to_str(a) != cs.to_str(b) and a.is_static() == first.is_static()
    mma = cs.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN")
    s, d = cs.parse("(_16,_16):(_16,_1)"), cs.parse("(16,16):(16,_1)")
    assert mma.get_slice(0).partition_A(s).is_static() and not mma.get_slice(0).partition_A(d).is_static()

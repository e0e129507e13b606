"""gemm equals NumPy's product within the element types' rounding: CuTe's rank dispatch of the
plain gemm, and tiled MMAs of every atom family run by the threads of a simulated CTA
(inputs rounded to the atom's types, each instruction's sum rounded once to the accumulator's)."""
from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import cute_sym as cs  # noqa: E402
from cute_sym import LayoutError, RankError, _, make_layout  # noqa: E402
from cute_sym.tensor.numeric import compute_dtype, encode, round_to  # noqa: E402


def _mem(values: Any, layout: Any, dtype: str = "double") -> Any:
    flat = np.zeros(int(layout.cosize()), dtype=np.float64)
    for i in range(cs.size(layout)):
        flat[layout(i)] = values.reshape(-1, order="F")[i]
    return cs.make_tensor(encode(dtype, flat), layout, dtype=dtype)


@pytest.mark.parametrize("ranks", [(1, 1, 1), (1, 1, 2), (2, 2, 2), (2, 2, 3), (3, 3, 3)])
def test_plain_gemm_dispatch(ranks: tuple[int, int, int]) -> None:
    rng = np.random.default_rng(sum(ranks))
    V, M, N, K = 3, 4, 5, 6
    shapes = {(1, 1, 1): ((V,), (V,), (V,)), (1, 1, 2): ((M,), (N,), (M, N)), (2, 2, 2): ((M, K), (N, K), (M, N)),
              (2, 2, 3): ((V, M), (V, N), (V, M, N)), (3, 3, 3): ((V, M, K), (V, N, K), (V, M, N))}[ranks]
    a, b, c = (rng.integers(-4, 5, s).astype(np.float64) for s in shapes)
    lay = [make_layout(s) if i != 1 else make_layout(s, tuple(int(np.prod(s[j + 1:])) for j in range(len(s))))
           for i, s in enumerate(shapes)]                  # B row-major: the layout matters, not the storage order
    A, B, C = _mem(a, lay[0]), _mem(b, lay[1]), _mem(c, lay[2])
    cs.gemm(A, B, C)
    if ranks == (1, 1, 1):
        want = c + a * b
    elif ranks == (1, 1, 2):
        want = c + np.outer(a, b)
    elif ranks == (2, 2, 2):
        want = c + a @ b.T
    elif ranks == (2, 2, 3):
        want = c + a[:, :, None] * b[:, None, :]
    else:
        want = c + np.einsum("vmk,vnk->vmn", a, b)
    got = np.array([C[i] for i in range(cs.size(C))]).reshape(want.shape, order="F")
    assert (got == want).all()


def test_plain_gemm_rounds_to_c_each_step_and_checks_extents() -> None:
    A = cs.make_tensor(encode("half_t", np.full(64, 1.0)), make_layout((1, 64)), dtype="half_t")
    B = cs.make_tensor(encode("half_t", np.full(64, 2.0 ** -11)), make_layout((1, 64)), dtype="half_t")
    C = cs.make_tensor(encode("half_t", np.ones(1)), make_layout((1, 1)), dtype="half_t")
    cs.gemm(A, B, C)
    assert float(C[0]) == 1.0            # each 1 + 2^-11 rounds back to 1 in half precision
    with pytest.raises(LayoutError, match="disagree"):
        cs.gemm(cs.make_tensor(np.zeros(6), make_layout((2, 3))), cs.make_tensor(np.zeros(8), make_layout((2, 4))),
                cs.make_tensor(np.zeros(4), make_layout((2, 2))))
    with pytest.raises(RankError):
        cs.gemm(cs.make_tensor(np.zeros(2), make_layout(2)), cs.make_tensor(np.zeros(4), make_layout((2, 2))),
                cs.make_tensor(np.zeros(2), make_layout(2)))


# ------------------------------------------------------------------ tiled MMAs in a simulated CTA
_SKIP = ("int4b_t", "uint4b_t", "uint1b_t", "GaussComplex")


def _simulable(name: str) -> bool:
    t = cs.MMA_Traits(name)
    if any(x in (t.ValTypeA, t.ValTypeB, t.ValTypeC, t.ValTypeD) for x in _SKIP):
        return False
    return not name.startswith("SM90") or int(name.split("x")[1]) <= 32


def _inputs(rng: Any, type_: str, shape: tuple[int, int]) -> Any:
    if "int" in type_:
        lo, hi = (0, 8) if type_.startswith("u") else (-8, 8)
        return rng.integers(lo, hi, shape).astype(np.float64)
    x = rng.standard_normal(shape)
    if "complex" in type_:
        x = x + 1j * rng.standard_normal(shape)
    return x


def _eps(type_: str) -> float:
    return {"half_t": 2 ** -11, "bfloat16_t": 2 ** -8, "float": 2 ** -24, "tfloat32_t": 2 ** -11,
            "double": 2 ** -53, "complex<double>": 2 ** -53}.get(type_, 0.0)


def run_tiled_mma(name: str, atom_layout: Any = (1, 1, 1), k_tiles: int = 2, seed: int = 0) -> None:
    mma = cs.make_tiled_mma(name, atom_layout)
    atom = mma.atom
    M, N, K = (int(x) for x in mma.tile_shape())
    K *= k_tiles
    rng = np.random.default_rng(seed)
    a, b = _inputs(rng, atom.ValTypeA, (M, K)), _inputs(rng, atom.ValTypeB, (N, K))
    vmnk = mma.get_thr_layout_vmnk()
    threads = {int(vmnk(i)) for i in range(cs.size(vmnk))}       # SM70's quad pairs leave gaps
    sim = cs.Simulation(max(threads) + 1)
    gA = sim.global_tensor(encode(atom.ValTypeA, a), make_layout((M, K), (K, 1)), dtype=atom.ValTypeA, name="A")
    gB = sim.global_tensor(encode(atom.ValTypeB, b.T.copy()), make_layout((N, K), (1, N)), dtype=atom.ValTypeB, name="B")
    c_store = encode(atom.ValTypeC, np.zeros((M, N)))
    gC = sim.global_tensor(c_store, make_layout((M, N), (N, 1)), dtype=atom.ValTypeC, name="C")
    atom_k = int(atom.Shape_MNK[2])

    def kernel(t: int) -> None:
        if t not in threads:
            return
        thr = mma.get_slice(t)
        tA, tB = thr.partition_A(gA), thr.partition_B(gB)
        acc = thr.partition_fragment_C(gC)
        cs.clear(acc)
        for k in range(cs.size(tA.layout.shape[2])):
            cs.gemm(mma, tA[_, _, k], tB[_, _, k], acc)
        cs.copy(acc, thr.partition_C(gC))

    report = sim.run(kernel)
    assert report.ok, report
    cd = compute_dtype(atom.ValTypeD)
    aq, bq = round_to(atom.ValTypeA, a).astype(cd), round_to(atom.ValTypeB, b).astype(cd)
    want = aq @ bq.T
    got = np.array([gC[m, n] for m in range(M) for n in range(N)]).reshape(M, N)
    if cd.kind == "i":
        assert (got == want).all(), name
    else:
        bound = _eps(atom.ValTypeD) * (K // atom_k + 2) * (np.abs(aq) @ np.abs(bq).T) + 1e-30
        assert (np.abs(got - want) <= bound).all(), (name, float(np.abs(got - want).max()))


FAMILIES = ["SM61_DP4A", "SM70_8x8x4_F32F16F16F32_TN", "SM70_8x8x4_F16F16F16F16_NT", "SM75_16x8x8_F32F16F16F32_TN",
            "SM75_8x8x16_S32S8S8S32_TN", "SM80_16x8x16_F32BF16BF16F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
            "SM80_8x8x4_F64F64F64F64_TN", "SM80_16x8x32_S32S8S8S32_TN_SATURATE", "SM80_16x8x32_S32U8U8S32_TN",
            "SM80_8x8x4_C64C64C64C64_TN", "SM89_16x8x32_F32E4M3E4M3F32_TN", "SM89_16x8x32_F32E5M2E4M3F32_TN",
            "SM90_64x16x16_F32F16F16_SS<Major::K,Major::K>", "SM90_64x8x16_F16F16F16_RS<Major::K,Major::K>",
            "SM90_64x8x8_F32TF32TF32_SS_TN", "SM90_64x16x32_S32S8S8_SS_TN", "SM90_64x8x32_F32E4M3E5M2_RS_TN",
            "UniversalFMA<float,float,float,float>"]


@pytest.mark.parametrize("name", FAMILIES)
def test_tiled_mma_of_each_family_equals_numpy(name: str) -> None:
    names = cs.mma_atom_names()
    if name not in names and not name.startswith("UniversalFMA"):
        name = next(n for n in names if n.startswith(name))
    run_tiled_mma(name, (2, 1, 1) if not name.startswith("SM90") else (1, 1, 1))


@pytest.mark.parametrize("seed", range(4))
def test_random_tiled_mmas_equal_numpy(seed: int) -> None:
    rng = random.Random(seed)
    names = [n for n in cs.mma_atom_names() if _simulable(n)]
    for name in rng.sample(names, 3):
        layout = (1, 1, 1) if name.startswith("SM90") else rng.choice([(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1)])
        run_tiled_mma(name, layout, k_tiles=rng.choice([1, 2]), seed=seed)


def test_an_mma_of_several_threads_needs_a_simulation() -> None:
    mma = cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN")
    A = cs.make_tensor(np.zeros(256, dtype=np.float16), make_layout((16, 16)))
    thr = mma.get_slice(0)
    with pytest.raises(LayoutError, match="simulate"):
        cs.gemm(mma, thr.partition_A(A), thr.partition_A(A), thr.partition_fragment_C(
            cs.make_tensor(np.zeros(128, dtype=np.float32), make_layout((16, 8)))))


def test_sub_byte_atoms_are_refused_by_name() -> None:
    from cute_sym.execute.atom_exec import mma_plan
    with pytest.raises(LayoutError, match="not simulated"):
        mma_plan(cs.MMA_Traits("SM80_16x8x64_S32S4S4S32_TN"))
    with pytest.raises(LayoutError, match="no NumPy storage"):
        cs.make_tensor(make_layout(8), dtype="int4b_t")

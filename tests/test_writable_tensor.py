"""Tensors over memory: writes land where the layout says, slices are views, recast sees the
same bits, element types round as CUTLASS rounds them, and bad writes raise LayoutError."""
from __future__ import annotations

import itertools
import subprocess
import sys
from typing import Any

import pytest

np = pytest.importorskip("numpy")
from hypothesis import given, strategies as st  # noqa: E402

import cute_sym as cs  # noqa: E402
from cute_sym import LayoutError, _, make_layout  # noqa: E402
from cute_sym.tensor.numeric import decode, encode, round_to  # noqa: E402

LAYOUTS = ["(_4,_4):(_4,_1)", "(_2,(_2,_3)):(_6,(_1,_2))", "(_3,_5):(_1,_3)", "((_2,_2),(_2,_2)):((_1,_4),(_2,_8))",
           "(_4,_3):(_5,_1)", "_7:_2"]


@pytest.mark.parametrize("text", LAYOUTS)
def test_each_write_lands_at_its_offset(text: str) -> None:
    L = cs.parse(text)
    n = int(L.cosize())
    T = cs.make_tensor(np.full(n, -1, dtype=np.int64), L)
    for i in range(cs.size(L)):
        T[i] = 100 + i
    arr = T.engine.array
    for i in range(cs.size(L)):
        assert arr[L(i)] == 100 + i and T[i] == 100 + i
    untouched = set(range(n)) - {L(i) for i in range(cs.size(L))}
    assert all(arr[k] == -1 for k in untouched)


@pytest.mark.parametrize("text", LAYOUTS[:5])
def test_slices_are_views(text: str) -> None:
    L = cs.parse(text)
    T = cs.make_tensor(np.zeros(int(L.cosize())), L)
    rows = cs.size(L.shape[0])
    for j in range(cs.size(L.shape[1])):
        col = T[_, j]
        for i in range(rows):
            col[i] = 10 * i + j
    for i in range(rows):
        for j in range(cs.size(L.shape[1])):
            assert T[i, j] == 10 * i + j


@given(st.sampled_from([(1, 0, 1), (2, 0, 2), (3, 3, 3), (2, 3, 3), (1, 1, 2)]), st.integers(0, 3))
def test_a_swizzled_layout_writes_through_its_swizzle(sw: Any, k: int) -> None:
    b, m, s = sw
    inner = make_layout((8, 16), (16, 1))
    L = cs.composition(cs.Swizzle(b, m, s), inner)
    T = cs.make_tensor(np.full(128, -1, dtype=np.int64), L)
    for i in range(128):
        T[i] = i
    arr = T.engine.array
    assert sorted(arr.tolist()) == list(range(128))       # a bijection: every element once
    for i in range(128):
        assert arr[L(i)] == i


def test_recast_reads_and_writes_the_same_bits() -> None:
    T = cs.make_tensor(np.arange(16, dtype=np.float16), make_layout((4, 4), (4, 1)))
    U = cs.recast(T, "uint32_t")
    assert U.layout == cs.recast_layout(T.layout, 16, 32)
    bits = T.engine.array.view(np.uint32)
    for i in range(cs.size(U)):
        assert int(U[i]) == int(bits[U.layout(i)])
    U[0, 1] = 0x40003C00          # (1.0, 2.0) in half_t
    assert float(T[0, 2]) == 1.0 and float(T[0, 3]) == 2.0
    V = cs.recast(U, "half_t")
    assert V.layout == T.layout
    B = cs.recast(cs.make_tensor(np.zeros(8, dtype=np.uint16), make_layout(8), dtype="bfloat16_t"), "uint8_t")
    assert cs.size(B) == 16
    with pytest.raises(LayoutError):
        cs.recast(cs.make_tensor(np.zeros(4), make_layout(4))[1:], "uint128_t") if False else cs.recast(
            cs.Tensor(T.engine + 1, make_layout(2)), "uint32_t")


def test_recast_of_a_swizzled_symbolic_pointer_tensor() -> None:
    T = cs.make_tensor(cs.make_smem_ptr("s", "half_t"), cs.parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"))
    U = cs.recast(T, "uint128_t")
    assert str(U.layout) == "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)" and U.engine.dtype == "uint128_t"


def test_bfloat16_rounds_to_nearest_even() -> None:
    x = np.random.default_rng(0).standard_normal(2000).astype(np.float32) * 100
    r = round_to("bfloat16_t", x)
    assert (r.view(np.uint32) & 0xFFFF == 0).all()
    ulp = np.spacing(np.abs(x)) * 2 ** 16
    assert (np.abs(r - x) <= ulp / 2 + 1e-30).all()
    # ties: 1 + 2**-8 is halfway between 1 and 1 + 2**-7: to even (1); 1 + 3*2**-8 to 1 + 2**-6
    assert [float(v) for v in round_to("bfloat16_t", np.array([1 + 2 ** -8, 1 + 3 * 2 ** -8]))] == [1.0, 1 + 2 ** -6]


def test_tfloat32_rounds_half_away_and_keeps_ten_bits() -> None:
    x = np.random.default_rng(1).standard_normal(2000).astype(np.float32)
    r = round_to("tfloat32_t", x)
    assert (r.view(np.uint32) & 0x1FFF == 0).all()
    assert (np.abs(r - x) <= np.abs(x) * 2.0 ** -11 + 1e-30).all()
    assert float(round_to("tfloat32_t", np.array([-(1 + 2 ** -11)]))[0]) == -(1 + 2 ** -10)


@pytest.mark.parametrize("name,maximum", [("float_e4m3_t", 448.0), ("float_e5m2_t", 57344.0)])
def test_fp8_codes_round_trip_and_saturate(name: str, maximum: float) -> None:
    codes = np.arange(256, dtype=np.uint8)
    vals = decode(name, codes)
    finite = np.isfinite(vals) & (codes != 0x80)            # -0 encodes as +0
    assert (encode(name, vals[finite]) == codes[finite]).all()
    assert float(np.nanmax(vals)) == maximum
    assert [float(v) for v in round_to(name, np.array([1e9, -1e9]))] == [maximum, -maximum]
    x = np.random.default_rng(2).uniform(-maximum, maximum, 500)
    r = round_to(name, x)
    grid = np.sort(vals[np.isfinite(vals)])
    nearest = grid[np.abs(grid[None, :] - x[:, None]).argmin(1)]
    assert (np.abs(r - x) <= np.abs(nearest - x) + 1e-12).all()


def test_integers_wrap_as_cpp_casts() -> None:
    T = cs.make_tensor(make_layout(3), dtype="int8_t")
    T[0], T[1], T[2] = 127, 128, -129
    assert [int(T[i]) for i in range(3)] == [127, -128, 127]


def test_lists_and_bytearrays_are_memory() -> None:
    buf = bytearray(6)
    T = cs.make_tensor(buf, make_layout((2, 3), (3, 1)))
    T[1, 2] = 200
    assert buf[5] == 200 and T[1, 2] == 200
    items: list[Any] = [None] * 4
    L = cs.make_tensor(items, make_layout(4, 1))
    L[3] = "x"
    assert items == [None, None, None, "x"]
    cs.fill(L, 0)
    assert items == [0, 0, 0, 0]


def test_fragments_over_memory_own_new_memory() -> None:
    G = cs.make_tensor(np.arange(24, dtype=np.float16), cs.parse("((_2,_2),_3,_2):((_1,_12),_2,_6)"))
    F = cs.make_fragment_like(G)
    assert F.shape == G.shape and F.engine.dtype == "half_t" and F.engine.array is not G.engine.array
    cs.copy(G, F)
    assert all(F[i] == G[i] for i in range(cs.size(G)))
    T = cs.make_tensor_like(G, "float")
    assert T.engine.array.dtype == np.float32 and T.shape == G.shape
    frag = cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN").get_slice(3).partition_fragment_C(
        cs.make_tensor(np.zeros(128, dtype=np.float32), make_layout((16, 8))))
    assert frag.engine.array.dtype == np.float32 and cs.size(frag) == 4


def test_fill_clear_axpby() -> None:
    x = cs.make_tensor(np.arange(6.0), make_layout((2, 3)))
    y = cs.make_tensor(np.ones(6, dtype=np.float32), make_layout((2, 3), (3, 1)))
    cs.axpby(2.0, x, 3.0, y)
    assert all(y[i] == 2.0 * x[i] + 3.0 for i in range(6))
    cs.axpby(1.0, x, 0, y)
    assert all(y[i] == x[i] for i in range(6))
    cs.clear(y)
    assert not y.engine.array.any()


def test_bad_writes_raise_layout_error() -> None:
    T = cs.make_tensor(np.zeros(16), make_layout((4, 4)))
    with pytest.raises(LayoutError, match="incomplete"):
        T[1, _] = 0
    with pytest.raises(LayoutError, match="outside"):
        cs.make_tensor(np.zeros(4), make_layout(8))[5] = 1
    with pytest.raises(LayoutError, match="not memory"):
        cs.make_tensor(cs.make_gmem_ptr("A"), make_layout(4))[1] = 0
    with pytest.raises(LayoutError):
        cs.make_tensor(np.zeros(4, dtype=np.float32), make_layout(4), dtype="half_t")
    with pytest.raises(LayoutError):
        cs.make_tensor(make_layout(4), dtype="int4_t")
    with pytest.raises(LayoutError, match="symbolic"):
        cs.make_tensor(np.zeros(4), make_layout(4))[cs.Dyn("k")] = 1
    with pytest.raises(LayoutError):
        cs.make_tensor(np.zeros((4, 4))[:, ::2], make_layout(8))[1] = 1     # no flat view to write


def test_import_cute_sym_does_not_import_numpy() -> None:
    code = ("import sys, cute_sym; assert 'numpy' not in sys.modules; cute_sym.make_tensor(cute_sym.make_gmem_ptr('A'), (2, 2));"
            "assert 'numpy' not in sys.modules; cute_sym.copy; cute_sym.Simulation; assert 'numpy' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_numpy_element_type_round_trips() -> None:
    for name, dt in itertools.product(["half_t", "float", "double", "int8_t", "uint8_t", "int16_t", "int32_t",
                                       "uint32_t", "int64_t"], [None]):
        T = cs.make_tensor(make_layout(4), dtype=name)
        T[2] = 3
        assert int(T[2]) == 3 and T.engine.dtype == name

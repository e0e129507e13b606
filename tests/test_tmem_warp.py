"""CuTe's ``make_tmem_warp_partitioner`` and ``TV_Tiler`` (cute_sym.tensor.tmem_warp, tv_tiler).

Checked three ways: against CuTe 4.7's own answers (tests/data/tmem_warp_oracle.jsonl, written by
scripts/tmem_warp_oracle.py from the compiled headers: the tiler, the TV layout and each warp's
partition of the TMEM tensor and of a gmem tensor of its shape, or CuTe's refusal); by the
post-condition, enumerated (warp ``w`` holds exactly the TMEM elements in lanes ``32w..32w+31``, and
the gmem/identity/register partitions hold the same coordinates); and by ``TV_Tiler.apply``'s
definition over a sweep of small layouts.
"""
from __future__ import annotations

import collections
import itertools
import json
import pathlib
import pickle
from typing import Any

import pytest
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym.core.int_tuple import product_each
from cute_sym.core.integers import Dyn
from cute_sym.layout import Layout, make_layout
from cute_sym.notation import parse
from cute_sym.tensor.atoms.copy_types import sizeof_bits
from cute_sym.tensor.engine import Pointer
from cute_sym.tensor.tensor import Tensor
from cute_sym.tensor.tmem_space import TMEM_DP
from cute_sym.tensor.tmem_warp import make_tmem_warp_partitioner
from cute_sym.tensor.tv_tiler import TV_Tiler, make_tiler_impl
from cute_sym.tensor.umma import tmem_frg_layout

DATA = pathlib.Path(__file__).parent / "data" / "tmem_warp_oracle.jsonl"
ROWS = [json.loads(line) for line in DATA.read_text().splitlines()]


def _tmem_tensor(c: dict[str, Any]) -> Tensor:
    t = c["dtype"]
    if c["kind"] == "mma":
        gc = cs.make_tensor(cs.make_gmem_ptr("gC", t), tuple(c["shape"]))
        tm = cs.make_tiled_mma(c["atom"]).get_slice(0).partition_fragment_C(gc)
        assert isinstance(tm, Tensor)
        return tm
    if c["kind"] == "frg":
        return cs.make_tensor(cs.make_tmem_ptr(t, 0), tmem_frg_layout(c["frg"], parse(c["shape"])))
    return cs.make_tensor(cs.make_tmem_ptr(t, 0), parse(c["layout"]))


def _raw_address(offset: int, dtype: str) -> int:
    """``tmem_ptr<T> + offset``'s 32-bit address: the word offset rotated right by ``OffsetShift``."""
    shift = (32 // sizeof_bits(dtype)).bit_length() - 1
    return ((offset >> shift) | ((offset & ((1 << shift) - 1)) << (32 - shift))) & 0xFFFFFFFF


def _ours(c: dict[str, Any]) -> dict[str, str]:
    tm = _tmem_tensor(c)
    try:
        wp = make_tmem_warp_partitioner(tm)
    except cs.LayoutError as e:
        return {"tmem": str(tm.layout), "refused": str(e)}
    out = {"tmem": str(tm.layout), "Tiler_MN": str(wp.Tiler_MN), "TiledLayout_TV": str(wp.TiledLayout_TV)}
    gm = cs.make_tensor(cs.make_gmem_ptr("g", c["dtype"]), make_layout(tm.layout.shape))
    for w in range(4):
        a, b = wp.get_slice(w).partition(tm), wp.get_slice(w).partition(gm)
        out[f"{w}/tmem"] = str(a.layout)
        out[f"{w}/addr"] = str(_raw_address(int(a.engine.offset), c["dtype"]))
        out[f"{w}/gmem"] = str(b.layout)
        out[f"{w}/goff"] = str(b.engine.offset)
    return out


def _case_id(c: dict[str, Any]) -> str:
    return str(c.get("atom") or c.get("frg", "") + c.get("shape", "") or c["dtype"] + " " + c["layout"])


def test_oracle_size() -> None:
    assert len(ROWS) >= 20
    kinds = collections.Counter(r["kind"] for r in ROWS)
    assert kinds["mma"] >= 10 and kinds["frg"] >= 5 and kinds["plain"] >= 10


@pytest.mark.parametrize("row", ROWS, ids=[_case_id(r) for r in ROWS])
def test_matches_cute(row: dict[str, Any]) -> None:
    """Every answer CuTe printed (or its refusal) is cute_sym's."""
    got, want = _ours(row), row["expect"]
    if "refused" in want:
        assert "refused" in got, f"CuTe refuses ({want['refused']}), cute_sym gives {got}"
        assert want["refused"] in got["refused"]      # CuTe's static_assert text, in cute_sym's words
        return
    assert "refused" not in got, got.get("refused")
    for what, val in want.items():
        assert got[what] == val, f"{what}: CuTe {val}, cute_sym {got[what]}"


# ---- the post-condition, enumerated

def _lane_of(tm: Tensor, off: Any) -> int:
    eng = tm.engine
    assert isinstance(eng, Pointer) and eng.dtype is not None
    return int((int(eng.offset) + off) // TMEM_DP(eng.dtype))


def _offsets(t: Tensor) -> list[Any]:
    eng: Any = t.engine
    base = eng.offset
    return [base + t.layout(i) for i in range(int(t.size()))]


def _quarters_alike(tm: Tensor) -> bool:
    """Each warp's quarter holds the same lanes of the tensor (relative to lane 32w), lane 32w among them."""
    lanes = {_lane_of(tm, tm.layout(i)) for i in range(int(tm.size()))}
    first = {lane for lane in lanes if lane < 32}
    return 0 in first and lanes == {32 * w + lane for w in range(4) for lane in first}


def check_warp_postcondition(tm: Tensor, identity: bool = True) -> None:
    """Warp w's partition of ``tm`` is the multiset of ``tm``'s offsets in lanes 32w..32w+31; the
    partition of the compact gmem tensor ``g`` of ``tm``'s shape holds the offsets of the same
    coordinates (``g``'s offset of a coordinate is its index in ``tm``'s domain), and with
    ``identity`` the identity tensor's partition holds those coordinates themselves."""
    wp = make_tmem_warp_partitioner(tm)
    shape = tm.layout.shape
    eng: Any = tm.engine
    gm = cs.make_tensor(cs.make_gmem_ptr("g", eng.dtype), make_layout(shape))
    n = int(tm.size())
    base = int(eng.offset)
    offs: list[Any] = [tm.layout(i) for i in range(n)]
    warp_of = [_lane_of(tm, o) // 32 for o in offs]
    for w in range(4):
        s = wp.get_slice(w)
        part = s.partition(tm)
        mine = [i for i in range(n) if warp_of[i] == w]
        assert collections.Counter(_offsets(part)) == collections.Counter(base + offs[i] for i in mine), f"warp {w}"
        pg = s.partition(gm)
        assert collections.Counter(_offsets(pg)) == collections.Counter(gm.layout(i) for i in mine)
        assert product_each(part.shape) == product_each(pg.shape)
        if identity:
            ident = cs.make_identity_tensor(shape)
            pi = s.partition(ident)
            got = collections.Counter(str(pi(i)) for i in range(int(pi.size())))
            assert got == collections.Counter(str(ident(i)) for i in mine)


@pytest.mark.parametrize("row", [r for r in ROWS if "refused" not in r["expect"]], ids=_case_id)
def test_postcondition_oracle_cases(row: dict[str, Any]) -> None:
    tm = _tmem_tensor(row)
    if int(tm.size()) > 32768:
        pytest.skip("over 32768 elements: enumerated by the sweep's smaller tensors")
    if not _quarters_alike(tm):
        pytest.skip("the quarters differ (a 64-lane tensor): CuTe's answer is checked by test_matches_cute")
    check_warp_postcondition(tm, identity=int(tm.size()) <= 4096)


def _sweep_layouts() -> list[tuple[str, Layout]]:
    out: list[tuple[str, Layout]] = []
    for dtype in ("float", "half_t", "uint8_t"):
        dp = TMEM_DP(dtype)
        for n in (1, 2, 3, 8):
            out.append((dtype, make_layout((128, n), (dp, 1))))
            out.append((dtype, make_layout((n, 128), (1, dp))))
            out.append((dtype, make_layout(((32, 4), n), ((dp, 32 * dp), 1))))
            out.append((dtype, make_layout(((4, 32), n), ((32 * dp, dp), 2))))
            out.append((dtype, make_layout((32, n, 4), (dp, 1, 32 * dp))))
            out.append((dtype, make_layout(((16, 2), (2, 4), n), ((dp, 16 * dp), (1, 32 * dp), 2))))
            out.append((dtype, make_layout(((16, 4), (n, 2)), ((dp, 32 * dp), (1, 16 * dp)))))
    return out


SWEEP = _sweep_layouts()


@pytest.mark.parametrize("dtype,layout", SWEEP, ids=[f"{d}-{lay}" for d, lay in SWEEP])
def test_postcondition_sweep(dtype: str, layout: Layout) -> None:
    tm = cs.make_tensor(cs.make_tmem_ptr(dtype, "acc"), layout)
    assert _quarters_alike(tm)
    check_warp_postcondition(tm)


def test_fewer_lanes_repeat_warp_zero() -> None:
    """A tensor over lanes 0..63 only: CuTe sends warps 2 and 3 to coordinate 0 (they repeat warps 0, 1)."""
    row = next(r for r in ROWS if r.get("layout") == "(_64,_64):(_65536,_1)")
    assert row["expect"]["2/addr"] == row["expect"]["0/addr"] and row["expect"]["3/addr"] == row["expect"]["1/addr"]
    tm = _tmem_tensor(row)
    wp = make_tmem_warp_partitioner(tm)
    assert wp.get_slice(2).partition(tm) == wp.get_slice(0).partition(tm)


def test_repeating_warps_show_in_the_tv_layout() -> None:
    """CUTLASS's SM100 epilogue predicates the TMEM load when size(TiledLayout_TV) != cosize: that
    is exactly when CuTe's warps repeat a share (two warps at one address)."""
    seen = 0
    for row in ROWS:
        want = row["expect"]
        if "refused" in want:
            continue
        tv = parse(want["TiledLayout_TV"])
        repeats = len({want[f"{w}/addr"] for w in range(4)}) < 4
        assert repeats == (tv.size() != tv.cosize())
        seen += repeats
    assert seen >= 2


# ---- a symbolic warp index

def test_symbolic_warp() -> None:
    w = Dyn("w", max=3, sign="nonnegative")
    for row in ROWS[:: 3]:
        if "refused" in row["expect"]:
            continue
        tm = _tmem_tensor(row)
        wp = make_tmem_warp_partitioner(tm)
        sym = wp.get_slice(w).partition(tm)
        for v in range(4):
            conc = wp.get_slice(v).partition(tm)
            assert sym.layout == conc.layout
            assert cs.subs(sym.engine.offset, {"w": v}) == conc.engine.offset


def test_symbolic_warp_needs_a_bound() -> None:
    tm = cs.make_tensor(cs.make_tmem_ptr("float"), parse("(_128,_16):(_65536,_1)"))
    wp = make_tmem_warp_partitioner(tm)
    with pytest.raises(cs.UndecidableError, match="< 4"):
        wp.get_slice(Dyn("u", sign="nonnegative"))
    with pytest.raises(cs.LayoutError, match="past the last thread"):
        wp.get_slice(Dyn("u", max=4, sign="nonnegative"))
    with pytest.raises(cs.LayoutError, match="past the last thread"):
        wp.get_slice(4)
    with pytest.raises(cs.LayoutError, match="negative"):
        wp.get_slice(-1)


# ---- misuse

def test_refuses_what_is_not_tmem() -> None:
    lay = parse("(_128,_16):(_65536,_1)")
    for bad in (cs.make_tensor(cs.make_gmem_ptr("g", "float"), lay), lay, "acc", None):
        with pytest.raises(cs.LayoutError, match="Expected TMEM tensor"):
            make_tmem_warp_partitioner(bad)  # type: ignore[arg-type]
    with pytest.raises(cs.LayoutError, match="element type"):
        make_tmem_warp_partitioner(Tensor(Pointer("tmem", "acc", None, 0), lay))
    sw = cs.composition(cs.Swizzle(1, 0, 16), lay)
    with pytest.raises(cs.LayoutError, match="plain layout"):
        make_tmem_warp_partitioner(Tensor(cs.make_tmem_ptr("float"), sw))


def test_refusal_names_the_step() -> None:
    tm = cs.make_tensor(cs.make_tmem_ptr("int32_t"), parse("(_96,_32):(_65536,_1)"))
    with pytest.raises(cs.LayoutError, match=r"make_tmem_warp_partitioner: .*\(_96,_32\).*Divisibility"):
        make_tmem_warp_partitioner(tm)


def test_public_api() -> None:
    tm = cs.make_tensor(cs.make_tmem_ptr("float", "acc"), parse("((_128,_256),_1,_1):((_65536,_1),_0,_0)"))
    wp = cs.make_tmem_warp_partitioner(tm)
    assert isinstance(wp, cs.TV_Tiler)
    assert isinstance(wp.get_slice(0), cs.TV_Partitioner)
    assert str(wp.Tiler_MN) == "(_4:_32,_1:_0,_1:_0)"
    assert cs.make_tiler_impl(wp.TiledLayout_TV, (make_layout(4, 32), make_layout(1, 0), make_layout(1, 0))) == wp


# ---- TV_Tiler itself

def _apply_sweep() -> list[tuple[Layout, tuple[Layout, ...], Layout]]:
    out: list[tuple[Layout, tuple[Layout, ...], Layout]] = []
    for m, n in itertools.product((4, 8), (2, 6)):
        for x in (make_layout((m, n)), make_layout((m, n), (n, 1)), make_layout(((2, m // 2), n), ((n, 1), 2))):
            for tm, tn in ((2, 2), (4, 1), (2, n)):
                tiler = (make_layout(tm, 1), make_layout(tn, 1))
                for tv in (make_layout(tm * tn), make_layout((tn, tm), (tm, 1)), make_layout((2, tm * tn // 2), (tm * tn // 2, 1))):
                    out.append((x, tiler, tv))
    return out


@pytest.mark.parametrize("x,tiler,tv", _apply_sweep())
def test_apply_definition(x: Layout, tiler: tuple[Layout, ...], tv: Layout) -> None:
    """apply(x)((t, v), r) == zipped_divide(x, tiler)(tv(t, v), r), and each slice is apply at (c, r)."""
    t = make_tiler_impl(tv, tiler)
    a = t.apply(x)
    z = cs.zipped_divide(x, tiler)
    nr = int(cs.size(z, 1))
    for i in range(int(cs.size(tv))):
        for r in range(nr):
            assert a((i, r)) == z((tv(i), r))
        p = t.get_slice(i).partition(x)
        g = t.get_slice(i).offset(x)
        assert [g + p(r) for r in range(int(cs.size(p)))] == [a((i, r)) for r in range(nr)]


def test_tensor_targets_and_coordinates() -> None:
    tv = make_tiler_impl(parse("(_2,_2):(_2,_1)"), (make_layout(2, 1), make_layout(2, 1)))
    g = cs.make_tensor(cs.make_gmem_ptr("g", "float"), parse("(_4,_6):(_1,_4)"))
    p = tv.get_slice(1).partition(g)
    assert isinstance(p, Tensor) and str(p) == "gmem_ptr[float](g+4) o (_2,_3):(_2,_8)"
    q = tv.get_slice((1, cs._)).partition(g)       # thread 1 with its values
    assert str(q.layout) == "(_2,_2,_3):(_1,_2,_8)" and q.engine.offset == 4
    with pytest.raises(cs.LayoutError, match="not a coordinate"):
        tv.get_slice((2, cs._))
    with pytest.raises(cs.LayoutError, match="not a coordinate"):
        tv.get_slice((1, 0, 0))
    with pytest.raises(cs.LayoutError, match="static ints"):
        tv.get_slice((Dyn("t", max=1), 0))
    with pytest.raises(cs.LayoutError, match="rank"):
        make_tiler_impl(make_layout(4), (make_layout(2), make_layout(2), make_layout(1))).apply(make_layout((4, 4)))
    with pytest.raises(cs.LayoutError, match="tensor or a layout"):
        tv.apply("g")
    with pytest.raises(cs.LayoutError, match="plain layout"):
        TV_Tiler((2, 2), (2, 2))  # type: ignore[arg-type]
    with pytest.raises(cs.LayoutError, match="reaches tile coordinate 3, past the tile of 2 elements"):
        TV_Tiler(make_layout(4), (2, 1))       # a TV layout beyond its tile would read outside it
    with pytest.raises(cs.LayoutError, match="zipped_divide"):
        TV_Tiler(make_layout(1), cs.make_tensor(cs.make_gmem_ptr("g", "float"), (2, 2))).apply(make_layout((4, 4)))


def test_immutable_and_picklable() -> None:
    tm = cs.make_tensor(cs.make_tmem_ptr("float", "acc"), parse("(_128,_16):(_65536,_1)"))
    wp = make_tmem_warp_partitioner(tm)
    with pytest.raises(AttributeError):
        wp.TiledLayout_TV = make_layout(4)
    s = wp.get_slice(1)
    with pytest.raises(AttributeError):
        s.coord = 2
    assert pickle.loads(pickle.dumps(wp)) == wp and hash(pickle.loads(pickle.dumps(wp))) == hash(wp)
    assert pickle.loads(pickle.dumps(s)).partition(tm) == s.partition(tm)
    assert not hasattr(wp, "__dict__") and not hasattr(s, "__dict__")


# ---- random TMEM layouts: the lanes and columns in any order, grouped into modes

@st.composite
def tmem_layouts(draw: st.DrawFn) -> tuple[str, Layout]:
    """A layout of all 128 lanes and up to 16 columns: its factors (lanes: powers of 2 whose product
    is 128; columns: 2 or 4, at most two) in a random order of significance and a random order of
    modes, grouped into 1 to 3 modes. (A column extent of 3 under a lane factor fails CuTe's
    left_inverse divisibility, as CuTe's: test_matches_cute.)"""
    dtype = draw(st.sampled_from(("float", "half_t", "uint8_t", "bfloat16_t")))
    dp = TMEM_DP(dtype)
    lane_bits = draw(st.lists(st.integers(1, 3), min_size=1, max_size=5).filter(lambda b: sum(b) <= 7))
    if sum(lane_bits) < 7:
        lane_bits.append(7 - sum(lane_bits))
    lanes = [1 << b for b in lane_bits]
    cols = draw(st.lists(st.sampled_from((2, 4)), max_size=2))
    lane_order = draw(st.permutations(range(len(lanes))))
    strides: dict[tuple[str, int], int] = {}
    step = dp
    for k in lane_order:                # lane factors, least significant first
        strides[("l", k)] = step
        step *= lanes[k]
    step = 1
    for k in range(len(cols)):
        strides[("c", k)] = step
        step *= cols[k]
    factors = [("l", k) for k in range(len(lanes))] + [("c", k) for k in range(len(cols))]
    order = draw(st.permutations(factors))
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(order) - 1)), max_size=2))) if len(order) > 1 else []
    modes = [list(order[a:b]) for a, b in zip([0] + cuts, cuts + [len(order)])]
    ext = {("l", k): lanes[k] for k in range(len(lanes))} | {("c", k): cols[k] for k in range(len(cols))}

    def mode(fs: list[tuple[str, int]]) -> tuple[Any, Any]:
        if len(fs) == 1:
            return ext[fs[0]], strides[fs[0]]
        return tuple(ext[f] for f in fs), tuple(strides[f] for f in fs)
    ms = [mode(m) for m in modes if m]
    if len(ms) == 1:
        return dtype, make_layout(ms[0][0], ms[0][1])
    return dtype, make_layout(tuple(m[0] for m in ms), tuple(m[1] for m in ms))


@given(tmem_layouts())
def test_postcondition_random_layouts(case: tuple[str, Layout]) -> None:
    """Any TMEM layout over the 128 lanes, its factors in any order: each warp gets its own lanes."""
    dtype, layout = case
    tm = cs.make_tensor(cs.make_tmem_ptr(dtype, "acc"), layout)
    assert _quarters_alike(tm)
    check_warp_postcondition(tm, identity=False)


# ---- other memories, and a symbolic TMEM layout

def test_register_and_swizzled_smem_targets() -> None:
    """A register fragment and a swizzled smem tile of the accumulator's shape: the slice is
    apply(x) at (w, _), and holds the elements at warp w's coordinates."""
    tm = cs.make_tensor(cs.make_tmem_ptr("float", "acc"), parse("((_128,_64),_2,_1):((_65536,_1),_64,_0)"))
    wp = make_tmem_warp_partitioner(tm)
    shape = tm.layout.shape
    rf = cs.make_fragment_like(make_layout(shape), "float")
    sm = cs.make_tensor(cs.make_smem_ptr("s", "float"), cs.composition(cs.Swizzle(3, 4, 3), make_layout(shape)))
    ref = make_layout(shape)                  # index of each coordinate
    lanes = [(tm.layout(i) // TMEM_DP("float")) // 32 for i in range(int(tm.size()))]
    for w in range(4):
        s = wp.get_slice(w)
        pr, ps = s.partition(rf), s.partition(sm)
        assert str(pr.engine).startswith("rmem_ptr[float]") and str(ps.engine).startswith("smem_ptr[float]")
        want = sorted(i for i in range(int(tm.size())) if lanes[i] == w)
        assert sorted(int(pr.engine.offset) + pr.layout(j) for j in range(int(pr.size()))) == want
        a = wp.apply(sm)
        n = int(ps.size())
        assert [ps.layout(j) for j in range(n)] == [a.layout((w, j)) for j in range(n)]
        assert sorted(ps.layout(j) for j in range(n)) == sorted(sm.layout(ref(i)) for i in want)


def test_symbolic_tmem_extent() -> None:
    """A TMEM tensor with a symbolic column count: the algebra settles it where N is bounded,
    and names the missing bound where it is not."""
    N = Dyn("N", divisible_by=16, max=512)
    tm = cs.make_tensor(cs.make_tmem_ptr("float", "acc"), make_layout((128, N), (65536, 1)))
    wp = make_tmem_warp_partitioner(tm)
    assert str(wp.Tiler_MN) == "(_4:_32,_1:_0)" and str(wp.TiledLayout_TV) == "_4:_1"
    g = cs.make_tensor(cs.make_gmem_ptr("g", "float"), make_layout((128, N), (N, 1)))
    w = Dyn("w", max=3, sign="nonnegative")
    assert str(wp.get_slice(w).partition(g)) == "gmem_ptr[float](g+32*N*w) o (_32,N):(N,_1)"
    assert str(wp.get_slice(2).partition(tm)) == "tmem_ptr[float](acc+4194304) o (_32,N):(_65536,_1)"
    unbounded = cs.make_tensor(cs.make_tmem_ptr("float"), make_layout((128, Dyn("K")), (65536, 1)))
    with pytest.raises(cs.UndecidableError, match="K <= 65536") as e:
        make_tmem_warp_partitioner(unbounded)
    assert "make_tmem_warp_partitioner" in str(e.value)

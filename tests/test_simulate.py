"""The simulation's reports fire on broken kernels and stay quiet on correct ones: a missing
barrier, an overlapping partition, a swizzle applied on one side only, reads before writes,
accesses outside memory, a lane missing from a warp instruction, a kernel that raises."""
from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import cute_sym as cs  # noqa: E402
from cute_sym import LayoutError, _, make_layout  # noqa: E402


def _staged(missing_sync: bool) -> Any:
    """Each thread stages its element in shared memory; a neighbour reads it back."""
    sim = cs.Simulation(64)
    g = sim.global_tensor(np.arange(64.0), make_layout(64), name="g")
    s = sim.shared_tensor(make_layout(64), "float", name="s")
    out = sim.global_tensor(np.zeros(64), make_layout(64), name="out")

    def kernel(t: int) -> None:
        s[t] = g[t]
        if not missing_sync:
            cs.syncthreads()
        out[t] = s[(t + 1) % 64]

    return sim.run(kernel), out


def test_a_missing_barrier_is_a_race() -> None:
    good, out = _staged(False)
    assert good.ok and [float(out[i]) for i in range(64)] == [float((i + 1) % 64) for i in range(64)]
    bad, _out = _staged(True)
    kinds = {f.kind for f in bad.faults}
    assert "race" in kinds and all(f.memory == "s" for f in bad.faults)
    race = next(f for f in bad.faults if f.kind == "race")
    assert race.n == 64           # each thread reads the element its neighbour writes in the same step
    with pytest.raises(cs.SimulationError, match="race"):
        bad.check()


@pytest.mark.parametrize("seed", range(5))
def test_an_overlapping_partition_reports_exactly_the_shared_elements(seed: int) -> None:
    rng = random.Random(seed)
    nthr, per = 16, 4
    stride = rng.choice([1, 2, 3])                 # thread t writes t*stride + j*nthr... for j < per
    sim = cs.Simulation(nthr)
    out = sim.shared_tensor(make_layout(nthr * per * 3), "float", name="out")
    offsets = {t: [t * stride + j * nthr for j in range(per)] for t in range(nthr)}

    def kernel(t: int) -> None:
        part = cs.make_tensor(out.engine + t * stride, make_layout(per, nthr))     # a partition of out
        cs.fill(part, t)

    report = sim.run(kernel)
    writers: dict[int, set[int]] = {}
    for t, offs in offsets.items():
        for o in offs:
            writers.setdefault(o, set()).add(t)
    shared = sorted(o for o, w in writers.items() if len(w) > 1)
    races = report.of("race")
    if shared:
        assert len(races) == 1 and races[0].n == len(shared) and races[0].offsets == tuple(shared[:6])
    else:
        assert report.ok


def _swizzled_epilogue(read_layout: Any) -> Any:
    """Each thread writes its 8 accumulators through a swizzled layout and reads them back, with no
    barrier: correct when the reads see the same swizzle (each thread reads only its own writes)."""
    sw = cs.composition(cs.Swizzle(2, 3, 3), make_layout((32, 8), (8, 1)))     # moves elements across rows
    sim = cs.Simulation(32)
    s = sim.shared_tensor(sw, "float", name="s")
    r = cs.make_tensor(s.engine, read_layout)
    out = sim.global_tensor(np.zeros(256), make_layout((32, 8), (8, 1)), name="out")

    def kernel(t: int) -> None:
        for j in range(8):
            s[t, j] = 100 * t + j
        for j in range(8):
            out[t, j] = r[t, j]

    return sim.run(kernel), out


def test_a_swizzle_on_one_side_only() -> None:
    same, out = _swizzled_epilogue(cs.composition(cs.Swizzle(2, 3, 3), make_layout((32, 8), (8, 1))))
    assert same.ok and all(float(out[t, j]) == 100 * t + j for t in range(32) for j in range(8))
    one_side, _out = _swizzled_epilogue(make_layout((32, 8), (8, 1)))
    kinds = {f.kind for f in one_side.faults}
    assert kinds == {"race", "uninitialized_read"}


def test_an_ldmatrix_without_one_lane_is_divergence() -> None:
    mma = cs.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN")
    tc = cs.make_tiled_copy_A(cs.Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    sim = cs.Simulation(32)
    sA = sim.global_tensor(np.zeros(256, dtype=np.float16), make_layout((16, 16)))

    def kernel(t: int) -> None:
        if t == 5:
            return
        thr = tc.get_slice(t)
        frag = mma.get_slice(t).partition_fragment_A(sA)
        cs.copy(tc, thr.partition_S(sA), thr.retile_D(frag))

    report = sim.run(kernel)
    assert [f.kind for f in report.faults] == ["divergence"] and 5 in report.faults[0].threads


def test_a_barrier_one_thread_misses_in_the_middle_is_divergence() -> None:
    mma = cs.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN")
    sim = cs.Simulation(32)
    gA = sim.global_tensor(np.zeros(256, dtype=np.float16), make_layout((16, 16)))
    gB = sim.global_tensor(np.zeros(128, dtype=np.float16), make_layout((8, 16)))
    gC = sim.global_tensor(np.zeros(128, dtype=np.float16), make_layout((16, 8)))

    def kernel(t: int) -> None:
        if t != 7:
            cs.syncthreads()          # thread 7 goes on to the mma the others reach after the barrier
        thr = mma.get_slice(t)
        acc = thr.partition_fragment_C(gC)
        cs.gemm(mma, thr.partition_A(gA), thr.partition_B(gB), acc)

    report = sim.run(kernel)
    assert report.of("divergence") and not report.of("error")


def test_reads_before_writes_and_accesses_outside_memory() -> None:
    sim = cs.Simulation(8)
    s = sim.shared_tensor(make_layout(8), "float", name="s")
    bad = cs.make_tensor(s.engine, make_layout(8, 2))            # reaches offset 14 of 8

    def kernel(t: int) -> None:
        _x = s[7 - t]                                              # nothing was written yet
        cs.syncthreads()
        s[t] = t
        cs.syncthreads()
        _y = bad[t]

    report = sim.run(kernel)
    unread = report.of("uninitialized_read")
    assert len(unread) == 1 and unread[0].step == 0 and unread[0].n == 8
    oob = report.of("out_of_bounds")
    assert sorted(f.threads[0] for f in oob) == [4, 5, 6, 7]
    assert not report.of("race")


def test_a_kernel_that_raises_is_an_error_fault() -> None:
    def kernel(t: int) -> None:
        if t == 2:
            raise ValueError("boom")

    report = cs.simulate(kernel, 4)
    assert [f.kind for f in report.faults] == ["error"] and "boom" in report.faults[0].message


def test_a_symbolic_thread_index_runs_all_its_values() -> None:
    seen: list[int] = []
    report = cs.simulate(lambda t: seen.append(t), cs.Dyn("tid", max=47))
    assert report.threads == 48 and sorted(seen) == list(range(48))
    with pytest.raises(LayoutError, match="upper bound"):
        cs.Simulation(cs.Dyn("tid"))


def test_syncthreads_outside_a_simulation() -> None:
    with pytest.raises(LayoutError, match="outside"):
        cs.syncthreads()


def test_recast_views_are_watched_in_their_memory_s_units() -> None:
    sim = cs.Simulation(2)
    s = sim.shared_tensor(make_layout(8), "half_t", name="s")

    def kernel(t: int) -> None:
        w = cs.recast(s, "uint32_t")              # thread t writes halves 2t, 2t+1 as one 32-bit word
        w[t] = 0
        cs.syncthreads()
        _x = s[3 - t]                             # thread 0 reads half 3 (thread 1's), thread 1 half 2
        _y = s[5]                                 # never written

    report = sim.run(kernel)
    assert not report.of("race")
    assert {f.offsets for f in report.of("uninitialized_read")} == {(5,)}


def test_partitions_for_a_symbolic_thread_index_run_at_every_value() -> None:
    """Partition once for Dyn("tid"); each simulated thread reads the offsets at its own index and
    moves what the concrete partitions move (cp.async through a swizzle, then ldmatrix)."""
    tid = cs.Dyn("tid", max=31, sign="nonnegative")
    mma = cs.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN")
    sw = cs.composition(cs.Swizzle(1, 3, 3), make_layout((16, 16), (16, 1)))
    g2s = cs.make_tiled_copy(cs.Copy_Atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t"),
                             make_layout((16, 2), (2, 1)), make_layout((1, 8)))
    s2r = cs.make_tiled_copy_A(cs.Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    results = []
    for index in (tid, None):
        sim = cs.Simulation(tid)
        g = sim.global_tensor(np.arange(256, dtype=np.float16), make_layout((16, 16), (16, 1)), name="g")
        s = sim.shared_tensor(sw, "half_t", name="s")
        out = sim.global_tensor(np.zeros(32 * 8, dtype=np.float16), make_layout((8, 32)), name="out")
        parts = (g2s.get_slice(tid).partition_S(g), g2s.get_slice(tid).partition_D(s), s2r.get_slice(tid).partition_S(s))

        def kernel(t: int, parts: Any = parts, index: Any = index) -> None:
            src, dst, ld = parts if index is not None else (
                g2s.get_slice(t).partition_S(g), g2s.get_slice(t).partition_D(s), s2r.get_slice(t).partition_S(s))
            cs.copy(g2s, src, dst)
            cs.cp_async_fence()
            cs.cp_async_wait(0)
            cs.syncthreads()
            frag = mma.get_slice(t).partition_fragment_A(s)
            cs.copy(s2r, ld, s2r.get_slice(t).retile_D(frag))
            cs.copy(frag, out[_, t])

        assert sim.run(kernel).ok
        results.append(out.engine.array.copy())
    assert (results[0] == results[1]).all()
    A = np.arange(256, dtype=np.float16).reshape(16, 16)
    for t in range(32):                                   # each thread holds its partition_A of the tile
        frag_offsets = mma.get_slice(t).partition_A(make_layout((16, 16), (16, 1)))
        base = mma.get_slice(t).offset_A(make_layout((16, 16), (16, 1)))
        assert [results[0][8 * t + v] for v in range(8)] == [A.reshape(-1)[base + frag_offsets(v)] for v in range(8)]


def test_a_symbolic_offset_outside_a_simulation_names_the_formula() -> None:
    tid = cs.Dyn("tid", max=31, sign="nonnegative")
    T = cs.make_tensor(np.zeros(64), make_layout((32, 2)))
    part = cs.local_partition(T, make_layout(32), tid)
    with pytest.raises(LayoutError, match="symbolic"):
        part[0]


def test_an_ldmatrix_past_shared_memory_names_the_memory_and_the_lane() -> None:
    mma = cs.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN")
    tc = cs.make_tiled_copy_A(cs.Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    sim = cs.Simulation(32)
    s = sim.shared_tensor(make_layout((16, 8)), "half_t", name="s")     # half the tile the copy reads
    wide = cs.make_tensor(s.engine, make_layout((16, 16)))

    def kernel(t: int) -> None:
        if t < 16:
            cs.fill(s[t, _], 0)                                          # every element of s written
        cs.syncthreads()
        frag = mma.get_slice(t).partition_fragment_A(wide)
        cs.copy(tc, tc.get_slice(t).partition_S(wide), tc.get_slice(t).retile_D(frag))

    report = sim.run(kernel)
    oob = report.of("out_of_bounds")
    assert len(oob) == 1 and oob[0].memory == "s" and oob[0].offsets[0] >= 128


def test_a_missing_cp_async_wait() -> None:
    """cp.async lands at the wait of its group: reading shared memory (after the barrier) without
    waiting sees unwritten elements, and the copies still in flight at the end are reported."""
    g2s = cs.make_tiled_copy(cs.Copy_Atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t"),
                             make_layout((8, 4), (4, 1)), make_layout((1, 8)))
    for wait in (True, False):
        sim = cs.Simulation(32)
        g = sim.global_tensor(np.arange(256, dtype=np.float16), make_layout((8, 32), (32, 1)), name="g")
        s = sim.shared_tensor(make_layout((8, 32), (32, 1)), "half_t", name="s")

        def kernel(t: int, wait: bool = wait) -> None:
            cs.copy(g2s, g2s.get_slice(t).partition_S(g), g2s.get_slice(t).partition_D(s))
            cs.cp_async_fence()
            if wait:
                cs.cp_async_wait(0)
            cs.syncthreads()
            _x = s[(t * 8 + 5) % 256]

        report = sim.run(kernel)
        if wait:
            assert report.ok and (s.engine.array == g.engine.array).all()
        else:
            assert {f.kind for f in report.faults} == {"uninitialized_read", "async_pending"}
            assert report.of("async_pending")[0].n == 1 and len(report.of("async_pending")) == 32


def test_cp_async_wait_keeps_the_newest_groups_in_flight() -> None:
    atom = cs.Copy_Atom("SM80_CP_ASYNC_CACHEALWAYS<uint32_t>", "float")
    sim = cs.Simulation(1)
    g = sim.global_tensor(np.arange(3.0, dtype=np.float32), make_layout(3), name="g")
    s = sim.shared_tensor(make_layout(3), "float", name="s")
    seen: list[float] = []

    def kernel(t: int) -> None:
        for i in range(3):
            cs.copy(atom, cs.make_tensor(g.engine + i, make_layout(1)),
                    cs.make_tensor(s.engine + i, make_layout(1)))
            cs.cp_async_fence()
        cs.cp_async_wait(1)                      # groups 0 and 1 land, group 2 is in flight
        seen.extend(float(x) for x in s.engine.array)
        cs.cp_async_wait(0)

    assert sim.run(kernel).ok and seen == [0.0, 1.0, 0.0]
    with pytest.raises(LayoutError):
        cs.cp_async_wait(-1)

"""The divides: examples, sweeps and properties, judged by tests/postconditions.py."""
from __future__ import annotations


import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import cute_sym as cs
from cute_sym import Layout, make_layout, parse

from postconditions import (
    check_flat_divide,
    check_logical_divide, check_logical_product,
    check_tiled_divide, check_zipped_divide,
    is_injective,
)

from algebra_support import MASKS, P2, P2S, _pairs, _static_vs_symbolic, layouts


@pytest.mark.parametrize("a, b", [
    ("_24:_2", "_4:_2"), ("_16:_3", "_4:_1"), ("_16:_3", "_4:_4"), ("_16:_3", "_4:_2"),
    ("_16:_3", "(_2,_2):(_4,_1)"), ("(_4,_2,_3):(_2,_1,_8)", "_4:_2"),
])
def test_logical_divide_examples(a: str, b: str) -> None:
    A, B = parse(a), parse(b)
    R = cs.logical_divide(A, B)
    check_logical_divide(A, B, R)
    check_zipped_divide(A, B, cs.zipped_divide(A, B))
    check_tiled_divide(A, B, cs.tiled_divide(A, B))
    check_flat_divide(A, B, cs.flat_divide(A, B))


def test_divides_by_tiler() -> None:
    A = parse("(_9,(_4,_8)):(_59,(_13,_1))")
    T = parse("(_3:_3,(_2,_4):(_1,_8))")
    R = cs.logical_divide(A, T)
    assert str(R) == "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))"
    check_logical_divide(A, T, R)
    Z = cs.zipped_divide(A, T)
    assert str(Z) == "((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1)))"
    check_zipped_divide(A, T, Z)
    Td = cs.tiled_divide(A, T)
    assert str(Td) == "((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1))"
    check_tiled_divide(A, T, Td)
    F = cs.flat_divide(A, T)
    assert str(F) == "(_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1))"
    check_flat_divide(A, T, F)


def test_zipped_divide_shape_tiler() -> None:
    A = parse("(_64,_32):(_32,_1)")
    Z = cs.zipped_divide(A, parse("(_16,_8)"))
    assert str(Z) == "((_16,_8),(_4,_4)):((_32,_1),(_512,_8))"
    check_zipped_divide(A, (16, 8), Z)


def test_sweep_divides() -> None:
    n = 0
    for A, B in _pairs(3):
        try:
            R = cs.logical_divide(A, B)
        except cs.LayoutError:
            continue
        check_logical_divide(A, B, R)
        check_zipped_divide(A, B, cs.zipped_divide(A, B))
        n += 1
    assert n > 300


@given(layouts(ext=P2, max_rank=2, rand_strides=P2S), layouts(ext=P2, max_rank=2, rand_strides=P2S))
@settings(suppress_health_check=[HealthCheck.filter_too_much])
def test_prop_divide_and_product(A: Layout, B: Layout) -> None:
    assume(is_injective(B))
    try:
        R = cs.logical_divide(A, B)
    except cs.LayoutError:
        R = None
    if R is not None:
        check_logical_divide(A, B, R)
    try:
        P = cs.logical_product(A, B)
    except cs.LayoutError:
        return
    check_logical_product(A, B, P)


@given(layouts(ext=P2, max_rank=2), MASKS, st.sampled_from(["_4:_1", "_2:_2", "(_2,_2):(_1,_4)"]))
def test_prop_symbolic_logical_divide(L: Layout, mask: list[bool], tiler: str) -> None:
    _static_vs_symbolic(cs.logical_divide, L, mask, parse(tiler), compare="by_mode")


def test_logical_divide_one_mode_by_an_integer_sweep() -> None:
    """The fast path for one static mode divided by an integer (the tile of a tuple tiler)
    agrees with the general construction and with the post-condition."""
    from cute_sym.algebra.complement import _complement
    from cute_sym.algebra.composition import _composition_cute
    for s in range(2, 25):
        for d in (-3, -1, 1, 2, 5):
            for n in range(2, 30):
                A = make_layout(s, d)
                R = cs.logical_divide(A, n)
                T = make_layout(n, 1)
                general = _composition_cute(A, make_layout(T, _complement(T, s)))
                assert str(R) == str(general), (s, d, n)
                check_logical_divide(A, T, R)


def test_logical_divide_by_a_printed_static_integer() -> None:
    """An integer tiler ``_16`` (as the public API prints and reads it) divides like ``16:1``."""
    for a, n in [("(_4096,_64):(_64,_1)", 16), ("(_4,_8,_1):(_8,_1,_1)", 2), ("(_256,_128):(_1,_256)", 5)]:
        A = parse(a)
        R = cs.logical_divide(A, parse(f"_{n}"))
        assert str(R) == str(cs.logical_divide(A, Layout(n, 1)))
        check_logical_divide(A, Layout(n, 1), R)


def test_tiler_first_is_the_general_order() -> None:
    """A symbolic layout divided by a static tiler: composing the tiler's modes before building
    the complement gives the general order's answer, or its error with the same text
    (the complement's own errors, an open tiler fold, an open or refused rest)."""
    import itertools
    import importlib
    from cute_sym import Dyn
    from cute_sym.core import decide
    div = importlib.import_module("cute_sym.algebra.divide")
    comp = importlib.import_module("cute_sym.algebra.complement")
    compo = importlib.import_module("cute_sym.algebra.composition")
    from cute_sym.algebra._util import _flat
    from cute_sym.algebra.coalesce import _bw_sd

    def general(L: Layout, T: Layout) -> Layout:
        fl_s, fl_d = _flat(L)
        n = len(fl_s)
        fs, fd = _bw_sd(fl_s, fl_d, n - 2, fl_s[n - 1], fl_d[n - 1])
        C = comp._complement(T, fs)
        return compo._compose_impl(fs, fd, (T._shape, C._shape), (T._stride, C._stride))

    def outcome(fn: object, *args: object) -> tuple[str, str]:
        decide.clear_caches()
        try:
            R = fn(*args)  # type: ignore[operator]
            return "ok", f"{R}"
        except cs.LayoutError as e:
            return type(e).__name__, str(e)

    S, T, U = Dyn("S", divisible_by=4), Dyn("T", divisible_by=2), Dyn("U")
    extents = [S, T, U, 8, 3, 2 * S]
    strides = [1, 2, 8, 13, 32, 64]
    tilers = ["4:2", "(2,4):(1,8)", "3:3", "8:1", "(2,2):(1,4)", "(2,2):(1,1)", "_4:_-1", "(2,3):(3,1)", "16:1"]
    seen = {"ok": 0, "err": 0}
    for rank in (1, 2, 3):
        for ext in itertools.islice(itertools.product(extents, repeat=rank), 0, None, 3 if rank == 3 else 1):
            for std in itertools.islice(itertools.product(strides, repeat=rank), 0, None, 29 if rank == 3 else 5):
                L = make_layout(tuple(ext), tuple(std)) if rank > 1 else make_layout(ext[0], std[0])
                if all(type(x) is int for x in ext):
                    continue
                for t in tilers:
                    Tl = parse(t)
                    got = outcome(div._logical_divide, L, Tl)
                    want = outcome(general, L, Tl)
                    assert got == want, (L, t, got, want)
                    seen["ok" if got[0] == "ok" else "err"] += 1
    assert seen["ok"] > 100 and seen["err"] > 50, seen


@given(st.integers(2, 4), st.sampled_from([2, 4, 8, 16, 32]), st.sampled_from([1, 2, 4]), st.sampled_from([2, 4, 8, 16]),
       st.lists(st.tuples(st.sampled_from([1, 2, 4, 6]), st.integers(1, 3), st.booleans()), min_size=3, max_size=3),
       st.lists(st.sampled_from([0, 1, 2, 32, -3, "K", "S0"]), min_size=4, max_size=4), st.booleans(),
       st.sampled_from([None, 0, 7]))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_unit_tile_first_is_the_general_steps(rank: int, d0: int, k: int, t: int,
                                              rest: list[tuple[int, int, bool]], strides: list[object],
                                              same: bool, trail: int | None) -> None:
    """The unit tile read off at once (``t:1`` over ``(k*S0, S1, ..)``) is the layout the general
    steps build, leaf for leaf (static and dynamic alike), wherever it answers; logical_divide
    gives the general steps' layout (a last static 1 mode, ``trail`` its stride, stays in it);
    and every answer is ``layout(tiled(i))`` at values of the symbols."""
    import importlib
    from cute_sym import Dyn
    from cute_sym.core import decide
    div = importlib.import_module("cute_sym.algebra.divide")
    from cute_sym.algebra._util import _flat
    from cute_sym.algebra.coalesce import _bw_sd
    S0 = Dyn("S0", divisible_by=d0)
    syms = {"S0": S0, "K": Dyn("K", divisible_by=16)}
    ext: list[object] = [k * S0]
    for j, (dv, lo, bounded) in enumerate(rest[:rank - 1]):
        ext.append(S0 if same and j == 0 else Dyn(f"S{j + 1}", divisible_by=dv, min=lo, **({"max": 64} if bounded else {})))
    std = tuple(syms[x] if isinstance(x, str) else x for x in strides[:rank])
    if trail is not None:
        ext, std = ext + [1], std + (trail,)
    L = make_layout(tuple(ext), std)
    T = parse(f"_{t}:_1")
    fl_s, fl_d = _flat(L)
    n = len(fl_s)
    fs, fd = _bw_sd(fl_s, fl_d, n - 2, fl_s[n - 1], fl_d[n - 1])

    def outcome(fn: object, *args: object) -> str:
        decide.clear_caches()
        try:
            return f"{fn(*args)}"  # type: ignore[operator]
        except cs.LayoutError as e:
            return f"{type(e).__name__}: {e}"

    got = outcome(div._logical_divide, L, T)
    assert got == outcome(div._divide_steps, L, T, fs, fd, fl_s[-1]), (L, t)
    decide.clear_caches()
    quick = div._unit_tile_first(fs, fd, T)
    assume(quick is not None and trail is None)
    assert got == f"{quick}", (L, t, quick)     # the steps' very layout, printed (_32 is not 32)
    for v in (1, 2):        # small values: the check walks every coordinate
        values = {"S0": d0 * v, "K": 16 * v}
        values.update({f"S{j + 1}": dv * (-(-lo // dv) + v - 1) for j, (dv, lo, _) in enumerate(rest)})
        if cs.size(cs.subs(L, values, ignore_unknown=True)) > 4096:
            continue
        A = cs.subs(L, values, ignore_unknown=True)
        check_logical_divide(A, T, cs.subs(quick, values, ignore_unknown=True))

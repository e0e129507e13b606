"""complement's fast paths against CuTe's steps and the post-conditions.

The int kernel (static layouts), the rest mode of a symbolic cotarget and the
sorted stride order (symbolic strides) each skip work of the general steps;
these sweeps check that they give the general steps' answers, errors included,
and what complement promises (tests/postconditions.py).
"""
from __future__ import annotations

import importlib
import itertools
import random
from typing import Any, Optional

import pytest

import cute_sym as cs
from cute_sym import Dyn, Layout, parse
from cute_sym.core import decide

from cute_sym.layout.layout import is_static_layout
from postconditions import check_complement, is_injective, same_function, small_layouts, to_static
from algebra_support import _complementable

alg = importlib.import_module("cute_sym.algebra.complement")


def _outcome(fn: Any, *args: Any) -> tuple[str, str]:
    try:
        return "ok", repr((fn(*args)._shape, fn(*args)._stride))
    except cs.LayoutError as e:
        return type(e).__name__, str(e)


def _reference(L: Layout, c: Any) -> Layout:
    """The public complement by the general steps: CuTe's answer, positive extents, and
    (static) the completion reaching the cotarget."""
    R = alg._positive_extents(L, alg._complement_general(L, c))
    if c is not None:
        m = cs.product(c)
        whole = 1 + sum((x - 1) * abs(y) for x, y in zip(cs.flatten((L.shape, R.shape)),
                                                          cs.flatten((L.stride, R.stride))))
        if whole < m:
            raise cs.DivisibilityError(f"complement: {L} has no complement up to {m}")
    return R


def _same_outcome(got: tuple[str, str], want: tuple[str, str], what: str) -> None:
    assert got[0] == want[0], f"{what}: {got} vs {want}"
    if got[0] == "ok" or got[0] == "InjectivityError":
        assert got[1] == want[1], f"{what}: {got} vs {want}"


def _random_layouts(n: int, seed: int) -> list[Layout]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        shape, stride = [], []
        for _ in range(rnd.randint(1, 4)):
            if rnd.random() < 0.3:
                k = rnd.randint(1, 3)
                shape.append(tuple(rnd.choice((1, 2, 3, 4, 8)) for _ in range(k)))
                stride.append(tuple(rnd.choice((0, 1, 2, 3, 4, 8, 12, 16, 32, 64)) for _ in range(k)))
            else:
                shape.append(rnd.choice((1, 2, 3, 4, 8)))
                stride.append(rnd.choice((0, 1, 2, 3, 4, 8, 12, 16, 32, 64)))
        out.append(Layout(tuple(shape), tuple(stride)))
    return out


SMALL = list(small_layouts((1, 2, 3, 4), (0, 1, 2, 3, 4, 6, 8), max_rank=2))     # 812 layouts
COTARGETS: list[Optional[Any]] = [None, 1, 6, 8, 24, 100, (4, 6), (2, 3, 8)]


def test_kernel_matches_general_steps_exhaustive() -> None:
    """Every small static layout: the kernel's answer or error is the general steps'."""
    n = 0
    for L in SMALL:
        for c in COTARGETS:
            _same_outcome(_outcome(cs.complement, L, c), _outcome(_reference, L, c), f"complement({L}, {c})")
            _same_outcome(_outcome(alg._complement, L, c),
                          _outcome(lambda A, t: alg._positive_extents(A, alg._complement_general(A, t)), L, c),
                          f"_complement({L}, {c})")
            n += 1
    assert n > 6000


def test_kernel_matches_general_steps_nested() -> None:
    """Nested, unordered and non-tiling layouts up to rank 4 (taken at random, fixed seed)."""
    for L in _random_layouts(1200, 5):
        for c in (None, 64, 1000, (8, 16)):
            _same_outcome(_outcome(cs.complement, L, c), _outcome(_reference, L, c), f"complement({L}, {c})")


def test_kernel_post_conditions() -> None:
    """What complement promises, on every small injective layout it answers."""
    n = 0
    for L in SMALL:
        if not is_injective(cs.filter(L)):
            with pytest.raises(cs.LayoutError):
                cs.complement(L, 24)
            continue
        if not _complementable(L):
            continue        # strides that do not tile: CuTe's answer may fall short (checked above)
        for M in (1, 8, 24, 100):
            check_complement(L, M, cs.complement(L, M))
            n += 1
    assert n > 1000


def test_kernel_results_are_static() -> None:
    L = parse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))")
    C = cs.complement(L, 512)
    assert is_static_layout(C) and C._st is True and str(C) == "_4:_128"


@pytest.mark.parametrize("text", ["_32:_1", "(_4,_8):(_1,_128)", "(_2,_4):(_8,_1)", "_4:_0",
                                  "((_2,_2),_4):((_1,_8),_2)", "(_2,_3):(_1,_2)", "(_2,_4):(_1,_4)"])
@pytest.mark.parametrize("cot", ["M", "M*N", "8*M", "M+4", "2*K", "M*M"])
def test_symbolic_cotarget_by_substitution(text: str, cot: str) -> None:
    """A static layout, a symbolic cotarget: the answer at each value is the static answer there."""
    S = {"M": Dyn("M", divisible_by=16), "N": Dyn("N", divisible_by=8), "K": Dyn("K")}
    A = parse(text)
    c = eval(cot, {}, S)     # noqa: S307 - a fixed formula over the symbols above
    decide.clear_caches()
    try:
        C = cs.complement(A, c)
    except cs.LayoutError:
        return      # undecided: raising is never wrong
    assert _outcome(cs.complement, A, c) == _outcome(alg._complement_general, A, c)
    for m, n, k in itertools.product((16, 32, 48, 128), (8, 24), (1, 3, 7)):
        vals = {"M": m, "N": n, "K": k}
        want = cs.complement(A, int(cs.subs(c, vals)))
        assert same_function(want, to_static(C, vals)), (text, cot, vals, C, want)


def _chain(r: int, perm: list[int]) -> tuple[Layout, Any]:
    """``(S1..Sr):(1,S1,S1*S2,...)`` with its modes permuted; the cotarget 2*S1*...*Sr."""
    S = [Dyn(f"S{i}", divisible_by=4) for i in range(r)]
    strides, p = [], 1
    for s in S:
        strides.append(p)
        p = p * s
    shape = tuple(S[j] for j in perm)
    stride = tuple(strides[j] for j in perm)
    return (Layout(shape, stride) if r > 1 else Layout(shape[0], stride[0])), 2 * p


@pytest.mark.parametrize("r", [1, 2, 3, 5])
def test_sorted_stride_order_by_substitution(r: int) -> None:
    """Symbolic strides in any order: the answer at each value is the static answer there,
    and it is the one taking the minima one by one gives."""
    rnd = random.Random(r)
    for _ in range(3):
        perm = list(range(r))
        rnd.shuffle(perm)
        L, c = _chain(r, perm)
        C = cs.complement(L, c)
        for vals in ({f"S{i}": 4 * (i + 1) for i in range(r)}, {f"S{i}": 8 for i in range(r)}):
            want = cs.complement(to_static(L, vals), int(cs.subs(c, vals)))
            assert same_function(want, to_static(C, vals)), (L, vals, C)


def test_sorted_stride_order_agrees_with_minima() -> None:
    """Where every comparison is decided, the stable sort is the order of repeated minima
    (and where one is open, the sort gives up: the minima name the fact)."""
    M, N = Dyn("M", divisible_by=4), Dyn("N", divisible_by=4)
    for strides in ([1, M, M * N, 2], [M * N, 1, M, 4 * M * N], [M, M, 1], [8, 2, 2 * M], [1, M, M * N, 4]):
        order = alg._proved_order(list(strides))
        rest, minima = list(range(len(strides))), []
        try:
            while rest:
                k = alg._min_index([strides[j] for j in rest])
                minima.append(rest.pop(k))
        except cs.UndecidableError:
            assert order is None, strides
            continue
        assert order == minima, (strides, order, minima)


def test_undecided_order_names_the_fact() -> None:
    """Strides in no provable order: the same error as taking the minima one by one."""
    M, N = Dyn("M"), Dyn("N")
    L = Layout((4, 4), (M, N))
    assert alg._proved_order([M, N]) is None
    with pytest.raises(cs.UndecidableError) as e:
        cs.complement(L, 4 * M * N)
    with pytest.raises(cs.UndecidableError) as f:
        alg._min_index([M, N])
    assert str(e.value) == str(f.value)


def test_symbolic_tuple_cotarget_kernel_matches_general_steps() -> None:
    """A static layout into a tuple cotarget with symbolic modes (a divide's shape): the kernel's
    answer or error is the general steps' (the same rest mode, built the same way)."""
    S = [Dyn("S0", divisible_by=4), Dyn("S1", divisible_by=2), Dyn("S2", divisible_by=8), Dyn("S3")]
    cotargets: list[Any] = [(S[0], S[1]), (S[2], 8), (4, S[3]), (S[0], (S[1], S[2])), (S[1], S[3], S[0])]
    n = 0
    for L in SMALL[::3]:
        for c in cotargets:
            decide.clear_caches()
            _same_outcome(_outcome(alg._complement, L, c),
                          _outcome(lambda A, t: alg._positive_extents(A, alg._complement_general(A, t)), L, c),
                          f"_complement({L}, {c})")
            n += 1
    assert n > 1000

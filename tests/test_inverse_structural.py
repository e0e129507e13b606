"""left_inverse and coalesce on symbolic layouts: the structural shortcuts (a mode that ends
exactly at the next stride needs no reasoning; an int factor is made a sympy Integer directly)
give the general path's answers and errors, and the post-conditions hold at many values."""
from __future__ import annotations

import importlib
import itertools
import operator
from typing import Any

import pytest
import sympy

import cute_sym as cs
from cute_sym.algebra import inverse as inv
from cute_sym.core import decide
from postconditions import assert_same_function, check_left_inverse, to_static

co = importlib.import_module("cute_sym.algebra.coalesce")    # the package exports the function by that name

M = cs.Dyn("M", divisible_by=4)
N = cs.Dyn("N", divisible_by=2, min=2)
K = cs.Dyn("K")                             # may be 1
Z = cs.Dyn("Z", sign="nonnegative")         # may be 0
EXTENTS: list[Any] = [M, N, K, 2, 4, sympy.Integer(4)]
VALUES = [{"M": m, "N": n, "K": k, "Z": z} for m, n, k, z in itertools.product((4, 8), (2, 6), (1, 3), (0, 2))]


def _leaves(t: Any) -> list[Any]:
    return [y for x in t for y in _leaves(x)] if isinstance(t, tuple) else [t]


def _layouts() -> list[cs.Layout]:
    """Rank 1..3 layouts over EXTENTS: compact in every mode order, with a gap, with a sum stride."""
    out = []
    for r in (1, 2, 3):
        for shape in itertools.product(EXTENTS, repeat=r):
            for perm in itertools.permutations(range(r)):
                stride: list[Any] = [0] * r
                p: Any = 1
                for k in perm:
                    stride[k] = p
                    p = p * shape[k]
                out.append(cs.make_layout(tuple(shape), tuple(stride)))
                gap = list(stride)
                gap[perm[-1]] = 2 * gap[perm[-1]]
                out.append(cs.make_layout(tuple(shape), tuple(gap)))
            if r == 2:
                out.append(cs.make_layout(tuple(shape), (1, shape[0] + 1)))
                out.append(cs.make_layout(tuple(shape), (Z, Z * shape[0])))
    return out


LAYOUTS = _layouts()


def _outcome(fn: Any, L: cs.Layout) -> tuple[str, Any]:
    decide.clear_caches()
    try:
        return "ok", fn(L)
    except ValueError as e:
        return type(e).__name__, str(e)


def test_left_inverse_shortcuts_match_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [_outcome(cs.left_inverse, L) for L in LAYOUTS]
    monkeypatch.setattr(inv, "_least", lambda x: 0)     # every structural answer off: decide alone
    slow = [_outcome(cs.left_inverse, L) for L in LAYOUTS]
    assert sum(1 for k, _ in fast if k == "ok") > 100
    for L, a, b in zip(LAYOUTS, fast, slow):
        assert a[0] == b[0] and str(a[1]) == str(b[1]), f"left_inverse({L}): {a} vs {b}"
        if a[0] == "ok":
            # the same expressions, not only the same printing
            assert a[1].shape == b[1].shape and a[1].stride == b[1].stride, f"left_inverse({L})"
            assert [type(x) for x in _leaves(a[1].shape)] == [type(x) for x in _leaves(b[1].shape)]


@pytest.mark.parametrize("L", [L for L in LAYOUTS if _outcome(cs.left_inverse, L)[0] == "ok"][::7],
                         ids=str)
def test_left_inverse_substituted(L: cs.Layout) -> None:
    R = cs.left_inverse(L)
    for v in VALUES:
        Ls = to_static(L, v)
        if len(set(_leaves(Ls.stride))) < len(_leaves(Ls.stride)) or 0 in _leaves(Ls.stride):
            continue        # a degenerate value (a 0 stride): the symbolic answer assumed it away
        check_left_inverse(Ls, to_static(R, v))


def test_coalesce_product_matches_operator(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [_outcome(cs.coalesce, L) for L in LAYOUTS]
    monkeypatch.setattr(co, "mul", operator.mul)
    slow = [_outcome(cs.coalesce, L) for L in LAYOUTS]
    for L, a, b in zip(LAYOUTS, fast, slow):
        assert a[0] == b[0] and str(a[1]) == str(b[1]), f"coalesce({L}): {a} vs {b}"
        if a[0] == "ok":
            assert a[1].shape == b[1].shape and a[1].stride == b[1].stride
            assert [type(x) for x in _leaves(a[1].shape)] == [type(x) for x in _leaves(b[1].shape)]
    for L, (k, R) in list(zip(LAYOUTS, fast))[::5]:
        if k == "ok":
            for v in VALUES[::3]:
                # a symbol substituted by 1 leaves a size-1 mode: the function is what must agree
                assert_same_function(to_static(L, v), to_static(R, v), f"coalesce({L}) at {v}")


def test_coalesce_product_is_the_operator() -> None:
    for a, b in itertools.product([3, 0, -2, M, sympy.Integer(4), M * N, K + 1], repeat=2):
        r = co.mul(a, b)
        assert r == a * b and type(r) is type(a * b)


def test_least_bounds() -> None:
    assert inv._least(M * N) == 8 and inv._least(K) == 1 and inv._least(M ** 2) == 16
    assert inv._least(Z) == 0 and inv._least(M + 1) == 0 and inv._least(0) == 0
    for v in VALUES:
        for x in (M * N, 3 * K * M, N ** 2):
            assert int(cs.subs(x, v)) >= inv._least(x)

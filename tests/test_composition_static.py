"""composition's pure-int pipeline (static lhs and rhs) against the general path and the post-condition.

The general path (``_composition_generic``: ``_coalesce_x``, ``_compose_sd``, ``_check_modes_add``,
``_transform_layout``) is what every static call took before the pipeline; the two must give the
same layout (shape, stride, nesting) or raise the same error with the same message, for the strict
``composition`` and for CuTe's ``_composition_cute``; where the strict one answers, ``R(i) == A(B(i))``.
"""
from __future__ import annotations

import random
import sys
from typing import Any

import pytest

import cute_sym as cs
import cute_sym.algebra.composition_static  # noqa: F401  (S below)
from cute_sym import Layout
from cute_sym.algebra.coalesce import _coalesce_x
from cute_sym.layout.layout import is_static_layout

from postconditions import check_composition, check_composition_tiler

C = sys.modules["cute_sym.algebra.composition"]
S = sys.modules["cute_sym.algebra.composition_static"]

EXTENTS = (1, 2, 3, 4, 6, 8)
STRIDES = (0, 1, 2, 3, 4, 6, 8, 12, 16, -1, -2)


def _outcome(f: Any, *args: Any) -> tuple[Any, ...]:
    try:
        r = f(*args)
    except (cs.LayoutError, ZeroDivisionError) as e:
        return ("raise", type(e).__name__, str(e))
    return ("ok", r.shape, r.stride)


def _tree(rng: random.Random, depth: int) -> tuple[Any, Any]:
    if depth == 0 or rng.random() < 0.35:
        return rng.choice(EXTENTS), rng.choice(STRIDES)
    kids = [_tree(rng, depth - 1) for _ in range(rng.randint(1, 3))]
    return tuple(k[0] for k in kids), tuple(k[1] for k in kids)


def _layout(rng: random.Random, depth: int) -> Layout:
    return Layout(*_tree(rng, depth))


def _tiler(rng: random.Random, A: Layout) -> tuple[Any, ...]:
    rank = len(A.shape) if isinstance(A.shape, tuple) else 1
    def mode(depth: int) -> Any:
        k = rng.random()
        if k < 0.45:
            return _layout(rng, 1)
        if k < 0.65:
            return rng.choice((1, 2, 3, 4, 8))
        if k < 0.85 or depth == 0:
            return cs._
        return tuple(mode(depth - 1) for _ in range(rng.randint(1, 2)))
    return tuple(mode(1) for _ in range(rng.randint(1, rank + (rng.random() < 0.1))))


def _negative_stride(B: Any) -> bool:
    if isinstance(B, Layout):
        return min(cs.flatten(B.stride) if isinstance(B.stride, tuple) else (B.stride,), default=0) < 0
    return isinstance(B, tuple) and any(_negative_stride(t) for t in B)


def _same_as_general(A: Layout, B: Any) -> str:
    fast = _outcome(C.composition, A, B)
    assert fast == _outcome(C._composition_generic, A, B, True), (A, B)
    cute = _outcome(C._composition_cute, A, B)
    assert cute == _outcome(C._composition_generic, A, B, False), (A, B)
    if fast[0] == "ok" and not _negative_stride(B):     # a negative stride leaves the lhs's domain
        R = C.composition(A, B)
        assert is_static_layout(R)
        if isinstance(B, tuple):
            if not any(isinstance(t, tuple) for t in B):
                check_composition_tiler(A, B, R)
        elif isinstance(B, Layout):
            if cs.size(B) <= 96:
                check_composition(A, B, R)
        else:
            check_composition(A, Layout(B, 1), R)
    return fast[0] if fast[0] == "ok" else fast[2].split(":")[0]


def test_random_static_layouts_same_as_general_path() -> None:
    """Nested static layouts (zero, negative and non-dividing strides, extents 1): layout, int and
    tiler rhs; the errors are the general path's too."""
    rng = random.Random(15)
    seen: dict[str, int] = {}
    for _ in range(2500):
        A = _layout(rng, rng.choice((1, 2, 3)))
        k = rng.random()
        B: Any = _layout(rng, rng.choice((1, 2))) if k < 0.6 else (
            rng.choice((1, 2, 3, 4, 6, 8, 16)) if k < 0.75 else _tiler(rng, A))
        what = _same_as_general(A, B)
        seen[what] = seen.get(what, 0) + 1
    # the sweep reaches the answers and each kind of refusal
    assert seen["ok"] > 1000
    for why in ("Stride Divisibility Condition", "Shape Divisibility Condition", "composition"):
        assert seen.get(why, 0) > 10, seen


def test_carry_check_same_as_general_path() -> None:
    """Two- and three-mode rhs over two- and three-mode lhs: the strict carry check (rhs modes that
    add up past an lhs extent) raises exactly where the general check does, with its message."""
    lhs = [Layout(s, d) for s in ((4, 4), (2, 8), (3, 4), (4, 2, 4)) for d in
           ((1, 4) if len(s) == 2 else (1, 4, 8), (1, 8) if len(s) == 2 else (1, 8, 32), (4, 1) if len(s) == 2 else (8, 1, 2))]
    rhs = [Layout((a, b), (c, e)) for a in (2, 3, 4) for b in (2, 4) for c in (1, 2, 3, 5) for e in (1, 2, 3, 6, 8)]
    rhs += [Layout((2, (2, 2)), (1, (3, e))) for e in (1, 5, 7)]
    carries = 0
    for A in lhs:
        for B in rhs:
            what = _same_as_general(A, B)
            carries += what == "composition" and "with a carry" in _outcome(C.composition, A, B)[2]
    assert carries > 20


@pytest.mark.parametrize("shape, stride", [
    ((2, (4, 1)), (1, (2, 7))), (1, 5), ((), ()), ((1, 1), (3, 5)), ((4, ()), (1, ())), ((2, ((3, 1), 1)), (1, ((2, 9), 4))),
    ((4, 2, 1), (1, 4, 0)), ((2, 0, 3), (1, 2, 4)), (((2, 2), (2, 2)), ((1, 2), (4, 8))), ((3, 1, 1), (2, 7, 6)),
])
def test_coalesce_x_ints_is_coalesce_x(shape: Any, stride: Any) -> None:
    fs, fd = S._coalesce_x_ints(shape, stride)
    flat = _coalesce_x(Layout(shape, stride))
    assert (fs, fd) == ((list(flat.shape), list(flat.stride)) if isinstance(flat.shape, tuple)
                        else ([flat.shape], [flat.stride]))


def _fold_reference(ls: list[int], ld: list[int], rs: int, rd: int) -> tuple[Any, Any]:
    """CuTe's composition_impl for one rhs mode on a flat lhs, written out plainly."""
    res: list[tuple[int, int]] = []
    rest_shape, rest_stride = rs, rd
    for cs_, cd in zip(ls[:-1], ld[:-1]):
        if not (rest_stride % cs_ == 0 or rest_stride < cs_):
            raise cs.LayoutError("Stride Divisibility Condition")
        a = abs(rest_stride)
        next_shape, next_stride = -(-cs_ // a), -(-a // cs_) * (1 if rest_stride > 0 else -1)
        if next_shape != 1 and rest_shape != 1:
            new_shape = min(next_shape, rest_shape)
            if rest_shape % new_shape:
                raise cs.LayoutError("Shape Divisibility Condition")
            res.append((new_shape, rest_stride * cd))
            rest_shape //= new_shape
        rest_stride = next_stride
    if rest_shape != 1 or not res:
        res.append((rest_shape, rest_stride * ld[-1]))
    if len(res) == 1:
        return res[0]
    return tuple(m[0] for m in res), tuple(m[1] for m in res)


def test_static_fold_is_cutes_fold() -> None:
    """Every rhs mode ``s:d`` over small flat lhs: ``_compose_static`` (CuTe's variant) is CuTe's fold."""
    lhs = [([a, b], [1, e]) for a in (2, 3, 4, 6) for b in (2, 5) for e in (a, 2 * a + 1, 3)]
    lhs += [([a, b, c], [1, 8, 64]) for a in (2, 4, 8) for b in (2, 3, 8) for c in (2, 4)]
    n = 0
    for ls, ld in lhs:
        for s in (1, 2, 3, 4, 6, 8, 12):
            for d in (1, 2, 3, 4, 6, 8, 12, 16, 24, -1, -2, -4):
                try:
                    want: Any = _fold_reference(ls, ld, s, d)
                except cs.LayoutError as e:
                    want = str(e)
                try:
                    got: Any = S._compose_static(ls, ld, s, d, False)
                except cs.LayoutError as e:
                    got = str(e).split(":")[0]
                assert got == want, (ls, ld, s, d)
                n += 1
    assert n > 3000


def test_compose_impl_static_path_is_the_general_fold() -> None:
    """``_compose_impl`` (the divides' entry, flat lhs): the pure-int fold gives ``_compose_sd``'s answer;
    an rhs with a symbolic leaf takes the general fold."""
    rng = random.Random(7)
    for _ in range(400):
        fs, fd = S._coalesce_x_ints(*_tree(rng, 1))
        ls, ld = (fs[0], fd[0]) if len(fs) == 1 else (tuple(fs), tuple(fd))
        B = _layout(rng, 2)
        for strict in (False, True):
            try:
                want: Any = C._compose_sd(ls, ld, B.shape, B.stride, strict)
            except (cs.LayoutError, ZeroDivisionError) as e:
                want = str(e)
            try:
                r = C._compose_impl(ls, ld, B.shape, B.stride, strict)
                got: Any = (r.shape, r.stride)
            except (cs.LayoutError, ZeroDivisionError) as e:
                got = str(e)
            assert got == want, (ls, ld, B)
    M = cs.Dyn("M", divisible_by=2)
    r = C._compose_impl((4, 8), (1, 4), (2, M), (2, 8))
    assert (r.shape, r.stride) == C._compose_sd((4, 8), (1, 4), (2, M), (2, 8)) == ((2, M), (2, 8))
    assert not is_static_layout(r)


def test_static_results_are_flagged_static() -> None:
    A = cs.parse("(_16,_16):(_16,_1)")
    B = cs.parse("((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))")
    for R in (C.composition(A, B), C._composition_cute(A, B), C.composition(A, 8)):
        assert R._st is True
    assert str(C.composition(A, B)) == "((_4,_8),(_2,_2,_2)):((_2,_16),(_1,_128,_8))"

"""Shared by the algebra tests: hypothesis strategies, sweeps of small layouts, symbolic substitution."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import strategies as st

import cute_sym as cs
from cute_sym import Layout, parse

from postconditions import (
    assert_same_function, is_injective, same_function, small_layouts, to_static,
)

from corpus import cases, swizzled  # noqa: E402


def _error_cases() -> list[Any]:
    return [pytest.param(c, id=c["id"]) for c in cases(
        where=lambda c: isinstance(c["expect"], dict) and "error" in c["expect"] and not swizzled(c))]


ERROR_CASES = _error_cases()


def _positive_shapes(L: Layout) -> bool:
    leaves = cs.flatten(L.shape) if isinstance(L.shape, tuple) else (L.shape,)
    return all(int(x) >= 1 for x in leaves)


ALL = list(small_layouts((1, 2, 3, 4), (0, 1, 2, 4)))          # 272 layouts


POW2 = list(small_layouts((1, 2, 4), (0, 1, 2, 4)))            # 156 layouts


POW2_INJ = [L for L in POW2 if is_injective(L)]


def _complementable(L: Layout) -> bool:
    """Sorted by stride, each stride is a multiple of the span of the smaller ones."""
    F = cs.filter(L)
    fs = F.shape if isinstance(F.shape, tuple) else (F.shape,)
    fd = F.stride if isinstance(F.stride, tuple) else (F.stride,)
    span = 1
    for s, d in sorted(zip(fs, fd), key=lambda p: p[1]):
        if d == 0:
            continue
        if d % span:
            return False
        span = d * s
    return True


def _pairs(step: int) -> list[tuple[Layout, Layout]]:
    pairs = [(A, B) for A in POW2 for B in POW2_INJ]
    return pairs[::step]


EXT = st.sampled_from([1, 2, 3, 4, 6, 8])


P2 = st.sampled_from([1, 2, 4, 8])


P2S = (0, 1, 2, 4, 8, 16)


@st.composite
def layouts(draw: Any, ext: Any = EXT, max_rank: int = 3, nested: bool = True,
            rand_strides: tuple[int, ...] = (0, 1, 2, 3, 4, 8, 16)) -> Layout:
    r = draw(st.integers(1, max_rank))
    shape = []
    for _ in range(r):
        if nested and draw(st.booleans()) and draw(st.booleans()):
            shape.append((draw(ext), draw(ext)))
        else:
            shape.append(draw(ext))
    stride = draw(st.sampled_from(["col", "row", "perm", "rand"]))
    flat = list(cs.flatten(tuple(shape)))
    if stride == "col":
        d = list(cs.flatten(cs.prefix_product(tuple(flat))))
    elif stride == "row":
        d = list(reversed(list(cs.flatten(cs.prefix_product(tuple(reversed(flat)))))))
    elif stride == "perm":
        order = draw(st.permutations(range(len(flat))))
        d = [0] * len(flat)
        acc = 1
        for i in order:
            d[i] = acc
            acc *= flat[i]
    else:
        d = [draw(st.sampled_from(rand_strides)) for _ in flat]
    stride_t = cs.unflatten(tuple(int(x) for x in d), tuple(shape))
    return Layout(tuple(shape), stride_t)


NAMES = "abcdefghijklmn"


def _symbolize(L: Layout, mask: list[bool]) -> tuple[str, dict[str, int]]:
    """CuTe text of ``L`` with the leaves picked by ``mask`` (shape leaves then stride leaves) as identifiers."""
    bind: dict[str, int] = {}
    k = [0]

    def go(t: Any) -> str:
        if isinstance(t, tuple):
            return "(" + ",".join(go(e) for e in t) + ")"
        i = k[0]
        k[0] += 1
        if mask[i % len(mask)]:
            name = NAMES[i] + str(i)
            bind[name] = int(t)
            return name
        return f"_{int(t)}"
    text = go(L.shape) + ":" + go(L.stride)
    return text, bind


def _static_vs_symbolic(op: Any, L: Layout, mask: list[bool], *rest: Any, compare: str = "function") -> None:
    text, bind = _symbolize(L, mask)
    sym = parse(text)
    try:
        want = op(L, *rest)
    except cs.LayoutError:
        # invalid for these values: the symbolic call may not claim a result for every value
        with pytest.raises(cs.LayoutError):
            op(sym, *rest)
        return
    try:
        got = op(sym, *rest)
    except cs.LayoutError:
        return      # undecided, or a symbolic value makes the input invalid: raising is never wrong
    got_s = to_static(got, bind)
    if compare == "function" or not isinstance(want.shape, tuple):
        assert_same_function(want, got_s, f"{op.__name__}({text}) with {bind}")
    elif compare == "by_mode":
        assert same_function(want, got_s)
        if not _coalesces_alike(L, sym, bind):
            # a symbolic extent or stride keeps modes apart that these values merge (CuTe merges
            # only static modes): the same function, its modes split differently
            return
        for k in range(cs.rank(want)):
            assert same_function(want[k], got_s[k]), f"{op.__name__}({text}) with {bind}: mode {k}"


def _coalesces_alike(L: Layout, sym: Layout, bind: dict[str, int]) -> bool:
    """The symbolic layout, coalesced and then given the values, is the static one coalesced."""
    try:
        return str(to_static(cs.coalesce(sym), bind)) == str(cs.coalesce(L))
    except cs.LayoutError:
        return False


MASKS = st.lists(st.booleans(), min_size=1, max_size=8)

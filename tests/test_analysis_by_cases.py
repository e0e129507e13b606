"""Symbolic analyses by cases: every printed case holds at every value its condition admits.

Generated TV layouts over a shared- or global-memory tile whose leading dimension is a
symbol (bounded below by the tile, or of any sign), plain or swizzled: bank conflicts,
coalescing and vector width by cases, checked against the static analysis at every value
of a range (:func:`analysis_cases.check_cases`).
"""
from __future__ import annotations

import random
from typing import Any, Callable

import pytest

from analysis_cases import check_cases, tv_layout
from cute_sym.analysis import bank_conflicts, coalescing, vector_width
from cute_sym.core.errors import LayoutError, UndecidableError
from cute_sym.core.integers import Dyn
from cute_sym.layout import make_layout
from cute_sym.swizzle import ComposedLayout, Swizzle

ANALYSES: list[Callable[..., Any]] = [bank_conflicts, coalescing, vector_width]


@pytest.mark.parametrize("seed", range(24))
def test_printed_cases_hold(seed: int) -> None:
    rng = random.Random(seed)
    tv, M, N = tv_layout(rng)
    bits = rng.choice([8, 16, 32, 64])
    rowmajor = rng.random() < 0.5
    sw = Swizzle(b := rng.randint(1, 3), rng.randint(0, 3), rng.randint(b, 4)) if rng.random() < 0.4 else None
    least = N if rowmajor else M
    any_sign = seed % 3 == 0
    P = Dyn("P", sign="any") if any_sign else Dyn("P", min=least)
    values = range(-40, 120) if any_sign else range(least, least + 120)

    def lay(p: Any) -> Any:
        base = make_layout((M, N), (p, 1)) if rowmajor else make_layout((M, N), (1, p))
        return base if sw is None else ComposedLayout(sw, 0, base)

    fn = ANALYSES[seed % len(ANALYSES)]
    try:
        sym = fn(tv, lay(P), bits)
    except UndecidableError:
        pytest.skip("undecidable as a whole (named)")
    except LayoutError:
        for p in values:        # no legal access at any value: none at each of these
            with pytest.raises(LayoutError):
                fn(tv, lay(p), bits)
        return
    stated = {} if fn is not vector_width else {
        "stated": lambda r: (r.bits, r.values, r.element_bits, r.reason.split(":")[0])}   # (P's formula)
    checked = check_cases(sym, [{"P": p} for p in values], lambda env: fn(tv, lay(env["P"]), bits), **stated)
    assert checked > len(values) // 2

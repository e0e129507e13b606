"""An all-static call creates no sympy object (issue 2: the static path runs at plain-int speed)."""
from __future__ import annotations

from typing import Any, Callable

import pytest
import sympy

import cute_sym as cs
from cute_sym import Layout, make_layout


def _static_batch() -> list[Any]:
    A = make_layout((4, 8), (1, 4))
    B = Layout((6, 2), (8, 2))
    C = Layout((4, 3), (3, 1))
    T = Layout(4, 2)
    V = Layout(24, 2)
    R = Layout((4, 8), (8, 1))
    out = [
        cs.composition(B, C), cs.composition(A, (Layout(2, 1), Layout(4, 2))), cs.composition(Layout(20, 2), 5),
        cs.coalesce(Layout((2, (1, 6)), (1, (6, 2)))), cs.coalesce(B, (1, 1)), cs.filter(Layout((4, 2, 3), (1, 0, 4))),
        cs.complement(T, 24), cs.complement(Layout((2, 2), (1, 6))),
        cs.logical_divide(V, T), cs.zipped_divide(A, (2, 4)), cs.tiled_divide(A, (2, 4)), cs.flat_divide(A, (2, 4)),
        cs.logical_product(Layout((2, 2), (4, 1)), Layout(6, 1)), cs.zipped_product(A, (2, 2)),
        cs.tiled_product(A, (2, 2)), cs.flat_product(A, (2, 2)),
        cs.blocked_product(Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3))),
        cs.raked_product(Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3))),
        cs.right_inverse(R), cs.left_inverse(R), cs.max_common_vector(A, A), cs.max_common_layout(A, R),
        cs.nullspace(Layout((2, 3), (1, 0))), cs.upcast(A, 2), cs.downcast(A, 2), cs.recast_layout(A, 16, 32),
        cs.size(A), cs.cosize(A), cs.coshape(A), cs.rank(A), cs.depth(A), cs.flatten(A),
        cs.shape_div((12, 8), 6), cs.ceil_div((4, 7), 8), cs.idx2crd(16, (3, (2, 3))),
        cs.crd2idx((1, 5), (3, (2, 3)), (3, (12, 1))), cs.make_ordered_layout((2, 2, 2), (1, 0, 2)),
        A(5), A(1, 1), A(cs._, 2), cs.prove("|", 4, 12), cs.tile_to_shape(Layout((8, 8), (8, 1)), (32, 64)),
    ]
    return out


class _Counter:
    def __init__(self) -> None:
        self.made: list[str] = []


def _count_sympy(fn: Callable[[], Any]) -> list[str]:
    """Run ``fn`` with ``sympy.Basic.__new__`` (and Symbol/Integer construction) instrumented."""
    made: list[str] = []
    orig = sympy.Basic.__new__

    def spy(cls: Any, *args: Any, **kw: Any) -> Any:
        made.append(cls.__name__)
        return orig(cls, *args, **kw)

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(sympy.Basic, "__new__", staticmethod(spy))
        fn()
    finally:
        mp.undo()
    return made


def test_spy_detects_sympy_construction() -> None:
    """The instrument works: symbolic work is seen."""
    made = _count_sympy(lambda: cs.size(make_layout((4, cs.Dyn("Q")))) * 3)
    assert made


def test_static_batch_creates_no_sympy_object() -> None:
    _static_batch()                     # warm up (imports, caches)
    made = _count_sympy(_static_batch)
    assert made == [], f"{len(made)} sympy objects made on the static path, e.g. {sorted(set(made))[:8]}"


def test_static_results_are_static() -> None:
    for r in _static_batch():
        assert cs.is_static(r), r


def test_static_notation_creates_no_sympy_object() -> None:
    made = _count_sympy(lambda: [str(cs.parse(s)) for s in ("(_4,_8):(_1,_4)", "(_3:_3,(_2,_4):(_1,_8))", "_")])
    assert made == [], sorted(set(made))

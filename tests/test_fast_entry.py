"""The public ops' fast path (cute_sym.api.fast_entry) gives the general path's answer.

Every case of the corpus (but the swizzled ones, which never take it) runs through both entries of its public op: the fast one
(plain static arguments straight to the algebra) and the general one (through the tensor and
swizzle layers, which the fast path skips). Same result (value and CuTe printing), or the same
error type.
"""
from __future__ import annotations

from typing import Any, Callable

import pytest

import cute_sym as cs
from cute_sym.api.fast_entry import plain_arg, plain_static
from cute_sym.layout.layout import Layout

from corpus import cases, swizzled

OPS = ["coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse",
       "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product",
       "tiled_product", "flat_product", "blocked_product", "raked_product"]


def _general(op: str) -> Callable[..., Any]:
    f = getattr(cs, op)
    g: Callable[..., Any] = f.__globals__["_general"]    # the generated entry's general path
    return g


def _outcome(f: Callable[..., Any], args: list[Any]) -> tuple[str, str]:
    try:
        r = f(*args)
    except cs.LayoutError as e:
        return "error", type(e).__name__
    return "ok", str(r)


def _plain_cases() -> list[dict[str, Any]]:
    return [c for c in cases(*OPS, where=lambda c: not swizzled(c))]


@pytest.mark.parametrize("case", _plain_cases(), ids=lambda c: c["id"])
def test_fast_path_is_the_general_path(case: dict[str, Any]) -> None:
    """Static and symbolic cases alike (a symbolic layout without scaled bases takes the fast path too)."""
    args = [cs.parse(a) for a in case["args"]]
    assert isinstance(args[0], Layout)
    fast = _outcome(getattr(cs, case["op"]), args)
    general = _outcome(_general(case["op"]), [cs.parse(a) for a in case["args"]])
    assert fast == general


def test_every_op_has_a_fast_entry() -> None:
    for op in OPS:
        assert "_general" in getattr(cs, op).__globals__, op


def test_non_static_arguments_take_the_general_path() -> None:
    M = cs.Dyn("M")
    # a symbol, a basis layout, a tensor, a swizzle: each reaches the layers that handle it
    assert str(cs.coalesce(cs.make_layout((M, 4), (1, M)))) == "4*M:_1"
    assert "@" in str(cs.coalesce(cs.make_identity_layout((4, 8))))
    t = cs.make_tensor(cs.make_gmem_ptr("A"), cs.parse("(_8,_6):(_1,_8)"))
    assert isinstance(cs.zipped_divide(t, (2, 3)), cs.Tensor)
    assert isinstance(cs.logical_divide(cs.parse("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)"), (4, 8)), cs.ComposedLayout)


def test_plain_static_admits_only_what_the_algebra_takes_unchanged() -> None:
    assert plain_static(None) and plain_static(4) and plain_static((4, (2, cs._)))
    assert plain_static(cs.Layout((2, 3)))
    assert not plain_static(cs.Layout((2, cs.Dyn("M"))))
    assert not plain_static(cs.make_identity_layout((2, 3)))
    assert not plain_static(True) and not plain_static([4]) and not plain_static("4")
    assert not plain_static((4, cs.Layout((2, cs.Dyn("M")))))
    assert plain_arg((4, cs.Layout((2, cs.Dyn("M"))))) and plain_arg(cs.Dyn("M") * 2)
    assert not plain_arg(cs.make_identity_layout((2, 3))) and not plain_arg((4, "x"))


def test_misuse_on_the_fast_path_is_a_layout_error() -> None:
    with pytest.raises(cs.LayoutError):
        cs.composition(cs.parse("(_4,_2):(_1,_8)"), cs.parse("(_2,_2):(_1,_3)"))   # breaks A(B(i))
    with pytest.raises(cs.LayoutError):
        cs.coalesce(cs.Layout(4, 1), 1, 2)                                          # too many arguments
    with pytest.raises(cs.LayoutError):
        cs.complement(cs.Layout(4, 1), 0)                                           # cotarget not positive
    assert str(cs.logical_divide(layout=cs.parse("_24:_2"), tiler=4)) == "(_4,_6):(_2,_8)"   # keywords

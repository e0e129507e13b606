"""Every immutable value pickles (for multiprocessing, caches on disk) and copies as itself.

Their ``__setattr__`` refuses writes, which Python's default protocol relies on;
``cute_sym.core.frozen`` (and ``Layout.__reduce__``) rebuild them instead.
"""
from __future__ import annotations

import copy
import pickle
from typing import Any, Callable

import pytest

import cute_sym as cs


def _tiled_copy() -> Any:
    return cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint128_t>", "half_t"),
                              cs.parse("(_32,_4):(_1,_32)"), cs.parse("(_8,_1)"))


VALUES: list[tuple[str, Callable[[], Any]]] = [
    ("static layout", lambda: cs.parse("(_4,(_2,_3)):(_1,(_4,_8))")),
    ("symbolic layout", lambda: cs.make_layout((cs.Dyn("M", divisible_by=4), (2, cs.Dyn("N"))))),
    ("swizzle", lambda: cs.parse("Sw<3,3,3>")),
    ("composed layout", lambda: cs.parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")),
    ("scaled basis", lambda: cs.E(1)),
    ("basis layout", lambda: cs.make_identity_layout((4, 8))),
    ("identity tensor", lambda: cs.make_identity_tensor((4, 8))),
    ("gmem tensor", lambda: cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), cs.parse("(_8,_4):(_4,_1)"))),
    ("tiled mma", lambda: cs.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN")),
    ("copy atom", lambda: cs.Copy_Atom("UniversalCopy<uint128_t>", "half_t")),
    ("tiled copy", _tiled_copy),
    ("thr copy", lambda: _tiled_copy().get_slice(3)),
    ("vector width", lambda: cs.vector_width(_tiled_copy(), cs.parse("(_256,_4):(_4,_1)"))),
]


@pytest.mark.parametrize("make", [v[1] for v in VALUES], ids=[v[0] for v in VALUES])
def test_pickles_and_copies_as_itself(make: Callable[[], Any]) -> None:
    x = make()
    y = pickle.loads(pickle.dumps(x))
    assert type(y) is type(x) and str(y) == str(x)
    assert y == x or not hasattr(type(x), "__eq__") or type(x).__eq__ is object.__eq__
    assert copy.copy(x) == x and copy.deepcopy(x) == x


def test_a_pickled_layout_keeps_its_function_and_static_flag() -> None:
    for text in ("(_4,(_2,_3)):(_1,(_4,_8))", "(M,_4):(_4,_1)"):
        L = cs.parse(text)
        R = pickle.loads(pickle.dumps(L))
        assert R.is_static() == L.is_static()
        if L.is_static():
            assert [R(i) for i in range(24)] == [L(i) for i in range(24)]
        assert str(cs.coalesce(R)) == str(cs.coalesce(L))

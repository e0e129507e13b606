"""A small typed user program: must pass ``mypy --strict`` (tests/test_typing.py)."""
from __future__ import annotations

import cute_sym as cs
from cute_sym import Dyn, Int, Layout, composition, logical_divide, make_layout

M = Dyn("M", divisible_by=16)
L: Layout = make_layout((Int[4], M))
x: int = Int[4] + 3
y: int = Int[4] * Int[8]
tile: Layout = make_layout(Int[4], Int[2])
data: Layout = make_layout(Int[24], Int[2])
divided = logical_divide(data, tile)
composed = composition(make_layout((Int[6], Int[2]), (Int[8], Int[2])), make_layout((Int[4], Int[3]), (Int[3], Int[1])))
static: bool = cs.is_static(L)
text: str = str(divided) + str(composed)


def offsets(layout: Layout) -> list[int]:
    return [int(layout(i)) for i in range(int(cs.size(layout)))]


if __name__ == "__main__":
    print(x, y, static, text, offsets(tile))

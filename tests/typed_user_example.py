"""A typed user program over the whole public API: must pass ``mypy --strict`` with no
configuration of the user's own (no override for sympy; tests/test_typing.py)."""
from __future__ import annotations

import cute_sym as cs
from cute_sym import (
    ComposedLayout, Dyn, DynInt, Int, IntLike, IntTuple, Layout, LayoutRight, _, composition, logical_divide,
    make_layout,
)

# integers
M: DynInt = Dyn("M", divisible_by=16)
four: int = Int[4]
x: int = Int[4] + 3
y: int = Int[4] * Int[8]
m4: DynInt = M * 4
m_plus: IntLike = 4 + M

# building layouts as CuTe does
L: Layout = make_layout((Int[4], M))
tile: Layout = make_layout(Int[4], Int[2])
data: Layout = make_layout(Int[24], Int[2])
blk: Layout = make_layout(Int[4])
row: Layout = make_layout(cs.make_shape(2, cs.make_shape(2, 2)), cs.make_stride(4, cs.make_stride(2, 1)))
right: Layout = make_layout((2, 3), LayoutRight)
joined: Layout = make_layout((tile, data))
ordered: Layout = cs.make_ordered_layout((2, 3, 4), cs.make_step(1, 0, 2))
shape: IntTuple = cs.make_shape(4, 8)
coord: IntTuple = cs.make_coord(_, 1)
tiler: tuple[object, ...] = cs.make_tile(make_layout(2, 3), _)

# queries, with CuTe's hierarchical indices
n_all: IntLike = cs.size(row)
n_1: IntLike = cs.size(row, 1)
n_10: IntLike = cs.size(row, 1, 0)
r: int = cs.rank(row) + cs.rank(row, 1)
d: int = cs.depth(row) + cs.depth(row, 1)
co: IntLike = cs.cosize(row)
sh: IntTuple = cs.shape(row, 1)
st: IntTuple = cs.stride(row, 1)
mode: Layout = cs.get(row, 1, 0)
sub: IntTuple = cs.get((4, (2, 3)), 1)
offset: IntLike = row(1, 1)
sliced: Layout = row(_, 1)
sl2: Layout = cs.slice_((_, 1), row)
flat: Layout = cs.flatten(row)

# the algebra: every result keeps its type
divided: Layout = logical_divide(data, tile)
composed: Layout = composition(make_layout((Int[6], Int[2]), (Int[8], Int[2])),
                               make_layout((Int[4], Int[3]), (Int[3], Int[1])))
zd: Layout = cs.zipped_divide(data, tile)
td: Layout = cs.tiled_divide(data, tile)
fd: Layout = cs.flat_divide(data, tile)
lp: Layout = cs.logical_product(blk, make_layout(3))
zp: Layout = cs.zipped_product(blk, make_layout(3))
tp: Layout = cs.tiled_product(blk, make_layout(3))
fp: Layout = cs.flat_product(blk, make_layout(3))
bp: Layout = cs.blocked_product(make_layout((2, 2)), make_layout((3, 4)))
rp: Layout = cs.raked_product(make_layout((2, 2)), make_layout((3, 4)))
cc: Layout = cs.coalesce(row)
ff: Layout = cs.filter(row)
cp: Layout = cs.complement(tile, 24)
ri: Layout = cs.right_inverse(row)
li: Layout = cs.left_inverse(row)
mcv: IntLike = cs.max_common_vector(row, row)
q: IntTuple = cs.shape_div((12, 8), 4)
sw: ComposedLayout | Layout = composition(cs.Swizzle(2, 0, 3), make_layout((8, 8)))

# notation, tables, formulas
parsed = cs.parse("(_4,_8):(_1,_4)")
text: str = cs.to_str(divided) + str(composed) + cs.layout_table(right)
formula: DynInt = cs.index_expr(right)
static: bool = cs.is_static(L)


# Blackwell UMMA (issue 35, MMA side)
umma = cs.make_tiled_mma("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>")
mma_shape_a: IntTuple = cs.partition_shape_A(umma, (128, 64))
smem_a: Layout | ComposedLayout = cs.tile_to_mma_shape(make_layout((8, 64), (64, 1)), mma_shape_a)
acc: Layout = cs.tmem_frg_layout("UMMA::tmem_frg_1sm<float>", ((128, 256), 1, 1))

def offsets(layout: Layout) -> list[int]:
    return [int(layout(i)) for i in range(int(cs.size(layout)))]


def tile_of(layout: Layout, t: Layout) -> Layout:
    return cs.zipped_divide(layout, t)


def as_layout(text: str) -> Layout:
    p = cs.parse(text)
    if not isinstance(p, Layout):
        raise TypeError(text)
    return p


if __name__ == "__main__":
    print(x, y, static, str(divided) + str(composed), offsets(tile), four, cs.size(row, 1), tile_of(data, tile),
          as_layout("(_2,_3):(_3,_1)"), isinstance(parsed, Layout))

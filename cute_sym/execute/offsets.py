"""Every offset of a static layout at once, as a NumPy array: the vectorised form of ``layout(i)``
for ``i`` in ``range(size(layout))`` (a swizzled layout swizzles them, bit by bit).

The tables are kept per layout (layouts are immutable and hashable), so a partition computed
once is read by every later call at the price of an index.

>>> from cute_sym.notation import parse
>>> [int(x) for x in layout_offsets(parse("(_2,(_2,_2)):(_4,(_1,_2))"))]
[0, 4, 1, 5, 2, 6, 3, 7]
>>> [int(x) for x in layout_offsets(parse("Sw<1,0,1> o _0 o (_4):(_1)"))]
[0, 1, 3, 2]
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core.errors import LayoutError
from ..core.int_tuple import iter_leaves
from ..layout import Layout
from ..swizzle import ComposedLayout, Swizzle
from ..tensor.engine import ArrayEngine, CountingEngine, resolve_offset
from ..tensor.numeric import numpy
from ..tensor.tensor import Tensor

__all__ = ["layout_offsets", "eval_layout", "tensor_offsets", "load_values", "store_values", "move"]


def _leaves(layout: Layout) -> tuple[list[int], list[int]]:
    shape = list(iter_leaves(layout.shape))
    stride = list(iter_leaves(layout.stride))
    if not all(type(s) is int for s in shape) or not all(type(d) is int for d in stride):
        raise LayoutError(f"execution needs a static layout with integer strides, got {layout}")
    return shape, stride


def eval_layout(layout: Any, idx: Any) -> Any:
    """``layout(i)`` for every integer of the array ``idx`` (the last leaf takes what is left, as
    CuTe's ``idx2crd`` does past the end); ``layout`` is a plain or composed layout, or a swizzle."""
    np = numpy()
    idx = np.asarray(idx, dtype=np.int64)
    if isinstance(layout, Swizzle):
        y = idx & layout.yyy_msk
        s = layout.shift
        return idx ^ (y >> s if s >= 0 else y << -s)
    if isinstance(layout, ComposedLayout):
        off = resolve_offset(layout.offset)      # a thread's formula, inside a simulation
        return eval_layout(layout.layout_a, eval_layout(layout.layout_b, idx) + off)
    if not isinstance(layout, Layout):
        raise LayoutError(f"execution: {layout!r} is not a layout")
    shape, stride = _leaves(layout)
    out = np.zeros(idx.shape, dtype=np.int64)
    rest = idx
    for k, (s, d) in enumerate(zip(shape, stride)):
        if k == len(shape) - 1:
            out += rest * d
        else:
            out += (rest % s) * d
            rest = rest // s
    return out


def layout_offsets(layout: Any) -> Any:
    """``[layout(i) for i in range(size(layout))]`` as a read-only int64 array.

    @pre ``layout`` static (plain or composed; a composed layout's offset may be a formula of a
         simulated thread's index).
    @post ``result[i] == layout(i)`` for every ``i``.
    """
    if isinstance(layout, ComposedLayout) and type(layout.offset) is not int:
        inner = layout_offsets(layout.layout_b) + resolve_offset(layout.offset)
        return eval_layout(layout.layout_a, inner)
    return _layout_offsets(layout)


def _size(layout: Any) -> int:
    n = layout.size()
    if type(n) is not int:
        raise LayoutError(f"execution needs a static size, got {n} in {layout}")
    return n


@lru_cache(maxsize=4096)
def _layout_offsets(layout: Any) -> Any:
    np = numpy()
    n = layout.size()
    if type(n) is not int:
        raise LayoutError(f"execution needs a static size, got {n} in {layout}")
    out = eval_layout(layout, np.arange(n, dtype=np.int64))
    out.setflags(write=False)
    return out


def _engine(t: Tensor, what: str) -> ArrayEngine:
    if not isinstance(t, Tensor):
        raise LayoutError(f"{what}: expected a Tensor, got {type(t).__name__}")
    eng = t.engine
    if not isinstance(eng, ArrayEngine):
        raise LayoutError(f"{what}: the tensor {t} is not over memory (make_tensor over a NumPy array, "
                          "a list or a bytearray)")
    return eng


def tensor_offsets(t: Tensor, what: str = "execution") -> Any:
    """The offsets (relative to the engine) of ``t``'s elements, in the order of its 1-D index."""
    _engine(t, what)
    return layout_offsets(t.layout)


def load_values(t: Tensor, what: str = "execution") -> Any:
    """``[t(i) for i in range(size(t))]`` as an array (coordinates, as objects, for a counting engine)."""
    np = numpy()
    if isinstance(t, Tensor) and isinstance(t.engine, CountingEngine):
        out = np.empty(len(t), dtype=object)
        for i in range(len(t)):
            out[i] = t[i]
        return out
    return _engine(t, what).load(tensor_offsets(t, what))


def move(src: ArrayEngine, src_offsets: Any, dst: ArrayEngine, dst_offsets: Any) -> None:
    """``dst[dst_offsets] = src[src_offsets]``: the bits themselves between memories of one element
    type (a copy keeps -0 and NaN payloads), the values converted between types."""
    if src.dtype == dst.dtype and src.dtype is not None:
        dst.store_raw(dst_offsets, src.load_raw(src_offsets))
    else:
        dst.store(dst_offsets, src.load(src_offsets))


def store_values(t: Tensor, values: Any, what: str = "execution") -> None:
    """``t(i) = values[i]`` for every ``i`` (rounded to ``t``'s element type)."""
    _engine(t, what).store(tensor_offsets(t, what), values)

"""CuTe's ``recast<NewT>(tensor)``: the same memory seen as elements of another type.

The layout becomes ``recast_layout<OldT, NewT>(layout)`` (``upcast``/``downcast`` by the ratio
of the widths, a swizzle moved to the new unit) and the engine points at the same bits: a
symbolic pointer changes its type and scales its offset, memory (a NumPy array) is viewed as
the new type's storage, so a write through one view is read through the other.

>>> import numpy as np
>>> from cute_sym.layout import make_layout
>>> from cute_sym.tensor.tensor import make_tensor
>>> T = make_tensor(np.arange(8, dtype=np.float16), make_layout(8))
>>> U = recast(T, "uint32_t")
>>> print(U.layout, U.engine)
_4:_1 array[uint32](+0)
>>> U[1] = 0x3C003C00               # two half_t 1.0
>>> [float(T[i]) for i in range(4)]
[0.0, 1.0, 1.0, 1.0]
"""
from __future__ import annotations

from typing import Any

from ..core.errors import LayoutError
from ..swizzle import recast_layout
from .atoms.copy_types import sizeof_bits, type_name
from .engine import ArrayEngine, Pointer
from .tensor import Tensor

__all__ = ["recast"]


def _scaled_offset(offset: Any, old: int, new: int, what: str) -> Any:
    if type(offset) is int:
        if (offset * old) % new:
            raise LayoutError(f"recast: {what} starts at element {offset} of {old} bits, not on a "
                              f"{new}-bit element")
        return offset * old // new
    return offset * old / new


def recast(tensor: Tensor, new_type: str) -> Tensor:
    """CuTe's ``recast<NewT>(tensor)``: ``tensor``'s memory as elements of ``new_type``.

    @pre ``tensor``'s engine has an element type (a typed pointer or memory); the layout is one
         ``recast_layout`` takes (a mode of contiguous elements filling whole new elements when
         the new type is wider); the engine's offset lands on a whole new element.
    @post ``result.layout == recast_layout(tensor.layout, sizeof_bits(old), sizeof_bits(new))``;
          over memory, ``result`` reads and writes the very bits ``tensor`` does.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.tensor.engine import make_smem_ptr
    >>> print(recast(Tensor(make_smem_ptr("sA", "half_t", 64), parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")), "uint128_t"))
    smem_ptr[uint128_t](sA+8) o Sw<3,0,3> o _0 o (_8,_8):(_8,_1)
    """
    if not isinstance(tensor, Tensor):
        raise LayoutError(f"recast: expected a Tensor, got {type(tensor).__name__}")
    new = type_name(new_type)
    new_bits = sizeof_bits(new)
    eng = tensor.engine
    old = eng.dtype if isinstance(eng, (Pointer, ArrayEngine)) else None
    if old is None or not isinstance(eng, (Pointer, ArrayEngine)):
        raise LayoutError(f"recast: the engine {eng} has no element type to recast from")
    old_bits = sizeof_bits(old)
    layout = recast_layout(tensor.layout, old_bits, new_bits)
    if isinstance(eng, Pointer):
        return Tensor(Pointer(eng.space, eng.name, new, _scaled_offset(eng.offset, old_bits, new_bits, "the pointer")),
                      layout)
    from .numeric import storage_dtype
    flat = eng.flat(write=True)
    nbytes = flat.size * flat.itemsize
    if (nbytes * 8) % new_bits:
        raise LayoutError(f"recast: {nbytes} bytes of memory do not hold whole {new} elements")
    view = flat.view(storage_dtype(new))
    offset = _scaled_offset(eng.offset, old_bits, new_bits, "the engine")
    tracker = eng.tracker.recast(old_bits, new_bits) if eng.tracker is not None else None
    return Tensor(ArrayEngine(view, offset, new, tracker), layout)

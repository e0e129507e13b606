"""CuTe's ``make_tmem_copy``: a TMEM load or store (``tcgen05.ld/st``) tiled over the four warps
of a warpgroup and over a TMEM tensor (typically the accumulator of a UMMA).

Each warp of the warpgroup runs the atom on its own 32-lane quarter of TMEM: the atom's
thread ``t`` of warp ``w`` starts at lane ``32*w`` (``atom_t_layout = (_32,_4):(_0,32*DP<T>)``),
and its values are the atom's ``ValID`` in units of ``T`` (``atom_v_layout =
coalesce(upcast<sizeof_bits<T>>(ValID))``); :func:`make_cotiled_copy` lays that over the
tensor's layout.

>>> from cute_sym.notation import parse
>>> from cute_sym.tensor.tensor import make_tensor
>>> acc = make_tensor(make_tmem_ptr("float", "acc"), parse("((_128,_64),_1,_1):((_65536,_1),_0,_0)"))
>>> tc = make_tmem_copy("SM100_TMEM_LOAD_32dp32b8x", acc)
>>> print(tc.Tiler_MN)
((_32,_32):(_32,_1),_1:_0,_1:_0)
>>> print(tc.get_slice(37).partition_S(acc))            # warp 1: lanes 32..63, 8 columns at a time
tmem_ptr[float](acc+2097152) o (((_8,_32),_1),_8,_1,_1):(((_1,_65536),_0),_8,_0,_0)
"""
from __future__ import annotations

from typing import Any, Union

from ..core.errors import LayoutError
from ..layout import Layout, make_layout, size
from ..swizzle import coalesce, upcast
from .atoms.copy_atom import Copy_Atom
from .atoms.copy_types import sizeof_bits
from .copy import TiledCopy
from .copy_make import make_cotiled_copy
from .engine import Pointer
from .tensor import Tensor
from .tmem_space import TMEM_DP, is_tmem, make_tmem_ptr  # noqa: F401 (doctest)

__all__ = ["make_tmem_copy", "make_utccp_copy"]


def make_tmem_copy(copy_atom: Union[str, Copy_Atom], tmem: Tensor) -> TiledCopy:
    """CuTe's ``make_tmem_copy(atom, tmem)``: the tiled TMEM copy of the four warps over ``tmem``.

    ``copy_atom`` is a ``Copy_Atom`` of a ``SM100_TMEM_LOAD_*``/``STORE_*`` operation, or the
    operation's name (its element type is then the tensor's, as CuTe's overload of ``CopyOp{}``).

    @pre ``tmem`` is a tensor over a TMEM pointer with an element type ("Expected TMEM tensor.");
         the atom is a TMEM load or store of the tensor's element width ("Expected a CopyAtom with
         the same type-width as the Tensor."); every address the four warps' atoms reach is an
         element of ``tmem`` (:func:`make_cotiled_copy`); else :class:`LayoutError`.
    @post ``result.get_slice(t).partition_S(tmem)`` (a load; ``partition_D`` for a store) holds the
          elements of ``tmem`` in lanes ``32*((t//32)%4)`` and up that thread ``t`` moves; a
          partition reaching another warp's lanes raises (:func:`check_warp_lanes`).
    """
    if not isinstance(tmem, Tensor) or not is_tmem(tmem):
        raise LayoutError("make_tmem_copy: Expected TMEM tensor.")
    engine = tmem.engine
    dtype = engine.dtype if isinstance(engine, Pointer) else None
    if dtype is None:
        raise LayoutError("make_tmem_copy: the TMEM tensor needs an element type (make_tmem_ptr(dtype, ...))")
    atom = Copy_Atom(copy_atom, dtype) if isinstance(copy_atom, str) else copy_atom
    if not isinstance(atom, Copy_Atom):
        raise LayoutError(f"make_tmem_copy: expected a Copy_Atom or an operation name, got {type(copy_atom).__name__}")
    if not atom.Traits.is_tmem or "UTCCP" in atom.Traits.name:
        raise LayoutError(f"make_tmem_copy: {atom.Traits.name} is not a TMEM load or store (tcgen05.ld/st)")
    if sizeof_bits(atom.ValType) != sizeof_bits(dtype):
        raise LayoutError("make_tmem_copy: Expected a CopyAtom with the same type-width as the Tensor.")
    layout = tmem.layout
    if not isinstance(layout, Layout):
        raise LayoutError("make_tmem_copy: the TMEM tensor's layout must be a plain layout")
    atom_t = make_layout((32, 4), (0, 32 * TMEM_DP(dtype)))
    atom_v = coalesce(upcast(atom.Traits.ValID, sizeof_bits(dtype)))
    return make_cotiled_copy(atom, make_layout(atom_t, atom_v), layout)


def make_utccp_copy(op: str, tmem: Tensor) -> TiledCopy:
    """CuTe's ``make_utccp_copy(CopyOp{}, tmem)``: a ``tcgen05.cp`` (``SM100_UTCCP_*``) tiled over the
    TMEM tensor ``tmem``, one thread per CTA (``atom_t_layout = size(ThrID):0``), its values ``ValID``
    in units of the tensor's element.

    @pre ``tmem`` is a tensor over a TMEM pointer with an element type; ``op`` names a UTCCP
         operation; the atom's addresses are elements of ``tmem``; else :class:`LayoutError`.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> sf = make_tensor(make_tmem_ptr("uint32_t", "sf"), parse("(_128,_4):(_65536,_1)"))
    >>> tc = make_utccp_copy("SM100_UTCCP_128dp128bit_1cta", sf)
    >>> print(tc.TiledLayout_TV, tc.get_slice(0).partition_D(sf))
    (_1,(_128,_4)):(_0,(_1,_128)) tmem_ptr[uint32_t](sf) o (((_128,_4),_1),_1,_1):(((_65536,_1),_0),_0,_0)
    """
    if not isinstance(tmem, Tensor) or not is_tmem(tmem):
        raise LayoutError("make_utccp_copy: Expected TMEM tensor.")
    engine = tmem.engine
    dtype = engine.dtype if isinstance(engine, Pointer) else None
    if dtype is None:
        raise LayoutError("make_utccp_copy: the TMEM tensor needs an element type (make_tmem_ptr(dtype, ...))")
    if not isinstance(op, str):
        raise LayoutError(f"make_utccp_copy: expected an operation name, got {type(op).__name__}")
    atom = Copy_Atom(op, dtype)
    if "UTCCP" not in atom.Traits.name:
        raise LayoutError(f"make_utccp_copy: {atom.Traits.name} is not a tcgen05.cp (SM100_UTCCP_*) operation")
    layout = tmem.layout
    if not isinstance(layout, Layout):
        raise LayoutError("make_utccp_copy: the TMEM tensor's layout must be a plain layout")
    atom_t = make_layout(size(atom.Traits.ThrID), 0)
    atom_v = coalesce(upcast(atom.Traits.ValID, sizeof_bits(dtype)))
    return make_cotiled_copy(atom, make_layout(atom_t, atom_v), layout)

"""CuTe's ``make_tmem_warp_partitioner(tmem)``: the four warps of a warpgroup each take their own
32-lane sub-partition of a TMEM tensor, as a :class:`~cute_sym.tensor.tv_tiler.TV_Tiler` that
partitions the TMEM tensor and any other tensor of its shape (its gmem tile, its registers) alike.

CuTe's steps (``copy_traits_sm100.hpp``), each a function of the algebra:

* warp ``w`` starts at TMEM address ``32*w`` lanes: ``atom_t_layout = _4:(32*DP<T>)``;
* ``layout_t_tmem = composition(make_layout(left_inverse(tmem_layout), _1:_0), atom_t_layout)``: each
  warp's first element as an index of the tensor's domain (the appended ``1:0`` sends an address
  past the tensor to index 0);
* the tiler, mode by mode (``i``): ``filter(composition(make_layout(flat_shape, e_i), layout_t_tmem))``
  with ``flat_shape = product_each(shape(tmem_layout))`` and ``e_i`` the stride tuple with 1 at
  ``i``, 0 elsewhere: the steps between the warps' origins in mode ``i``;
* ``layout_tv = composition(left_inverse(composition(make_layout(flat_shape), tiler)), layout_t_tmem)``:
  warp -> coordinate of the tile.

>>> from cute_sym.notation import parse
>>> from cute_sym.tensor.tensor import make_tensor
>>> from cute_sym.tensor.tmem_space import make_tmem_ptr
>>> acc = make_tensor(make_tmem_ptr("float", "acc"), parse("((_128,_256),_1,_1):((_65536,_1),_0,_0)"))
>>> wp = make_tmem_warp_partitioner(acc)
>>> print(wp.Tiler_MN, wp.TiledLayout_TV)
(_4:_32,_1:_0,_1:_0) _4:_1
>>> print(wp.get_slice(2).partition(acc))            # warp 2: lanes 64..95, all 256 columns
tmem_ptr[float](acc+4194304) o ((_32,_256),_1,_1):((_65536,_1),_0,_0)
"""
from __future__ import annotations

from typing import Any

from ..core.errors import LayoutError, UndecidableError
from ..core.int_tuple import product_each
from ..layout import Layout, make_layout
from ..swizzle import composition, filter, left_inverse
from .engine import Pointer
from .tensor import Tensor
from .tmem_space import TMEM_DP, is_tmem
from .tv_tiler import TV_Tiler, make_tiler_impl

__all__ = ["make_tmem_warp_partitioner"]


def _plain(x: Any, step: str) -> Layout:
    if not isinstance(x, Layout):
        raise LayoutError(f"make_tmem_warp_partitioner: {step} is not a plain layout ({x})")
    return x


def make_tmem_warp_partitioner(tmem: Tensor) -> TV_Tiler:
    """CuTe's ``make_tmem_warp_partitioner(tmem)``: the :class:`TV_Tiler` whose ``get_slice(w)``
    partitions a tensor of ``tmem``'s shape into warp ``w``'s share, ``(WARP_M,WARP_N,...)``.

    CuTe's intent: warp ``w`` (of the warpgroup's four) reaches TMEM lanes ``32*w .. 32*w+31``
    only (``tcgen05.ld/st``), so it takes the elements of ``tmem`` in that sub-partition; the same
    ``get_slice(w).partition`` of a gmem (or register) tensor of ``tmem``'s shape takes the
    elements at the same coordinates.

    @pre ``tmem`` is a tensor over a TMEM pointer ("Expected TMEM tensor.") with an element type,
         of a plain layout that has a left inverse; CuTe's steps (above) are defined on it (the
         compositions' divisibility conditions); else :class:`LayoutError` naming the step.
    @post ``Tiler_MN`` has one layout a mode of ``tmem``; ``size(TiledLayout_TV) == 4``.
    @post where each warp's sub-partition holds the same lanes of ``tmem`` relative to its first
          lane ``32*w``, that lane among them (an accumulator of M = 128, or of M = 64 in lanes 0..15
          of each), ``get_slice(w).partition(tmem)`` holds exactly the elements of ``tmem`` in lanes
          ``32*w .. 32*w+31`` (each once), and ``get_slice(w).partition(g)`` of ``g`` of the same
          shape the elements of ``g`` at the same coordinates. (A tensor over fewer lanes, as
          CuTe: a warp whose lane ``32*w`` the tensor lacks is sent to coordinate 0 and repeats
          the share of warp 0 or of another warp; then ``size(TiledLayout_TV) !=
          cosize(TiledLayout_TV)``, which CUTLASS's SM100 epilogues read as "predicate the TMEM
          load": only the warp whose sub-partition holds the tile loads it.)

    >>> from cute_sym.notation import parse
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> from cute_sym.tensor.tmem_space import make_tmem_ptr
    >>> from cute_sym.core.integers import Dyn
    >>> t = make_tensor(make_tmem_ptr("half_t", "t"), parse("(_128,_64):(_131072,_1)"))
    >>> wp = make_tmem_warp_partitioner(t)
    >>> print(wp.get_slice(Dyn("w", max=3, sign="nonnegative")).partition(t))
    tmem_ptr[half_t](t+4194304*w) o (_32,_64):(_131072,_1)
    >>> make_tmem_warp_partitioner(make_tensor(make_tmem_ptr("float"), parse("(_128,_3):(_1,_128)")).engine)
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: make_tmem_warp_partitioner: Expected TMEM tensor. (got Pointer)
    """
    if not isinstance(tmem, Tensor) or not is_tmem(tmem):
        raise LayoutError(f"make_tmem_warp_partitioner: Expected TMEM tensor. (got {type(tmem).__name__})")
    engine = tmem.engine
    dtype = engine.dtype if isinstance(engine, Pointer) else None
    if dtype is None:
        raise LayoutError("make_tmem_warp_partitioner: the TMEM tensor needs an element type "
                          "(make_tmem_ptr(dtype, ...))")
    tmem_layout = tmem.layout
    if not isinstance(tmem_layout, Layout):
        raise LayoutError(f"make_tmem_warp_partitioner: the TMEM tensor's layout must be a plain layout, "
                          f"got {tmem_layout}")
    atom_t_layout = make_layout(4, 32 * TMEM_DP(dtype))             # warp idx -> tmem addr
    try:
        inv = _plain(left_inverse(tmem_layout), "left_inverse(tmem.layout())")
        inv_tmem_layout = make_layout(inv, make_layout(1, 0))           # tmem addr -> tmem coord
        layout_t_tmem = _plain(composition(inv_tmem_layout, atom_t_layout), "warp -> tmem coord")
        flat = product_each(tmem_layout.shape)
        flat_shape = flat if type(flat) is tuple else (flat,)
        n = len(flat_shape)
        tiler = tuple(
            _plain(filter(composition(make_layout(flat_shape, tuple(int(j == i) for j in range(n))), layout_t_tmem)),
                   f"the tiler of mode {i}")
            for i in range(n))
        tile2tmem = _plain(composition(make_layout(flat_shape), tiler), "tile coord -> tmem coord")
        layout_tv = _plain(composition(left_inverse(tile2tmem), layout_t_tmem), "warp -> tile coord")
    except UndecidableError as e:
        raise UndecidableError(e.fact, f"make_tmem_warp_partitioner: over the TMEM layout {tmem_layout}: {e}") from e
    except LayoutError as e:
        raise LayoutError(f"make_tmem_warp_partitioner: CuTe's steps are not defined on the TMEM layout "
                          f"{tmem_layout}: {e}") from e
    return make_tiler_impl(layout_tv, tiler)

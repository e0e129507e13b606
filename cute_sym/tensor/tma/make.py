"""CuTe's ``make_tma_copy``, ``make_tma_atom`` and ``tma_partition`` (``copy_traits_sm90_tma.hpp``).

Everything but the descriptor's bits is layout algebra on the host: the box comes
from inverting the smem layout (its contiguous vector) and reading it in gmem
coordinates; the swizzle mode from the smem layout's swizzle; a CTA's share of the
box under multicast from cutting the box's last modes.

>>> import cute_sym as cs
>>> gT = cs.make_tensor(cs.make_gmem_ptr("T", "half_t"), cs.parse("(1024,256):(_1,1024)"))
>>> sL = cs.tile_to_shape(cs.smem_layout_atom("GMMA::Layout_MN_SW128_Atom<half_t>"), (128, 64))
>>> tma = make_tma_copy("SM90_TMA_LOAD", gT, sL)
>>> print(tma.Traits.AuxParams.TmaGmemBasis, tma.Traits.AuxParams.TmaSwizzle, tma.get_tma_tensor(gT.shape).layout)
(_64,_8):(_1@0,_1@1) Sw<3,4,3> (1024,256):(_1@0,_1@1)
"""
from __future__ import annotations

from typing import Any, Optional, Union

from ...core.errors import LayoutError
from ...core.int_tuple import _, leaves, product_each, unwrap
from ...layout import Layout, cosize, make_layout, size
from ...swizzle import ComposedLayout, Swizzle, logical_divide, right_inverse, tile_to_shape
from ...swizzle.smem_flag import SmemPtrFlag
from ..arith_tuple import ScaledBasis, coord_add
from ..atoms.copy_types import sizeof_bits
from ..basis_layout import make_identity_layout
from ..engine import CountingEngine, Pointer
from ..ops import coalesce, composition
from ..tensor import Tensor
from .desc import make_tma_desc
from .gbasis import construct_tma_gbasis, smem_vector
from .ops_table import TmaOp, tma_op
from .traits import AuxTmaParams, TmaCopyAtom, TmaCopyTraits, TmaTiledCopy

__all__ = ["make_tma_copy", "make_tma_atom", "tma_partition", "swizzle_portion", "nonswizzle_portion"]

SLayout = Union[Layout, ComposedLayout]

_SW_NAMES = {(0, 4, 3): "INTER", (1, 4, 3): "SW32", (2, 4, 3): "SW64", (3, 4, 3): "SW128", (2, 5, 2): "SW128_32B"}


def swizzle_portion(slayout: Any) -> Swizzle:
    """CuTe's ``get_swizzle_portion``: the swizzle of ``Sw o O o L``, ``Sw<0,4,3>`` of a plain layout."""
    if isinstance(slayout, Layout):
        return Swizzle(0, 4, 3)
    if isinstance(slayout, ComposedLayout) and isinstance(slayout.layout_a, Swizzle) \
            and isinstance(slayout.layout_b, Layout):
        return slayout.layout_a
    raise LayoutError(f"TMA: the smem layout must be a layout or Swizzle o offset o Layout, got {slayout}")


def nonswizzle_portion(slayout: Any) -> Layout:
    """CuTe's ``get_nonswizzle_portion``: the inner layout of ``Sw o O o L``, a plain layout itself."""
    if isinstance(slayout, Layout):
        return slayout
    swizzle_portion(slayout)
    inner = slayout.layout_b
    if not isinstance(inner, Layout):  # pragma: no cover - checked by swizzle_portion
        raise LayoutError(f"TMA: {slayout} has no plain inner layout")
    return inner


def _gmem_parts(gtensor: Any, what: str) -> tuple[Layout, str]:
    if not isinstance(gtensor, Tensor) or not isinstance(gtensor.engine, Pointer):
        raise LayoutError(f"{what}: expected a gmem tensor make_tensor(make_gmem_ptr(name, type), layout), "
                          f"got {gtensor!r}")
    ptr = gtensor.engine
    if ptr.space != "gmem":
        raise LayoutError(f"{what}: the tensor {gtensor} is not in global memory")
    if ptr.dtype is None:
        raise LayoutError(f"{what}: the gmem pointer needs its element type (make_gmem_ptr(name, 'half_t')): "
                          f"the TMA box and strides are in bytes")
    lay = gtensor.layout
    if not isinstance(lay, Layout):
        raise LayoutError(f"{what}: the gmem tensor's layout must be a plain layout, got {lay}")
    return lay, ptr.dtype


def _smem_parts(slayout: Any, what: str) -> tuple[Swizzle, Layout]:
    sw = swizzle_portion(slayout)
    inner = nonswizzle_portion(slayout)
    if not inner.is_static():
        raise LayoutError(f"{what}: the smem layout must be static, got {inner}")
    if isinstance(slayout, ComposedLayout) and isinstance(slayout.offset, SmemPtrFlag):
        pass
    elif isinstance(slayout, ComposedLayout) and not (type(slayout.offset) is int and slayout.offset == 0):
        raise LayoutError(f"{what}: the smem layout's offset must be 0, got {slayout.offset}")
    return sw, inner


def _sw_name(sw: Swizzle) -> str:
    return _SW_NAMES.get((sw.bits, sw.base, sw.shift), str(sw))


def _majors(gmem: Layout, smem: Layout, cta_v_map: Layout, sw: Swizzle, etype: str) -> Optional[str]:
    """Words for the 'smem major does not match gmem major' refusal, or None."""
    vec = smem_vector(smem, cta_v_map)
    d0 = vec.stride[0] if type(vec.stride) is tuple else vec.stride
    if not isinstance(d0, ScaledBasis):
        return None
    smode = d0.modes[0]
    gstrides = gmem.stride if type(gmem.stride) is tuple else (gmem.stride,)
    gmode = next((i for i, d in enumerate(gstrides) if (type(d) is int or getattr(d, "is_Integer", False))
                  and int(d) == 1), None)

    def name(m: Optional[int]) -> str:
        return {0: "M", 1: "K"}.get(m if m is not None else -1, f"mode-{m}")
    smajor = "MN" if smode == 0 else "K" if smode == 1 else f"mode-{smode}"
    text = f"the smem layout is {smajor}-major with {sw}"
    if gmode is None:
        return text + " but the gmem tensor has no stride-1 mode: TMA needs a unit stride along the box's first mode"
    text += f" but the gmem tensor is {name(gmode)}-major"
    if gmode in (0, 1) and (sw.bits, sw.base, sw.shift) in _SW_NAMES:
        want = "MN" if gmode == 0 else "K"
        swn = _sw_name(sw)
        if swn == "SW128_32B" and want == "K":
            swn = "SW128"
        ns = "UMMA" if swn == "SW128_32B" else "GMMA"
        text += f": use {ns}::Layout_{want}_{swn}_Atom<{etype}> for the smem layout"
    else:
        text += f": make the smem layout's contiguous mode gmem mode {gmode}"
    return text


def _make_tma_atom(op: TmaOp, gmem: Layout, etype: str, slayout: Any, num_multicast: int,
                   cta_v_map: Layout, what: str) -> TmaCopyAtom:
    sw, smem = _smem_parts(slayout, what)
    gbasis = construct_tma_gbasis(gmem, smem, cta_v_map)
    desc, g_stride = make_tma_desc(gmem, gbasis, sw, num_multicast, etype, what,
                                   smem_text=_majors(gmem, smem, cta_v_map, sw, etype))
    nbits = size(gbasis) * sizeof_bits(etype)
    if type(nbits) is not int:  # pragma: no cover - the smem layout is static
        raise LayoutError(f"{what}: the TMA box must be static, got {gbasis}")
    traits = TmaCopyTraits(op, nbits, AuxTmaParams(g_stride, gbasis, sw), desc)
    return TmaCopyAtom(traits, etype)


def _cta_v_map(gmem: Layout, cta_tiler: Any) -> Layout:
    out = composition(make_identity_layout(gmem.shape), unwrap(cta_tiler))
    if not isinstance(out, Layout):  # pragma: no cover
        raise LayoutError(f"TMA: bad CTA tiler {cta_tiler}")
    return out


def _cluster(cluster_size: Any, what: str) -> int:
    n = unwrap(cluster_size)
    if type(n) is not int or n < 1:
        raise LayoutError(f"{what}: the cluster (multicast) size must be a static positive integer, got {cluster_size!r}")
    return n


def make_tma_atom(copy_op: str, gtensor: Tensor, slayout: SLayout, cta_tiler: Any,
                  cluster_size: Any = 1) -> TmaCopyAtom:
    """CuTe's ``make_tma_atom(Op{}, gtensor, slayout, cta_tiler, cluster_size)``: the TMA
    ``Copy_Atom`` (traits with the box, swizzle and TMA coordinate strides), no tiling.

    @pre as :func:`make_tma_copy`.
    @post ``atom.NumValSrc == size(TmaGmemBasis)`` (elements a TMA instruction moves).
    """
    what = "make_tma_atom"
    op = tma_op(copy_op)
    gmem, etype = _gmem_parts(gtensor, what)
    return _make_tma_atom(op, gmem, etype, slayout, _cluster(cluster_size, what), _cta_v_map(gmem, cta_tiler), what)


def make_tma_copy(copy_op: str, gtensor: Tensor, slayout: SLayout, cta_tiler: Any = None,
                  cluster_size: Any = 1) -> TmaTiledCopy:
    """CuTe's ``make_tma_copy(Op{}, gtensor, slayout, cta_tiler, cluster_size)``: a CTA-collective
    ``TiledCopy`` whose "threads" are the CTAs of the multicast and whose values are the tile.

    ``copy_op`` is ``SM90_TMA_LOAD``, ``SM90_TMA_LOAD_MULTICAST``, ``SM90_TMA_STORE``,
    ``SM90_TMA_REDUCE_ADD``, ``SM100_TMA_2SM_LOAD(_MULTICAST)``; ``gtensor`` a gmem tensor with
    its element type; ``slayout`` the smem tile (an atom tiled to it, or a plain layout);
    ``cta_tiler`` defaults to ``product_each(shape(slayout))``.

    @pre the smem tile and the CTA tile have the same size; the smem's contiguous direction
         is the gmem's unit-stride mode; gmem byte strides (but the first) multiples of 16;
         box extents at most 256; the multicast divides the box; the swizzle is one TMA knows.
         Otherwise :class:`LayoutError` saying what is wrong and what would fix it.
    @post ``Tiler_MN == product_each(shape(cta_v_map))``; ``TiledLayout_TV`` maps (CTA, value)
          to a tile coordinate so that the CTAs' values cover the tile; ``get_tma_tensor(shape)``
          has the TMA coordinate strides ``g_stride_``.

    >>> import cute_sym as cs
    >>> gT = cs.make_tensor(cs.make_gmem_ptr("T", "half_t"), cs.parse("(1024,256):(_1,1024)"))
    >>> sL = cs.tile_to_shape(cs.smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>"), (128, 64))
    >>> make_tma_copy("SM90_TMA_LOAD", gT, sL)
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: make_tma_copy: Majorness of smem doesn't match majorness of gmem: the box's first mode gmem mode 1 (the smem's contiguous direction) has gmem stride 1024, not 1; the smem layout is K-major with Sw<3,4,3> but the gmem tensor is M-major: use GMMA::Layout_MN_SW128_Atom<half_t> for the smem layout
    """
    what = "make_tma_copy"
    op = tma_op(copy_op)
    gmem, etype = _gmem_parts(gtensor, what)
    _sw, smem = _smem_parts(slayout, what)
    if cta_tiler is None:
        cta_tiler = product_each(smem.shape)
    n = _cluster(cluster_size, what)
    cta_v_map = _cta_v_map(gmem, cta_tiler)
    cta_t_map = make_layout(n)
    atom = _make_tma_atom(op, gmem, etype, slayout, n, cta_v_map, what)
    tiler = product_each(cta_v_map.shape)
    num_elems = size(atom.ValLayoutRef[1])
    inv = right_inverse(smem)
    layout_v = composition(inv, num_elems)
    layout_V = tile_to_shape(make_layout(layout_v), size(cta_v_map))
    t = cosize(cta_t_map)
    if num_elems % t:
        raise LayoutError(f"{what}: the multicast over {t} CTAs does not divide the {num_elems} elements of a "
                          f"TMA box; use a cluster size that divides it")
    layout_t = make_layout(t, num_elems // t)
    layout_T = composition(inv, composition(layout_t, cta_t_map))
    layout_TV = make_layout(layout_T, layout_V)
    return TmaTiledCopy(atom, layout_TV, tiler)


def _dynamic_modes(off: Any, layout: Any) -> Any:
    """A run-time CTA coordinate (CuTe's ``int``) makes every TMA coordinate the box's modes
    move a dynamic integer, zero or not (CuTe's ``domain_offset``); add those dynamic zeros."""
    from ...core.lazy import sympy
    box = layout[0][0] if type(layout.shape[0]) is tuple else layout[0]
    for d in leaves(box.stride):
        if isinstance(d, ScaledBasis):
            off = coord_add(off, ScaledBasis(sympy.Integer(0), d.modes))
    return off


def tma_partition(copy_atom: TmaCopyAtom, cta_coord: Any, cta_layout: Layout, stensor: Tensor,
                  *gtensors: Tensor) -> tuple[Tensor, ...]:
    """CuTe's ``tma_partition(atom, cta_coord, cta_layout, stensor, gtensors...)``: each tensor's
    ``(TMATile, Rest...)`` becomes ``((TMA, TMA_Iter), Rest...)``, offset to the CTA's part of the
    box under multicast; the gmem tensors come first and the smem tensor last (CuTe's order).

    @pre every tensor's mode 0 has the size of the smem tile's mode 0; ``cta_layout`` maps the
         CTA coordinate to its id in the multicast.
    @post ``result[k](((0, i), r...))`` is the element of ``tensors[k]`` the ``i``-th TMA of the
          CTA reads at rest coordinate ``r`` (CuTe's ``domain_offset``).
    """
    if not isinstance(stensor, Tensor) or not all(isinstance(g, Tensor) for g in gtensors):
        raise LayoutError("tma_partition: expected tensors (the smem tile and the gmem tiles)")
    if not isinstance(copy_atom, TmaCopyAtom):
        raise LayoutError(f"tma_partition: expected a TMA atom (make_tma_atom), got {type(copy_atom).__name__}")
    s0 = stensor.layout[0] if type(stensor.layout.shape) is tuple else stensor.layout
    inv = right_inverse(nonswizzle_portion(s0))
    n0 = size(s0)
    layout_v = tile_to_shape(make_layout(inv), n0)
    tma_v = make_layout(copy_atom.NumValSrc)
    layout_V = logical_divide(layout_v, tma_v)
    if not isinstance(cta_layout, Layout):
        cta_layout = make_layout(unwrap(cta_layout))
    cta_id = cta_layout(unwrap(cta_coord))
    per = size(tma_v) // cosize(cta_layout)
    mc_offset = cta_id * per
    out = []
    for tensor in (*gtensors, stensor):
        lay = tensor.layout
        r = lay.rank() if type(lay.shape) is tuple else 1
        if size(lay[0] if r > 1 else lay) != n0:
            raise LayoutError(f"tma_partition: mode 0 of {tensor.layout} has size "
                              f"{size(lay[0] if r > 1 else lay)}, the smem tile's has {n0}")
        tiler = (layout_V,) + (_,) * (r - 1)
        tv = coalesce(composition(tensor, tiler), ((1, 1),) + ((1,) * 0))
        coord = ((mc_offset, 0),) + (0,) * (r - 1)
        off = tv.layout(coord)
        if type(mc_offset) is not int and isinstance(tv.engine, CountingEngine):
            off = _dynamic_modes(off, tv.layout)
        out.append(Tensor(tv.engine + off, tv.layout))
    return tuple(out)

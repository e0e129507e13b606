"""Blackwell's TMA through the MMA: ``make_tma_atom_A_sm100`` / ``make_tma_atom_B_sm100``
(``cute/atom/copy_traits_sm100_tma.hpp``).

The CTA's tile is not a rectangle of gmem but what the tiled MMA gives one CTA of the
MMA tile: ``layout<1>(mma.thrfrg_A(identity o mma_tiler_mk))``, the values of the A
operand in gmem coordinates; the smem layout is ``tile_to_mma_shape(atom, partition_shape_A)``.
Multicast runs along the cluster's N CTAs for A (they share A's tile) and its M CTAs for B.

>>> import cute_sym as cs
>>> mma = cs.make_tiled_mma("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 128, UMMA::Major::K, UMMA::Major::K>")
>>> sA = cs.tile_to_mma_shape(cs.smem_layout_atom("UMMA::Layout_K_SW128_Atom<half_t>"),
...                           cs.partition_shape_A(mma, (128, 64)))
>>> gA = cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), cs.parse("(1024,512):(512,_1)"))
>>> vmnk = cs.tiled_divide(cs.make_layout((2, 1, 1)), (cs.MMA_Traits(mma.atom.name).ThrID,))
>>> atom = make_tma_atom_A_sm100("SM90_TMA_LOAD", gA, sA, (128, 128, 64), mma, vmnk)
>>> print(atom.Traits.AuxParams.TmaGmemBasis, atom.get_tma_tensor(gA.shape).layout)
(_64,_128):(_1@1,_1@0) (1024,512):(_1@1,_1@0)
"""
from __future__ import annotations

from typing import Any

from ...core.errors import LayoutError
from ...core.int_tuple import unwrap
from ...layout import Layout, size
from ...layout.layout import _mk
from ..basis_layout import make_identity_layout
from ..ops import composition
from ..tensor import Tensor
from .make import SLayout, _gmem_parts, _make_tma_atom
from .ops_table import tma_op
from .traits import TmaCopyAtom

__all__ = ["make_tma_atom_A_sm100", "make_tma_atom_B_sm100"]


def _remove(t: Any, k: int) -> tuple[Any, ...]:
    t = unwrap(t)
    if type(t) is not tuple or len(t) < 3:
        raise LayoutError(f"make_tma_atom_sm100: the MMA tiler is (TILE_M, TILE_N, TILE_K, ...), got {t!r}")
    return t[:k] + t[k + 1:]


def _values(thrfrg: Any, rank_: int) -> Layout:
    """``layout<1>(thrfrg)(_, repeat<rank>(_))``: the values mode, its rest modes flattened one level."""
    v = thrfrg[1]
    if not isinstance(v, Layout) or type(v.shape) is not tuple:
        raise LayoutError(f"make_tma_atom_sm100: unexpected MMA partition {thrfrg}")
    s: Any = v.shape
    d: Any = v.stride
    rest_s = s[1] if type(s[1]) is tuple else (s[1],)
    rest_d = d[1] if type(d[1]) is tuple else (d[1],)
    return _mk((s[0],) + tuple(rest_s), (d[0],) + tuple(rest_d))


def _make(which: str, copy_op: str, gtensor: Tensor, slayout: SLayout, mma_tiler: Any, mma: Any,
          cluster_shape: Any) -> TmaCopyAtom:
    what = f"make_tma_atom_{which}_sm100"
    op = tma_op(copy_op)
    if op.direction != "load":
        raise LayoutError(f"{what}: {op.name} is not a TMA load (SM90_TMA_LOAD(_MULTICAST), SM100_TMA_2SM_LOAD...)")
    gmem, etype = _gmem_parts(gtensor, what)
    tiler = _remove(mma_tiler, 1 if which == "A" else 0)
    g_tile = composition(make_identity_layout(gmem.shape), tiler)
    thrfrg = mma.thrfrg_A(g_tile) if which == "A" else mma.thrfrg_B(g_tile)
    cta_v = _values(thrfrg, len(tiler))
    if not isinstance(cluster_shape, Layout):
        raise LayoutError(f"{what}: the cluster is the (V,M,N,K) layout tiled_divide(make_layout(cluster_shape), "
                          f"(ThrID,)), got {cluster_shape!r}")
    mode = 2 if which == "A" else 1
    n = size(cluster_shape, mode) if op.multicast else 1
    if type(n) is not int:
        raise LayoutError(f"{what}: the cluster's multicast extent must be static, got {n}")
    return _make_tma_atom(op, gmem, etype, slayout, n, cta_v, what)


def make_tma_atom_A_sm100(copy_op: str, gtensor: Tensor, slayout: SLayout, mma_tiler: Any, mma: Any,
                          cluster_shape: Any) -> TmaCopyAtom:
    """CuTe's ``make_tma_atom_A_sm100(Op{}, gA, sA_layout, mma_tiler, tiled_mma, cluster_layout_vmnk)``.

    ``gtensor`` is (M, K, ...); ``slayout`` (MMA, MMA_M, MMA_K, ...) as ``tile_to_mma_shape``
    makes it; ``mma_tiler`` (TILE_M, TILE_N, TILE_K); ``cluster_shape`` the (V,M,N,K) cluster layout.

    @pre as :func:`make_tma_copy`, with the CTA tile the MMA's share of A; a multicast
         operation multicasts over the cluster's N extent.
    @post the atom's box and TMA coordinate strides as CuTe computes them.
    """
    return _make("A", copy_op, gtensor, slayout, mma_tiler, mma, cluster_shape)


def make_tma_atom_B_sm100(copy_op: str, gtensor: Tensor, slayout: SLayout, mma_tiler: Any, mma: Any,
                          cluster_shape: Any) -> TmaCopyAtom:
    """CuTe's ``make_tma_atom_B_sm100``: as :func:`make_tma_atom_A_sm100` for B ((N, K, ...)),
    multicast over the cluster's M extent."""
    return _make("B", copy_op, gtensor, slayout, mma_tiler, mma, cluster_shape)

"""Blackwell (SM100) UMMA around the atoms: CuTe's ``UMMA::tile_to_mma_shape`` and the tensor-memory
layout of an UMMA fragment (``UMMA::tmem_frg``, what ``partition_fragment_C`` allocates).

A worked tile, the CUTLASS Blackwell tutorial's 128x256x64 GEMM tile on one SM: the accumulator
of each MMA tile is 128 lanes (data paths) by 256 columns of tensor memory, one 32-bit float a
cell; ``_65536`` is the lane stride of CuTe's TMEM addresses (lane in the high 16 bits).

>>> from cute_sym.tensor.mma import make_tiled_mma, partition_shape_A
>>> mma = make_tiled_mma("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>")
>>> partition_shape_A(mma, (128, 64))
((_128,_16),_1,_4)
>>> print(tmem_frg_layout("UMMA::tmem_frg_1sm<float>", ((128, 256), 1, 1)))
((_128,_256),_1,_1):((_65536,_1),_0,_0)
"""
from __future__ import annotations

import re
from typing import Any

from ..core.errors import LayoutError, RankError
from ..core.int_tuple import compact_col_major, leaves, product_each, unwrap
from ..layout import Layout, make_layout, size
from ..swizzle import ComposedLayout, composition, tiled_divide, tiled_product, tile_to_shape
from .atoms.copy_types import sizeof_bits

__all__ = ["tile_to_mma_shape", "tmem_frg_layout", "tmem_sf_frg_layout", "TMEM_LANES", "TMEM_COLUMNS"]

#: Tensor memory: 128 lanes (data paths) of 512 32-bit columns an SM
TMEM_LANES = 128
TMEM_COLUMNS = 512

_FRG = re.compile(r"UMMA::tmem_frg_(1|2)sm<([^,<>]+(?:<[^<>]*>)?)(?:,([^,<>]+))?(?:,UMMA::TmemAllocMode::(\w+))?>")


def tile_to_mma_shape(atom: Any, mma_tile_shape: Any, order: Any = None) -> Any:
    """CuTe's ``UMMA::tile_to_mma_shape(atom, mma_tile_shape, order)``: the layout atom (plain or
    composed, e.g. a swizzled shared-memory atom) tiled to an MMA-partitioned shape
    ``((MMA_M,MMA_K),M_MMAs,K_MMAs,...)`` (as :func:`partition_shape_A` gives), the result in
    that shape.

    The ``(MMA_M,MMA_K)`` extents pair with the counts into ``((MMA_M,M_MMAs),(MMA_K,K_MMAs),...)``,
    the atom is tiled to that (``tile_to_shape``, column-major unless ``order``), and the result
    divided by ``(MMA_M,MMA_K)``.

    @pre ``rank(mma_tile_shape) >= 3`` and mode 0 has two modes (RankError otherwise); the
         atom's extents divide the paired extents (:func:`tile_to_shape`'s condition).
    @post ``shape(result)`` is ``((MMA_M,MMA_K),M_MMAs,K_MMAs,...)`` up to the atom's grouping of
          each extent; ``size(result) == size(mma_tile_shape)``.

    >>> print(tile_to_mma_shape(make_layout((8, 64), (64, 1)), ((128, 16), 1, 4)))
    ((_128,_16),_1,_4):((_64,_1),_0,_16)
    """
    shp = unwrap(mma_tile_shape)
    if type(shp) is not tuple or len(shp) < 3:
        raise RankError(f"tile_to_mma_shape: the MMA tile shape is ((MMA_M,MMA_N),M_MMAs,N_MMAs,...), "
                        f"got {mma_tile_shape}")
    mma = shp[0]
    if type(mma) is not tuple or len(mma) != 2:
        raise RankError(f"tile_to_mma_shape: mode 0 of the MMA tile shape is (MMA_M,MMA_N), got {mma}")
    mn_shape = ((mma[0], shp[1]), (mma[1], shp[2])) + tuple(shp[3:])
    if not isinstance(atom, (Layout, ComposedLayout)):
        raise LayoutError(f"tile_to_mma_shape: the atom is a layout, got {type(atom).__name__}")
    mn_tiled = tile_to_shape(atom, mn_shape, order) if order is not None else tile_to_shape(atom, mn_shape)
    return tiled_divide(mn_tiled, product_each(mma))


def _tmem_dp(value_bits: int) -> int:
    """``TMEM::DP<T>``: the TMEM address stride of one lane, in units of ``T`` (the lane is in
    the high 16 bits of a 32-bit-word address; a subword type's index is shifted up)."""
    shift = 0
    while (32 >> shift) > value_bits:
        shift += 1
    return 65536 << shift


def tmem_frg_layout(frg_type: str, tmem_shape: Any) -> Layout:
    """The TMEM layout of ``make_tensor<FrgType>(tmem_shape)`` for an UMMA fragment type
    ``UMMA::tmem_frg_{1,2}sm<ValueType[, StorageType[, UMMA::TmemAllocMode::X]]>`` (CuTe's
    ``tmem_frg::make``), ``tmem_shape`` the post-partitioned ``((M_MMA,N_MMA),MMA_M,MMA_N,...)``.

    Addresses are CuTe's TMEM addresses in units of ValueType: lane * ``TMEM::DP<T>`` + column.
    An atom of ``M_MMA`` lanes by ``N_MMA`` columns is tiled lanes first, then columns: 1-SM
    ``M_MMA = 128`` fills the lanes; ``64`` uses half subpartitions (16-lane groups 32 apart,
    the next MMA in the other half unless ``NonInterleaved``); 2-SM ``M_MMA = 64`` is the 2x2
    atom (two column halves in lanes 0-63 and 64-127, ``Duplicated``: the 4x1 one), ``32`` the
    1x4 atom.

    @pre rank(tmem_shape) >= 1 with mode 0 of two modes; ``M_MMA`` is 64 or 128 (1-SM) or 32,
         64, 128 (2-SM); ``size(tmem_shape) * sizeof_bits(StorageType)`` fits in TMEM
         (128 lanes x 512 x 32 bits) -- CuTe's "Requesting more TMEM than is available."
    @post ``result.shape == tmem_shape`` (the atom's modes grouped as CuTe groups them).

    >>> print(tmem_frg_layout("UMMA::tmem_frg_1sm<float>", ((64, 128), 2, 1)))
    (((_16,_4),_128),_2,_1):(((_65536,_2097152),_1),_1048576,_0)
    >>> print(tmem_frg_layout("UMMA::tmem_frg_2sm<float>", ((64, 256), 1, 1)))
    ((_64,(_128,_2)),_1,_1):((_65536,(_1,_4194304)),_0,_0)
    """
    m = _FRG.fullmatch("".join(frg_type.split()))
    if m is None:
        raise LayoutError(f"tmem_frg_layout: {frg_type!r} is not an UMMA::tmem_frg_1sm/2sm<...> fragment type")
    n_sm, value, storage, alloc = int(m[1]), m[2], m[3] or "uint32_t", m[4] or "Interleaved"
    vbits, sbits = sizeof_bits(value), sizeof_bits(storage)
    if vbits > sbits:
        raise LayoutError(f"{frg_type}: TMEM MMA allocations require StorageType big enough for ValueType.")
    shp = unwrap(tmem_shape)
    if type(shp) is not tuple or type(shp[0]) is not tuple or len(shp[0]) != 2:
        raise RankError(f"{frg_type}: Expected post-partitioned shape ((M_MMA,N_MMA),...), got {tmem_shape}")
    if any(type(x) is not int for x in leaves(shp)):
        raise LayoutError(f"{frg_type}: a TMEM allocation has a static shape, got {tmem_shape}")
    if size(make_layout(shp)) * sbits > TMEM_LANES * TMEM_COLUMNS * 32:
        raise LayoutError(f"{frg_type}: Requesting more TMEM than is available ({tmem_shape} of {storage}).")
    M, N = size(make_layout(shp[0][0])), size(make_layout(shp[0][1]))
    rest = tuple(shp[1:])
    rest_layout = make_layout(rest)
    if n_sm == 1:
        if alloc not in ("Interleaved", "NonInterleaved"):
            raise LayoutError(f"{frg_type}: UMMA_1SM only accepts Interleaved or NonInterleaved")
        if M == 64:
            atom = make_layout(((16, 4), N), ((1, 32), 128))
            rest_layout = make_layout(rest, compact_col_major(rest, 1 if alloc == "Interleaved" else 2))
        elif M == 128:
            atom = make_layout((128, N), (1, 128))
        else:
            raise LayoutError(f"{frg_type}: UMMA_1SM M-mode size should be 64 or 128 (M_MMA = {M}).")
    else:
        if alloc not in ("Interleaved", "Duplicated"):
            raise LayoutError(f"{frg_type}: UMMA_2SM only accepts Interleaved or Duplicated")
        if M == 32 and alloc == "Interleaved":
            atom = make_layout((32, (N // 4, 4)), (1, (128, 32)))
        elif M == 64 and alloc == "Interleaved":
            atom = make_layout((64, (N // 2, 2)), (1, (128, 64)))
        elif M in (64, 128):
            atom = make_layout((128, N), (1, 128))
        else:
            raise LayoutError(f"{frg_type}: UMMA_2SM M-mode size should be 32 or 64 or 128 (M_MMA = {M}).")
    logical = tiled_product(atom, rest_layout)
    restride = make_layout((128, 16384), (_tmem_dp(vbits), sbits // vbits))
    out = composition(restride, logical)
    assert isinstance(out, Layout)
    return out


def tmem_sf_frg_layout(sf_type: str, n_sm: int, is_sfa: bool, tmem_shape: Any,
                       alloc: str = "ScaleFactorDuplicated4by1") -> Layout:
    """The TMEM layout of a block-scaled UMMA's scale factors, ``make_tensor<FrgTypeSFA/SFB>(shape)``
    (CuTe's ``UMMA::tmem_sf_frg<sf_type, SFVecSize, N_SM, Is_SFA, alloc>::make``), over an
    MMA-SF-partitioned shape ``((MMA_MN,(VecSize,NSF)),MMA_MNs,MMA_Ks,...)``: one scale factor
    for ``VecSize`` values of K (stride 0 over them), the MN rows in 32-lane subpartitions
    replicated 4 times (4x1 data path; SFB of a 2-SM atom may take the 2x2 one,
    ``alloc="ScaleFactorDuplicated2by2"``), the NSF factors 4 columns apart.

    @pre mode 0 is ``(MMA_MN,(VecSize,NSF))``, rank >= 3, static; MMA_MN a multiple of 32
         (of 64 for the 2x2 path, which is SFB of a 2-SM atom only).
    @post ``size<0>(result)`` is ``MMA_MN * VecSize * NSF`` values of ``4 * MMA_MN * NSF`` cells.

    >>> print(tmem_sf_frg_layout("float_ue8m0_t", 1, True, ((128, (32, 4)), 1, 2)))
    ((((_32,_4),_4),(_32,_4)),_1,_2):((((_262144,_4),_8388608),(_0,_1)),_0,_16)
    """
    shp = unwrap(tmem_shape)
    if (type(shp) is not tuple or len(shp) < 3 or type(shp[0]) is not tuple or len(shp[0]) != 2
            or type(shp[0][1]) is not tuple or len(shp[0][1]) != 2):
        raise RankError(f"tmem_sf_frg: Expected an MMA-SF partitioned shape ((MMA_MN,(VecSize,NSF)),...), "
                        f"got {tmem_shape}")
    if any(type(x) is not int for x in leaves(shp)):
        raise LayoutError(f"tmem_sf_frg: a TMEM allocation has a static shape, got {tmem_shape}")
    mn, vs, nsf = size(make_layout(shp[0][0])), shp[0][1][0], shp[0][1][1]
    restride = make_layout((128, 16384), (_tmem_dp(sizeof_bits(sf_type)), 1))
    if is_sfa or alloc == "ScaleFactorDuplicated4by1":
        if mn % 32:
            raise LayoutError(f"tmem_sf_frg: MMA_MN = {mn} is not a multiple of the 32 lanes of a subpartition")
        atom = make_layout((((32, mn // 32), 4), (vs, nsf)), (((1, 512), 32), (0, 128)))
    elif alloc == "ScaleFactorDuplicated2by2" and n_sm == 2:
        if mn % 64:
            raise LayoutError(f"tmem_sf_frg: MMA_MN = {mn} is not a multiple of 64 (2x2 data path)")
        atom = make_layout((((32, mn // 64), 2, 2), (vs, nsf)), (((1, 512), 64, 32), (0, 128)))
    else:
        raise LayoutError(f"tmem_sf_frg: alloc {alloc!r} is ScaleFactorDuplicated4by1, or ...2by2 for the SFB "
                          "of a 2-SM atom")
    out = composition(restride, tiled_product(atom, make_layout(tuple(shp[1:]))))
    assert isinstance(out, Layout)
    return out

"""The TMA descriptor's fields and the TMA coordinate strides (CuTe's ``make_tma_copy_desc``,
``fill_tma_gmem_shape_stride``, ``get_tma_swizzle_bits``/``_base``).

The driver encodes the descriptor (``cuTensorMapEncodeTiled``); CuTe computes every
argument on the host, and so does :func:`make_tma_desc`: the gmem extents and byte
strides of the TMA modes, the box (cut by the multicast), the swizzle mode. CuTe's
asserts on them are refusals here, in words, with what would fix them.

>>> from cute_sym.notation import parse
>>> from cute_sym.tensor.basis_layout import make_identity_layout
>>> d, g = make_tma_desc(parse("(512,64,5):(_1,512,32768)"), make_identity_layout((32, 8, 1)),
...                      parse("Sw<3,4,3>"), 2, "float")
>>> print(d.global_dim, d.global_strides, d.box_dim, d.swizzle)
(512, 64, 5) (4, 2048, 131072) (32, 4, 1) 128B
>>> from cute_sym.core.int_tuple import fmt
>>> print(fmt(g))
(_1@0,_1@1,_1@2)
"""
from __future__ import annotations

import math
from typing import Any, Optional

from ...core import decide
from ...core.errors import LayoutError
from ...core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ...core.int_tuple import leaves
from ...layout import Layout, size
from ...swizzle import Swizzle
from ..arith_tuple import ScaledBasis, basis_get, make_basis_like
from ..atoms.copy_types import sizeof_bits

__all__ = ["TmaDescriptor", "make_tma_desc", "tma_swizzle_mode", "fill_tma_gmem_shape_stride"]

_SWIZZLE_BYTES = {"NONE": 0, "32B": 32, "64B": 64, "128B": 128, "128B_ATOM_32B": 128, "128B_ATOM_64B": 128}


def tma_swizzle_mode(sw: Swizzle) -> str:
    """The ``CUtensorMapSwizzle`` of a smem swizzle (on byte addresses): ``NONE``, ``32B``,
    ``64B``, ``128B``, ``128B_ATOM_32B``, ``128B_ATOM_64B``.

    @pre ``Sw<B,4,3>`` with ``0 <= B <= 3``, or ``Sw<2,5,2>`` / ``Sw<2,6,S>`` (CuTe's
         "Unsupported layout swizzle"), else :class:`LayoutError`.

    >>> tma_swizzle_mode(Swizzle(3, 4, 3)), tma_swizzle_mode(Swizzle(0, 4, 3)), tma_swizzle_mode(Swizzle(2, 5, 2))
    ('128B', 'NONE', '128B_ATOM_32B')
    """
    b, m, s = sw.bits, sw.base, sw.shift
    if m == 4:
        if not 0 <= b <= 3 or s != 3:
            raise LayoutError(f"TMA: unsupported smem swizzle {sw}: with MBase 4, TMA swizzles are Sw<0..3,4,3> "
                              f"(none, 32B, 64B, 128B); use a GMMA::Layout_*_Atom")
        return ("NONE", "32B", "64B", "128B")[b]
    if m == 5 and b == 2 and s == 2:
        return "128B_ATOM_32B"
    if m == 6 and b == 2:
        return "128B_ATOM_64B"
    raise LayoutError(f"TMA: unsupported smem swizzle {sw}: TMA swizzles bytes as Sw<B,4,3> (B = 0..3), "
                      f"Sw<2,5,2> or Sw<2,6,S>; use a GMMA::/UMMA::Layout_*_Atom")


class TmaDescriptor:
    """What CuTe passes ``cuTensorMapEncodeTiled`` (the descriptor's content, not its bits).

    ``element_type``, ``rank``, ``global_dim`` (extents of the TMA modes), ``global_strides``
    (bytes; ``[0]`` is the element's size: the driver gets ``[1:]``), ``box_dim``,
    ``element_strides`` (all 1), ``swizzle`` (a ``CUtensorMapSwizzle`` name), ``interleave``
    ("NONE"), ``l2_promotion`` ("L2_128B"), ``oob_fill`` ("NONE").
    """
    __slots__ = ("element_type", "rank", "global_dim", "global_strides", "box_dim", "element_strides",
                 "swizzle", "interleave", "l2_promotion", "oob_fill")
    element_type: str
    rank: int
    global_dim: tuple[Any, ...]
    global_strides: tuple[Any, ...]
    box_dim: tuple[int, ...]
    element_strides: tuple[int, ...]
    swizzle: str
    interleave: str
    l2_promotion: str
    oob_fill: str

    def __init__(self, element_type: str, global_dim: tuple[Any, ...], global_strides: tuple[Any, ...],
                 box_dim: tuple[int, ...], swizzle: str) -> None:
        put = object.__setattr__
        put(self, "element_type", element_type)
        put(self, "rank", len(box_dim))
        put(self, "global_dim", global_dim)
        put(self, "global_strides", global_strides)
        put(self, "box_dim", box_dim)
        put(self, "element_strides", (1,) * len(box_dim))
        put(self, "swizzle", swizzle)
        put(self, "interleave", "NONE")
        put(self, "l2_promotion", "L2_128B")
        put(self, "oob_fill", "NONE")

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TmaDescriptor is immutable")

    @property
    def swizzle_bytes(self) -> int:
        """The swizzle span in bytes (0 for none)."""
        return _SWIZZLE_BYTES[self.swizzle]

    def __str__(self) -> str:
        return (f"TmaDescriptor<{self.element_type}, rank {self.rank}>: globalDim {self.global_dim}, "
                f"globalStrides {self.global_strides}, boxDim {self.box_dim}, swizzle {self.swizzle}")

    __repr__ = __str__


def _basis_leaves(strides: Any) -> list[Any]:
    return leaves(strides)


def _gcd(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return math.gcd(a, b)
    from ...core.lazy import sympy
    return sympy.gcd(a, b)


def fill_tma_gmem_shape_stride(gmem: Layout, tma_gbasis: Layout) -> tuple[list[Any], list[Any]]:
    """The gmem extent and stride (in elements) of each TMA mode: a mode that is one gmem
    mode takes its extent and stride; a mode over several takes CuTe's recurrence
    ``shape = (s - 1) * (d / gcd) + (s_j - 1) * (d_j / gcd) + 1`` with ``d = gcd(d, d_j)``."""
    shape: list[Any] = []
    stride: list[Any] = []
    modes = tma_gbasis.stride if type(tma_gbasis.stride) is tuple else (tma_gbasis.stride,)
    for m in modes:
        leaves = _basis_leaves(m)
        if len(leaves) == 1 and not (type(m) is tuple):
            e = leaves[0]
            shape.append(basis_get(e, gmem.shape) if isinstance(e, ScaledBasis) else 1)
            stride.append(basis_get(e, gmem.stride) if isinstance(e, ScaledBasis) else 0)
            continue
        s_i: Any = 1
        d_i: Any = 0
        for e in leaves:
            s_j = basis_get(e, gmem.shape)
            d_j = basis_get(e, gmem.stride)
            old = d_i
            d_i = _gcd(d_i, d_j)
            if d_i != 0:
                s_i = (s_i - 1) * (old // d_i) + (s_j - 1) * (d_j // d_i) + 1
            else:
                s_i = s_j
        shape.append(s_i)
        stride.append(d_i)
    return shape, stride


def _require(rel: Any, a: Any, b: Any, message: str) -> None:
    if not decide.require(rel, a, b, why=message):
        raise LayoutError(message)


def make_tma_desc(gmem: Layout, tma_gbasis: Layout, swizzle: Swizzle, num_multicast: int,
                  element_type: str, what: str = "make_tma_copy",
                  smem_text: Optional[str] = None) -> tuple[TmaDescriptor, Any]:
    """CuTe's ``make_tma_copy_desc``: the descriptor's fields and the strides of the TMA
    coordinate tensor (``g_stride_``: gmem mode -> TMA coordinate basis).

    @pre the TMA modes' first stride is 1 ("Majorness of smem doesn't match majorness of
         gmem"), the other byte strides are multiples of 16 and below 2^40, extents in
         [1, 2^32], box extents in [1, 256] after the multicast cut, which divides them
         (CuTe's asserts), else :class:`LayoutError` naming the fix.
    @post ``g_stride_`` is congruent with ``shape(gmem)``: ``_0`` for modes TMA does not
          walk, ``E<0> * stride`` for the box's first mode, ``E<j>`` for a mode ``j``.
    """
    bits = sizeof_bits(element_type)
    rank_ = tma_gbasis.rank() if type(tma_gbasis.shape) is tuple else 1
    prob_shape, prob_stride = fill_tma_gmem_shape_stride(gmem, tma_gbasis)
    if rank_ > 5:  # pragma: no cover - construct_tma_gbasis groups to rank 5
        raise LayoutError(f"{what}: a TMA box has at most 5 modes, got {tma_gbasis}")
    for s in prob_shape:
        _require(">=", s, 1, f"{what}: a TMA gmem extent must be at least 1, got {s}")
        _require("<=", s, 1 << 32, f"{what}: a TMA gmem extent must be at most 2^32, got {s}")
    major = _major_text(gmem, smem_text)
    _require("==", prob_stride[0], 1,
             f"{what}: Majorness of smem doesn't match majorness of gmem: the box's first mode "
             f"{_first_mode(tma_gbasis)} (the smem's contiguous direction) has gmem stride {prob_stride[0]}, "
             f"not 1{major}")
    byte_strides = [d * bits // 8 if type(d) is int else d * bits / 8 for d in prob_stride]
    for i, d in enumerate(byte_strides[1:], start=1):
        _require("<", d, 1 << 40, f"{what}: TMA gmem stride {d} bytes (mode {i}) must be below 2^40")
        _require("|", 16, d, f"{what}: the TMA gmem stride of mode {i} is {d} bytes ({prob_stride[i]} elements of "
                             f"{bits} bits), not a multiple of 16 bytes: pad the gmem row pitch to a multiple of "
                             f"{max(1, 128 // bits)} elements")
    box = [size(tma_gbasis[i]) if type(tma_gbasis.shape) is tuple else size(tma_gbasis) for i in range(rank_)]
    mc = num_multicast
    i = rank_ - 1
    while mc > 1:
        if i < 0:
            raise LayoutError(f"{what}: the multicast of {num_multicast} CTAs does not divide the box {tuple(box)}")
        b = box[i]
        if b % mc != 0 and mc % b != 0:
            raise LayoutError(f"{what}: the multicast of {num_multicast} CTAs cannot split the box {tuple(box)}: "
                              f"box extent {b} and {mc} do not divide each other")
        new_mc = -(-mc // b)
        box[i] = -(-b // mc)
        mc = new_mc
        i -= 1
    for i, b in enumerate(box):
        if not 1 <= b <= 256:
            raise LayoutError(f"{what}: the TMA box extent {b} of mode {i} is outside [1, 256] "
                              f"(box {tuple(box)}): split the CTA tile or the smem layout")
    mode = tma_swizzle_mode(swizzle)
    desc = TmaDescriptor(element_type, tuple(prob_shape), tuple(byte_strides), tuple(box), mode)
    return desc, _gmem_tma_basis_stride(gmem, tma_gbasis, byte_strides, bits)


def _first_mode(tma_gbasis: Layout) -> str:
    d = tma_gbasis.stride[0] if type(tma_gbasis.stride) is tuple else tma_gbasis.stride
    leaves = _basis_leaves(d)
    return "gmem mode " + ",".join(str(e.modes[0]) if isinstance(e, ScaledBasis) else "?" for e in leaves)


def _major_text(gmem: Layout, smem_text: Optional[str]) -> str:
    return f"; {smem_text}" if smem_text else ""


def _find_mode(strides: tuple[Any, ...], e: ScaledBasis) -> int:
    for j, m in enumerate(strides):
        if any(isinstance(d, ScaledBasis) and d == e for d in _basis_leaves(m)):
            return j
    return -1


def _gmem_tma_basis_stride(gmem: Layout, tma_gbasis: Layout, byte_strides: list[Any], bits: int) -> Any:
    strides = tma_gbasis.stride if type(tma_gbasis.stride) is tuple else (tma_gbasis.stride,)

    def leaf(ei: Any) -> Any:
        si = basis_get(ei, gmem.shape) if isinstance(ei, ScaledBasis) else gmem.shape
        di = basis_get(ei, gmem.stride) if isinstance(ei, ScaledBasis) else gmem.stride
        if (type(si) is int and si == 1) or (type(di) is int and di == 0):
            return 0
        e = ei if isinstance(ei, ScaledBasis) else None
        j = _find_mode(strides, e) if e is not None else -1
        if j < 0:
            return 0
        if j == 0:
            return ScaledBasis(1, (0,)) * di
        if len(_basis_leaves(strides[j])) == 1 and type(strides[j]) is not tuple:
            return ScaledBasis(1, (j,))
        sj = byte_strides[j]
        if type(di) is not int or type(sj) is not int:
            raise LayoutError(f"TMA: the coordinate scale of gmem mode {ei} folded into TMA mode {j} "
                              f"needs static strides, got {di} and {sj}")
        scale = -(-((di * bits) // max(sj, 16)) // 8)
        from ...core.lazy import sympy   # a dynamic int32 in CuTe
        return ScaledBasis(sympy.Integer(scale), (j,))

    def go(b: Any) -> Any:
        if type(b) is tuple:
            return tuple(go(x) for x in b)
        return leaf(b)

    return go(make_basis_like(gmem.shape))

"""The GMMA (Hopper) and UMMA (Blackwell) shared-memory matrix descriptors of a smem tensor
(CuTe's ``make_gmma_desc``, ``cute/atom/mma_traits_sm90_gmma.hpp``, and ``make_umma_desc``,
``cute/arch/mma_sm100_desc.hpp``).

The tensor is read in units of 16 bytes (``recast<uint128_t>``) and divided into its
canonical form: for a K-major operand ``((8,n),(2,1))`` (8 rows of ``W`` 16-byte chunks,
``W`` the swizzle's width), for an MN-major one ``((W,n),(8,k))``. The strides of that
form are the descriptor's leading and stride byte offsets (in 16-byte units); anything
else is not a layout the tensor cores read, and the refusal names the canonical form.

>>> import cute_sym as cs
>>> sL = cs.tile_to_shape(cs.smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>"), (64, 64))
>>> sA = cs.make_tensor(cs.make_smem_ptr("S", "half_t"), sL)
>>> d = make_gmma_desc(cs.local_tile(sA, (64, 16), (0, 1)), "K")     # the second K-block of 16
>>> print(d.layout_type, d.leading_byte_offset, d.stride_byte_offset, d.start_address)
B128 1 64 2
"""
from __future__ import annotations

from typing import Any, Optional

from ..core import decide
from ..core.errors import LayoutError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.int_tuple import congruent
from ..layout import Layout, size
from ..swizzle import ComposedLayout, Swizzle, logical_divide, recast_layout
from .atoms.copy_types import sizeof_bits
from .engine import Pointer
from .tensor import Tensor

__all__ = ["GmmaDescriptor", "UmmaDescriptor", "NotCanonicalError", "make_gmma_desc", "make_umma_desc", "canonical_atom_name",
           "check_mma_smem_layout"]

# layout type codes (cute/arch/mma_sm90_desc.hpp, mma_sm100_desc.hpp)
GMMA_LAYOUT_TYPES = {"INTERLEAVE": 0, "B128": 1, "B64": 2, "B32": 3}
UMMA_LAYOUT_TYPES = {"SWIZZLE_NONE": 0, "SWIZZLE_128B_BASE32B": 1, "SWIZZLE_128B": 2, "SWIZZLE_64B": 4,
                     "SWIZZLE_32B": 6}
_W = {"INTERLEAVE": 1, "B32": 2, "B64": 4, "B128": 8, "SWIZZLE_NONE": 1, "SWIZZLE_32B": 2, "SWIZZLE_64B": 4,
      "SWIZZLE_128B": 8, "SWIZZLE_128B_BASE32B": 8}
_ATOM_SW = {1: "INTER", 2: "SW32", 4: "SW64", 8: "SW128"}


def _major(major: Any) -> str:
    m = str(major).split("::")[-1].strip()
    if m not in ("K", "MN"):
        raise LayoutError(f"the operand's major is K or MN (GMMA::Major::K, ...), got {major!r}")
    return m


class _Descriptor:
    __slots__ = ("start_address", "leading_byte_offset", "stride_byte_offset", "base_offset", "layout_type",
                 "major", "element_type", "canonical")
    start_address: Any
    leading_byte_offset: int
    stride_byte_offset: int
    base_offset: int
    layout_type: str
    major: str
    element_type: str
    canonical: Layout

    def __init__(self, start: Any, lbo: int, sbo: int, layout_type: str, major: str, element_type: str,
                 canonical: Layout) -> None:
        for k, v in (("start_address", start), ("leading_byte_offset", lbo), ("stride_byte_offset", sbo),
                     ("base_offset", 0), ("layout_type", layout_type), ("major", major),
                     ("element_type", element_type), ("canonical", canonical)):
            object.__setattr__(self, k, v)

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _fields(self) -> dict[str, Any]:
        return {"start_address": self.start_address, "leading_byte_offset": self.leading_byte_offset,
                "stride_byte_offset": self.stride_byte_offset, "base_offset": self.base_offset,
                "layout_type": self.layout_type}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Descriptor) and type(other) is type(self) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((type(self).__name__, str(self._fields())))


class GmmaDescriptor(_Descriptor):
    """CuTe's ``GmmaDescriptor``: ``start_address`` (byte address >> 4, 14 bits; a formula for a
    symbolic pointer), ``leading_byte_offset`` and ``stride_byte_offset`` (in 16 bytes, 14 bits),
    ``base_offset`` (0), ``layout_type`` (``INTERLEAVE``, ``B128``, ``B64``, ``B32``); ``desc``
    the 64-bit word when the start address is a number."""
    __slots__ = ()

    @property
    def layout_type_code(self) -> int:
        return GMMA_LAYOUT_TYPES[self.layout_type]

    @property
    def desc(self) -> int:
        if type(self.start_address) is not int:
            raise LayoutError(f"the descriptor word needs a numeric start address, got {self.start_address}")
        return ((self.start_address & 0x3FFF) | (self.leading_byte_offset & 0x3FFF) << 16
                | (self.stride_byte_offset & 0x3FFF) << 32 | (self.base_offset & 7) << 49
                | (self.layout_type_code & 3) << 62)

    def __str__(self) -> str:
        """CuTe's ``print(GmmaDescriptor)`` (the word when the start address is a number)."""
        head = f"GmmaDescriptor: 0x{self.desc:016x}" if type(self.start_address) is int else "GmmaDescriptor:"
        sa = f"0x{self.start_address:04x}" if type(self.start_address) is int else str(self.start_address)
        return (f"{head}\n  start_addr :  {sa}\n"
                f"  leading_off:  0x{self.leading_byte_offset:04x} ({self.leading_byte_offset})\n"
                f"  stride_off :  0x{self.stride_byte_offset:04x} ({self.stride_byte_offset})\n"
                f"  base_offset:  0x{self.base_offset:01x}\n"
                f"  layout_type:  0x{self.layout_type_code:01x} ({self.layout_type})")

    __repr__ = __str__


class UmmaDescriptor(_Descriptor):
    """CuTe's ``UMMA::SmemDescriptor``: the GMMA fields plus ``version`` (1) and ``lbo_mode`` (0);
    ``layout_type`` one of ``SWIZZLE_NONE``, ``SWIZZLE_32B``, ``SWIZZLE_64B``, ``SWIZZLE_128B``,
    ``SWIZZLE_128B_BASE32B``."""
    __slots__ = ()
    version = 1
    lbo_mode = 0

    @property
    def layout_type_code(self) -> int:
        return UMMA_LAYOUT_TYPES[self.layout_type]

    @property
    def desc(self) -> int:
        if type(self.start_address) is not int:
            raise LayoutError(f"the descriptor word needs a numeric start address, got {self.start_address}")
        return ((self.start_address & 0x3FFF) | (self.leading_byte_offset & 0x3FFF) << 16
                | (self.stride_byte_offset & 0x3FFF) << 32 | self.version << 46 | (self.base_offset & 7) << 49
                | self.lbo_mode << 52 | (self.layout_type_code & 7) << 61)

    def __str__(self) -> str:
        sa = f"0x{self.start_address:04x}" if type(self.start_address) is int else str(self.start_address)
        return (f"UmmaDescriptor: start_addr {sa}, leading_off {self.leading_byte_offset}, "
                f"stride_off {self.stride_byte_offset}, base_offset {self.base_offset}, "
                f"layout_type {self.layout_type} ({self.layout_type_code}), version 1, lbo_mode 0")

    __repr__ = __str__


def _layout_type(sw: Swizzle, kind: str, major: str) -> str:
    b, m, s = sw.bits, sw.base, sw.shift
    if m == 4 and s == 3 and 0 <= b <= 3:
        if kind == "GMMA":
            return ("INTERLEAVE", "B32", "B64", "B128")[b]
        return ("SWIZZLE_NONE", "SWIZZLE_32B", "SWIZZLE_64B", "SWIZZLE_128B")[b]
    if kind == "UMMA" and (b, m, s) == (2, 5, 2):
        if major == "K":
            raise LayoutError("make_umma_desc: SWIZZLE_128B_BASE32B (Sw<2,5,2>) is invalid for Major-K: "
                              "use UMMA::Layout_K_SW128_Atom")
        return "SWIZZLE_128B_BASE32B"
    allowed = "Sw<0..3,4,3>" + (" or Sw<2,5,2>" if kind == "UMMA" else "")
    raise LayoutError(f"make_{kind.lower()}_desc: unsupported layout swizzle {sw}: {kind} reads {allowed} "
                      f"(the {kind}::Layout_*_Atom swizzles)")


def _smem_parts(tensor: Any, what: str) -> tuple[Layout, Swizzle, Pointer, str]:
    if not isinstance(tensor, Tensor) or not isinstance(tensor.engine, Pointer) or tensor.engine.space != "smem":
        raise LayoutError(f"{what}: Descriptors can only be constructed on smem tensors "
                          f"(make_tensor(make_smem_ptr(name, type), layout)), got {tensor!r}")
    ptr = tensor.engine
    if ptr.dtype is None:
        raise LayoutError(f"{what}: the smem pointer needs its element type (make_smem_ptr(name, 'half_t'))")
    lay = tensor.layout
    if isinstance(lay, ComposedLayout):
        raise LayoutError(f"{what}: the tensor's layout {lay} carries its swizzle in the layout; the descriptor "
                          f"reads the swizzle of the pointer: make the tensor from a flagged atom "
                          f"(make_tensor(smem_ptr, tile_to_shape(GMMA::Layout_*_Atom<T>, shape)))")
    if lay.rank() != 2 or type(lay.shape) is not tuple:
        raise LayoutError(f"{what}: Descriptors can only be constructed on rank-2 tensors, got {lay}")
    return lay, ptr.swizzle or Swizzle(0, 4, 3), ptr, ptr.dtype


def _static(x: Any, what: str, name: str) -> int:
    if type(x) is not int:
        raise LayoutError(f"{what}: the {name} of the canonical layout must be static (CuTe reads it at compile "
                          f"time), got {x}")
    return x


def _divisible(n: int, x: Any) -> bool:
    if type(x) is int:
        return x % n == 0
    return bool(decide.require("|", n, x, why="the descriptor's canonical layout"))


def canonical_atom_name(kind: str, major: str, element_type: str, extent: Any) -> str:
    """The atom whose ``tile_to_shape`` a ``kind`` operand of ``major`` should have: the widest
    swizzle whose row (``16 * W`` bytes) divides the contiguous extent ``extent`` (elements).

    >>> canonical_atom_name("GMMA", "K", "half_t", 64), canonical_atom_name("UMMA", "MN", "float", 8)
    ('GMMA::Layout_K_SW128_Atom<half_t>', 'UMMA::Layout_MN_SW32_Atom<float>')
    """
    bits = sizeof_bits(element_type)
    for w in (8, 4, 2, 1):
        if type(extent) is not int or (extent * bits) % (128 * w) == 0:
            return f"{kind}::Layout_{major}_{_ATOM_SW[w]}_Atom<{element_type}>"
    return f"{kind}::Layout_{major}_INTER_Atom<{element_type}>"


class NotCanonicalError(LayoutError):
    """A smem layout an MMA operand cannot read; ``why`` is CuTe's reason."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.why = why


def _refuse(kind: str, major: str, etype: str, lay: Layout, why: str) -> LayoutError:
    shp: Any = lay.shape
    ext = shp[1] if major == "K" else shp[0]
    ext_n = size(ext) if type(size(ext)) is int else ext
    atom = canonical_atom_name(kind, major, etype, ext_n)
    return NotCanonicalError(f"make_{kind.lower()}_desc<{major}>: Not a canonical {kind}_{major} Layout: {why}; "
                       f"the layout {lay} of {etype} is not what the tensor cores read: use "
                       f"tile_to_shape({atom}, shape) for the smem tile",
                       f"Not a canonical {kind}_{major} Layout: {why}")


def _make_desc(tensor: Any, major: Any, kind: str, base_address: Any) -> tuple[Any, int, int, str, str, Layout]:
    what = f"make_{kind.lower()}_desc"
    mj = _major(major)
    lay, sw, ptr, etype = _smem_parts(tensor, what)
    bits = sizeof_bits(etype)
    lt = _layout_type(sw, kind, mj)
    W = _W[lt]
    if (128 % bits) != 0:
        raise LayoutError(f"{what}: {etype} ({bits} bits) does not pack into 16-byte units")
    try:
        u = recast_layout(lay, bits, 128)
    except LayoutError as e:
        raise _refuse(kind, mj, etype, lay, f"it is not made of 16-byte chunks ({e})") from None
    if not isinstance(u, Layout):  # pragma: no cover
        raise LayoutError(f"{what}: unexpected recast {u}")
    # start address: bytes of the pointer's offset (+ the base address), >> 4
    off = ptr.offset
    byte_off = off * bits // 8 if type(off) is int else off * bits / 8
    if not _divisible(16, byte_off if type(byte_off) is int else byte_off):
        raise LayoutError(f"{what}: the tensor starts {byte_off} bytes into its buffer, not on a 16-byte boundary: "
                          f"a descriptor addresses 16-byte chunks")
    addr = base_address + byte_off
    start = (addr >> 4) & 0x3FFF if type(addr) is int else addr / 16
    if mj == "MN":
        if kind == "GMMA":
            k = size(u, 1)
            ok = [256 // bits, 128 // bits, 512 // bits]
            if type(k) is not int or k not in ok:
                raise _refuse(kind, mj, etype, lay, f"Expected K-size 256/sizeof_bits<T> for dense or "
                                                    f"(128|512)/sizeof_bits<T> for sparse: {ok}, got {k}")
            ksize = 8
        else:
            ksize = 4 if lt == "SWIZZLE_128B_BASE32B" else 8
        canon = logical_divide(u, (Layout(W, 1), Layout(ksize, 1)))
        if not isinstance(canon, Layout) or not congruent(canon.shape, ((1, 1), (1, 1))):
            raise _refuse(kind, mj, etype, lay, f"Expected profile failure: ((W,n),(8,k)) with W = {W} "
                                                f"16-byte chunks, got {canon}")
        cst: Any = canon.stride
        s00 = _static(cst[0][0], what, "stride<0,0>")
        s10 = _static(cst[1][0], what, "stride<1,0>")
        if lt not in ("INTERLEAVE", "SWIZZLE_NONE") and s00 != 1:
            raise _refuse(kind, mj, etype, lay, f"Expected stride failure: stride<0,0> {s00}, expected 1")
        if s10 != W:
            raise _refuse(kind, mj, etype, lay, f"Expected stride failure: stride<1,0> {s10}, expected {W}")
        s01 = _static(cst[0][1], what, "stride<0,1>")
        s11 = _static(cst[1][1], what, "stride<1,1>")
        inter = lt in ("INTERLEAVE", "SWIZZLE_NONE")
        sbo, lbo = (s01, s11) if inter else (s11, s01)
    else:
        m = size(u, 0)
        if type(m) is not int:
            raise LayoutError(f"{what}<K>: the MN-size must be static (CuTe asserts it at compile time), got {m}")
        if m % 8:
            raise _refuse(kind, mj, etype, lay, f"Expected MN-size multiple of 8, got {m}")
        if kind == "GMMA":
            k = size(u, 1)
            if type(k) is not int or k not in (2, 4):
                raise _refuse(kind, mj, etype, lay, f"Expected K-size 2 for dense or 4 for sparse (in units of "
                                                    f"uint128_t), got {k}")
        canon = logical_divide(u, (Layout(8, 1), Layout(2, 1)))
        if not isinstance(canon, Layout) or not congruent(canon.shape, ((1, 1), (1, 1))):
            raise _refuse(kind, mj, etype, lay, f"Expected profile failure: ((8,n),(2,1)), got {canon}")
        kst: Any = canon.stride
        s00 = _static(kst[0][0], what, "stride<0,0>")
        s10 = _static(kst[1][0], what, "stride<1,0>")
        if s00 != W:
            raise _refuse(kind, mj, etype, lay, f"Expected stride failure: stride<0,0> {s00}, expected {W}")
        if lt not in ("INTERLEAVE", "SWIZZLE_NONE") and s10 != 1:
            raise _refuse(kind, mj, etype, lay, f"Expected stride failure: stride<1,0> {s10}, expected 1")
        sbo = _static(kst[0][1], what, "stride<0,1>")
        lbo = s10
    return start, lbo & 0x3FFF, sbo & 0x3FFF, lt, etype, canon


def make_gmma_desc(tensor: Tensor, major: Any, base_address: Any = 0) -> GmmaDescriptor:
    """CuTe's ``make_gmma_desc<Major>(tensor)``: the GMMA descriptor of a rank-2 smem tensor
    (``(MN, K)`` of one MMA), its swizzle the pointer's (``make_tensor(smem_ptr, atom tiled)``).

    ``base_address`` is the shared-memory byte address of the pointer's base (0: addresses
    relative to it; a symbol gives a formula).

    @pre a smem tensor of rank 2 with static strides; the swizzle ``Sw<0..3,4,3>``; MN-major:
         ``size<1>`` (K) ``== 256/bits`` (or ``128/bits``, ``512/bits`` sparse) and the form
         ``((W,n),(8,k))`` with strides ``(1, W)`` in 16-byte units; K-major: ``size<0> % 8 == 0``
         (in rows), ``size<1> == 2`` or ``4`` 16-byte chunks and the form ``((8,n),(2,1))`` with
         ``stride<0,0> == W``. Otherwise :class:`LayoutError` naming the canonical atom to tile.
    @post ``layout_type`` from the swizzle; K-major: ``SBO = stride<0,1>``, ``LBO = stride<1,0>``;
          MN-major: ``LBO = stride<0,1>``, ``SBO = stride<1,1>`` (exchanged for INTERLEAVE).
    """
    start, lbo, sbo, lt, etype, canon = _make_desc(tensor, major, "GMMA", base_address)
    return GmmaDescriptor(start, lbo, sbo, lt, _major(major), etype, canon)


def make_umma_desc(tensor: Tensor, major: Any, base_address: Any = 0) -> UmmaDescriptor:
    """CuTe's ``UMMA::make_umma_desc<Major>(tensor)``: as :func:`make_gmma_desc`, with UMMA's
    layout types (``Sw<2,5,2>`` is ``SWIZZLE_128B_BASE32B``, MN-major only), no K-size
    requirement, and ``version = 1``.

    >>> import cute_sym as cs
    >>> sL = cs.tile_to_shape(cs.smem_layout_atom("UMMA::Layout_MN_SW128_32B_Atom<half_t>"), (128, 16))
    >>> print(make_umma_desc(cs.make_tensor(cs.make_smem_ptr("S", "half_t"), sL), "MN").layout_type)
    SWIZZLE_128B_BASE32B
    """
    start, lbo, sbo, lt, etype, canon = _make_desc(tensor, major, "UMMA", base_address)
    return UmmaDescriptor(start, lbo, sbo, lt, _major(major), etype, canon)


def check_mma_smem_layout(slayout: Any, major: Any, element_type: str, kind: str = "GMMA",
                          mma_k: Optional[int] = None) -> list[Any]:
    """Whether a ``kind`` (GMMA/UMMA) operand of ``major`` can read the smem tile ``slayout``
    (``(BLK_MN, BLK_K[, ...])``, an atom tiled or a plain layout): the descriptor of every MMA's
    K-block (``mma_k`` elements, by default 32 bytes' worth) of the first pipeline stage.

    @post the list of descriptors, one per K-block; a tile no MMA reads raises
          :class:`LayoutError` naming the canonical atom (``tile_to_shape(...)``) it should be.
    """
    from .tensor import make_tensor
    from .engine import make_smem_ptr
    from .partition import local_tile
    kind = kind.upper()
    if kind not in ("GMMA", "UMMA"):
        raise LayoutError(f"check_mma_smem_layout: kind is GMMA or UMMA, got {kind!r}")
    bits = sizeof_bits(element_type)
    kb = mma_k if mma_k is not None else 256 // bits
    t = make_tensor(make_smem_ptr("S", element_type), slayout)
    lay = t.layout
    if not isinstance(lay, Layout):
        raise LayoutError(f"check_mma_smem_layout: expected a smem tile (an atom tiled, or a plain layout), got {slayout}")
    r = lay.rank() if type(lay.shape) is tuple else 1
    if r < 2:
        raise LayoutError(f"check_mma_smem_layout: expected a (MN, K, ...) tile, got {lay}")
    mn, k = size(lay, 0), size(lay, 1)
    if type(k) is int and k % kb:
        raise LayoutError(f"check_mma_smem_layout: the K extent {k} is not a multiple of the MMA's K {kb}")
    nk = k // kb if type(k) is int else 1
    if r > 2:
        t = Tensor(t.engine, lay[0, 1] if False else _first2(lay))
    make = make_gmma_desc if kind == "GMMA" else make_umma_desc
    out = []
    mj = _major(major)
    for i in range(nk):
        tile = local_tile(t, (mn, kb), (0, i))
        try:
            out.append(make(tile, mj))
        except NotCanonicalError as e:
            ext = k if mj == "K" else mn
            atom = canonical_atom_name(kind, mj, element_type, ext if type(ext) is int else 8)
            raise LayoutError(f"the smem tile {slayout} is not readable by a {kind} {mj}-major operand: its K-block "
                              f"{i} fails ({e.why}); use tile_to_shape({atom}, {_shape_text(lay)}) for the smem "
                              f"tile") from None
    return out


def _shape_text(lay: Layout) -> str:
    from ..core.int_tuple import fmt, product_each
    return fmt(product_each(lay.shape))


def _first2(lay: Layout) -> Layout:
    from ..layout import take
    return take(lay, 0, 2)

"""CuTe's ``Copy_Traits``: for each copy operation, ``ThrID`` and the bit layouts
``SrcLayout``, ``DstLayout``, ``RefLayout`` ((thr, val) -> bit).

The facts are one table (:data:`COPY_TRAITS`, transcribed from
``cute/atom/copy_traits*.hpp`` and the ``static_assert``s of ``cute/arch/copy*.hpp``),
read by one mechanism, :func:`Copy_Traits`. A templated operation's layouts are
nested tuples with ``"S"``/``"D"`` standing for the bit widths of its type arguments.

>>> t = Copy_Traits("SM75_U32x4_LDSM_N")
>>> print(t.ThrID, t.SrcLayout, t.DstLayout, t.RefLayout is t.DstLayout)
_32:_1 (_32,_128):(_128,_1) (_32,(_32,_4)):(_32,(_1,_1024)) True
>>> print(Copy_Traits("UniversalCopy<cute::uint64_t>").SrcLayout)
(_1,_64):(_0,_1)
"""
from __future__ import annotations

import difflib
from typing import Any, Mapping, NamedTuple, Optional

from ...core.errors import LayoutError
from ...core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ...layout import Layout, make_layout
from .copy_sm100_data import SM100_TMEM_ROWS
from .copy_types import sizeof_bits, template_args, type_name

__all__ = ["COPY_TRAITS", "COPY_ALIASES", "CopyTraits", "Copy_Traits", "split_op_name", "copy_atom_names"]


# A layout of the table: (shape, stride), CuTe's Layout<Shape<...>, Stride<...>> as nested tuples;
# the strings "S" and "D" stand for the bit widths of the type arguments.
_Lay = tuple[Any, Any]


class _Entry(NamedTuple):
    params: str                 # "": no template arguments; "types": <S[,D=S]>; "bits": <N>
    thr_id: _Lay
    src: _Lay                   # (src-thr, src-val) -> bit
    dst: _Lay                   # (dst-thr, dst-val) -> bit
    ref: str                    # "src" or "dst": the layout RefLayout names
    widths: tuple[int, ...] = ()  # the widths S (or N) may have; () means any
    min_width: int = 1          # the least width of S and D
    same_width: bool = False    # sizeof(S) == sizeof(D) required
    val_id: Optional[_Lay] = None  # ValID (logical bit -> TMEM bit address) of the TMEM copies


_ONE: _Lay = (1, 0)                                   # Layout<_1>
_WARP: _Lay = (32, 1)                                 # Layout<_32>
_ONE_THREAD_S: _Lay = ((1, "S"), (0, 1))              # Layout<Shape<_1, Int<sizeof_bits<S>>>>
_ONE_THREAD_D: _Lay = ((1, "D"), (0, 1))

# cute/atom/copy_traits_sm75.hpp: ldmatrix (src: 128-bit rows of smem; dst: registers)
_LDSM_SRC_X1: _Lay = (((8, 4), 128), ((128, 0), 1))
_LDSM_SRC_X2: _Lay = (((16, 2), 128), ((128, 0), 1))
_LDSM_SRC_X4: _Lay = ((32, 128), (128, 1))
_LDSM_N_X1: _Lay = ((32, 32), (32, 1))
_LDSM_N_X2: _Lay = ((32, (32, 2)), (32, (1, 1024)))
_LDSM_N_X4: _Lay = ((32, (32, 4)), (32, (1, 1024)))
_LDSM_T_X2: _Lay = (((4, 8), (16, 2)), ((256, 16), (1, 128)))
_LDSM_T_X4: _Lay = (((4, 8), (16, 2, 2)), ((256, 16), (1, 128, 1024)))
_LDSM_T_X8: _Lay = (((4, 8), (16, 2, 4)), ((256, 16), (1, 128, 1024)))
# cute/atom/copy_traits_sm100.hpp: 8-bit transposing ldmatrix / stmatrix
_U8_T_X4: _Lay = (((4, 8), (8, 2, 2)), ((256, 8), (1, 128, 64)))
_U8_T_X8: _Lay = (((4, 8), (8, 2, 2, 2)), ((256, 8), (1, 128, 64, 1024)))
_U8_T_X16: _Lay = (((4, 8), (8, 2, 2, 4)), ((256, 8), (1, 128, 64, 1024)))
_U8_T_SRC_X8: _Lay = (((2, 2, 4, 2), 128), ((128, 1024, 256, 0), 1))
_U8_T_SRC_X16: _Lay = (((2, 2, 4, 2), 128), ((128, 1024, 256, 2048), 1))
_VEC_256: _Lay = ((1, 256), (0, 1))
_NONE: _Lay = ((1, 1), (0, 0))

_CP_ASYNC = _Entry("types", _ONE, _ONE_THREAD_S, _ONE_THREAD_D, "src", widths=(32, 64, 128), same_width=True)
_CP_ASYNC_128 = _CP_ASYNC._replace(widths=(128,))

COPY_TRAITS: Mapping[str, _Entry] = {
    # cute/atom/copy_traits.hpp, cute/arch/copy.hpp
    "UniversalCopy": _Entry("types", _ONE, _ONE_THREAD_S, _ONE_THREAD_D, "src", min_width=8),
    "AutoVectorizingCopyWithAssumedAlignment": _Entry("bits", _ONE, _NONE, _NONE, "src",
                                                      widths=(8, 16, 32, 64, 128)),
    # cute/atom/copy_traits_sm80.hpp; widths from the static_asserts of cute/arch/copy_sm80.hpp
    "SM80_CP_ASYNC_CACHEALWAYS": _CP_ASYNC,
    "SM80_CP_ASYNC_CACHEGLOBAL": _CP_ASYNC_128,
    "SM80_CP_ASYNC_CACHEALWAYS_ZFILL": _CP_ASYNC,
    "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL": _CP_ASYNC_128,
    # cute/atom/copy_traits_sm50.hpp: warp shuffles
    "SM50_Shuffle_U32_2x2Trans_XOR1": _Entry("", _WARP, ((32, 64), (64, 1)),
                                             (((2, 16), (32, 2)), ((32, 128), (1, 64))), "src"),
    "SM50_Shuffle_U32_2x2Trans_XOR4": _Entry("", _WARP, ((32, 64), (64, 1)),
                                             (((4, 2, 4), (32, 2)), ((64, 32, 512), (1, 256))), "src"),
    # cute/atom/copy_traits_sm75.hpp: ldmatrix, movmatrix; Ref = Dst
    "SM75_U32x1_LDSM_N": _Entry("", _WARP, _LDSM_SRC_X1, _LDSM_N_X1, "dst"),
    "SM75_U32x2_LDSM_N": _Entry("", _WARP, _LDSM_SRC_X2, _LDSM_N_X2, "dst"),
    "SM75_U32x4_LDSM_N": _Entry("", _WARP, _LDSM_SRC_X4, _LDSM_N_X4, "dst"),
    "SM75_U16x2_LDSM_T": _Entry("", _WARP, _LDSM_SRC_X1, _LDSM_T_X2, "dst"),
    "SM75_U16x4_LDSM_T": _Entry("", _WARP, _LDSM_SRC_X2, _LDSM_T_X4, "dst"),
    "SM75_U16x8_LDSM_T": _Entry("", _WARP, _LDSM_SRC_X4, _LDSM_T_X8, "dst"),
    "SM75_U32x1_MOVM_T": _Entry("", _WARP, _LDSM_N_X1, _LDSM_N_X1, "dst"),
    # cute/atom/copy_traits_sm90.hpp: stmatrix is ldmatrix with src and dst exchanged; Ref = Src
    "SM90_U32x1_STSM_N": _Entry("", _WARP, _LDSM_N_X1, _LDSM_SRC_X1, "src"),
    "SM90_U32x2_STSM_N": _Entry("", _WARP, _LDSM_N_X2, _LDSM_SRC_X2, "src"),
    "SM90_U32x4_STSM_N": _Entry("", _WARP, _LDSM_N_X4, _LDSM_SRC_X4, "src"),
    "SM90_U16x2_STSM_T": _Entry("", _WARP, _LDSM_T_X2, _LDSM_SRC_X1, "src"),
    "SM90_U16x4_STSM_T": _Entry("", _WARP, _LDSM_T_X4, _LDSM_SRC_X2, "src"),
    "SM90_U16x8_STSM_T": _Entry("", _WARP, _LDSM_T_X8, _LDSM_SRC_X4, "src"),
    # cute/atom/copy_traits_sm100.hpp
    "SM100_LOAD_256bit_CACHE_NOALLOCATION": _Entry("", _ONE, _VEC_256, _VEC_256, "src"),
    "SM100_STORE_256bit_CACHE_NOALLOCATION": _Entry("", _ONE, _VEC_256, _VEC_256, "src"),
    "SM100_U8x8_LDSM_T": _Entry("", _WARP, _U8_T_SRC_X8, _U8_T_X8, "dst"),
    "SM100_U8x16_LDSM_T": _Entry("", _WARP, _U8_T_SRC_X16, _U8_T_X16, "dst"),
    "SM100_SU4_DU8x16_x1_LDSM_N": _Entry("", _WARP, _LDSM_SRC_X1, _LDSM_N_X1, "dst"),
    "SM100_SU6_DU8x16_x1_LDSM_N": _Entry("", _WARP, _LDSM_SRC_X1, _LDSM_N_X1, "dst"),
    "SM100_SU4_DU8x16_x2_LDSM_N": _Entry("", _WARP, _LDSM_SRC_X2, _LDSM_N_X2, "dst"),
    "SM100_SU6_DU8x16_x2_LDSM_N": _Entry("", _WARP, _LDSM_SRC_X2, _LDSM_N_X2, "dst"),
    "SM100_SU4_DU8x16_x4_LDSM_N": _Entry("", _WARP, _LDSM_SRC_X4, _LDSM_N_X4, "dst"),
    "SM100_SU6_DU8x16_x4_LDSM_N": _Entry("", _WARP, _LDSM_SRC_X4, _LDSM_N_X4, "dst"),
    "SM100_U8x4_STSM_T": _Entry("", _WARP, _U8_T_X4, _LDSM_SRC_X1, "src"),
    "SM100_U8x8_STSM_T": _Entry("", _WARP, _U8_T_X8, _LDSM_SRC_X2, "src"),
    "SM100_U8x16_STSM_T": _Entry("", _WARP, _U8_T_X16, _LDSM_SRC_X4, "src"),
}

# cute/atom/copy_traits_sm100.hpp: tcgen05.ld/st/cp, generated by rule (copy_sm100_data)
COPY_TRAITS = {**COPY_TRAITS, **{name: _Entry("", row.thr, row.src, row.dst, row.ref, val_id=row.val)
                                 for name, row in SM100_TMEM_ROWS}}

# cute/arch/copy.hpp: using-declarations
COPY_ALIASES: Mapping[str, str] = {
    "AutoVectorizingCopy": "AutoVectorizingCopyWithAssumedAlignment<128>",
    "DefaultCopy": "AutoVectorizingCopyWithAssumedAlignment<8>",
}


class CopyTraits:
    """``Copy_Traits<Op>``: ``ThrID`` (tid -> thr_idx) and the (thr, val) -> bit layouts.

    @post ``size(SrcLayout[0]) == size(DstLayout[0]) == size(ThrID)``; ``RefLayout`` is
          ``SrcLayout`` or ``DstLayout`` (the same object).
    @post the TMEM copies (``tcgen05.ld/st/cp``) also have ``ValID`` (logical bit -> TMEM bit
          address); reading ``ValID`` of another operation raises ``AttributeError``, as CuTe
          has no such member there.
    """
    __slots__ = ("name", "ThrID", "SrcLayout", "DstLayout", "RefLayout", "ValID")
    name: str
    ThrID: Layout
    SrcLayout: Layout
    DstLayout: Layout
    RefLayout: Layout
    ValID: Layout

    def __init__(self, name: str, thr_id: Layout, src: Layout, dst: Layout, ref: Layout,
                 val_id: Optional[Layout] = None) -> None:
        for k, v in (("name", name), ("ThrID", thr_id), ("SrcLayout", src), ("DstLayout", dst), ("RefLayout", ref)):
            object.__setattr__(self, k, v)
        if val_id is not None:
            object.__setattr__(self, "ValID", val_id)

    @property
    def is_tmem(self) -> bool:
        """Whether the operation reads or writes tensor memory (it has a ``ValID``)."""
        return hasattr(self, "ValID")

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CopyTraits is immutable")

    def __repr__(self) -> str:
        return f"Copy_Traits<{self.name}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CopyTraits) and self.name == other.name

    def __hash__(self) -> int:
        return hash(("CopyTraits", self.name))


def split_op_name(op: str) -> tuple[str, tuple[str, ...]]:
    """``"Name<A, B<C>>"`` -> ``("Name", ("A", "B<C>"))``: the template and its top-level arguments.

    Blanks and the ``cute::``/``cutlass::`` prefixes are dropped.

    >>> split_op_name("cute::UniversalCopy<cute::uint128_t>")
    ('UniversalCopy', ('uint128_t',))
    >>> split_op_name("UniversalCopy<complex<float>, complex<float>>")
    ('UniversalCopy', ('complex<float>', 'complex<float>'))
    """
    text = type_name(op)
    if "<" not in text:
        if ">" in text or "," in text:
            raise LayoutError(f"malformed copy operation name {op!r}")
        return text, ()
    head, _, rest = text.partition("<")
    if not rest.endswith(">"):
        raise LayoutError(f"malformed copy operation name {op!r}")
    args = template_args(rest[:-1], f"malformed copy operation name {op!r}") if rest[:-1] else [""]
    if not head or any(not a for a in args):
        raise LayoutError(f"malformed copy operation name {op!r}")
    return head, tuple(args)


def _widths(entry: _Entry, head: str, args: tuple[str, ...], op: str) -> dict[str, int]:
    """The bit widths the entry's layout texts name, after CuTe's ``static_assert``s."""
    if entry.params == "":
        if args:
            raise LayoutError(f"{head} takes no template arguments: {op!r}")
        return {}
    if entry.params == "bits":
        if len(args) != 1 or not args[0].isdigit():
            raise LayoutError(f"{head}<N> takes one integer argument: {op!r}")
        n = int(args[0])
        if entry.widths and n not in entry.widths:
            raise LayoutError(f"{head}: Expected MaxVecBits to be one of {entry.widths}, got {n}")
        return {"N": n}
    if len(args) not in (1, 2):
        raise LayoutError(f"{head}<S, D = S> takes one or two element types: {op!r}")
    s = sizeof_bits(args[0])
    d = sizeof_bits(args[-1])
    for w in (s, d):
        if w < entry.min_width:
            raise LayoutError(f"{head}: sizeof_bits of each type must be >= {entry.min_width}, got {w}")
    if entry.same_width and s != d:
        raise LayoutError(f"{head} requires sizeof(src_value_type) == sizeof(dst_value_type): {s} vs {d} bits")
    if entry.widths and s not in entry.widths:
        raise LayoutError(f"{head}: sizeof_bits(S) = {s} is not supported (one of {entry.widths})")
    return {"S": s, "D": d}


def _fill(t: Any, widths: Mapping[str, int]) -> Any:
    if type(t) is tuple:
        return tuple(_fill(x, widths) for x in t)
    return widths[t] if type(t) is str else t


def _layout(entry: _Lay, widths: Mapping[str, int]) -> Layout:
    return make_layout(_fill(entry[0], widths), _fill(entry[1], widths))


def Copy_Traits(op: str) -> CopyTraits:
    """``Copy_Traits<Op>`` for the copy operation named ``op`` (CuTe's spelling).

    ``op`` is a plain operation (``"SM75_U32x4_LDSM_N"``), a templated one with element
    types (``"UniversalCopy<uint128_t>"``, ``"SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"``,
    ``"UniversalCopy<uint32_t, uint32_t>"``), or an alias (``"DefaultCopy"``).

    @pre ``op`` names an operation of :data:`COPY_TRAITS` with the template arguments
         its ``static_assert``s allow, else :class:`LayoutError`.
    @post the layouts of ``copy_traits*.hpp``; ``RefLayout`` is ``SrcLayout`` or ``DstLayout``.

    >>> print(Copy_Traits("SM80_CP_ASYNC_CACHEALWAYS<uint32_t>").SrcLayout)
    (_1,_32):(_0,_1)
    >>> print(Copy_Traits("SM90_U16x8_STSM_T").DstLayout)
    (_32,_128):(_128,_1)
    >>> Copy_Traits("SM80_CP_ASYNC_CACHEGLOBAL<uint64_t>")
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: SM80_CP_ASYNC_CACHEGLOBAL: sizeof_bits(S) = 64 is not supported (one of (128,))

    The Blackwell TMEM copies carry ``ValID`` too; a namespace-qualified name is accepted and a
    misspelt one gets the closest names:

    >>> t = Copy_Traits("SM100::TMEM::LOAD::SM100_TMEM_LOAD_32dp32b2x")
    >>> print(t.ThrID, t.ValID, t.SrcLayout, t.DstLayout)
    _32:_1 (_64,_32):(_1,_2097152) (_32,_2048):(_0,_1) (_32,_64):(_64,_1)
    >>> Copy_Traits("SM100_TMEM_LOAD_32dp32b3x")
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: Copy_Traits not implemented for this CopyOperation: 'SM100_TMEM_LOAD_32dp32b3x'; close names: SM100_TMEM_LOAD_32dp32b32x, SM100_TMEM_LOAD_32dp32b8x, SM100_TMEM_LOAD_32dp32b4x, SM100_TMEM_LOAD_32dp32b2x, SM100_TMEM_LOAD_32dp32b1x
    """
    head, args = split_op_name(_plain_name(op))
    head = head.rpartition("::")[2]          # SM100::TMEM::LOAD::SM100_TMEM_LOAD_... as CuTe's own spelling
    if head in COPY_ALIASES and not args:
        head, args = split_op_name(COPY_ALIASES[head])
    entry = COPY_TRAITS.get(head)
    if entry is None:
        raise LayoutError(f"Copy_Traits not implemented for this CopyOperation: {op!r}{_suggest(head)}")
    widths = _widths(entry, head, args, op)
    name = head + ("<" + ",".join(args) + ">" if args else "")
    src = _layout(entry.src, widths)
    dst = _layout(entry.dst, widths)
    val = None if entry.val_id is None else _layout(entry.val_id, widths)
    return CopyTraits(name, _layout(entry.thr_id, widths), src, dst, src if entry.ref == "src" else dst, val)


def _plain_name(op: object) -> str:
    """``op`` without a value-initializer (``SM100_TMEM_LOAD_32dp32b1x{}``), as a C++ user may write it."""
    if not isinstance(op, str):
        raise LayoutError(f"a copy operation is named by a string, got {type(op).__name__}")
    text = op.strip()
    return text[:-2] if text.endswith("{}") else text


def _suggest(head: str) -> str:
    """``"; close names: ..."`` with the known names closest to ``head`` (case aside), else where to
    find them (as the MMA atoms' lookup says it)."""
    lower = {n.lower(): n for n in copy_atom_names()}
    close = difflib.get_close_matches(head.lower(), list(lower), n=5, cutoff=0.75)
    return f"; close names: {', '.join(lower[c] for c in close)}" if close else " (copy_atom_names() lists them)"


def copy_atom_names() -> tuple[str, ...]:
    """Every copy operation :func:`Copy_Traits` knows (the table's names, then the aliases), sorted.

    A templated one takes its element types or bits in ``<...>`` (``UniversalCopy<uint128_t>``,
    ``SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>``); a misspelt name is refused with the close ones.

    >>> names = copy_atom_names()
    >>> "SM75_U32x4_LDSM_N" in names and "UniversalCopy" in names and "DefaultCopy" in names
    True
    >>> Copy_Traits("SM75_U32x4_LDSM")
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: Copy_Traits not implemented for this CopyOperation: 'SM75_U32x4_LDSM'; close names: SM75_U32x4_LDSM_N, SM75_U32x2_LDSM_N, SM75_U32x1_LDSM_N, SM75_U16x4_LDSM_T, SM75_U16x8_LDSM_T
    """
    return tuple(sorted(COPY_TRAITS)) + tuple(sorted(COPY_ALIASES))

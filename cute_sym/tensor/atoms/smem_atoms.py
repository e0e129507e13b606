"""The canonical shared-memory layout atoms of GMMA (Hopper) and UMMA (Blackwell), as data.

``cute/atom/mma_traits_sm90_gmma.hpp`` defines each atom in units of bits
(``Layout_K_SW128_Atom_Bits = Sw<3,4,3> o smem_ptr_flag o (_8,_1024):(_1024,_1)``)
and the atom of an element type ``T`` as its ``upcast<sizeof_bits<T>>``;
``cute/atom/mma_traits_sm100.hpp`` reuses them under ``UMMA::`` and adds
``Layout_MN_SW128_32B_Atom``. :data:`SMEM_ATOMS` is that table; one function,
:func:`smem_layout_atom`, reads it.

Every atom is 8 rows ("core matrix" rows) of ``16 * 2^B`` bytes (``B`` the swizzle's
bits; 16 bytes for ``INTER``), K-major atoms with the K extent contiguous, MN-major
atoms with M (or N) contiguous.

>>> print(smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>"))
Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)
>>> print(smem_layout_atom("UMMA::Layout_MN_SW128_32B_Atom<float>"))
Sw<2,5,2> o smem_ptr[32b](unset) o (_32,_4):(_1,_32)
>>> print(smem_layout_atom("GMMA::Layout_SW64_Atom<float, GMMA::Major::MN>"))
Sw<2,4,3> o smem_ptr[32b](unset) o (_16,_8):(_1,_16)
"""
from __future__ import annotations

from typing import Mapping, NamedTuple, Optional

from ...core.errors import LayoutError
from ...layout import Layout, make_layout
from ...swizzle import ComposedLayout, Swizzle, upcast
from ...swizzle.smem_flag import SmemPtrFlag
from .copy_types import sizeof_bits, type_name

__all__ = ["SMEM_ATOMS", "SmemAtomEntry", "smem_layout_atom", "smem_atom_names", "parse_smem_atom_name"]


class SmemAtomEntry(NamedTuple):
    swizzle: tuple[int, int, int]    # Sw<B,M,S> on byte addresses
    shape: tuple[int, int]           # in bits
    stride: tuple[int, int]
    major: str                       # "K" or "MN"
    namespaces: tuple[str, ...]      # where CuTe declares it


_BOTH = ("GMMA", "UMMA")
# name (without _Atom) -> entry; cute/atom/mma_traits_sm90_gmma.hpp, mma_traits_sm100.hpp
SMEM_ATOMS: Mapping[str, SmemAtomEntry] = {
    "Layout_MN_INTER": SmemAtomEntry((0, 4, 3), (128, 8), (1, 128), "MN", _BOTH),
    "Layout_MN_SW32": SmemAtomEntry((1, 4, 3), (256, 8), (1, 256), "MN", _BOTH),
    "Layout_MN_SW64": SmemAtomEntry((2, 4, 3), (512, 8), (1, 512), "MN", _BOTH),
    "Layout_MN_SW128": SmemAtomEntry((3, 4, 3), (1024, 8), (1, 1024), "MN", _BOTH),
    "Layout_K_INTER": SmemAtomEntry((0, 4, 3), (8, 128), (128, 1), "K", _BOTH),
    "Layout_K_SW32": SmemAtomEntry((1, 4, 3), (8, 256), (256, 1), "K", _BOTH),
    "Layout_K_SW64": SmemAtomEntry((2, 4, 3), (8, 512), (512, 1), "K", _BOTH),
    "Layout_K_SW128": SmemAtomEntry((3, 4, 3), (8, 1024), (1024, 1), "K", _BOTH),
    "Layout_MN_SW128_32B": SmemAtomEntry((2, 5, 2), (1024, 4), (1, 1024), "MN", ("UMMA",)),
}

_MAJOR_WORDS = {"GMMA::Major::K": "K", "GMMA::Major::MN": "MN", "UMMA::Major::K": "K",
                "UMMA::Major::MN": "MN", "Major::K": "K", "Major::MN": "MN", "K": "K", "MN": "MN"}


def smem_atom_names() -> list[str]:
    """The atoms' names, ``GMMA::Layout_K_SW128_Atom`` and so on (each takes ``<T>``)."""
    return [f"{ns}::{k}_Atom" for k, e in SMEM_ATOMS.items() for ns in e.namespaces]


def parse_smem_atom_name(name: str) -> tuple[str, str, Optional[str]]:
    """``"GMMA::Layout_K_SW128_Atom<half_t>"`` -> ``("GMMA", "Layout_K_SW128", "half_t")``;
    a ``..._Atom_Bits`` name has no type (``None``), an ``_Atom`` without ``<T>`` the empty
    one; ``Layout_SW128_Atom<T, GMMA::Major::K>``
    names the atom of that major.

    >>> parse_smem_atom_name("cute::UMMA::Layout_SW32_Atom<int8_t, UMMA::Major::MN>")
    ('UMMA', 'Layout_MN_SW32', 'int8_t')
    >>> parse_smem_atom_name("GMMA::Layout_K_INTER_Atom_Bits")
    ('GMMA', 'Layout_K_INTER', None)
    """
    text = type_name(name)
    for p in ("SM90::", "SM100::"):
        text = text.replace(p, "")
    ns, sep, rest = text.partition("::")
    if not sep:
        ns, rest = "GMMA", text
    if ns not in _BOTH:
        raise LayoutError(f"smem_layout_atom: unknown namespace {ns!r} in {name!r} (GMMA:: or UMMA::)")
    args: list[str] = []
    if rest.endswith(">") and "<" in rest:
        rest, _, body = rest.partition("<")
        args = [a for a in body[:-1].split(",")]
    elem: Optional[str]
    if rest.endswith("_Atom_Bits"):
        if args:
            raise LayoutError(f"smem_layout_atom: {rest} takes no template arguments: {name!r}")
        base, elem = rest[: -len("_Atom_Bits")], None
    elif rest.endswith("_Atom"):
        base = rest[: -len("_Atom")]
        if len(args) == 2:
            major = _MAJOR_WORDS.get(args[1])
            if major is None or not base.startswith("Layout_") or base.count("_") != 1:
                raise LayoutError(f"smem_layout_atom: expected Layout_<SW>_Atom<T, GMMA::Major::K|MN>: {name!r}")
            base = f"Layout_{major}_{base[len('Layout_'):]}"
        elif len(args) > 1:
            raise LayoutError(f"smem_layout_atom: {rest}<T> takes the element type: {name!r}")
        elem = args[0] if args else ""
    else:
        raise LayoutError(f"smem_layout_atom: not a layout atom name: {name!r} "
                          f"(for example GMMA::Layout_K_SW128_Atom<half_t>)")
    entry = SMEM_ATOMS.get(base)
    if entry is None or ns not in entry.namespaces:
        raise LayoutError(f"smem_layout_atom: {ns}::{base}_Atom is not a CuTe atom; the atoms are "
                          f"{', '.join(smem_atom_names())}")
    return ns, base, elem


def smem_layout_atom(name: str, element_type: Optional[str] = None) -> ComposedLayout:
    """The canonical smem layout atom named ``name`` (CuTe's spelling, with its element type:
    ``"GMMA::Layout_MN_SW64_Atom<bfloat16_t>"``), or with ``element_type`` given apart.

    @pre the name is one of :func:`smem_atom_names` (``_Atom<T>``, ``_Atom_Bits``, or
         ``Layout_<SW>_Atom<T, GMMA::Major::K|MN>``); ``sizeof_bits<T>`` divides the row's
         bits (CuTe's ``upcast``), else :class:`LayoutError`.
    @post ``Sw<B,M,S> o smem_ptr[<bits>b](unset) o L`` with ``L = upcast<bits>(L_bits)``:
          8 rows (4 for ``MN_SW128_32B``) of ``16 * 2^B`` bytes; the swizzle acts on bytes.

    >>> print(smem_layout_atom("Layout_K_INTER_Atom", "float"))
    Sw<0,4,3> o smem_ptr[32b](unset) o (_8,_4):(_4,_1)
    >>> print(smem_layout_atom("GMMA::Layout_MN_SW128_Atom_Bits"))
    Sw<3,4,3> o smem_ptr[1b](unset) o (_1024,_8):(_1,_1024)
    """
    if not isinstance(name, str):
        raise LayoutError(f"smem_layout_atom: the atom is named by a string, got {type(name).__name__}")
    ns, base, elem = parse_smem_atom_name(name)
    if element_type is not None:
        if elem and type_name(elem) != type_name(element_type):
            raise LayoutError(f"smem_layout_atom: {name!r} already names the element type {elem}")
        elem = element_type
    if elem == "":
        raise LayoutError(f"smem_layout_atom: {name!r} needs its element type: {name}<T>")
    e = SMEM_ATOMS[base]
    bits_layout: Layout = make_layout(e.shape, e.stride)
    atom = ComposedLayout(Swizzle(*e.swizzle), SmemPtrFlag(1), bits_layout)
    if elem is None:
        return atom
    b = sizeof_bits(elem)
    if (e.shape[0] * e.stride[0] + e.shape[1] * e.stride[1]) % b or max(e.shape) % b:
        raise LayoutError(f"smem_layout_atom: {ns}::{base}_Atom holds rows of {max(e.shape)} bits, "
                          f"not whole {b}-bit elements of {elem}")
    out = upcast(atom, b)
    if not isinstance(out, ComposedLayout):  # pragma: no cover - upcast keeps the flag
        raise LayoutError("smem_layout_atom: internal error")
    return out


def smem_atom_major(name: str) -> str:
    """``"K"`` or ``"MN"``: the major of the atom named ``name``.

    >>> smem_atom_major("UMMA::Layout_MN_SW128_32B_Atom<half_t>")
    'MN'
    """
    return SMEM_ATOMS[parse_smem_atom_name(name)[1]].major

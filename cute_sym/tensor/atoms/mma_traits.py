"""MMA_Traits: CuTe's facts about one MMA instruction, looked up by CuTe's struct name.

One generic reader serves every atom: the name is found in the SM61/SM70/SM75/SM80/SM89/SM90
DMMA/SM100 FFMA2 table (:mod:`.mma_data`), or matched against the SM90 GMMA families
(:mod:`.gmma_data`), or is ``UniversalFMA<D,A,B,C>``, or is a templated atom read by
:mod:`.umma_names` (SM100 UMMA, SM103, SM120, SM90 sparse GMMA); the layouts are CuTe notation
read with :func:`cute_sym.parse`.

>>> t = MMA_Traits("SM80_16x8x16_F16F16F16F16_TN")
>>> print(t.Shape_MNK, t.ThrID, t.ValTypeA, t.ValTypeC)
(_16,_8,_16) _32:_1 half_t half_t
>>> print(t.ALayout)
((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))
>>> print(MMA_Traits("SM90_64x32x16_F16F16F16_SS<Major::K,Major::K>").BLayout)
(_128,(_32,_16)):(_0,(_1,_32))
>>> u = MMA_Traits("SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 256, 128, UMMA::Major::K, UMMA::Major::K>")
>>> print(u.Shape_MNK, u.ThrID, u.ALayout)
(_256,_128,_16) _2:_1 (_2,(_128,_16)):(_128,(_1,_256))
"""
from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Any, Optional, Union

from ...core.errors import LayoutError
from ...core.int_tuple import unwrap, wrap
from ...layout import Layout
from ...notation import parse
from . import gmma_data as G
from .copy_types import ELEMENT_BITS, type_name
from .mma_data import MMA_ATOMS, NAMED_LAYOUTS, SOURCES, VALUE_BITS, Like, Row
from .mma_entry import Entry as _Entry
from .umma_names import template_entry, template_heads

__all__ = ["MMA_Traits", "mma_atom_names", "Major", "ScaleIn", "sizeof_bits"]


class Major:
    """GMMA::Major: the contiguous mode of a shared-memory operand."""

    K = "Major::K"
    MN = "Major::MN"


class ScaleIn:
    """GMMA::ScaleIn: the sign an operand is scaled by."""

    One = "ScaleIn::One"
    Neg = "ScaleIn::Neg"


# ---------------------------------------------------------------- the SM61-SM89 table
def _table_entry(name: str) -> Optional[_Entry]:
    row = MMA_ATOMS.get(name)
    if row is None:
        return None
    types: Optional[str] = None
    while isinstance(row, Like):        # a derived specialization: its own types, the base's layouts
        types = types or row.types
        row = MMA_ATOMS[row.base]
    assert isinstance(row, Row)
    d, a, b, c = (types or row.types).split()
    source = next(v for k, v in SOURCES.items() if name.startswith(k))
    named = NAMED_LAYOUTS.get
    return _Entry(name, (d, a, b, c), (a, b, c), row.Shape_MNK, named(row.ThrID, row.ThrID),
                  named(row.ALayout, row.ALayout), named(row.BLayout, row.BLayout),
                  named(row.CLayout, row.CLayout), source)


# ---------------------------------------------------------------- the SM90 GMMA families
_GMMA = re.compile(r"SM90_64x(\d+)x(\d+)_([A-Z0-9]+)_(SS|RS)(_TN(?:_SATURATE)?)?(?:<(.*)>)?")
_NS = re.compile(r"\b(?:cute|cutlass|SM90|GMMA)::")


def _gmma_args(name: str, fam: G.Family, text: Optional[str]) -> tuple[str, str, list[str]]:
    """The (tnspA, tnspB, scales) of a GMMA name's template arguments, checked as CuTe's template would."""
    args = [] if not text else [_NS.sub("", x.strip()) for x in text.split(",")]
    majors: list[str] = []
    if fam.majors:
        majors, args = args[:2], args[2:]
        if len(majors) < 2:
            raise LayoutError(f"{name}: the atom takes <tnspA, tnspB> (GMMA::Major::K or Major::MN), "
                              f"e.g. SM90_64x{fam.ns[0]}x{fam.K}_{fam.types}_SS<Major::K,Major::K>")
        for m in majors:
            if m not in (Major.K, Major.MN):
                raise LayoutError(f"{name}: {m!r} is not a GMMA::Major (Major::K or Major::MN)")
    n_scales = 2 if fam.scales else 0
    if len(args) not in (0, n_scales):
        raise LayoutError(f"{name}: expected {'<scaleA, scaleB>' if n_scales else 'no'} further template "
                          f"arguments, got {args}")
    for s in args:
        if s not in (ScaleIn.One, ScaleIn.Neg):
            raise LayoutError(f"{name}: {s!r} is not a GMMA::ScaleIn (ScaleIn::One or ScaleIn::Neg)")
    ta, tb = majors if majors else (Major.K, Major.K)
    return ta, tb, args


def _gmma_name(N: int, fam: G.Family, ss: str, suffix: str, ta: str, tb: str, scales: list[str]) -> str:
    base = f"SM90_64x{N}x{fam.K}_{fam.types}_{ss}{suffix}"
    args = ([ta, tb] if fam.majors else []) + (scales if any(s != ScaleIn.One for s in scales) else [])
    return base + (f"<{','.join(args)}>" if args else "")


def _gmma_entry(name: str) -> Optional[_Entry]:
    m = _GMMA.fullmatch(name)
    if not m:
        return None
    N, K, types, ss, suffix, targs = int(m[1]), int(m[2]), m[3], m[4], m[5] or "", m[6]
    fam = next((f for f in G.FAMILIES if f.types == types and f.K == K and suffix in f.suffixes), None)
    if fam is None or N not in fam.ns:
        return None
    ta, tb, scales = _gmma_args(name, fam, targs)
    if ss == "RS" and ta != Major.K:    # CuTe's static_assert in every _RS operation
        raise LayoutError(f"{name}: Register source operand A must have K major layout.")
    d, a, b, c = fam.value_types.split()
    smem_a = G.SMEM_LAYOUT.format(MN=64, K=K)
    frg_a = f"GMMA::smem_desc<{ta}>" if ss == "SS" else a
    return _Entry(_gmma_name(N, fam, ss, suffix, ta, tb, scales), (d, a, b, c),
                  (frg_a, f"GMMA::smem_desc<{tb}>", c), f"(_64,_{N},_{K})", "_128:_1",
                  smem_a if ss == "SS" else G.RS_A_LAYOUTS[K], G.SMEM_LAYOUT.format(MN=N, K=K),
                  G.C_LAYOUT.format(N8=N // 8), G.SOURCE if N in G.N_BASE else G.SOURCE_EXT)


# ---------------------------------------------------------------- UniversalFMA
_FMA = re.compile(r"UniversalFMA<([^,<>]+),([^,<>]+),([^,<>]+),([^,<>]+)>")


def _fma_entry(name: str) -> Optional[_Entry]:
    m = _FMA.fullmatch(name)
    if not m:
        return None
    d, a, b, c = (x.strip() for x in m.groups())
    return _Entry(f"UniversalFMA<{d},{a},{b},{c}>", (d, a, b, c), (a, b, c), "(_1,_1,_1)", "_1:_0",
                  "(_1,_1):(_0,_0)", "(_1,_1):(_0,_0)", "(_1,_1):(_0,_0)", "cute/atom/mma_traits.hpp")


def sizeof_bits(value_type: str) -> int:
    """CuTe's ``sizeof_bits<T>`` of a value type named as the atoms name them.

    >>> sizeof_bits("half_t"), sizeof_bits("uint4b_t")
    (16, 4)
    """
    bits = VALUE_BITS.get(value_type) or ELEMENT_BITS.get(type_name(value_type))
    if bits is None:
        raise LayoutError(f"sizeof_bits: unknown value type {value_type!r}; known: {', '.join(VALUE_BITS)}")
    return bits


@lru_cache(maxsize=None)
def mma_atom_names(every_major: bool = False) -> tuple[str, ...]:
    """Every name :class:`MMA_Traits` knows: GMMA atoms spelled with K-major operands, or
    (``every_major``) with every pair of majors their headers allow (an ``_RS`` atom's A is
    K-major).

    >>> names = mma_atom_names()
    >>> "SM70_8x8x4_F32F16F16F32_NT" in names, "SM90_64x256x16_F32BF16BF16_RS<Major::K,Major::K>" in names
    (True, True)
    >>> len(names), len(mma_atom_names(every_major=True))
    (1150, 1438)
    """
    out = list(MMA_ATOMS)
    for fam in G.FAMILIES:
        for suffix in fam.suffixes:
            for ss in ("SS", "RS"):
                out += [_gmma_name(n, fam, ss, suffix, Major.K, Major.K, []) for n in fam.ns]
    if not every_major:
        return tuple(out)
    kk = "<Major::K,Major::K>"
    more: list[str] = []
    for n in out:
        more.append(n)
        if kk in n:
            more.append(n.replace(kk, "<Major::K,Major::MN>"))
            if "_SS" in n:
                more.append(n.replace(kk, "<Major::MN,Major::MN>"))
    return tuple(more)


def _unknown(name: str) -> LayoutError:
    close = difflib.get_close_matches(name, mma_atom_names(), n=5, cutoff=0.75)
    if "<" in name or not close:          # a template: its name against the templates' names
        head = "".join(name.split()).partition("<")[0]
        heads = {h.rpartition("::")[2]: h for h in template_heads()}
        close = [heads[h] + "<...>" for h in difflib.get_close_matches(head.rpartition("::")[2], heads, n=5,
                                                                         cutoff=0.75)] or close
    hint = f"; close names: {', '.join(close)}" if close else ""
    return LayoutError(f"MMA_Traits: no MMA atom named {name!r} in CuTe's SM61-SM90 (GMMA, sparse GMMA, DMMA), "
                       f"SM100 (UMMA), SM103 or SM120 headers{hint}")


@lru_cache(maxsize=1024)
def _entry(name: str) -> _Entry:
    key = _NS.sub("", "".join(name.split()))       # CuTe's spelling, spaces and namespaces aside
    e = _table_entry(key) or _gmma_entry(key) or _fma_entry(key) or template_entry(name)
    if e is None:
        raise _unknown(name)
    return e


@lru_cache(maxsize=1024)
def _read_layout(text: str) -> Layout:
    """A layout in CuTe notation; one whose stride CuTe declares incongruent is kept as CuTe prints it."""
    try:
        out = parse(text)
    except LayoutError:
        shape, _, stride = text.partition("):(")
        out = Layout._make(unwrap(parse(shape + ")")), unwrap(parse("(" + stride)))   # as CuTe declares it
    assert isinstance(out, Layout)
    return out


_FIELDS = ("name", "ValTypeD", "ValTypeA", "ValTypeB", "ValTypeC", "FrgTypeA", "FrgTypeB", "FrgTypeC",
           "Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout", "source")
# declared only by block-scaled atoms (SFALayout/SFBLayout by SM120's): reading them elsewhere is an AttributeError
_SF_FIELDS = ("SFVecSize", "SFALayout", "SFBLayout", "ValTypeSF")


class MMA_Traits:
    """CuTe's ``MMA_Traits<Op>`` for the MMA operation named ``name`` (CuTe's struct name).

    Attributes, as CuTe's: ``Shape_MNK`` (an IntTuple), ``ThrID`` (logical thread id ->
    thread index), ``ALayout`` ((thread, value) -> (m,k) index of the MxK tile, column-major),
    ``BLayout`` (-> (n,k) of NxK), ``CLayout`` (-> (m,n) of MxN); the value types
    ``ValTypeD/A/B/C`` and fragment types ``FrgTypeA/B/C`` by CuTe's name (e.g. ``"half_t"``,
    ``"GMMA::smem_desc<Major::K>"``); ``name`` (canonical spelling) and ``source`` (header).

    GMMA names take their template arguments as CuTe's (``<Major::K,Major::MN>``, optional
    ``ScaleIn`` pairs; namespaces and spaces are ignored). Templated atoms (SM100 UMMA, SM103,
    SM120, SM90 sparse GMMA) are named as C++ types with their arguments
    (``SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>``,
    see :mod:`.umma_names`); block-scaled ones also have ``SFVecSize`` and ``ValTypeSF``, SM120's
    ``SFALayout``/``SFBLayout`` ((thread, value) -> (m,k) / (n,k) of the scale factors) -- on
    other atoms these are AttributeErrors, as CuTe declares none.

    @pre ``name`` is an MMA operation of CuTe's SM61/SM70/SM75/SM80/SM89/SM90 (DMMA) headers, an
         SM90 GMMA ``_SS``/``_RS`` atom, ``UniversalFMA<D,A,B,C>``, SM100 FFMA2, or a templated
         atom whose arguments meet CuTe's constraints; otherwise a :class:`LayoutError` names the
         violated constraint or lists the close names.
    @post the layouts print exactly as CuTe prints them; ``ALayout`` maps ``size(ThrID) x V``
          (thread, value) pairs one-to-one onto the ``M*K`` elements (GMMA ``_SS``: every thread
          onto all of them), and so do ``BLayout`` (``N*K``) and ``CLayout`` (``M*N``), except
          where CuTe's own declaration is not: the ALayout of SM80_16x8x128_S32U1U1S32_TN_*POPC
          (incongruent stride) and the BLayout of SM80_16x8x32_S32{S4,U4}{S4,U4}S32_TN* (thread
          stride _32 for _64), kept as CuTe has them (see :mod:`.mma_data`).

    >>> t = MMA_Traits("SM70_8x8x4_F32F16F16F32_TT")
    >>> print(t.ThrID, t.BLayout, t.CLayout, sep="\\n")
    (_4,_2):(_1,_16)
    ((_4,_2),_4):((_8,_4),_1)
    ((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))
    >>> MMA_Traits("SM90_64x8x32_S32S8S8_RS_TN").FrgTypeB
    'GMMA::smem_desc<Major::K>'
    >>> try:
    ...     MMA_Traits("SM80_16x8x16_F16F16F16F16_NT")
    ... except LayoutError as e:
    ...     print(e)  # doctest: +ELLIPSIS
    MMA_Traits: no MMA atom named 'SM80_16x8x16_F16F16F16F16_NT' ...; close names: SM80_16x8x16_F16F16F16F16_TN, ...
    """

    __slots__ = _FIELDS + _SF_FIELDS

    name: str
    ValTypeD: str
    ValTypeA: str
    ValTypeB: str
    ValTypeC: str
    FrgTypeA: str
    FrgTypeB: str
    FrgTypeC: str
    Shape_MNK: tuple[int, int, int]
    ThrID: Layout
    ALayout: Layout
    BLayout: Layout
    CLayout: Layout
    source: str
    SFVecSize: int
    SFALayout: Layout
    SFBLayout: Layout
    ValTypeSF: str

    def __init__(self, name: Union[str, "MMA_Traits"]) -> None:
        if isinstance(name, MMA_Traits):
            name = name.name
        if not isinstance(name, str):
            raise LayoutError(f"MMA_Traits takes CuTe's name of an MMA operation, got {type(name).__name__}")
        for k, v in zip(_FIELDS, _values(name)):
            object.__setattr__(self, k, v)
        for k, v in _sf_values(name):
            object.__setattr__(self, k, v)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.name,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MMA_Traits) and type(other) is type(self) and other.name == self.name

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.name))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


@lru_cache(maxsize=1024)
def _values(name: str) -> tuple[Any, ...]:
    e = _entry(name)
    mnk = parse(e.mnk)
    return (e.name, *e.types, *e.frg, wrap(tuple(mnk)), _read_layout(e.thr), _read_layout(e.a),
            _read_layout(e.b), _read_layout(e.c), e.source)


@lru_cache(maxsize=1024)
def _sf_values(name: str) -> tuple[tuple[str, Any], ...]:
    e = _entry(name)
    if not e.sf_vec:
        return ()
    out: list[tuple[str, Any]] = [("SFVecSize", e.sf_vec), ("ValTypeSF", e.sf_type)]
    if e.sfa:
        out += [("SFALayout", _read_layout(e.sfa)), ("SFBLayout", _read_layout(e.sfb))]
    return tuple(out)

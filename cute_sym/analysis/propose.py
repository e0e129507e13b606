"""Design search: the shared-memory layout a tile should have, and the copy that fills it.

:func:`propose_smem_layout` enumerates the legal layouts of a ``(MN, K)`` tile - CuTe's
canonical atoms ``Sw<B,M,3> o (8, W):(W, 1)`` (K-major) and ``Sw<B,M,3> o (W, 8):(1, W)``
(MN-major) of ``W`` = 16, 32, 64, 128 bytes tiled to the tile, the plain row- and
column-major layouts, and those padded by 16 bytes a row (or by a symbolic leading
dimension) - analyses every access to each (the writers' and readers' bank conflicts over
all their warps, a TMA copy's legality and instructions, a GMMA/UMMA operand's
descriptors) and ranks the legal ones: fewest wavefronts of all accesses, then fewest TMA
instructions, the widest vectors, the fewest bytes, and the widest swizzle atom (CuTe's
order of preference, ``ss_smem_selector``). :func:`propose_tiled_copy` does the same for
the thread/value layout of a global->shared copy: fewest sectors beyond the least, the
widest vectors, the fewest shared-memory wavefronts, the longest contiguous row segments.

SM80's GEMM reads its K-major 128x32 half tile of A with ``ldmatrix`` after a 128-bit
``cp.async`` fills it (CUTLASS's default configuration); the search finds the
layout CUTLASS uses, ``Sw<2,3,3> o (8,32):(32,1)`` tiled:

>>> from cute_sym.notation import parse
>>> from cute_sym import Copy_Atom, make_tiled_copy, make_tiled_copy_A, make_tiled_mma
>>> mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
>>> ldsm = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
>>> cp = make_tiled_copy(Copy_Atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t"),
...                      parse("(_32,_4):(_4,_1)"), parse("(_1,_8)"))
>>> p = propose_smem_layout(writers=[cp], readers=[ldsm], dtype="half_t", tile_shape=(128, 32))
>>> print(p.best)
K-major SW64 Sw<2,3,3> o _0 o (_8,_32):(_32,_1): 192 wavefronts (ideal 192), 0 TMA instr, 128-bit vectors, 8192 bytes
>>> print(p.why)
K-major SW64 Sw<2,3,3> o _0 o (_8,_32):(_32,_1): fewest wavefronts: 192 (next: K-major SW32 Sw<1,3,3> o _0 o (_8,_16):(_16,_1): 256)
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from ..core.errors import LayoutError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.int_tuple import fmt
from ..layout import Layout, cosize, make_layout, size
from ..swizzle import ComposedLayout, Swizzle, tile_to_shape
from ..tensor.atoms.copy_types import sizeof_bits
from ..tensor.atoms.copy_atom import Copy_Atom
from ..tensor.copy import TiledCopy
from ..tensor.copy_make import make_tiled_copy
from .banks import BankConflicts, bank_conflicts
from .cases import Cases
from .coalescing import Coalescing, coalescing
from .hopper import TmaCheck, mma_operand_check, tma_copy_check

__all__ = ["SmemCandidate", "MmaOperand", "TmaCopy", "Scored", "SmemProposal", "smem_candidates",
           "propose_smem_layout", "CopyCandidate", "TiledCopyProposal", "propose_tiled_copy"]

WIDTHS = (128, 64, 32, 16)          # atom row bytes, widest first (CuTe's order of preference)
_SW_NAME = {16: "INTER", 32: "SW32", 64: "SW64", 128: "SW128"}


class _Frozen:
    __slots__ = ()
    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _put(self, **kv: Any) -> None:
        for k, v in kv.items():
            object.__setattr__(self, k, v)


class SmemCandidate(_Frozen):
    """One layout of the tile: ``layout`` (in elements), ``major`` (K or MN), ``width`` (the
    swizzle atom's row bytes; 0 for plain or padded), ``pad`` (elements added a row), ``atom``
    (CuTe's atom name, ``""`` for none), ``flagged`` (the tile as CuTe tiles its atom, for the
    TMA and descriptor checks)."""
    __slots__ = ("name", "layout", "major", "width", "pad", "atom", "flagged")
    name: str
    layout: Any
    major: str
    width: int
    pad: Any
    atom: str
    flagged: Any

    def __init__(self, name: str, layout: Any, major: str, width: int, pad: Any, atom: str, flagged: Any) -> None:
        self._put(name=name, layout=layout, major=major, width=width, pad=pad, atom=atom, flagged=flagged)

    def __repr__(self) -> str:
        return f"SmemCandidate({self.name})"


class MmaOperand(_Frozen):
    """A reader: a GMMA (Hopper) or UMMA (Blackwell) operand read through descriptors."""
    __slots__ = ("kind", "major")
    kind: str
    major: str

    def __init__(self, kind: str = "GMMA", major: str = "K") -> None:
        if kind.upper() not in ("GMMA", "UMMA") or major.upper() not in ("K", "MN"):
            raise LayoutError(f"MmaOperand: kind GMMA or UMMA, major K or MN; got {kind!r}, {major!r}")
        self._put(kind=kind.upper(), major=major.upper())


class TmaCopy(_Frozen):
    """A writer (``SM90_TMA_LOAD``) or reader (``SM90_TMA_STORE``) of the tile: a TMA copy from
    or to the gmem tile ``gmem`` (a layout of the tile's shape)."""
    __slots__ = ("gmem", "op", "multicast")
    gmem: Layout
    op: str
    multicast: int

    def __init__(self, gmem: Layout, op: str = "SM90_TMA_LOAD", multicast: int = 1) -> None:
        self._put(gmem=gmem, op=op, multicast=multicast)


def _atom_layout(major: str, width: int, bits: int) -> Any:
    w = width * 8 // bits                       # elements a row of the atom
    mbase = max(0, (128 // bits).bit_length() - 1)   # 16 bytes = 2^M elements
    b = (width // 16).bit_length() - 1
    plain = make_layout((8, w), (w, 1)) if major == "K" else make_layout((w, 8), (1, w))
    return plain if b == 0 else ComposedLayout(Swizzle(b, mbase, 3), 0, plain)


def smem_candidates(dtype: str, tile_shape: tuple[int, int], majors: Sequence[str] = ("K", "MN"),
                    leading: Any = None) -> list[SmemCandidate]:
    """The layouts :func:`propose_smem_layout` weighs for a ``(MN, K)`` tile of ``dtype``.

    @post each candidate's ``layout`` has the tile's shape and is injective (a padded one has
          ``cosize > size``); its atom rows are 16..128 bytes and divide the tile.

    >>> [c.name for c in smem_candidates("half_t", (64, 16), majors=("K",))]
    ['K-major SW32 Sw<1,3,3> o _0 o (_8,_16):(_16,_1)', 'K-major INTER (_8,_8):(_8,_1)', 'K-major plain (_64,_16):(_16,_1)', 'K-major padded +8 (_64,_16):(_24,_1)']
    """
    bits = sizeof_bits(dtype)
    if bits < 8 or bits > 128 or bits & (bits - 1):
        raise LayoutError(f"smem_candidates: element width 8..128 bits, got {dtype} ({bits} bits)")
    mn, k = tile_shape
    if type(mn) is not int or type(k) is not int or mn % 8 or k % 8:
        raise LayoutError(f"smem_candidates: a static tile of multiples of 8, got {tile_shape}")
    out: list[SmemCandidate] = []
    pad = 16 * 8 // bits
    from ..tensor.atoms.smem_atoms import smem_layout_atom
    for major in majors:
        ext = k if major == "K" else mn
        for width in WIDTHS:
            w = width * 8 // bits
            if w == 0 or ext % w:
                continue
            atom = _atom_layout(major, width, bits)
            lay = tile_to_shape(atom, (mn, k))
            name = f"GMMA::Layout_{major}_{_SW_NAME[width]}_Atom<{dtype}>"
            flagged = tile_to_shape(smem_layout_atom(name), (mn, k))
            out.append(SmemCandidate(f"{major}-major {_SW_NAME[width]} {atom}", lay, major, width, 0, name, flagged))
        ld_plain = (k, 1) if major == "K" else (1, mn)
        plain = make_layout((mn, k), ld_plain)
        out.append(SmemCandidate(f"{major}-major plain {plain}", plain, major, 0, 0, "", plain))
        padded = make_layout((mn, k), (k + pad, 1) if major == "K" else (1, mn + pad))
        out.append(SmemCandidate(f"{major}-major padded +{pad} {padded}", padded, major, 0, pad, "", padded))
        if leading is not None:
            sym = make_layout((mn, k), (leading, 1) if major == "K" else (1, leading))
            out.append(SmemCandidate(f"{major}-major leading dimension {leading} {sym}", sym, major, 0, leading, "", sym))
    return out


class Scored(_Frozen):
    """A candidate weighed: ``legal`` (else ``reason``), ``wavefronts``/``ideal`` summed over every
    access and warp (a symbolic candidate: its worst case), ``tma_instructions``, ``vector_bits``
    (the narrowest access), ``bytes`` (the cosize), and ``accesses``: (role, access, answer text)."""
    __slots__ = ("candidate", "legal", "reason", "wavefronts", "ideal", "tma_instructions", "vector_bits", "bytes",
                 "accesses")
    candidate: SmemCandidate
    legal: bool
    reason: str
    wavefronts: int
    ideal: int
    tma_instructions: int
    vector_bits: int
    bytes: Any
    accesses: tuple[tuple[str, str, str], ...]

    def __init__(self, candidate: SmemCandidate, legal: bool, reason: str, wavefronts: int, ideal: int,
                 tma_instructions: int, vector_bits: int, nbytes: Any, accesses: tuple[tuple[str, str, str], ...]) -> None:
        self._put(candidate=candidate, legal=legal, reason=reason, wavefronts=wavefronts, ideal=ideal,
                  tma_instructions=tma_instructions, vector_bits=vector_bits, bytes=nbytes, accesses=accesses)

    def key(self) -> tuple[Any, ...]:
        """The ranking: fewest wavefronts, TMA instructions, widest vectors, fewest bytes, widest atom."""
        nb = self.bytes if type(self.bytes) is int else 1 << 62
        return (self.wavefronts, self.tma_instructions, -self.vector_bits, nb, -self.candidate.width)

    def __str__(self) -> str:
        if not self.legal:
            return f"{self.candidate.name}: illegal: {self.reason}"
        return (f"{self.candidate.name}: {self.wavefronts} wavefronts (ideal {self.ideal}), "
                f"{self.tma_instructions} TMA instr, {self.vector_bits}-bit vectors, {self.bytes} bytes")


def _worst(res: Any) -> tuple[Any, str]:
    """A result, or of a Cases the case with most wavefronts (and the cases in words)."""
    if isinstance(res, Cases):
        if not res.cases:
            raise LayoutError("no legal case: " + "; ".join(f"{c}: {w}" for c, w in res.invalid))
        worst = max((r for _, r in res.cases), key=lambda r: getattr(r, "wavefronts", getattr(r, "sectors", 0)))
        return worst, str(res).replace("\n", "; ")
    return res, str(res)


def _score(c: SmemCandidate, writers: Sequence[Any], readers: Sequence[Any], dtype: str) -> Scored:
    wf = ideal = tma = 0
    vec = 128
    notes: list[tuple[str, str, str]] = []
    bits = sizeof_bits(dtype)
    for role, items in (("write", writers), ("read", readers)):
        for a in items:
            try:
                if isinstance(a, TiledCopy):
                    nwarps = max(1, int(a.TiledNumThr) // 32)
                    texts = []
                    for w in range(nwarps):
                        r, text = _worst(bank_conflicts(a, c.layout, warp=w, side="D" if role == "write" else "S"))
                        if not isinstance(r, BankConflicts):
                            raise LayoutError(f"no bank-conflict answer for warp {w}: {text}")
                        wf, ideal, vec = wf + r.wavefronts, ideal + r.ideal, min(vec, r.vector_bits)
                        texts.append(text)
                    notes.append((role, a.Traits.name, f"warp 0: {texts[0]}"))
                elif isinstance(a, MmaOperand):
                    if c.major != a.major:
                        raise LayoutError(f"a {a.major}-major {a.kind} operand reads no {c.major}-major layout")
                    m = mma_operand_check(c.flagged, a.major, dtype, a.kind)
                    if not m.readable:
                        raise LayoutError(m.reason)
                    notes.append((role, f"{a.kind} {a.major}-major", str(m)))
                elif isinstance(a, TmaCopy):
                    t = tma_copy_check(a.gmem, c.flagged, dtype, a.op, a.multicast)
                    tr, text = _worst(t) if isinstance(t, Cases) else (t, str(t))
                    if not isinstance(tr, TmaCheck) or not tr.legal:
                        raise LayoutError(getattr(tr, "reason", text))
                    tma += tr.instructions
                    notes.append((role, a.op, text))
                else:
                    raise LayoutError(f"propose_smem_layout: an access is a TiledCopy, an MmaOperand or a TmaCopy, "
                                      f"got {a!r}")
            except LayoutError as e:
                return Scored(c, False, f"{role} {_what(a)}: {e}", 0, 0, 0, 0, 0, tuple(notes))
    nb = cosize(c.layout.layout_b if isinstance(c.layout, ComposedLayout) else c.layout)
    return Scored(c, True, "", wf, ideal, tma, vec, nb * bits // 8 if type(nb) is int else nb, tuple(notes))


def _what(a: Any) -> str:
    if isinstance(a, TiledCopy):
        return str(a.Traits.name)
    if isinstance(a, MmaOperand):
        return f"{a.kind} {a.major}-major operand"
    if isinstance(a, TmaCopy):
        return a.op
    return repr(a)


_WORDS = ("fewest wavefronts", "fewest TMA instructions", "widest vectors", "fewest bytes",
          "widest swizzle atom (CuTe's order: ss_smem_selector tries SW128, SW64, SW32, INTER)")


def _why(best: Scored, other: Optional[Scored]) -> str:
    head = f"{best.candidate.name}: {_WORDS[0]}: {best.wavefronts}"
    if other is None:
        return head + " (the only legal candidate)"
    kb, ko = best.key(), other.key()
    for i, (x, y) in enumerate(zip(kb, ko)):
        if x != y:
            if i == 0:
                return f"{head} (next: {other.candidate.name}: {other.wavefronts})"
            if i == 4:
                return f"{head} (as many as {other.candidate.name}; {_WORDS[4]})"
            vals = {1: (best.tma_instructions, other.tma_instructions), 2: (best.vector_bits, other.vector_bits),
                    3: (best.bytes, other.bytes)}[i]
            return (f"{head} ({other.candidate.name}: {other.wavefronts}, as few; "
                    f"{_WORDS[i].split(' (')[0].replace('fewest', 'fewer').replace('widest', 'wider')}: "
                    f"{vals[0]} against {vals[1]})")
    return head + f" (ties with {other.candidate.name})"


class SmemProposal(_Frozen):
    """The ranked legal layouts (``ranked``, best first), the illegal ones with their reasons,
    ``best`` and ``why`` (what puts it ahead of the next)."""
    __slots__ = ("dtype", "tile_shape", "ranked", "illegal", "why")
    dtype: str
    tile_shape: tuple[int, int]
    ranked: tuple[Scored, ...]
    illegal: tuple[Scored, ...]
    why: str

    def __init__(self, dtype: str, tile_shape: tuple[int, int], ranked: tuple[Scored, ...],
                 illegal: tuple[Scored, ...]) -> None:
        why = _why(ranked[0], ranked[1] if len(ranked) > 1 else None) if ranked else "no legal candidate"
        self._put(dtype=dtype, tile_shape=tile_shape, ranked=ranked, illegal=illegal, why=why)

    @property
    def best(self) -> Scored:
        if not self.ranked:
            raise LayoutError("no legal layout: " + "; ".join(s.reason for s in self.illegal))
        return self.ranked[0]

    def __str__(self) -> str:
        lines = [f"shared-memory layouts of a {fmt(self.tile_shape)} {self.dtype} tile, best first:"]
        lines += [f"  {i + 1}. {s}" for i, s in enumerate(self.ranked)]
        lines += [f"  -  {s}" for s in self.illegal]
        lines.append(f"why: {self.why}")
        return "\n".join(lines)


def propose_smem_layout(writers: Sequence[Any] = (), readers: Sequence[Any] = (), dtype: str = "half_t",
                        tile_shape: tuple[int, int] = (128, 32), majors: Sequence[str] = ("K", "MN"),
                        leading: Any = None) -> SmemProposal:
    """Rank the shared-memory layouts of a ``(MN, K)`` tile by what every access costs.

    ``writers``/``readers``: ``TiledCopy`` (cp.async, universal copies, ldmatrix, stmatrix; a
    writer is analysed on its destination), :class:`MmaOperand`, :class:`TmaCopy`.
    ``leading``: a leading dimension (a symbol) to weigh as a layout of its own.

    @pre at least one access; a static tile of multiples of 8; element width 8..128 bits.
    @post ``ranked`` holds every legal candidate of :func:`smem_candidates`, sorted by
          :meth:`Scored.key`; each ``wavefronts`` is the sum over the accesses and their warps of
          :func:`bank_conflicts` (a symbolic candidate: its worst case, its cases in ``accesses``).
    """
    if not writers and not readers:
        raise LayoutError("propose_smem_layout: name at least one writer or reader of the tile")
    scored = [_score(c, writers, readers, dtype) for c in smem_candidates(dtype, tile_shape, majors, leading)]
    ranked = sorted((s for s in scored if s.legal), key=lambda s: s.key())
    return SmemProposal(dtype, (tile_shape[0], tile_shape[1]), tuple(ranked), tuple(s for s in scored if not s.legal))


# ---------------------------------------------------------------- the global->shared copy
class CopyCandidate(_Frozen):
    """A tiled copy weighed: ``sectors`` beyond ``least`` over its requests (all warps; a symbolic
    gmem layout: the worst case), ``vector_bits``, ``wavefronts`` of its smem writes (0 without
    an smem layout), ``run_bytes`` (contiguous bytes of a row a request reads)."""
    __slots__ = ("copy", "thr", "val", "sectors", "least", "requests", "vector_bits", "wavefronts", "run_bytes", "text")
    copy: TiledCopy
    thr: Layout
    val: Layout
    sectors: int
    least: int
    requests: int
    vector_bits: int
    wavefronts: int
    run_bytes: int
    text: str

    def __init__(self, copy: TiledCopy, thr: Layout, val: Layout, sectors: int, least: int, requests: int,
                 vector_bits: int, wavefronts: int, run_bytes: int, text: str) -> None:
        self._put(copy=copy, thr=thr, val=val, sectors=sectors, least=least, requests=requests,
                  vector_bits=vector_bits, wavefronts=wavefronts, run_bytes=run_bytes, text=text)

    def key(self) -> tuple[int, ...]:
        return (self.sectors - self.least, -self.vector_bits, self.wavefronts, -self.run_bytes)

    def __str__(self) -> str:
        return (f"thr {self.thr} val {self.val}: {self.sectors} sectors (least {self.least}) in {self.requests} "
                f"requests, {self.vector_bits}-bit, {self.wavefronts} smem wavefronts, {self.run_bytes}-byte runs")


class TiledCopyProposal(_Frozen):
    """The ranked tiled copies (``ranked``, best first) and ``best``."""
    __slots__ = ("ranked",)
    ranked: tuple[CopyCandidate, ...]

    def __init__(self, ranked: tuple[CopyCandidate, ...]) -> None:
        self._put(ranked=ranked)

    @property
    def best(self) -> CopyCandidate:
        if not self.ranked:
            raise LayoutError("no tiled copy covers the tile")
        return self.ranked[0]

    def __str__(self) -> str:
        lines = ["global->shared copies, best first:"] + [f"  {i + 1}. {c}" for i, c in enumerate(self.ranked)]
        if self.ranked and " if " in self.ranked[0].text:
            lines.append(f"the best by cases (its last warp): {self.ranked[0].text}")
        return "\n".join(lines)


def _copy_atom_name(atom: str, vbits: int) -> str:
    return f"{atom}<uint{vbits}_t>"


def propose_tiled_copy(gmem: Layout, dtype: str, threads: int = 128, smem: Any = None,
                       atom: str = "SM80_CP_ASYNC_CACHEALWAYS", top: Optional[int] = None) -> TiledCopyProposal:
    """Rank the thread/value layouts of a copy of the gmem tile ``gmem`` (its shape is the tile's)
    by ``threads`` threads: fewest sectors beyond the least, widest vectors, fewest smem
    wavefronts (when the destination layout ``smem`` is given), longest contiguous runs.

    @pre ``gmem`` is a rank-2 layout with a static shape and a unit-stride mode; ``threads`` a
         multiple of 32.
    @post each candidate is ``make_tiled_copy(atom<uintV_t>, thr, val)`` with ``val`` along the
          unit-stride mode, covering the tile; its counts are :func:`coalescing` summed over warps.
    """
    if not isinstance(gmem, Layout) or gmem.rank() != 2:
        raise LayoutError(f"propose_tiled_copy: the gmem tile is a rank-2 layout, got {gmem!r}")
    shape = (size(gmem, 0), size(gmem, 1))
    if any(type(e) is not int for e in shape) or type(threads) is not int or threads % 32:
        raise LayoutError(f"propose_tiled_copy: a static tile and a multiple of 32 threads, got {shape}, {threads}")
    strides: Any = gmem.stride
    unit = [i for i in range(2) if strides[i] == 1]
    if not unit:
        raise LayoutError(f"propose_tiled_copy: the gmem tile {gmem} has no unit-stride mode to vectorize along")
    u = unit[0]
    bits = sizeof_bits(dtype)
    out: list[CopyCandidate] = []
    for vbits in (128, 64, 32):
        n = vbits // bits
        if n < 1 or shape[u] % n:
            continue
        along = shape[u] // n                # threads that cover a row along the unit mode
        for tu in sorted({d for d in (1, 2, 4, 8, 16, 32, 64, 128, 256) if d <= threads and along % d == 0}):
            to = threads // tu
            if shape[1 - u] % to or threads % tu:
                continue
            thr_shape = (to, tu) if u == 1 else (tu, to)
            thr = make_layout(thr_shape, (tu, 1) if u == 1 else (1, tu))
            val = make_layout((1, n) if u == 1 else (n, 1))
            try:
                tc = make_tiled_copy(Copy_Atom(_copy_atom_name(atom, vbits), dtype), thr, val)
                sec = least = req = wf = 0
                text = ""
                for w in range(threads // 32):
                    r, text = _worst(coalescing(tc, gmem, warp=w))
                    if not isinstance(r, Coalescing):
                        raise LayoutError(f"no coalescing answer for warp {w}: {text}")
                    sec, least, req = sec + r.sectors, least + r.min_sectors, req + r.requests
                    if smem is not None:
                        b, _ = _worst(bank_conflicts(tc, smem, warp=w, side="D"))
                        wf += b.wavefronts
            except LayoutError:
                continue
            out.append(CopyCandidate(tc, thr, val, sec, least, req, vbits, wf, tu * n * bits // 8, text))
    ranked = sorted(out, key=lambda c: c.key())
    return TiledCopyProposal(tuple(ranked[:top] if top else ranked))

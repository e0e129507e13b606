"""Shared-memory bank conflicts of a warp's access, by the hardware's rule (:mod:`.hardware`).

Worked example: SM80's GEMM reads its K-major 128x32 half tile of A with ``ldmatrix``
(``SM75_U32x4_LDSM_N``) tiled for a 2x2 tile of 16x8x16 HMMAs (32x32x16). Rows of 64
bytes put rows 0, 2, 4, 6 of an 8x16-byte matrix on the same four banks:

>>> from cute_sym.notation import parse
>>> from cute_sym import make_tiled_mma
>>> from cute_sym import make_tiled_copy_A
>>> from cute_sym import Copy_Atom
>>> mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
>>> ldsm = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
>>> print(bank_conflicts(ldsm, parse("(_128,_32):(_32,_1)")))
4-way bank conflicts: 128 wavefronts, ideal 32 (8 instructions)
>>> print(bank_conflicts(ldsm, parse("Sw<2,3,3> o _0 o (_128,_32):(_32,_1)")))
conflict-free: 32 wavefronts, ideal 32 (8 instructions)
>>> print(bank_conflicts(ldsm, parse("Sw<3,3,3> o _0 o (_128,_32):(_32,_1)")))
conflict-free: 32 wavefronts, ideal 32 (8 instructions)

A symbolic leading dimension ``K`` (elements between rows) answers by cases:

>>> from cute_sym.core.integers import Dyn
>>> from cute_sym.layout import make_layout
>>> print(bank_conflicts(ldsm, make_layout((128, 32), (Dyn("K", min=32), 1))))
8-way bank conflicts: 256 wavefronts, ideal 32 (8 instructions) if K % 64 == 0
conflict-free: 32 wavefronts, ideal 32 (8 instructions) if K % 16 == 8
2-way bank conflicts: 64 wavefronts, ideal 32 (8 instructions) if K % 32 == 16
4-way bank conflicts: 128 wavefronts, ideal 32 (8 instructions) if K % 64 == 32
no legal access if K % 8 != 0: 128-bit vectors: thread 1: value 0 (element offset K) is not 16-byte aligned
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from ..core.integers import IntLike
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..layout import Layout
from ..tensor.copy import TiledCopy
from .access import Access, LayoutLike, access_of, analyze, ceil_div
from .cases import Cases, Invalid, Space
from .hardware import LDMATRIX_ROW_THREADS, SMEM_BANK_BYTES, SMEM_BANKS, phase_threads
from .vector import static_offsets, vector_fails, widest_chunk

__all__ = ["bank_conflicts", "BankConflicts", "Phase", "phases_of", "bank_of_offset"]


class Phase:
    """One phase of one instruction: its threads, wavefronts, ideal, and the worst bank with
    the (thread, element offset) of each distinct word it holds."""
    __slots__ = ("instruction", "threads", "wavefronts", "ideal", "bank", "words")

    def __init__(self, instruction: int, threads: tuple[int, ...], wavefronts: int, ideal: int,
                 bank: Optional[int], words: tuple[tuple[int, IntLike], ...]) -> None:
        put = object.__setattr__          # a symbolic answer makes thousands: no loop over pairs
        put(self, "instruction", instruction)
        put(self, "threads", threads)
        put(self, "wavefronts", wavefronts)
        put(self, "ideal", ideal)
        put(self, "bank", bank)
        put(self, "words", words)

    instruction: int
    threads: tuple[int, ...]
    wavefronts: int
    ideal: int
    bank: Optional[int]     # None (and no words): the worst bank differs between the cases of a group
    words: tuple[tuple[int, IntLike], ...]

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Phase is immutable")

    def __str__(self) -> str:
        head = f"instr {self.instruction} threads {self.threads[0]}-{self.threads[-1]}: " \
               f"{self.wavefronts} wavefront(s), ideal {self.ideal}"
        if self.wavefronts <= self.ideal:
            return head
        if self.bank is None:
            return f"{head}; the worst bank differs by case (Cases.at gives one case's)"
        hits = ", ".join(f"t{t}@{o}" for t, o in self.words)
        return f"{head}; bank {self.bank} holds {len(self.words)} words: {hits}"

    def skeleton(self) -> tuple[int, tuple[int, ...], int, int]:
        """What holds in every case a symbolic answer groups: all but the worst bank's words."""
        return (self.instruction, self.threads, self.wavefronts, self.ideal)


class BankConflicts:
    """The shared-memory wavefronts of a warp's access (all its instructions).

    ``wavefronts``: as the hardware serves them; ``ideal``: without conflicts;
    ``degree``: the worst phase's wavefronts over its ideal (1: conflict-free);
    ``phases``: per (instruction, phase) detail; ``vector_bits``: per thread and instruction.
    """
    __slots__ = ("wavefronts", "ideal", "degree", "instructions", "vector_bits", "phases")

    def __init__(self, wavefronts: int, ideal: int, degree: int, instructions: int,
                 vector_bits: int, phases: tuple[Phase, ...]) -> None:
        for k, v in (("wavefronts", wavefronts), ("ideal", ideal), ("degree", degree),
                     ("instructions", instructions), ("vector_bits", vector_bits), ("phases", phases)):
            object.__setattr__(self, k, v)

    wavefronts: int
    ideal: int
    degree: int
    instructions: int
    vector_bits: int
    phases: tuple[Phase, ...]

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("BankConflicts is immutable")

    @property
    def conflicts(self) -> int:
        """Extra wavefronts (what Nsight Compute counts as bank conflicts)."""
        return self.wavefronts - self.ideal

    def key(self) -> tuple[Any, ...]:
        """Everything the answer states but the worst banks' words (a symbolic answer's cases
        differ only there: :func:`merge_cases`)."""
        return (self.wavefronts, self.ideal, self.degree, self.instructions, self.vector_bits,
                tuple(p.skeleton() for p in self.phases))

    @staticmethod
    def merge_cases(same: list["BankConflicts"]) -> "BankConflicts":
        """One answer for cases of equal :meth:`key`: a phase's worst bank and its words where
        every case has the same, else ``bank=None`` (no words): never one case's words for all."""
        first = same[0]
        phases = tuple(
            p if all((q.phases[k].bank, q.phases[k].words) == (p.bank, p.words) for q in same[1:])
            else Phase(p.instruction, p.threads, p.wavefronts, p.ideal, None, ())
            for k, p in enumerate(first.phases))
        return BankConflicts(first.wavefronts, first.ideal, first.degree, first.instructions,
                             first.vector_bits, phases)

    def __str__(self) -> str:
        what = "conflict-free" if self.wavefronts == self.ideal else f"{self.degree}-way bank conflicts"
        return f"{what}: {self.wavefronts} wavefronts, ideal {self.ideal} ({self.instructions} instructions)"

    def detail(self) -> str:
        """Every phase, one line each."""
        return "\n".join([str(self)] + ["  " + str(p) for p in self.phases])


def phases_of(acc: Access, chunk: int) -> list[list[int]]:
    """Positions (into ``acc.threads``) of the threads of each phase."""
    n = len(acc.threads)
    if acc.matrices is not None:
        step = LDMATRIX_ROW_THREADS
    else:
        step = phase_threads(chunk * acc.bits)
    return [list(range(i, min(i + step, n))) for i in range(0, n, step)]


def bank_of_offset(c: int, bits: int) -> int:
    """The bank of the element at residue ``c`` (elements of ``bits``).

    >>> bank_of_offset(2, 16), bank_of_offset(64, 16), bank_of_offset(3, 128)
    (1, 0, 12)
    """
    return (c * bits // 8 // SMEM_BANK_BYTES) % SMEM_BANKS


def _words(space: Space, off: Any, bits: int) -> list[tuple[IntLike, int]]:
    """(high part, word index within the period) of each 4-byte word the element covers."""
    q, c = space.addr(off)
    lo = c * bits // 8
    return [(q, w) for w in range(lo // SMEM_BANK_BYTES, (lo + max(bits // 8, 1) - 1) // SMEM_BANK_BYTES + 1)]


def _chunk_words(c0: int, chunk: int, bits: int) -> list[tuple[int, int]]:
    """(word, first value covering it) of ``chunk`` consecutive elements from residue ``c0``:
    the words of :func:`_words`, element by element, in the order they first appear."""
    nb = bits // 8
    start = c0 * nb
    first, last = start // SMEM_BANK_BYTES, (start + nb * chunk - 1) // SMEM_BANK_BYTES
    return [(w, max(0, SMEM_BANK_BYTES * w - start) // nb) for w in range(first, last + 1)]


class _PhaseWords:
    """The distinct words of one phase by bank, in the order they come (``same`` decides
    whether two high parts are one address: exactly as element by element)."""
    __slots__ = ("banks", "space", "nwords")

    def __init__(self, space: Space) -> None:
        self.banks: dict[int, list[tuple[Any, int, int, Any]]] = {}
        self.space = space
        self.nwords = 0

    def add(self, q: Any, w: int, t: int, key: Any) -> None:
        hold = self.banks.get(w % SMEM_BANKS)
        if hold is None:
            self.banks[w % SMEM_BANKS] = [(q, w, t, key)]
            self.nwords += 1
            return
        same = self.space.same
        for q2, w2, _, _ in hold:
            if w == w2 and (q == q2 or same(q, q2)):
                return
        hold.append((q, w, t, key))
        self.nwords += 1


def _phase(acc: Access, j: int, threads: tuple[int, ...], banks: dict[int, list[Any]], nwords: int) -> Phase:
    wf = max((len(v) for v in banks.values()), default=0)
    ideal = ceil_div(nwords, SMEM_BANKS)
    bank = max(banks, key=lambda b: (len(banks[b]), -b)) if banks else 0
    words = tuple((e[-2], acc.expr(e[-1])) for e in banks.get(bank, []))
    return Phase(j, threads, wf, ideal, bank, words)


def _count(space: Space, acc: Access, chunk: int) -> BankConflicts:
    ninstr = len(acc.keys[0]) // chunk if acc.keys else 0
    why = vector_fails(space, acc, chunk) if chunk > 1 else None
    if why is not None:
        raise Invalid(f"{chunk * acc.bits}-bit vectors: {why}")
    flat = static_offsets(space, acc)
    rows = space.rows(acc.columns()) if flat is None and space.keyed is not None else None
    # steady runs that passed vector_fails: each chunk is one high part (equal tuples), aligned
    runs = rows is not None and chunk & (chunk - 1) == 0 and acc.columns().steady(chunk)
    groups = phases_of(acc, chunk)
    phases: list[Phase] = []
    w0s: Optional[list[int]] = None           # keyed runs: the first word of every chunk
    for j in range(ninstr):
        lo, hi = j * chunk, (j + 1) * chunk
        for group in groups:
            if flat is not None:
                phases.append(_static_phase(acc, j, flat, group, lo, chunk))
                continue
            if runs and rows is not None:
                if w0s is None:
                    nb = acc.bits // 8
                    w0s = [c * nb // SMEM_BANK_BYTES for c in rows.residues(chunk)]
                phases.append(_keyed_phase(space, acc, rows, w0s, j, group, chunk))
                continue
            pw = _PhaseWords(space)
            for i in group:
                t, keys = acc.threads[i], acc.keys[i][lo:hi]
                qc = rows[i][lo:hi] if rows is not None else [space.addr(k) for k in keys]
                q0 = qc[0][0]
                if all(q == q0 for q, _ in qc):
                    for w, v in _chunk_words(qc[0][1], chunk, acc.bits):
                        pw.add(q0, w, t, keys[v])
                else:
                    for k in keys:
                        for q, w in _words(space, k, acc.bits):
                            pw.add(q, w, t, k)
            phases.append(_phase(acc, j, tuple(acc.threads[i] for i in group), pw.banks, pw.nwords))
    total = sum(p.wavefronts for p in phases)
    ideal_total = sum(p.ideal for p in phases)
    degree = max([1] + [ceil_div(p.wavefronts, p.ideal) for p in phases if p.ideal])
    return BankConflicts(total, ideal_total, degree, ninstr, chunk * acc.bits, tuple(phases))


def _static_phase(acc: Access, j: int, flat: Sequence[Sequence[int]], group: list[int], lo: int,
                  chunk: int) -> Phase:
    """A static phase in plain integers: each thread's ``chunk`` values are one aligned vector
    (checked before), so its words are ``W = max(1, chunk * bytes // 4)`` consecutive words
    from ``w0 = offset * bytes // 4``, a multiple of ``W``: they fill banks ``w0 % 32 ..
    w0 % 32 + W - 1`` alike. Counting the distinct ``w0`` per bank group of ``W`` banks is
    counting the words per bank; the worst bank is the first of the fullest group.
    @post as :func:`_phase` over the words element by element."""
    nb = acc.bits // 8
    width = max(1, chunk * nb // SMEM_BANK_BYTES)
    threads = acc.threads
    firsts = {}                                   # w0 -> the position of the first thread reaching it
    for i in group:
        w0 = flat[i][lo] * nb // SMEM_BANK_BYTES
        if w0 not in firsts:
            firsts[w0] = i
    per = [0] * (SMEM_BANKS // width)
    for w0 in firsts:
        per[(w0 % SMEM_BANKS) // width] += 1
    wf = max(per)
    g = per.index(wf)                             # the least bank among the fullest
    words = tuple((threads[i], acc.keys[i][lo]) for w0, i in firsts.items() if (w0 % SMEM_BANKS) // width == g)
    return Phase(j, tuple(threads[i] for i in group), wf, ceil_div(len(firsts) * width, SMEM_BANKS),
                 g * width, words)


def _keyed_phase(space: Space, acc: Access, rows: Any, w0s: list[int], j: int, group: list[int],
                 chunk: int) -> Phase:
    """A keyed phase counted per vector: each thread's ``chunk`` values are one high part ``q``
    and residues ``c0 .. c0+chunk-1`` from a multiple of ``chunk`` (``rows.cols.steady(chunk)``
    and :func:`vector_fails` passed), so its words are ``W`` consecutive words from ``w0 =
    c0 * bytes // 4``, a multiple of ``W``, filling one bank group of ``W`` banks alike (as
    :func:`_static_phase`). Two threads share words only when their ``w0`` are equal; their
    high parts are then compared as :class:`_PhaseWords` compares the first word's: equal
    tuples are one address, else :meth:`Space.same` against the held ones in the order they
    came (so it is asked the same questions, in the same order, and raises where it raised).

    @pre ``group`` is consecutive positions; ``rows`` is ``space.rows(acc.columns())``; ``w0s``
         the first word ``c0 * bytes // 4`` of each chunk (``rows.residues(chunk)``).
    @post as :func:`_phase` over the words element by element (:class:`_PhaseWords`).
    """
    nb = acc.bits // 8
    width = max(1, chunk * nb // SMEM_BANK_BYTES)
    nch = rows.cols.width // chunk
    lo = j * chunk
    first = group[0] * nch + j
    ws = w0s[first:first + len(group) * nch:nch]
    entries: list[tuple[int, int]]              # (w0, position of the first thread reaching it)
    if len(set(ws)) == len(ws):
        entries = list(zip(ws, group))
    else:
        entries = []
        held: dict[int, list[Any]] = {}
        same, high = space.same, rows.highs(chunk)
        for w0, i in zip(ws, group):
            q = high[i * nch + j]
            hold = held.setdefault(w0, [])
            # an equal tuple is one address (and was asked against those before it already)
            if q in hold or any(same(q, q2) for q2 in hold):
                continue
            hold.append(q)
            entries.append((w0, i))
    per = [0] * (SMEM_BANKS // width)
    gs = [(w0 % SMEM_BANKS) // width for w0, _ in entries]
    for g in gs:
        per[g] += 1
    wf = max(per)
    g = per.index(wf)                             # the least bank among the fullest
    threads = acc.threads
    words = tuple((threads[i], acc.expr(acc.keys[i][lo])) for (_, i), gi in zip(entries, gs) if gi == g)
    return Phase(j, tuple(threads[group[0]:group[-1] + 1]), wf, ceil_div(len(entries) * width, SMEM_BANKS),
                 g * width, words)


def bank_conflicts(access: Union[TiledCopy, Layout], layout: LayoutLike, bits: Optional[int] = None,
                   vector_bits: Optional[int] = None, warp: int = 0,
                   side: str = "S") -> Union[BankConflicts, Cases[BankConflicts]]:
    """The shared-memory wavefronts of warp ``warp`` reading ``layout`` through ``access``.

    ``access``: a ``TiledCopy`` (one instruction per atom call; ldmatrix by its 8-thread
    matrix phases) or a TV layout ``(thr, val) -> index of the tile`` with ``bits`` and
    ``vector_bits`` (default: the widest vector the layout allows, :func:`vector_width`).
    ``layout``: the shared-memory tensor, plain or swizzled; its base is 128-byte aligned.

    @pre element width 8..128 bits (a power of two); a static access; static or symbolic ``layout``.
    @post static: ``wavefronts`` is, summed over the warp's instructions and their phases, the
          largest number of distinct 4-byte words any one bank holds in that phase; ``ideal``
          the least number of wavefronts for those words (``ceil(words / 32)`` a phase).
    @post symbolic: a :class:`Cases` over the residues of the symbols (or one result when all
          cases agree); a case the decision procedure cannot settle is named undecidable.
    """
    acc = access_of(access, layout, bits, vector_bits, warp, side)

    def run(space: Space, acc: Access) -> BankConflicts:
        chunk = acc.chunk if acc.chunk is not None else widest_chunk(space, acc)[0]
        return _count(space, acc, chunk)
    return analyze(acc, run, BankConflicts.key, BankConflicts.merge_cases)


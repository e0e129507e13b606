"""The report a person reads, and the ``cute-sym analyze`` command that prints it.

    cute-sym analyze --smem 'Sw<3,3,3> o _0 o (_128,_32):(_32,_1)' \\
        --copy SM75_U32x4_LDSM_N --type half_t --mma SM80_16x8x16_F16F16F16F16_TN \\
        --atoms 2,2,1 --tile 32,32,16 --operand A
    cute-sym analyze --smem '(_32,_8):(K,_1)' --tv '(_32,_1):(_1,_0)' --bits 32 --min K=8
    cute-sym analyze --gmem '(_64,_64):(N,_1)' --copy 'UniversalCopy<uint128_t>' --type half_t \\
        --thr '(_16,_8):(_8,_1)' --val '(_1,_8)'

>>> print(analyze_main(["--smem", "(_32,_32):(_32,_1)", "--tv", "(_32,_1):(_1,_0)", "--bits", "32"], out=None))
access: TV layout (_32,_1):(_1,_0) over (_32,_32):(_32,_1), 32-bit elements, warp 0
vector width: 32 bits (1 x 32-bit): each thread holds 1 value(s)
shared memory: 32-way bank conflicts: 32 wavefronts, ideal 1 (1 instructions)
0
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Optional, Sequence, TextIO, Union

from ..core.errors import LayoutError
from ..layout import Layout, size
from ..core.integers import Dyn
from ..notation import parse, subs
from ..notation.notation import symbols_of
from ..tensor.atoms.copy_atom import Copy_Atom
from ..tensor.copy import TiledCopy
from ..tensor.copy_make import make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C
from ..tensor.mma import TiledMMA, make_tiled_mma
from .access import LayoutLike, _warp_threads
from .banks import BankConflicts, bank_conflicts
from .cases import Cases
from .coalescing import coalescing
from .compat import check_copy_mma
from .vector import vector_width

__all__ = ["analysis_report", "analyze_main"]


def _lines(x: Any, detail: bool) -> str:
    if detail and isinstance(x, BankConflicts):
        return x.detail()
    if isinstance(x, Cases):
        if detail:      # each case with its phases (a worst bank that moves with the residue says so)
            lines = [f"if {c}: " + (r.detail() if isinstance(r, BankConflicts) else str(r)) for c, r in x.cases]
            lines += [f"undecidable if {c}: {why}" for c, why in x.undecidable]
            lines += [f"no legal access if {c}: {why}" for c, why in x.invalid]
            text = "\n".join(lines)
        else:
            text = str(x)
        return "by cases:\n  " + text.replace("\n", "\n  ")
    return str(x)


def analysis_report(access: Union[TiledCopy, Layout], layout: LayoutLike, space: str = "shared",
                    bits: Optional[int] = None, vector_bits: Optional[int] = None, warp: int = 0,
                    mma: Optional[TiledMMA] = None, operand: Optional[str] = None, detail: bool = False) -> str:
    """The analyses of one access, as text: vector width, then bank conflicts (``space="shared"``)
    or coalescing (``"global"``), then the copy/MMA check when ``mma`` and ``operand`` are given.

    @pre the preconditions of :func:`vector_width`, :func:`bank_conflicts`, :func:`coalescing`.
    @post one line a finding (a symbolic finding: one line a case), in that order.
    """
    if space not in ("shared", "global"):
        raise LayoutError(f"space must be 'shared' or 'global', got {space!r}")
    what = repr(access) if isinstance(access, TiledCopy) else f"TV layout {access}"
    ebits = access.bits if isinstance(access, TiledCopy) else bits
    # a warp past the threads is the caller's error, not a finding (the command exits non-zero)
    nthr = access.TiledNumThr if isinstance(access, TiledCopy) else size(access[0]) if access.rank() > 0 else 1
    if type(nthr) is int:
        _warp_threads(nthr, warp)
    out = [f"access: {what} over {layout}, {ebits}-bit elements, warp {warp}"]
    try:
        out.append("vector width: " + _lines(vector_width(access, layout, bits, warp), detail))
    except LayoutError as e:
        out.append(f"vector width: {e}")
    try:
        if space == "shared":
            out.append("shared memory: " + _lines(bank_conflicts(access, layout, bits, vector_bits, warp), detail))
        else:
            out.append("global memory: " + _lines(coalescing(access, layout, bits, vector_bits, warp), detail))
    except LayoutError as e:
        out.append(f"{space} memory: {e}")
    if mma is not None and operand is not None and isinstance(access, TiledCopy):
        out.append(f"copy/MMA {operand}: {check_copy_mma(access, mma, operand)}")
    return "\n".join(out)


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(","))


def _build(opts: argparse.Namespace) -> tuple[Union[TiledCopy, Layout], Optional[TiledMMA]]:
    mma = None
    if opts.mma:
        mma = make_tiled_mma(opts.mma, _ints(opts.atoms), _ints(opts.tile) if opts.tile else None)
    if opts.tv:
        tv = parse(opts.tv)
        if not isinstance(tv, Layout):
            raise LayoutError(f"--tv: expected a layout, got {opts.tv}")
        return tv, mma
    if not opts.copy:
        raise LayoutError("give the access: --tv LAYOUT --bits N, or --copy OP with --thr/--val or --mma")
    atom = Copy_Atom(opts.copy, opts.type)
    if mma is not None:
        make = {"A": make_tiled_copy_A, "B": make_tiled_copy_B, "C": make_tiled_copy_C}[opts.operand]
        return make(atom, mma), mma
    if not (opts.thr and opts.val):
        raise LayoutError("--copy needs --thr and --val layouts, or --mma")
    return make_tiled_copy(atom, parse(opts.thr), parse(opts.val)), mma


def _with_facts(layout: Any, mins: Sequence[str], divs: Sequence[str]) -> Any:
    """The layout with each symbol named in ``--min`` / ``--divisible`` carrying that fact."""
    facts: dict[str, dict[str, int]] = {}
    for opt, key in ((mins, "min"), (divs, "divisible_by")):
        for item in opt:
            name, _, value = item.partition("=")
            try:
                facts.setdefault(name.strip(), {})[key] = int(value)
            except ValueError:
                raise LayoutError(f"expected NAME=INTEGER, got {item!r}") from None
    if not facts:
        return layout
    have = symbols_of(layout)
    for n in facts:
        if n not in have:
            raise LayoutError(f"--min/--divisible name {n}, which the layout {layout} does not have "
                              f"(it has {', '.join(sorted(have)) or 'no symbol'})")
    # a name keeps its sign: positive where it is an extent (parse's rule), else any
    return subs(layout, {n: Dyn(n, sign="positive" if have[n].is_positive else "any", **f)
                         for n, f in facts.items()})


def analyze_main(argv: Sequence[str], out: Optional[TextIO] = None) -> int:
    """``cute-sym analyze ...``: parse the arguments, print :func:`analysis_report`; the exit status.

    ``out``: where the report goes (default: ``sys.stdout`` as it is at the call).
    """
    stream = sys.stdout if out is None else out
    ap = argparse.ArgumentParser(prog="cute-sym analyze",
                                 description="vector width, bank conflicts, coalescing, copy/MMA fit")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--smem", help="the shared-memory layout (plain or Sw<B,M,S> o off o layout)")
    where.add_argument("--gmem", help="the global-memory layout")
    ap.add_argument("--tv", help="a TV layout (thr, val) -> index of the tile")
    ap.add_argument("--bits", type=int, help="element width of a TV layout's elements")
    ap.add_argument("--copy", help="a copy operation by CuTe's name (SM75_U32x4_LDSM_N, UniversalCopy<uint128_t>)")
    ap.add_argument("--type", default="half_t", help="the copy's element type (default half_t)")
    ap.add_argument("--thr", help="make_tiled_copy's thread layout")
    ap.add_argument("--val", help="make_tiled_copy's value layout")
    ap.add_argument("--mma", help="an MMA operation by CuTe's name: tile the copy for it and check the fit")
    ap.add_argument("--atoms", default="1,1,1", help="the MMA's atom layout M,N,K (default 1,1,1)")
    ap.add_argument("--tile", help="the MMA's tile M,N,K (permutations)")
    ap.add_argument("--operand", default="A", choices=("A", "B", "C"))
    ap.add_argument("--vector-bits", type=int, help="bits a thread moves per instruction (a TV layout)")
    ap.add_argument("--min", action="append", default=[], metavar="NAME=VALUE",
                    help="a symbol's least value (a stride or extent of the layout; else it may be any integer)")
    ap.add_argument("--divisible", action="append", default=[], metavar="NAME=D",
                    help="a symbol is a multiple of D")
    ap.add_argument("--warp", type=int, default=0)
    ap.add_argument("--detail", action="store_true", help="every phase of every instruction")
    opts = ap.parse_args(list(argv))
    try:
        access, mma = _build(opts)
        layout = _with_facts(parse(opts.smem or opts.gmem), opts.min, opts.divisible)
        text = analysis_report(access, layout, "shared" if opts.smem else "global", opts.bits,
                               opts.vector_bits, opts.warp, mma, opts.operand if mma else None, opts.detail)
    except LayoutError as e:
        print(f"cute-sym analyze: error: {e}", file=sys.stderr)
        return 2
    print(text, file=stream)
    return 0

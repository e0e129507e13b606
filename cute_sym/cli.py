"""The ``cute-sym`` command: evaluate a CuTe-notation expression and print the result.

    cute-sym 'logical_divide(_24:_2, _4:_2)'
    cute-sym 'coalesce((16,N):(1,16))' --bind N=4
    cute-sym --guards 'shape_div(M, _4)'      # assume what cannot be decided, and print it
    cute-sym '(_4,_8):(_8,_1)(_,1)'           # a layout called with a coordinate (a slice with _)
    cute-sym --format svg -o div.svg 'logical_divide(_24:_2, _4:_2)'
    cute-sym --format html --bind M=64 -o tile.html '(M,_8):(_1,M)'
    cute-sym --dsl 'composition((4,8):(8,1), 4:2)'  # arguments as the CuTe DSL prints them

Arguments are CuTe notation; the call is any cute_sym operation by its CuTe
name, or a layout followed by a coordinate. The result prints in CuTe notation
and, for a rank-2 or rank-1 layout whose extents are known, as CuTe's
``print_layout`` table (the first rows past TABLE_LIMIT entries; --full for
all). ``--format latex`` prints CuTe's ``print_latex`` text, ``svg`` and
``html`` the pictures of :mod:`cute_sym.views` (html: one offline page;
hovering a cell shows its coordinate, offset, thread and value); ``-o FILE``
writes there instead of the standard output. With ``--dsl`` the arguments are
read as NVIDIA's CuTe Python DSL prints them (bare integers static, ``?{div=8}``
dynamic, ``S<3,4,3>``: :mod:`cute_sym.notation.dsl_dialect`). A bad expression or format is a
usage error: a message (pointing at the column of a syntax error) and exit
status 2, never a traceback.
"""
from __future__ import annotations

import argparse
import io
import re
import sys
from typing import Any, Optional, Sequence, TextIO

from .core.errors import LayoutError

__all__ = ["main", "evaluate_call", "TABLE_LIMIT", "TABLE_COLS", "PICTURE_LIMIT", "propose_main"]

#: Past this many entries a table shows its first rows and says how many it left out.
TABLE_LIMIT = 1024
#: Past this many columns a table shows its first ones and says how many it left out.
TABLE_COLS = 32
#: Past this many rows or columns a picture (svg, html, latex) shows its first ones (views.draw's).
PICTURE_LIMIT = 128


def _split_args(text: str, start: int = 0) -> list[tuple[str, int]]:
    """The top-level comma-separated parts of ``text``, each with its column (``start`` + offset)."""
    parts: list[tuple[str, int]] = []
    depth = 0
    begin = 0
    for k, ch in enumerate(text + ","):
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        if ch == "," and depth == 0:
            piece = text[begin:k]
            if piece.strip() or k < len(text):
                lead = len(piece) - len(piece.lstrip())
                parts.append((piece.strip(), start + begin + lead))
            begin = k + 1
    return parts


def _parse_at(text: str, column: int, symbols: Optional[dict[str, Any]] = None, dialect: str = "cute") -> Any:
    """``parse(text)``; an error's column is counted in the whole expression. The name of an
    MMA atom (``SM80_16x8x16_F16F16F16F16_TN``) stays a name, ``LayoutLeft`` and ``LayoutRight``
    are CuTe's tags."""
    import cute_sym
    from .core.errors import NotationError
    if text.isidentifier() and (text in cute_sym.mma_atom_names() or text in _TAGS):
        return getattr(cute_sym, text) if text in _TAGS else text
    if _is_name(text):      # a copy operation or an element type: Copy_Atom(SM75_U32x4_LDSM_N, half_t)
        return text
    head = text.split("(", 1)[0].strip()
    if "(" in text and text.endswith(")") and head.isidentifier() and callable(getattr(cute_sym, head, None)):
        return evaluate_call(text, column, dialect)      # a call inside a call: make_tiled_copy(Copy_Atom(...), ...)
    try:
        return cute_sym.parse(text, symbols, dialect=dialect)
    except NotationError as e:
        if e.column is None:
            raise
        raise NotationError(str(e), column + e.column) from None


_TAGS = ("LayoutLeft", "LayoutRight")
# operations whose arguments are names: Copy_Atom(SM75_U32x4_LDSM_N, half_t)
_BY_NAME = ("Copy_Atom", "Copy_Traits", "MMA_Atom", "MMA_Traits")


def _is_name(text: str) -> bool:
    """A copy operation (``SM75_U32x4_LDSM_N``, ``UniversalCopy<uint128_t>``) or an element type
    (``half_t``, ``float``) named in an expression: kept a name (not a symbol)."""
    from .tensor.atoms.copy_traits import copy_atom_names
    from .tensor.atoms.copy_types import ELEMENT_BITS, type_name
    head = text.split("<", 1)[0].strip()
    if not head.isidentifier():
        return False
    if head in copy_atom_names() and (head == text or text.endswith(">")):
        return True
    return text.isidentifier() and type_name(text) in ELEMENT_BITS


def _parse_args(parts: list[tuple[str, int]], dialect: str = "cute") -> list[Any]:
    """The arguments of one call; a name is one integer across them, as in one text (the ``M``
    of ``_4:M`` is the extent ``M`` of another argument)."""
    args = [_parse_at(a, col, None, dialect) for a, col in parts]
    if dialect != "cute":
        return args
    from .notation.notation import shared_names
    texts = [a for (a, _), x in zip(parts, args)
             if not isinstance(x, str) and a not in _TAGS and re.search("[A-Za-z]", a)]
    if len(texts) < 2:
        return args     # a name shared by two arguments needs two with names (one text: parse)
    both = shared_names(texts)
    if not both:
        return args
    from .core.integers import Dyn
    symbols = {n: Dyn(n) for n in both}
    return [_parse_at(a, col, symbols) if not isinstance(x, str) and a not in _TAGS else x
            for (a, col), x in zip(parts, args)]


def _check_balanced(expr: str) -> None:
    """Raise a NotationError at an unmatched parenthesis (before the call is split into its
    arguments, which would read past or drop the rest)."""
    from .core.errors import NotationError
    opened: list[int] = []
    for k, ch in enumerate(expr):
        if ch == "(":
            opened.append(k)
        elif ch == ")":
            if not opened:
                raise NotationError(f"unmatched ')' at column {k} in {expr.strip()!r}", k)
            opened.pop()
    if opened:
        k = opened[-1]
        raise NotationError(f"'(' at column {k} is never closed in {expr.strip()!r}", k)


def _call_split(expr: str) -> Optional[int]:
    """Where the trailing ``(...)`` of ``value(...)`` opens, when ``value`` is not an identifier."""
    if not expr.endswith(")"):
        return None
    depth = 0
    for k in range(len(expr) - 1, -1, -1):
        if expr[k] == ")":
            depth += 1
        elif expr[k] == "(":
            depth -= 1
            if depth == 0:
                head = expr[:k].rstrip()
                return k if head and (head[-1] == ")" or head[-1].isdigit()) else None
    return None


def evaluate_call(expr: str, column: int = 0, dialect: str = "cute") -> Any:
    """Evaluate ``op(arg, ...)`` (or a bare notation value) with cute_sym.

    A layout followed by ``(coordinate)`` is the layout called with it: an
    offset, or with ``_`` in it a slice.

    @post a :class:`~cute_sym.NotationError` has ``column`` counted in ``expr``; ``dialect``
          is :func:`~cute_sym.parse`'s (``"dsl"``: the CuTe DSL's printing).

    >>> print(evaluate_call("logical_divide(_24:_2, _4:_2)"))
    (_4,(_2,_3)):(_4,(_2,_16))
    >>> print(evaluate_call("(_4,_8):(_8,_1)(_,_1)"), evaluate_call("(_4,_8):(_8,_1)(_1,_2)"))
    (_4):(_8) _10
    >>> print(evaluate_call("composition((4,8):(8,1), 4:2)", dialect="dsl"))
    (_2,_2):(_16,_1)
    >>> print(evaluate_call("Copy_Atom(SM75_U32x4_LDSM_N, half_t)").ValLayoutDst)
    (_32,(_2,_4)):(_2,(_1,_64))
    """
    import cute_sym
    _check_balanced(expr)
    lead = column + len(expr) - len(expr.lstrip())
    expr = expr.strip()
    head, sep, rest = expr.partition("(")
    name = head.strip()
    if sep and name.isidentifier() and rest.endswith(")") and not name.startswith("_"):
        fn = getattr(cute_sym, name, None)
        if fn is None or not callable(fn):
            raise LayoutError(f"unknown operation {name!r}")
        parts = _split_args(rest[:-1], lead + len(head) + 1)
        if name in _BY_NAME:    # its arguments are names (an atom, an element type), never symbols
            return fn(*[a for a, _ in parts])
        return fn(*_parse_args(parts, dialect))
    k = _call_split(expr)
    if k is not None:
        value = _parse_at(expr[:k].rstrip(), lead, None, dialect)
        if not callable(value):
            raise LayoutError(f"only a layout can be called with a coordinate, not {value}")
        from .core.int_tuple import wrap
        return wrap(value(*_parse_args(_split_args(expr[k + 1:-1], lead + k + 1), dialect)))
    return _parse_at(expr, lead, None, dialect)


def _text(result: Any) -> str:
    """CuTe notation for layouts and int tuples; readable formulas for a dynamic integer."""
    from .core.lazy import is_basic
    if is_basic(result):     # without importing sympy for a static result
        from .notation.notation import to_str
        return to_str(result)
    return str(result)


def _pointer(expr: str, e: LayoutError) -> str:
    """The expression with a caret under the column of a notation error (empty if none)."""
    col = getattr(e, "column", None)
    if col is None or len(expr) > 200:
        return ""
    return f"  {expr}\n  {' ' * col}^\n"


FORMATS = ("text", "latex", "svg", "html")


def _text_output(result: Any, opts: argparse.Namespace, values: dict[str, int], out: TextIO) -> None:
    """The CuTe notation of the result, then CuTe's print_layout table when it has one."""
    from .layout.layout import Layout
    from .notation.notation import subs
    from .views.table import layout_table_capped
    from .swizzle import ComposedLayout
    if isinstance(result, (Layout, ComposedLayout)) and not opts.no_table:
        out.write("\n")
        shown = subs(result, values, ignore_unknown=True) if values else result
        if shown.rank() not in (1, 2):
            out.write(f"(no table: print_layout draws a rank-1 or rank-2 layout; this one has rank {shown.rank()}: "
                      "take a mode, e.g. layout<0>, or group modes)\n")
        else:
            try:
                out.write(layout_table_capped(shown, sys.maxsize if opts.full else TABLE_LIMIT,
                                              None if opts.full else TABLE_COLS))
            except LayoutError as e:
                # the command binds a symbol with --bind, not with subs
                text = str(e).replace("bind the symbols first (subs)", "give it with --bind NAME=VALUE")
                out.write(f"(no table: {text})\n")


def _picture(result: Any, fmt: str, values: dict[str, int], full: bool = False) -> str:
    from .views import draw as views
    from .core.errors import UndecidableError
    bind = values or None
    try:
        if fmt == "latex":
            return views.latex_capped(result, bind, full=full)
        if fmt == "svg":
            return views.svg(result, bind, full=full)
        return views.html(result, bind, full=full)
    except UndecidableError as e:
        raise LayoutError(f"{e} (on the command line: --bind NAME=VALUE)") from e


_DESCRIPTION = """Evaluate a CuTe-notation expression and print the result: its CuTe notation and,
for a rank-1 or rank-2 layout, CuTe's print_layout table (or a picture: --format).

examples:
  cute-sym 'logical_divide(_24:_2, _4:_2)'
  cute-sym 'coalesce((16,N):(1,16))' --bind N=4
  cute-sym --guards 'shape_div(M, _4)'
  cute-sym '(_4,_8):(_8,_1)(_,1)'             (a layout called with a coordinate)
  cute-sym 'make_tiled_copy(Copy_Atom(SM75_U32x4_LDSM_N, half_t), (_32,_1):(_1,_0), (_1,_8))'
  cute-sym --format svg -o div.svg 'logical_divide(_24:_2, _4:_2)'"""

_EPILOG = """operations: any cute_sym function by its CuTe name, e.g. composition, complement,
  coalesce, filter, left_inverse, right_inverse, logical_divide, zipped_divide,
  tiled_divide, logical_product, blocked_product, raked_product, tile_to_shape,
  size, cosize, idx2crd, crd2idx, make_tiled_copy, make_tiled_mma, Copy_Atom,
  MMA_Atom (copy_atom_names() and mma_atom_names() list the atoms; an element
  type is a CuTe name: half_t, float, int8_t, ...).

the analyze command (cute-sym analyze --help for its options):
  cute-sym analyze --smem LAYOUT (or --gmem LAYOUT) with a copy (--copy OP --type T
  --thr LAYOUT --val LAYOUT) or a TV layout (--tv LAYOUT --bits N), optionally
  --mma OP --atoms M,N,K --operand A|B|C, --warp W, --detail. It reports:
    vector width      the widest access of one thread
    bank conflicts    shared memory: wavefronts per instruction and the worst bank
    coalescing        global memory: sectors and transactions per instruction
    copy/MMA fit      whether the copy delivers what the MMA's operand needs

exit status: 0 done, 2 a bad expression or option (a message, never a traceback)."""


def main(argv: Optional[Sequence[str]] = None) -> int:
    # ---- `cute-sym analyze ...`: the analyses' report (cute_sym/analysis/report.py)
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["analyze"]:
        from .analysis.report import analyze_main
        return analyze_main(args[1:], None)      # (sys.stdout as it is now)
    if args[:1] == ["propose"]:
        return propose_main(args[1:])
    # ----
    ap = argparse.ArgumentParser(prog="cute-sym", description=_DESCRIPTION, epilog=_EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("expr", nargs="?", default=None,
                    help="a CuTe-notation call such as 'logical_divide(_24:_2, _4:_2)' (the default), "
                         "a value, or a layout with a coordinate: '(_4,_8):(_8,_1)(_,1)'")
    ap.add_argument("--bind", action="append", default=[], metavar="NAME=VALUE",
                    help="a value for a symbol (for the table and the pictures)")
    ap.add_argument("--no-table", action="store_true", help="print only the CuTe notation")
    ap.add_argument("--guards", action="store_true",
                    help="assume each fact that cannot be decided, and print the facts assumed")
    ap.add_argument("--format", default="text", choices=FORMATS,
                    help="text (CuTe notation and table), latex (CuTe's print_latex), svg, or html "
                         "(an offline page; hovering a cell shows its coordinate, offset, thread and value)")
    ap.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of the standard output")
    ap.add_argument("--dsl", action="store_true",
                    help="read the arguments as the CuTe Python DSL prints them ((4,8):(8,1), ?{div=8}, S<3,4,3>)")
    ap.add_argument("--full", action="store_true",
                    help=f"print the whole table (else the first rows, about {TABLE_LIMIT} entries, and the "
                         f"first {TABLE_COLS} columns) or picture (else the first {PICTURE_LIMIT} rows and columns)")
    # an expression may start with '-' (a negative number or formula): not an option
    opts, extra = ap.parse_known_args(args)
    if extra:
        if opts.expr is not None or len(extra) != 1 or extra[0].startswith("--"):
            ap.error(f"unrecognized arguments: {' '.join(extra)}")
        opts.expr = extra[0]
    if opts.expr is None:
        opts.expr = "logical_divide(_24:_2, _4:_2)"
    values = {}
    for b in opts.bind:
        k, _, v = b.partition("=")
        try:
            values[k.strip()] = int(v)
        except ValueError:
            ap.error(f"--bind {b!r}: expected NAME=INTEGER")
    named = set(re.findall(r"(?<![\w])([A-Za-z][A-Za-z0-9_]*)(?![\w(])", opts.expr))
    for k in values:
        if k not in named:      # a typo would otherwise leave the table unbound, silently
            ap.error(f"--bind {k}=...: {opts.expr!r} has no symbol {k!r}")
    dialect = "dsl" if opts.dsl else "cute"
    out = io.StringIO()
    try:
        try:
            if opts.guards:
                from .core.decide import collect_guards
                with collect_guards() as g:
                    result = evaluate_call(opts.expr, dialect=dialect)
            else:
                result = evaluate_call(opts.expr, dialect=dialect)
        except LayoutError:
            raise
        except Exception as e:  # noqa: BLE001 - any failure to evaluate is a bad expression, never a traceback
            raise LayoutError(f"cannot evaluate {opts.expr!r}: {type(e).__name__}: {e}") from e
        if opts.format == "text":
            out.write(_text(result) + "\n")
            if opts.guards:
                for c in g.describe():
                    out.write(f"  if {c}\n")
                if values and not g.holds(values):
                    out.write(f"  (the conditions do not hold for {values})\n")
            _text_output(result, opts, values, out)
        else:
            out.write(_picture(result, opts.format, values, opts.full))
    except LayoutError as e:
        sys.stdout.write(out.getvalue())
        print(f"cute-sym: error: {e}", file=sys.stderr)
        print(_pointer(opts.expr, e), end="", file=sys.stderr)
        return 2
    try:
        if opts.output:
            with open(opts.output, "w", encoding="utf-8") as fh:
                fh.write(out.getvalue())
        else:
            sys.stdout.write(out.getvalue())
            sys.stdout.flush()
    except BrokenPipeError:     # the reader went away (cute-sym ... | head): not an error
        try:
            sys.stdout.close()
        except BrokenPipeError:
            pass
        return 0
    except OSError as e:
        print(f"cute-sym: error: cannot write {opts.output}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


def propose_main(argv: Sequence[str], out: Optional[TextIO] = None) -> int:
    """``cute-sym propose ...``: rank the shared-memory layouts of a tile (its writers and readers
    named by options), or with ``--gmem`` the thread/value layouts of a global->shared copy.

        cute-sym propose --type half_t --tile 128,32 --copy 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>' \
            --thr '(_32,_4):(_4,_1)' --val '(_1,_8)' --ldsm SM75_U32x4_LDSM_N \
            --mma SM80_16x8x16_F16F16F16F16_TN --atoms 2,2,1 --mma-tile 32,32,16 --svg rank.svg
        cute-sym propose --type half_t --tile 128,64 --tma-gmem '(_128,_64):(_64,_1)' --gmma K
        cute-sym propose --type half_t --gmem '(_128,_32):(K,_1)' --min K=32 --threads 128

    Exit status 2 with a message for a bad option or an impossible request.
    """
    from .analysis.propose import MmaOperand, TmaCopy, propose_smem_layout, propose_tiled_copy
    from .core.integers import Dyn
    from .notation import parse, subs
    from .tensor.atoms.copy_atom import Copy_Atom
    from .tensor.copy_make import make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B
    from .tensor.mma import make_tiled_mma
    out = sys.stdout if out is None else out
    ap = argparse.ArgumentParser(prog="cute-sym propose", description=propose_main.__doc__.split("\n")[0]
                                 if propose_main.__doc__ else None)
    ap.add_argument("--type", default="half_t", help="element type (default half_t)")
    ap.add_argument("--tile", help="the smem tile MN,K")
    ap.add_argument("--copy", help="a writer: copy operation by CuTe's name (cp.async, UniversalCopy<...>)")
    ap.add_argument("--thr", help="the writer's thread layout")
    ap.add_argument("--val", help="the writer's value layout")
    ap.add_argument("--ldsm", help="a reader: ldmatrix operation, tiled for --mma")
    ap.add_argument("--mma", help="an MMA operation by CuTe's name")
    ap.add_argument("--atoms", default="1,1,1", help="the MMA's atom layout M,N,K")
    ap.add_argument("--mma-tile", help="the MMA's tile M,N,K")
    ap.add_argument("--operand", default="A", choices=("A", "B"))
    ap.add_argument("--gmma", choices=("K", "MN"), help="a reader: a GMMA operand of this major")
    ap.add_argument("--umma", choices=("K", "MN"), help="a reader: a UMMA operand of this major")
    ap.add_argument("--tma-gmem", help="a writer: a TMA load from this gmem tile layout")
    ap.add_argument("--major", choices=("K", "MN", "both"), default="both")
    ap.add_argument("--leading", help="a symbol: weigh a layout with this leading dimension too")
    ap.add_argument("--gmem", help="propose the global->shared copy of this gmem tile instead")
    ap.add_argument("--threads", type=int, default=128)
    ap.add_argument("--min", action="append", default=[], metavar="NAME=VALUE", help="a symbol's least value")
    ap.add_argument("--svg", metavar="FILE", help="also write the ranking as an SVG picture")
    opts = ap.parse_args(list(argv))
    mins = {}
    for b in opts.min:
        k, _, v = b.partition("=")
        if not v.lstrip("-").isdigit():
            ap.error(f"--min {b!r}: expected NAME=INTEGER")
        mins[k.strip()] = int(v)

    def lay(text: str) -> Any:
        got = parse(text)
        return subs(got, {k: Dyn(k, min=v) for k, v in mins.items()}) if mins else got
    try:
        if opts.gmem:
            res: Any = propose_tiled_copy(lay(opts.gmem), opts.type, opts.threads)
            out.write(str(res) + "\n")
            return 0
        if not opts.tile:
            ap.error("--tile MN,K is needed (or --gmem for the copy)")
        tile = tuple(int(x) for x in opts.tile.split(","))
        writers: list[Any] = []
        readers: list[Any] = []
        if opts.copy:
            if not (opts.thr and opts.val):
                ap.error("--copy needs --thr and --val")
            writers.append(make_tiled_copy(Copy_Atom(opts.copy, opts.type), parse(opts.thr), parse(opts.val)))
        if opts.tma_gmem:
            writers.append(TmaCopy(lay(opts.tma_gmem)))
        if opts.ldsm:
            if not opts.mma:
                ap.error("--ldsm needs --mma (the copy is tiled for it)")
            mma = make_tiled_mma(opts.mma, tuple(int(x) for x in opts.atoms.split(",")),
                                 tuple(int(x) for x in opts.mma_tile.split(",")) if opts.mma_tile else None)
            make = make_tiled_copy_A if opts.operand == "A" else make_tiled_copy_B
            readers.append(make(Copy_Atom(opts.ldsm, opts.type), mma))
        if opts.gmma:
            readers.append(MmaOperand("GMMA", opts.gmma))
        if opts.umma:
            readers.append(MmaOperand("UMMA", opts.umma))
        majors = ("K", "MN") if opts.major == "both" else (opts.major,)
        leading = Dyn(opts.leading, min=mins.get(opts.leading, 1)) if opts.leading else None
        res = propose_smem_layout(writers=writers, readers=readers, dtype=opts.type, tile_shape=tile,  # type: ignore[arg-type]
                                  majors=majors, leading=leading)
        out.write(str(res) + "\n")
        if opts.svg:
            from .views.proposal import proposal_svg
            with open(opts.svg, "w", encoding="utf-8") as fh:
                fh.write(proposal_svg(res))
    except (LayoutError, ValueError) as e:
        print(f"cute-sym propose: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

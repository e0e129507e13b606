"""The ``cute-sym`` command: evaluate a CuTe-notation expression and print the result.

    cute-sym 'logical_divide(_24:_2, _4:_2)'
    cute-sym 'coalesce((16,N):(1,16))' --bind N=4
    cute-sym --guards 'shape_div(M, _4)'      # assume what cannot be decided, and print it
    cute-sym --format svg -o div.svg 'logical_divide(_24:_2, _4:_2)'
    cute-sym --format html --bind M=64 -o tile.html '(M,_8):(_1,M)'

Arguments are CuTe notation; the call is any cute_sym operation by its CuTe
name. The result prints in CuTe notation and, for a rank-2 layout whose
extents are known, as CuTe's ``print_layout`` table. ``--format latex`` prints
CuTe's ``print_latex`` text, ``svg`` and ``html`` the pictures of
:mod:`cute_sym.views` (html: one offline page; hovering a cell shows its
coordinate, offset, thread and value); ``-o FILE`` writes there instead of the
standard output. A bad expression or format is a usage error: a message and
exit status 2, never a traceback.
"""
from __future__ import annotations

import argparse
import io
import sys
from typing import Any, Optional, Sequence, TextIO

from .core.errors import LayoutError

__all__ = ["main", "evaluate_call"]


def _split_args(text: str) -> list[str]:
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _argument(text: str) -> Any:
    """CuTe notation; the name of an MMA atom (``SM80_16x8x16_F16F16F16F16_TN``) stays a name."""
    import cute_sym
    if text.isidentifier() and text in cute_sym.mma_atom_names():
        return text
    return cute_sym.parse(text)


def evaluate_call(expr: str) -> Any:
    """Evaluate ``op(arg, ...)`` (or a bare notation value) with cute_sym.

    >>> print(evaluate_call("logical_divide(_24:_2, _4:_2)"))
    (_4,(_2,_3)):(_4,(_2,_16))
    >>> evaluate_call("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN, (_2,_2))").tile_shape()
    (_32,_16,_8)
    """
    import cute_sym
    expr = expr.strip()
    head, sep, rest = expr.partition("(")
    name = head.strip()
    if sep and name.isidentifier() and rest.endswith(")") and not name.startswith("_"):
        fn = getattr(cute_sym, name, None)
        if fn is None or not callable(fn):
            raise LayoutError(f"unknown operation {name!r}")
        args = [_argument(a) for a in _split_args(rest[:-1])]
        return fn(*args)
    return cute_sym.parse(expr)


def _text(result: Any) -> str:
    """CuTe notation for layouts and int tuples; readable formulas for a dynamic integer."""
    from .core.lazy import is_basic
    if is_basic(result):     # without importing sympy for a static result
        from .notation.notation import to_str
        return to_str(result)
    return str(result)


FORMATS = ("text", "latex", "svg", "html")


def _text_output(result: Any, opts: argparse.Namespace, values: dict[str, int], out: TextIO) -> None:
    """The CuTe notation of the result, then CuTe's print_layout table when it has one."""
    from .layout.layout import Layout, make_layout
    from .notation.notation import subs
    from .views.table import layout_table
    from .swizzle import ComposedLayout
    if isinstance(result, (Layout, ComposedLayout)) and not opts.no_table:
        out.write("\n")
        shown = subs(result, values) if values else result
        if shown.rank() in (1, 2):
            try:
                table = shown if shown.rank() == 2 else make_layout(shown, make_layout(1, 0))
                out.write(layout_table(table))
            except LayoutError as e:
                out.write(f"(no table: {e})\n")


def _picture(result: Any, fmt: str, values: dict[str, int]) -> str:
    from . import views
    from .core.errors import UndecidableError
    bind = values or None
    try:
        if fmt == "latex":
            return views.latex(result, bind)
        if fmt == "svg":
            return views.svg(result, bind)
        return views.html(result, bind)
    except UndecidableError as e:
        raise LayoutError(f"{e} (on the command line: --bind NAME=VALUE)") from e


def main(argv: Optional[Sequence[str]] = None) -> int:
    # ---- `cute-sym analyze ...`: the analyses' report (cute_sym/analysis/report.py)
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["analyze"]:
        from .analysis.report import analyze_main
        return analyze_main(args[1:])
    # ----
    ap = argparse.ArgumentParser(prog="cute-sym", description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("expr", nargs="?", default="logical_divide(_24:_2, _4:_2)",
                    help="a CuTe-notation call such as 'logical_divide(_24:_2, _4:_2)'")
    ap.add_argument("--bind", action="append", default=[], metavar="NAME=VALUE",
                    help="a value for a symbol (for the table and the pictures)")
    ap.add_argument("--no-table", action="store_true", help="print only the CuTe notation")
    ap.add_argument("--guards", action="store_true",
                    help="assume each fact that cannot be decided, and print the facts assumed")
    ap.add_argument("--format", default="text", choices=FORMATS,
                    help="text (CuTe notation and table), latex (CuTe's print_latex), svg, or html "
                         "(an offline page; hovering a cell shows its coordinate, offset, thread and value)")
    ap.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of the standard output")
    opts = ap.parse_args(argv)
    values = {}
    for b in opts.bind:
        k, _, v = b.partition("=")
        try:
            values[k.strip()] = int(v)
        except ValueError:
            ap.error(f"--bind {b!r}: expected NAME=INTEGER")
    out = io.StringIO()
    try:
        try:
            if opts.guards:
                from .core.decide import collect_guards
                with collect_guards() as g:
                    result = evaluate_call(opts.expr)
            else:
                result = evaluate_call(opts.expr)
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
            out.write(_picture(result, opts.format, values))
    except LayoutError as e:
        sys.stdout.write(out.getvalue())
        print(f"cute-sym: error: {e}", file=sys.stderr)
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


if __name__ == "__main__":
    sys.exit(main())

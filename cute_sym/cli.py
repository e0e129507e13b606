"""The ``cute-sym`` command: evaluate a CuTe-notation expression and print the result.

    cute-sym 'logical_divide(_24:_2, _4:_2)'
    cute-sym 'coalesce((16,N):(1,16))' --bind N=4
    cute-sym --guards 'shape_div(M, _4)'      # assume what cannot be decided, and print it

Arguments are CuTe notation; the call is any cute_sym operation by its CuTe
name. The result prints in CuTe notation and, for a rank-2 layout whose
extents are known, as CuTe's ``print_layout`` table.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Optional, Sequence

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


def evaluate_call(expr: str) -> Any:
    """Evaluate ``op(arg, ...)`` (or a bare notation value) with cute_sym.

    >>> print(evaluate_call("logical_divide(_24:_2, _4:_2)"))
    (_4,(_2,_3)):(_4,(_2,_16))
    """
    import cute_sym
    expr = expr.strip()
    head, sep, rest = expr.partition("(")
    name = head.strip()
    if sep and name.isidentifier() and rest.endswith(")") and not name.startswith("_"):
        fn = getattr(cute_sym, name, None)
        if fn is None or not callable(fn):
            raise LayoutError(f"unknown operation {name!r}")
        args = [cute_sym.parse(a) for a in _split_args(rest[:-1])]
        return fn(*args)
    return cute_sym.parse(expr)


def _text(result: Any) -> str:
    """CuTe notation for layouts and int tuples; readable formulas for a dynamic integer."""
    from .core.lazy import is_basic
    if is_basic(result):     # without importing sympy for a static result
        from .notation.notation import to_str
        return to_str(result)
    return str(result)


def main(argv: Optional[Sequence[str]] = None) -> int:
    from .layout.layout import Layout
    from .notation.notation import subs
    from .views.table import layout_table
    ap = argparse.ArgumentParser(prog="cute-sym", description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("expr", nargs="?", default="logical_divide(_24:_2, _4:_2)",
                    help="a CuTe-notation call such as 'logical_divide(_24:_2, _4:_2)'")
    ap.add_argument("--bind", action="append", default=[], metavar="NAME=VALUE",
                    help="a value for a symbol (for the table)")
    ap.add_argument("--no-table", action="store_true", help="print only the CuTe notation")
    ap.add_argument("--guards", action="store_true",
                    help="assume each fact that cannot be decided, and print the facts assumed")
    opts = ap.parse_args(argv)
    values = {}
    for b in opts.bind:
        k, _, v = b.partition("=")
        try:
            values[k.strip()] = int(v)
        except ValueError:
            ap.error(f"--bind {b!r}: expected NAME=INTEGER")
    try:
        if opts.guards:
            from .core.decide import collect_guards
            with collect_guards() as g:
                result = evaluate_call(opts.expr)
            print(_text(result))
            for c in g.describe():
                print(f"  if {c}")
            if values and not g.holds(values):
                print(f"  (the conditions do not hold for {values})")
        else:
            result = evaluate_call(opts.expr)
            print(_text(result))
        from .swizzle import ComposedLayout
        if isinstance(result, (Layout, ComposedLayout)) and not opts.no_table:
            print()
            shown = subs(result, values) if values else result
            if shown.rank() == 2:
                try:
                    print(layout_table(shown), end="")
                except LayoutError as e:
                    print(f"(no table: {e})")
            elif shown.rank() == 1:
                from .layout.layout import make_layout
                try:
                    print(layout_table(make_layout(shown, make_layout(1, 0))), end="")
                except LayoutError as e:
                    print(f"(no table: {e})")
    except LayoutError as e:
        print(f"cute-sym: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:     # the reader went away (cute-sym ... | head): not an error
        try:
            sys.stdout.close()
        except BrokenPipeError:
            pass
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

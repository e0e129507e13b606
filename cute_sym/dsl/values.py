"""Layouts, swizzles, int tuples and tensors between cute_sym and the CuTe DSL.

``from_dsl`` reads a DSL value through what the DSL's types know, the text it
prints (``str(layout.type)`` is ``!cute.layout<"(?{div=8},8):(1,?)">``), so a
static leaf stays static and a dynamic one becomes a fresh symbol with the
divisibility the DSL knows (:mod:`cute_sym.notation.dsl_dialect`). ``to_dsl``
builds the DSL value inside a ``@cute.jit`` function: static leaves are Python
ints, which the DSL keeps static; a symbol takes the DSL value given for its
name in ``values`` (a function parameter, say), with its divisor asserted by
``cute.assume``; a formula of symbols is computed with the DSL's arithmetic.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping, Optional

from ..stride.basis import ArithmeticTuple, ScaledBasis
from ..core.errors import LayoutError
from ..core.int_tuple import _, Underscore, unwrap
from ..core.lazy import is_basic
from ..layout.layout import Layout
from ..notation.dsl_dialect import parse_dsl
from ..swizzle import ComposedLayout, Swizzle
from ..tensor.engine import CountingEngine, Pointer
from ..tensor.tensor import Tensor
from ..tensor.atoms.dsl_table import DSL_TYPES

if TYPE_CHECKING:
    import sympy

__all__ = ["dsl_text", "value_from_dsl", "value_to_dsl", "DSL_TYPES"]


def _is_dsl_int(x: Any) -> bool:
    """A DSL integer value (``Int32(?)``, an ``IntValue``) - not a Python int."""
    return type(x).__module__.startswith("cutlass") and hasattr(x, "ir_value")


def dsl_text(x: Any) -> str:
    """The text the DSL prints for ``x`` at trace time: a layout, composed layout, swizzle,
    scaled basis, tensor, DSL integer, or a Python tuple of those and ints."""
    if x is None:
        return "_"
    if type(x) is bool:
        raise LayoutError(f"from_dsl: a bool is not an integer of the DSL, got {x!r}")
    if type(x) is int:
        return str(x)
    if isinstance(x, (tuple, list)):
        return "(" + ",".join(dsl_text(e) for e in x) + ")"
    t = getattr(x, "type", None)
    if t is not None and not _is_dsl_int(x):
        text = str(t)
        m = re.fullmatch(r'!cute\.(?:layout|composed_layout|swizzle|int_tuple|shape|stride|coord)<"(.*)">', text)
        if m:
            return m.group(1)
    return str(x)


def value_from_dsl(x: Any, symbols: Optional[Mapping[str, Any]] = None) -> Any:
    """The cute_sym value of a DSL layout, composed layout, swizzle, int tuple, scaled basis or
    tensor (a coordinate tensor becomes one of ours; a memory tensor, its layout over a pointer
    named ``"t"``); see :func:`cute_sym.dsl.from_dsl`."""
    return parse_dsl(dsl_text(x), symbols, strict=True)


# ---------------------------------------------------------------- to the DSL
def value_to_dsl(x: Any, values: Optional[Mapping[str, Any]] = None) -> Any:
    """The DSL value of a cute_sym layout, swizzled layout, swizzle, int tuple, scaled basis or
    coordinate tensor, built with ``cutlass.cute`` (call it inside ``@cute.jit``); see
    :func:`cute_sym.dsl.to_dsl`."""
    import cutlass.cute as cute
    vals = dict(values or {})
    if isinstance(x, Layout):
        return cute.make_layout(_tree(x.shape, vals), stride=_tree(x.stride, vals))
    if isinstance(x, ComposedLayout):
        inner = x.layout_a
        if not isinstance(inner, Swizzle):
            raise LayoutError(f"to_dsl: the DSL composes a swizzle with a layout; the inner part of {x} is not a swizzle")
        return cute.make_composed_layout(value_to_dsl(inner, vals), _tree(x.offset, vals), value_to_dsl(x.layout_b, vals))
    if isinstance(x, Swizzle):
        return cute.make_swizzle(x.bits, x.base, x.shift)
    if isinstance(x, Tensor):
        eng = x.engine
        if not isinstance(eng, CountingEngine):
            raise LayoutError(f"to_dsl: only a coordinate tensor has a DSL value without memory; {x} is over "
                              f"{type(eng).__name__} (give the DSL its own tensor and to_dsl(t.layout))")
        start = _plain_coord(eng.coord)
        return _coord_tensor(start, x.layout, vals)
    if isinstance(x, Pointer):
        raise LayoutError("to_dsl: a pointer has no DSL value without memory")
    return _tree(unwrap(x), vals)


def _coord_tensor(start: Any, layout: Any, vals: dict[str, Any]) -> Any:
    """``start o layout`` as a DSL coordinate tensor: CuTe's ``make_coord_tensor`` offset by ``start``."""
    import cutlass.cute as cute
    base = cute.make_identity_tensor(_tree(_ones(start), vals))
    lay = value_to_dsl(layout, vals)
    t = cute.make_tensor(base.iterator, lay)
    if _all_zero(start):
        return t
    return cute.domain_offset(_tree(start, vals), t)


def _plain_coord(t: Any) -> Any:
    """A coordinate with its arithmetic tuples as plain tuples."""
    if isinstance(t, ArithmeticTuple):
        t = t.values
    return tuple(_plain_coord(e) for e in t) if type(t) is tuple else t


def _ones(t: Any) -> Any:
    return tuple(_ones(e) for e in t) if type(t) is tuple else 1


def _all_zero(t: Any) -> bool:
    return all(_all_zero(e) for e in t) if type(t) is tuple else (type(t) is int and t == 0)


def _tree(t: Any, vals: dict[str, Any]) -> Any:
    if type(t) is tuple:
        return tuple(_tree(e, vals) for e in t)
    if isinstance(t, Underscore) or t is _:
        return None
    if isinstance(t, (Layout, ComposedLayout)):      # a tiler's mode
        return value_to_dsl(t, vals)
    if isinstance(t, ScaledBasis):
        import cutlass.cute as cute
        modes = list(t.modes)
        return cute.ScaledBasis(_tree(t.value, vals), modes[0] if len(modes) == 1 else modes)
    if type(t) is int:
        return t
    if isinstance(t, int):
        return int(t)
    if is_basic(t):
        return _formula(t, vals)
    raise LayoutError(f"to_dsl: cannot give the DSL {t!r} ({type(t).__name__})")


def _formula(e: "sympy.Basic", vals: dict[str, Any]) -> Any:
    """A dynamic integer as a DSL run-time value: a symbol is ``vals[name]`` (its divisor
    asserted with ``cute.assume``), a known value an ``Int32``, a formula the DSL's arithmetic."""
    import cutlass
    import cutlass.cute as cute
    from ..core.lazy import sympy
    if e.is_Integer:
        return cutlass.Int32(int(e))
    if e.is_Symbol:
        if e.name not in vals:
            raise LayoutError(f"to_dsl: no DSL value for the symbol {e.name} (pass values={{'{e.name}': ...}})")
        v = vals[e.name]
        div = int(getattr(e, "divisor", 1) or 1)
        if div > 1 and not isinstance(v, int):
            v = cute.assume(v, divby=div)
        return v
    args = [_formula(a, vals) for a in e.args] if not isinstance(e, (sympy.floor, sympy.ceiling)) else []
    if isinstance(e, sympy.Add):
        out = args[0]
        for a in args[1:]:
            out = out + a
        return out
    if isinstance(e, sympy.Mul):
        out = args[0]
        for a in args[1:]:
            out = out * a
        return out
    if isinstance(e, (sympy.floor, sympy.ceiling)):
        num, den = e.args[0].as_numer_denom()
        n, d = _formula(num, vals), _formula(den, vals)
        return n // d if isinstance(e, sympy.floor) else (n + d - 1) // d
    if isinstance(e, sympy.Min):
        return cute.min(*args) if hasattr(cute, "min") else min(*args)
    if isinstance(e, sympy.Max):
        return cute.max(*args) if hasattr(cute, "max") else max(*args)
    if type(e).__name__ == "IMod":
        return args[0] % args[1]
    raise LayoutError(f"to_dsl: no DSL arithmetic for the formula {e}")

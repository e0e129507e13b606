"""Open at values: an operation on symbolic layouts that succeeds at one allowed value of the
symbols and fails at another is undecidable, whatever its symbolic steps would ask.

The symbolic steps are sound: a result holds at every allowed value, and a refusal (CuTe's
checks fail) fails at every one, on the structure the steps see (a flat lhs and rhs as given:
the same steps on ints at those values, not the static operation, which may coalesce more).
So running the steps on ints at a few values and seeing both outcomes settles the call as
undecidable without the symbolic steps, which can ask dozens of questions before reaching the
open one. The error's text, naming the missing fact, comes from those steps, run only when
the text is read.
"""
from __future__ import annotations

from typing import Any, Callable

from ..core import decide
from ..core.errors import LayoutError
from ..core.lazy import is_expr
from ..layout.layout import Layout, _mk_static

# a symbolic fold of this many (lhs mode, rhs mode) steps asks dozens of questions: values first
_LONG_FOLD = 3

# values tried (all symbols at their least, then one at its next value, ...): the benchmark's
# open long folds all show both outcomes within the first two, as do 35 of the conformance
# corpora's open ones (38 within three; the rest reach their open question symbolically, the
# same answer, later); a long fold that is decided pays every point before its symbolic steps
# (a third point cost the benchmark's decided ones about 10 us each), so two
_POINTS = 2


def check_open_at_values(steps: Callable[..., Any], args: tuple[Any, ...], work: int) -> None:
    """Raise :class:`~cute_sym.UndecidableError` when ``steps(*args)`` evaluated at allowed values
    of the symbols (every integer leaf of ``args`` evaluated, the structure kept) succeeds at one
    and raises a :class:`~cute_sym.LayoutError` at another.

    ``work`` estimates the symbolic steps (the (lhs mode, rhs mode) pairs of a fold): below
    ``_LONG_FOLD`` they cost less than the values, and nothing is tried.

    @pre ``steps`` is sound on symbols: a result holds at every allowed value, and a refusal (a
         LayoutError other than UndecidableError) fails at every one, on the same structure;
         on ints it is the static computation.
    @post raises only when both outcomes were seen: then ``steps(*args)`` itself cannot succeed
          or refuse, and its own UndecidableError (run when the text is read) is the text.
    @post returns without effect for little ``work``, when facts are in force or guards are
          collected (the values tried might not satisfy them), when a leaf is not evaluated
          exactly, or when every value tried gives the same outcome.

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.int_tuple import shape_div
    >>> M = Dyn("M", divisible_by=2)
    >>> check_open_at_values(shape_div, (M, 4), work=3)
    Traceback (most recent call last):
    ...
    cute_sym.UndecidableError: shape_div(M, 4) needs M % 4 == 0 or 4 % M == 0 (cannot be decided)
    >>> check_open_at_values(shape_div, (M, 2), work=3)    # M/2 at every value
    """
    if work < _LONG_FOLD or not decide.unconditional():
        return
    flat: list[Any] = []
    shapes = tuple(_template(a, flat) for a in args)
    points = decide.leaf_values(flat, _POINTS)
    if points is None:
        return
    ok: Any = None
    bad: Any = None
    for point, values in points:
        try:
            steps(*[_fill(t, values) for t in shapes])
        except LayoutError as e:
            bad = bad or (point, e)
        else:
            ok = ok or point
        if ok and bad:
            raise decide.open_at_values(
                lambda: steps(*args), f"a condition that holds at {_at(ok)} and fails at {_at(bad[0])} ({bad[1]})")


def _at(point: dict[str, int]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in point.items())


def _template(x: Any, out: list[Any]) -> Any:
    """``x`` with each integer leaf replaced by its index in ``out`` (where it is appended), a
    flat tuple of integers by the ``slice`` of ``out`` it fills (one step to rebuild); a layout
    becomes ``(_LAYOUT, shape, stride)``."""
    if isinstance(x, Layout):
        return (_LAYOUT, _template(x._shape, out), _template(x._stride, out))
    if type(x) is tuple:
        for e in x:
            if type(e) is not int and not is_expr(e):
                return tuple([_template(e, out) for e in x])
        start = len(out)
        out.extend(x)
        return slice(start, len(out))
    if type(x) is int or is_expr(x):
        out.append(x)
        return len(out) - 1
    return _Keep(x)


class _Keep:
    """A non-integer argument (``_``, None) passed on as it is."""
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


_LAYOUT = _Keep(None)


def _fill(t: Any, values: list[int]) -> Any:
    """The argument a template stands for, at ``values``."""
    if type(t) is int:
        return values[t]
    if type(t) is slice:
        return tuple(values[t])
    if type(t) is tuple:
        if t and t[0] is _LAYOUT:
            return _mk_static(_fill(t[1], values), _fill(t[2], values))
        return tuple([values[e] if type(e) is int else _fill(e, values) for e in t])
    return t.value

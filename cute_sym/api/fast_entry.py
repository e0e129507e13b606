"""The public algebra's fast path: plain arguments go straight to the algebra.

A public call such as ``cs.zipped_divide(L, (128, 64))`` may receive tensors,
basis layouts, swizzles and composed layouts, so its general path passes through
the tensor and swizzle layers, and through the generic argument conversion of
``cute_sym._api``. When every argument is *plain and static* (a
:class:`~cute_sym.layout.Layout` whose leaves are all ``int``, an ``int``, a flat
tuple of ``int``, ``_``, or a tuple of those), those layers would hand the call to
the plain algebra unchanged; :func:`make_entry` builds an entry that checks this
first (one cached flag per layout) and calls the algebra directly. Layouts and
tilers with symbolic leaves (but no scaled basis) take the same shortcut, checked
leaf by leaf.

@post an entry's answer is the general path's answer for every argument: the guard only
      admits arguments on which the layers above the algebra are the identity, and
      misuse errors are converted the same way (``LayoutError`` naming the call).

>>> from cute_sym.notation import parse
>>> from cute_sym.algebra import logical_divide
>>> calls = []
>>> def general(layout, tiler):
...     calls.append("general")
...     return logical_divide(layout, tiler)
>>> f = make_entry("logical_divide", ("layout", "tiler"), (), logical_divide, general)
>>> print(f(parse("_24:_2"), parse("_4")), calls)
(_4,_6):(_2,_8) []
>>> print(f(parse("M:_2"), 4), calls)      # a symbol: still the algebra's
(_4,ceil_div(M,4)):(_2,_8) []
>>> from cute_sym.tensor import make_identity_layout
>>> print(f(make_identity_layout((8, 6)), (2, 3)), calls)   # scaled-basis strides: the general path
((_2,_4),(_3,_2)):((_1@0,_2@0),(_1@1,_3@1)) ['general']
"""
from __future__ import annotations

import sys
from typing import Any, Callable, Optional

from ..core.errors import LayoutError
from ..core.int_tuple import Tup, _
from ..core.integers import StaticInt
from ..core.lazy import is_expr
from ..layout.layout import Layout, is_static_layout, MAX_NESTING

__all__ = ["plain_static", "plain_arg", "make_entry"]

# What a wrong kind of argument raises deep inside; at the API it becomes a LayoutError.
# (a MemoryError: an argument asked for more than there is, e.g. a string times a huge stride)
MISUSE = (AttributeError, TypeError, ValueError, ZeroDivisionError, RecursionError, IndexError, KeyError,
          MemoryError)


def is_misuse(e: BaseException) -> bool:
    """An exception that means "wrong kind of argument" (sympy's SympifyError too, without importing sympy)."""
    return isinstance(e, MISUSE) or ("sympy" in sys.modules and isinstance(e, sys.modules["sympy"].SympifyError))


def misuse(name: str, args: tuple[Any, ...], e: BaseException) -> LayoutError:
    """The LayoutError a misuse becomes: the call as written, and what went wrong."""
    if isinstance(e, RecursionError):
        return LayoutError(f"{name}: the arguments nest too deeply (at most {MAX_NESTING} levels)")
    shown = ", ".join(str(a) if isinstance(a, (int, tuple, Layout)) else type(a).__name__ for a in args)
    return LayoutError(f"{name}({shown}): invalid arguments ({type(e).__name__}: {e})")


def _plain_tuple(t: tuple[Any, ...], level: int) -> bool:
    if level >= MAX_NESTING:
        return False
    for x in t:
        tx = type(x)
        if tx is int or x is _:
            continue
        if tx is Layout:
            if not is_static_layout(x):
                return False
        elif tx is not tuple or not _plain_tuple(x, level + 1):
            return False
    return True


def plain_static(x: Any) -> bool:
    """``x`` as the plain algebra takes it unchanged, and static: ``None``, ``_``, an ``int``, a
    static plain Layout, or a (nested) plain tuple of those.

    ``StaticInt`` and ``Tup`` (what ``parse`` returns) are not admitted here: the entries
    unwrap them first (:func:`make_entry`).

    >>> plain_static((4, (2, _))), plain_static(Layout(4, 2)), plain_static([4]), plain_static(True)
    (True, True, False, False)
    """
    tx = type(x)
    if tx is int or x is None or x is _:
        return True
    if tx is Layout:
        return is_static_layout(x)
    if tx is tuple:
        return _plain_tuple(x, 0)
    return False


_MISSING: Any = object()   # a required argument not given: the general path reports it


def _plain_leaves(t: Any, level: int = 0) -> bool:
    """Every leaf an int or a sympy integer expression (no scaled basis, no ``_``)."""
    if type(t) is not tuple:
        return type(t) is int or is_expr(t)
    if level >= MAX_NESTING:
        return False
    for e in t:     # a loop, not all() over a generator: this runs on every symbolic call
        te = type(e)
        if te is int:
            continue
        if te is tuple:
            if not _plain_leaves(e, level + 1):
                return False
        elif not is_expr(e):
            return False
    return True


def plain_layout(x: Layout) -> bool:
    """A layout the plain algebra takes as it is: static (the cached flag), or with symbolic
    extents and strides but no scaled-basis stride.

    >>> from cute_sym.core.integers import Dyn
    >>> plain_layout(Layout((4, Dyn("M")))), plain_layout(Layout((4, 2)))
    (True, True)
    """
    return is_static_layout(x) or (_plain_leaves(x._shape) and _plain_leaves(x._stride))


def plain_arg(x: Any, level: int = 0) -> bool:
    """As :func:`plain_static`, also admitting symbolic integers and plain symbolic layouts.

    >>> from cute_sym.core.integers import Dyn
    >>> plain_arg((Dyn("M"), 4)), plain_arg(Layout(Dyn("M"))), plain_arg("M")
    (True, True, False)
    """
    tx = type(x)
    if tx is int or x is None or x is _:
        return True
    if tx is Layout:
        return plain_layout(x)
    if tx is tuple:
        if level >= MAX_NESTING:
            return False
        for e in x:     # a loop, not all(...): flat int tilers are the common case
            if type(e) is not int and not plain_arg(e, level + 1):
                return False
        return True
    return is_expr(x)


def _unwrap_static(x: Any) -> Any:
    """``Tup``/``StaticInt`` (parsed tilers) as plain ``tuple``/``int``; anything else as it is."""
    tx = type(x)
    if tx is Tup:
        for e in x:
            if type(e) is not int:
                return tuple(_unwrap_static(e) for e in x)
        return tuple(x)
    if tx is StaticInt:
        return int(x)
    return x


_TEMPLATE = '''
def {name}({params}, *_extra, **_kw):
{kernel}{unwrap}    if type({first}) is _Layout and ({first}._st or _plain_layout({first})){more} and not _extra and not _kw:
        try:
            return _plain({args})
        except _LayoutError:
            raise
        except Exception as e:
            if _is_misuse(e):
                raise _misuse({name!r}, ({args},), e) from e
            raise
    # anything else (a tensor, a swizzle, a symbol, a wrong number of arguments) takes the general path
    given = [a for a in ({args},) if a is not _MISSING]
    return _general(*given, *_extra, **_kw)
'''


_KERNEL = '''    if type({first}) is _Layout and {first}._st is True{nones} and not _extra and not _kw:
        return _kernel({first})     # a static layout alone: the pure-int kernel, no other check
'''


def make_entry(name: str, params: tuple[str, ...], defaults: tuple[Any, ...],
               plain: Callable[..., Any], general: Callable[..., Any],
               kernel: Optional[Callable[[Layout], Any]] = None) -> Callable[..., Any]:
    """A public entry ``name(params...)``: ``plain`` (the algebra) when every argument is plain
    (:func:`plain_arg`, after unwrapping parsed ``Tup``/``StaticInt`` arguments), else
    ``general`` (the full path through tensors and swizzles, which also reports a wrong number of
    arguments as a LayoutError).

    @pre ``plain`` and ``general`` take the parameters positionally; ``defaults`` are the
         defaults of the last parameters (``None`` only).
    @pre ``kernel``, when given, is ``plain`` for a static layout with every other argument
         None (``kernel(L) == plain(L, None, ...)``), and raises nothing but LayoutErrors.
    @post one Python frame above ``plain`` on the fast path (the entry is generated with the
          public parameter names, so keyword calls work).
    """
    if any(d is not None for d in defaults):
        raise LayoutError("make_entry: only None defaults are supported")
    first, rest = params[0], params[1:]
    n_req = len(params) - len(defaults)
    sig = ", ".join(f"{p}=_MISSING" if i < n_req else f"{p}=None" for i, p in enumerate(params))
    # the other arguments: parsed Tup/StaticInt are unwrapped first (cheap: a type test)
    unwrap = "".join(f"    if type({p}) is _StaticInt:\n        {p} = _int({p})\n"
                     f"    elif type({p}) is _Tup:\n        {p} = _unwrap_static({p})\n" for p in rest)
    # (a static layout's cached flag and a None are read inline: the common cases cost no call)
    more = "".join(f" and ({p} is None or type({p}) is int or _plain_arg({p}))" for p in rest)
    kern = "" if kernel is None else _KERNEL.format(first=first, nones="".join(f" and {p} is None" for p in rest))
    src = _TEMPLATE.format(name=name, params=sig, first=first, more=more, args=", ".join(params), unwrap=unwrap,
                           kernel=kern)
    env: dict[str, Any] = {
        "_Layout": Layout, "_plain_layout": plain_layout, "_plain_arg": plain_arg, "_plain": plain,
        "_general": general, "_LayoutError": LayoutError, "_is_misuse": is_misuse, "_misuse": misuse,
        "_StaticInt": StaticInt, "_Tup": Tup, "_int": int, "_kernel": kernel, "_unwrap_static": _unwrap_static,
        "_MISSING": _MISSING,
    }
    exec(src, env)  # noqa: S102 - a fixed template over identifiers from the public signatures
    f: Callable[..., Any] = env[name]
    f.__module__ = "cute_sym"
    return f

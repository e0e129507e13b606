"""The public face of every function: a typed signature entered through :func:`api`.

``cute_sym/__init__.py`` declares each public function as a typed signature whose body is
the implementation in the layer that owns it. :func:`api` makes that signature the face:
plain ints and tuples in, CuTe-printing ones out, a wrong kind of argument a
:class:`~cute_sym.LayoutError` naming the call, and the implementation's docstring (its
contract) and signature for ``help()``. A function whose implementation needs sympy or NumPy
(code generation, tables) is imported on first use; its face reads the docstring then
(:class:`LazyRoutine`), so ``import cute_sym`` imports neither.

>>> def impl(a, b):
...     '''a + b, the contract.'''
...     return a + b
>>> @api(impl)
... def add(a: int, b: int) -> int: ...
>>> add(2, 3), add.__doc__, add.__name__
(_5, 'a + b, the contract.', 'add')
>>> add("x", 1)
Traceback (most recent call last):
...
cute_sym.LayoutError: add(str, 1): invalid arguments (TypeError: can only concatenate str (not "int") to str)
"""
from __future__ import annotations

import functools
import importlib
import inspect
from typing import Any, Callable, Optional, TypeVar, cast

from typing_extensions import ParamSpec

from ..core.errors import LayoutError
from ..core.int_tuple import wrap as wrap_ints, unwrap
from ..layout import as_int_tuple
from ..layout.layout import Layout
from .fast_entry import is_misuse, misuse, make_entry

__all__ = ["api", "checked", "ints", "LazyRoutine"]

P = ParamSpec("P")
R = TypeVar("R")


def api(impl: Callable[..., Any], wrap: bool = True, plain: bool = True,
        fast: Optional[Callable[..., Any]] = None, kernel: Optional[Callable[[Layout], Any]] = None,
        doc: Optional[Callable[..., Any]] = None, lazy: Optional[tuple[str, str]] = None,
        ) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """The typed signature decorated is the public face of ``impl``.

    @post plain ints/tuples in (``StaticInt``, ``Tup``, lists, numpy ints
          unwrapped), CuTe-printing ints/tuples out; a misuse raises a
          :class:`LayoutError` naming the call.
    @post with ``fast`` (the plain algebra's operation), plain static arguments go to it
          directly (:mod:`cute_sym.fast_entry`): the same answer, without the layers between.
    @post ``__doc__`` is the contract: ``impl``'s docstring, ``doc``'s where ``impl`` is a
          dispatcher without one, or (``lazy=(module, name)``) that function's, read when asked
          for (with the typed signature).
    """
    def face(sig: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(impl)
        def entry(*args: P.args, **kw: P.kwargs) -> R:
            try:
                r = impl(*[unwrap(a) for a in args], **kw) if plain else impl(*args, **kw)
                return cast(R, wrap_ints(r) if wrap else r)
            except LayoutError:
                raise
            except Exception as e:
                if is_misuse(e):
                    raise misuse(sig.__name__, args, e) from e
                raise
        out: Any = entry
        if fast is not None:
            ps = inspect.signature(sig).parameters.values()
            out = make_entry(sig.__name__, tuple(p.name for p in ps),
                             tuple(p.default for p in ps if p.default is not p.empty), fast, entry, kernel)
            functools.update_wrapper(out, impl, updated=())
        if lazy is not None:
            return cast(Callable[P, R], LazyRoutine(out, sig, *lazy))
        out.__name__ = out.__qualname__ = sig.__name__
        if not out.__doc__ and doc is not None:
            out.__doc__ = doc.__doc__
        return cast(Callable[P, R], out)
    return face


def checked(f: Callable[P, R]) -> Callable[P, R]:
    """``f`` as it is (its own types, arguments and results untouched); a misuse is a LayoutError."""
    return api(f, wrap=False, plain=False)(f)


def ints(f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` on IntTuples checked first (integer leaves, bounded nesting); ``f``'s docstring."""
    @functools.wraps(f)
    def on_int_tuples(*args: Any) -> Any:
        return f(*[as_int_tuple(a) for a in args])
    return on_int_tuples


class LazyRoutine:
    """A public function whose implementation lives in a module imported on first use.

    Called, it is ``entry``; ``__doc__`` is the docstring of ``module.name`` (importing the
    module then: ``help()`` on it costs that import, an ``import cute_sym`` does not). A
    routine to ``inspect`` and ``pydoc`` (a non-data descriptor, bound to nothing).
    """

    def __init__(self, entry: Callable[..., Any], sig: Callable[..., Any], module: str, name: str) -> None:
        self._entry, self._sig, self._module, self._name = entry, sig, module, name
        self.__name__ = self.__qualname__ = sig.__name__
        self.__module__ = module        # (doctest collects the docstring there, once)

    def __call__(self, *args: Any, **kw: Any) -> Any:
        return self._entry(*args, **kw)

    def __get__(self, obj: Any, objtype: Any = None) -> "LazyRoutine":
        return self

    @property
    def __doc__(self) -> Optional[str]:  # type: ignore[override]  # read-only: the implementation's
        return cast(Optional[str], getattr(importlib.import_module(self._module), self._name).__doc__)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self._sig)

    def __repr__(self) -> str:
        return f"<function cute_sym.{self.__name__}>"

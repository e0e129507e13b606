"""sympy, imported on first use: a static computation never pays for it.

Modules write ``if TYPE_CHECKING: import sympy`` / ``else: from ..lazy import
sympy`` and use ``sympy.X`` as usual; the first attribute read imports sympy
(about 0.3-2 s of CPU) and each attribute is then cached on the proxy, so a
later read costs what a module attribute costs. ``is_basic``/``is_expr`` answer
``False`` without importing anything while sympy is not loaded: no object can
be a sympy object before sympy exists.

>>> from cute_sym.core.lazy import is_basic
>>> is_basic(4), is_basic((4, 2))
(False, False)
"""
from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from typing import TypeGuard

if TYPE_CHECKING:
    import sympy as _sympy

__all__ = ["sympy", "is_basic", "is_expr"]


class _LazyModule:
    """A stand-in for a module that imports it on the first attribute read."""

    def __init__(self, name: str) -> None:
        self.__dict__["_lazy_name"] = name

    def __getattr__(self, attr: str) -> Any:
        value = getattr(importlib.import_module(self.__dict__["_lazy_name"]), attr)
        self.__dict__[attr] = value
        return value

    def __repr__(self) -> str:
        return f"<lazy module {self.__dict__['_lazy_name']!r}>"


sympy: Any = _LazyModule("sympy")
_MODULES = sys.modules


def is_basic(x: object) -> "TypeGuard[_sympy.Basic]":
    """``isinstance(x, sympy.Basic)``, without importing sympy."""
    return type(x) is not int and "sympy" in _MODULES and isinstance(x, sympy.Basic)


def is_expr(x: object) -> "TypeGuard[_sympy.Expr]":
    """``isinstance(x, sympy.Expr)``, without importing sympy."""
    return type(x) is not int and "sympy" in _MODULES and isinstance(x, sympy.Expr)

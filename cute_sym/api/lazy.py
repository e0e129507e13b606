"""What ``cute_sym`` loads on first use: the MMA/copy atoms and tiled ones, the algorithms over
memory, pictures and analyses, and the sympy-backed classes. ``cute_sym.__getattr__`` asks
:func:`attr` with the package's tables (public name -> where it lives), so ``import cute_sym``
compiles and runs only the algebra's code and imports neither sympy nor NumPy.

The Jupyter reprs are wired here, at the top: the lower layers never import views (see
:mod:`cute_sym.views.notebook`); TiledMMA and TiledCopy get theirs when they first load.
"""
from __future__ import annotations

import importlib
from typing import Any, Mapping

from ..layout.layout import Layout
from ..swizzle import ComposedLayout, Swizzle
from ..tensor import Tensor
from ..views import notebook
from .face import api, checked

notebook.wire(Layout, ComposedLayout, Tensor, Swizzle)

#: (module under cute_sym, attribute, how it is entered: None as it is, "checked", or api's options)
AtomEntry = tuple[str, str, Any]


def _module(name: str) -> Any:
    return importlib.import_module(f"cute_sym.{name}")


def atom_attr(name: str, entry: AtomEntry) -> Any:
    """The public ``name`` of the atoms' layer (``entry`` says where and how), loaded now."""
    module, attr_name, how = entry
    impl = getattr(_module(module), attr_name)
    from ..tensor.copy import TiledCopy
    from ..tensor.mma import TiledMMA
    notebook.wire(TiledMMA, TiledCopy)
    if how is None:
        return impl
    if how == "checked":
        return checked(impl)

    def face(*args: Any, **kw: Any) -> Any: ...
    face.__name__ = face.__qualname__ = name
    return api(impl, **how)(face)


def attr(name: str, atoms: Mapping[str, AtomEntry], execute: Mapping[str, str], pictures: Mapping[str, str],
         analyses: tuple[str, ...], plain: Mapping[str, str]) -> Any:
    """The value of the public ``name`` that loads on first use (``atoms``: where and how;
    ``execute``, ``plain``: the module that holds it; ``pictures``: the module of a picture function,
    entered checked; ``analyses``: a name of :mod:`cute_sym.analysis`); AttributeError for any other."""
    if name in ("DynSymbol", "IMod"):
        return getattr(_module("core.symbolic"), name)
    if name == "FloorDiv":
        return _module("codegen.expr").FloorDiv
    if name in atoms:
        return atom_attr(name, atoms[name])
    if name in execute:
        return getattr(_module(execute[name]), name)
    if name in pictures:
        return checked(getattr(_module(pictures[name]), name))
    if name in analyses:
        return getattr(_module("analysis"), name)
    if name in plain:
        return getattr(_module(plain[name]), name)
    raise AttributeError(f"module 'cute_sym' has no attribute {name!r}")

"""Code for TMEM addresses: a TMEM tensor's element ``i`` as its tensor-memory word address.

A TMEM address is ``(lane << 16) + column`` (see :mod:`cute_sym.tensor.tmem_space`); an element
offset ``k`` of ``tmem_ptr<T>`` is ``lane * DP<T> + column * (32 / sizeof_bits<T>) + sub-word``,
so the address is ``base + (k >> OffsetShift)``. :func:`cute_sym.codegen.emit.emit` writes it for
a tensor over TMEM.
"""
from __future__ import annotations

import re
from typing import Any

import sympy

from ..core.errors import LayoutError
from ..tensor import Tensor
from ..tensor.engine import Pointer
from ..tensor.tmem_space import TMEM_DP
from .expr import FloorDiv

__all__ = ["tmem_address"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def tmem_address(e: Any, t: Tensor, prm: list[str], desc: str) -> tuple[Any, list[str], str]:
    """A TMEM tensor's element ``i`` as its TMEM word address: ``base + (lane << 16) + column``,
    which is ``base + (offset >> OffsetShift)`` (the elements of a narrower type share a column; see
    :mod:`cute_sym.tensor.tmem_space`). The base is a parameter named after the pointer's base,
    unless that is ``tmem`` (``make_tmem_ptr(T, addr)``: the absolute address is in the offset)."""
    eng = t.engine
    if not isinstance(eng, Pointer):
        raise LayoutError(f"emit: {t} is not over a TMEM pointer")
    per_word = TMEM_DP(eng.dtype or "uint32_t") >> 16
    e = FloorDiv(e, per_word) if per_word > 1 else e
    if eng.name != "tmem":
        if not _IDENT.match(eng.name):
            raise LayoutError(f"emit: the TMEM base {eng.name!r} is not an identifier")
        e = e + sympy.Symbol(eng.name, integer=True, nonnegative=True)
        prm = sorted(set(prm) | {eng.name})
    base = "its base" if eng.name == "tmem" else eng.name
    off = f"(offset >> {per_word.bit_length() - 1})" if per_word > 1 else "offset"
    desc = (f"TMEM address (lane << 16 | column) of element i of the tensor {t}: {base} + {off} (0 <= i < "
            + desc.rsplit("(0 <= i < ", 1)[1])
    return e, prm, desc

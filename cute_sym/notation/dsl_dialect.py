"""The notation of NVIDIA's CuTe Python DSL (``nvidia-cutlass-dsl``), read into cute_sym values.

The DSL prints what its types know, which is not CuTe C++'s text:

* an integer it knows at trace time is *static* and prints bare: ``(4,8):(8,1)``
  is C++'s ``(_4,_8):(_8,_1)``;
* a run-time value prints ``?``, or ``?{div=8}`` where the DSL knows it is a
  multiple of 8: each becomes a fresh dynamic symbol (``d0``, ``d1``, ... in the
  order of the text, skipping names the text uses) with that divisibility,
  positive in a shape, of any sign in a stride. The DSL does not say that two
  ``?`` are one value (``(?,8):(1,?)`` may be ``(m,8):(1,m)``), so two ``?``
  are two symbols;
* a swizzle prints ``S<3,4,3>``, a swizzled layout ``S<3,4,3> o 0 o (8,64):(64,1)``;
* a scaled basis ``1@0``, a coordinate tensor ``tensor<(0,0) o (4,8):(1@0,1@1)>``, a tensor
  in memory ``tensor<ptr<f16, smem, align<16>> o (8,64):(64,1)>`` (read over a pointer named
  ``t``: the DSL prints no name);
* Python's tuples of its values print with spaces, ``(4, 8)``, and a traced
  integer as ``Int32(?)``.

``_4`` and identifiers are read as in CuTe's notation, so text written by hand
may mix both.

>>> print(parse_dsl("(4,8):(8,1)"), parse_dsl("S<3,4,3> o 0 o (8,64):(64,1)"))
(_4,_8):(_8,_1) Sw<3,4,3> o _0 o (_8,_64):(_64,_1)
>>> L = parse_dsl("(?{div=8},8):(1,?)")
>>> print(L, L.shape[0].divisor, L.stride[1].is_positive)
(d0,_8):(_1,d1) 8 None
>>> print(parse_dsl("tensor<(0,0) o (4,8):(1@0,1@1)>"), parse_dsl("(Int32(?), 8)"))
ArithTuple(_0,_0) o (_4,_8):(_1@0,_1@1) (d0,_8)
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Optional

from ..core.integers import Dyn
from .notation import _DIALECTS, _Reader, _parse_with

__all__ = ["parse_dsl", "DSL_TOKEN"]

#: The DSL's tokens, named by the kinds of CuTe's reader (a bare number is a static ``st``).
DSL_TOKEN = re.compile(
    r"\s*(?:(?P<sw>S(?:w)?<\s*-?\d+\s*,\s*-?\d+\s*,\s*-?\d+\s*>)|(?P<o>\bo\b)|(?P<st>_?\d+)"
    r"|(?P<dyn>\?(?:\{[^}]*\})?|Int(?:32|64)\(\s*\?\s*\))"
    r"|(?P<tensor>tensor<)|(?P<dptr>ptr<(?:[^<>]|<[^<>]*>)*>)|(?P<at>@\d+)|(?P<id>[A-Za-z][A-Za-z0-9_]*)|(?P<op>//|[-+*%(),:/>])|(?P<us>_))")


#: The DSL's (MLIR's) element type names, as CuTe C++'s.
_IR_TYPES = {"f16": "half_t", "bf16": "bfloat16_t", "f32": "float", "tf32": "tfloat32_t", "f64": "double",
             "i8": "int8_t", "ui8": "uint8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
             "f8E4M3FN": "float_e4m3_t", "f8E5M2": "float_e5m2_t"}


class _DSLReader(_Reader):
    pattern = DSL_TOKEN

    strict = False      # (from_dsl: the DSL never prints a name, so a name is not a value)

    def __init__(self, text: str, symbols: Mapping[str, Any], positive: frozenset[str] = frozenset()) -> None:
        super().__init__(text, symbols, positive)
        # the st tokens are read as ``_N``: a bare number is static in the DSL
        self.toks = [("st", "_" + v.lstrip("_"), c) if k == "st" else (k, v, c) for k, v, c in self.toks]
        used = {v for k, v, _ in self.toks if k == "id"}
        self.fresh: list[str] = []
        i = 0
        for k, _v, _c in self.toks:
            if k == "dyn":
                while f"d{i}" in used:
                    i += 1
                self.fresh.append(f"d{i}")
                i += 1
        self.n_dyn = 0

    def elem(self, role: str) -> Any:
        tok = self.peek()
        if tok is not None and tok[0] == "tensor" and self.peek(1) is not None and self.peek(1)[0] == "dptr":  # type: ignore[index]
            self.take()
            ptr = self.take()[1]
            parts = [p.strip() for p in ptr[4:-1].split(",")]
            from .notation import _build
            space = parts[1] if len(parts) > 1 and parts[1] in ("gmem", "smem", "rmem") else "gmem"
            o = self.peek()
            if o is None or o[0] != "o":
                raise self.fail("expected ' o ' after the tensor's pointer")
            self.take()
            layout = self.elem("shape")
            self.take(">")
            return _build("pointer_tensor", self, space, "t", _IR_TYPES.get(parts[0]), 0, layout)
        if tok is not None and tok[0] == "tensor":
            self.take()
            start = self.tup("shape")
            tok = self.peek()
            if tok is None or tok[0] != "o":
                raise self.fail("expected ' o ' after the tensor's start")
            self.take()
            from ..stride.basis import ArithmeticTuple
            from .notation import _coord_tensor
            begin = ArithmeticTuple(start) if type(start) is tuple else start
            layout = self.elem("shape")
            self.take(">")
            return _coord_tensor(begin, layout, self)
        return super().elem(role)

    def atom(self, role: str) -> Any:
        tok = self.peek()
        if tok is not None and tok[0] == "dyn":
            self.take()
            m = re.search(r"div\s*=\s*(\d+)", tok[1])
            name = self.fresh[self.n_dyn]
            self.n_dyn += 1
            if name in self.symbols:
                return self.symbols[name]
            div = int(m.group(1)) if m else 1
            return Dyn(name, divisible_by=div, sign="any" if role == "stride" else "positive")
        if self.strict and tok is not None and tok[0] == "id":
            raise self.fail(f"the DSL printed the name {tok[1]!r}, which is no value it has")
        return super().atom(role)


class _StrictDSLReader(_DSLReader):
    strict = True


def parse_dsl(text: str, symbols: Optional[Mapping[str, Any]] = None, strict: bool = False) -> Any:
    """Read the DSL's printed text (``print(layout)`` at trace time, ``str(layout.type)``).

    ``symbols`` maps identifiers, also the fresh names ``d0, d1, ...`` the ``?``
    get, to the integers to use for them. ``strict`` refuses identifiers (the DSL itself
    never prints one: its ``x:x`` is no layout).

    @post a static text reads to the static value CuTe C++ prints with ``_``:
          ``str(parse_dsl(t)) == t`` once ``_`` is put before each number and
          ``S<`` is written ``Sw<``; each ``?{div=N}`` is a fresh symbol ``d_k``
          with ``divisor == N``.

    >>> print(parse_dsl("((2,3),4):((1,2),-6)"), parse_dsl("(?,8):(1,?)", {"d0": 16}))
    ((_2,_3),_4):((_1,_2),_-6) (_16,_8):(_1,d1)
    """
    return _parse_with(_StrictDSLReader if strict else _DSLReader, text, symbols)


_DIALECTS["dsl"] = parse_dsl

"""Source code for layouts and index expressions: C, CUDA, Python, NumPy, CuTe.

:func:`emit` lowers an index expression (see :mod:`cute_sym.codegen.expr`) to a small
operation DAG, then prints it. The lowering is where the target's integer
tricks happen, all of them exact for the non-negative indices and
coordinates a layout takes:

* a static power-of-two divisor is a shift (``i >> 2``), a modulus a mask
  (``i & 7``); a mask is dropped when the bounds show it keeps every bit;
* a power-of-two stride folds into the shift and mask of its coordinate:
  ``((i >> 5) & 1) * 16`` is ``(i >> 1) & 16``, ``(i & 3) * 32`` is
  ``(i << 5) & 96``; coordinate fields with the same shift merge into one mask;
  a field is printed mask first, ``(i & 28) >> 2`` (the same two operations,
  which nvcc fuses with the following add into one ``LEA``/``LEA.HI``);
* terms sharing a dynamic factor are factored (Horner): ``x*M + y*M*N`` is
  ``(x + y*N)*M``; equal subexpressions are computed once (temporaries);
* the integer type is 32-bit when the bounds prove every value fits, 64-bit
  otherwise (the source says which and why in a comment).

:func:`count_ops` counts the arithmetic and bitwise operators of emitted C;
:func:`canonical_op_count` is the operation count of the coalesced canonical
form, the bar every emitted body meets.

>>> from cute_sym.notation import parse
>>> print(emit(parse("(_4,_8):(_8,_1)"), "python"))
def offset(i: int) -> int:
    \"\"\"Offset of the layout (_4,_8):(_8,_1) at the 1-D index i (0 <= i < 32).\"\"\"
    return (i >> 2) + ((i & 3) << 3)
"""
from __future__ import annotations

import re
from typing import Any, Optional, Union

import sympy

from ..algebra import coalesce
from ..core.errors import LayoutError
from .expr import dynamic_divisors, index_expr
from .formula_text import CXX, formula_text
from .tmem_address import tmem_address as _tmem_address
from ..core.int_tuple import iter_leaves, product
from ..layout.layout import Layout
from ..swizzle import ComposedLayout, Swizzle
from ..tensor import Tensor
from ..tensor.engine import Pointer
from .dag import Node, _Dag, _I32, _leaves, lower
from .names import fresh_name, safe_names


__all__ = ["emit", "count_ops", "canonical_op_count", "lower", "LANGS"]

LANGS = ("c", "cuda", "python", "numpy", "cute", "dsl")   # "dsl": the CuTe Python DSL (emit_dsl)



# ---------------------------------------------------------------- printing
_PREC = {"|": 1, "&": 2, "<<": 3, ">>": 3, "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}


class _Printer:
    def __init__(self, roots: list[Node], lang: str, tmp: str, rename: Optional[dict[str, str]] = None) -> None:
        self.lang = lang
        self.rename = rename or {}
        uses: dict[Node, int] = {}
        seen: set[Node] = set()

        def visit(n: Node) -> None:
            for ch in n[1:] if n[0] not in ("c", "v") else ():
                uses[ch] = uses.get(ch, 0) + 1
                if ch not in seen:
                    seen.add(ch)
                    visit(ch)
        for r in roots:
            if r not in seen:
                seen.add(r)
                visit(r)
        self.ops = sum(1 for n in seen if n[0] not in ("c", "v"))
        self.temps: dict[Node, str] = {}
        self.order: list[Node] = []

        def topo(n: Node, done: set[Node]) -> None:
            if n in done or n[0] in ("c", "v"):
                return
            done.add(n)
            for ch in n[1:]:
                topo(ch, done)
            if uses.get(n, 0) >= 2:
                self.temps[n] = f"{tmp}{len(self.temps)}"
                self.order.append(n)
        done: set[Node] = set()
        for r in roots:
            topo(r, done)

    def atom(self, n: Node) -> str:
        if n[0] == "c":
            return str(n[1])
        if n[0] == "v":
            return self.rename.get(str(n[1]), str(n[1]))
        return self.temps[n]

    def _field(self, a: Node, b: Node) -> Optional[str]:
        """A bit field ``(x >> s) & m`` written mask first, ``(x & (m << s)) >> s`` (and ``<<`` alike).

        The same two operations on the same bits; nvcc fuses a masked value's
        shift with the add that follows (one LEA / LEA.HI), not a shift's mask.
        """
        if b[0] != "c" or b[1] < 0 or a[0] not in (">>", "<<") or a in self.temps or a[2][0] != "c":
            return None
        x, s, m = a[1], a[2][1], b[1]
        mask = m << s if a[0] == ">>" else m >> s
        if mask >= _I32[1] or (a[0] == "<<" and (mask << s) != m):
            return None
        inner = self.expr(x, False)
        if x[0] not in ("c", "v") and x not in self.temps:
            inner = f"({inner})"
        return f"({inner} & {mask}) {a[0]} {s}"

    def expr(self, n: Node, top: bool = True) -> str:
        if n[0] in ("c", "v") or (not top and n in self.temps):
            s = self.atom(n)
            return f"({s})" if n[0] == "c" and n[1] < 0 else s
        if n[0] == "neg":
            return f"-({self.expr(n[1], False)})"
        op, a, b = n
        field = self._field(a, b) if op == "&" else None
        if field is not None:
            return field
        sym = "//" if op == "/" and self.lang in ("python", "numpy") else op
        left = self.expr(a, False)
        right = self.expr(b, False)
        if a[0] not in ("c", "v") and a not in self.temps and not (op in "+-" and a[0] in "+-"):
            left = f"({left})"
        if b[0] not in ("c", "v") and b not in self.temps:
            right = f"({right})"
        return f"{left} {sym} {right}"


def _ctype(dag: _Dag, roots: list[Node], params: list[str]) -> tuple[str, str]:
    nodes: list[Node] = []
    stack = list(roots)
    seen: set[Node] = set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        nodes.append(n)
        if n[0] not in ("c", "v"):
            stack.extend(n[1:])
    nodes.extend(("v", p) for p in params)
    for n in nodes:
        lo, hi = dag.bounds(n)
        if lo is None or hi is None or lo < _I32[0] or hi > _I32[1]:
            why = "values are not bounded" if lo is None or hi is None else "values reach 2^31"
            return "int64_t", f"64-bit: the largest offset or intermediate may exceed 2^31-1 ({why})"
    return "int32_t", "32-bit: every offset and intermediate value is proved below 2^31"


# ---------------------------------------------------------------- emit
def _prepare(obj: Any) -> tuple[Any, list[str], list[str], str]:
    """(expression(s), index names, parameter names, description)."""
    if isinstance(obj, Layout):
        size = product(obj._shape)
        e = index_expr(obj)
        lay_syms = sympy.Tuple(*iter_leaves((obj._shape, obj._stride))).free_symbols
        iname = fresh_name("i", {x.name for x in lay_syms})     # the index symbol index_expr took
        idx = [iname]
        desc = f"Offset of the layout {obj} at the 1-D index {iname} (0 <= {iname} < {size})"
    else:
        e = obj
        for x in _leaves(e) if isinstance(e, (tuple, list)) else (e,):
            if not isinstance(x, (int, sympy.Basic)) or isinstance(x, bool):
                raise LayoutError(f"emit takes a Layout, a swizzled ComposedLayout, a Tensor over a pointer or an "
                                  f"index expression (index_expr / coord_expr), got {type(x).__name__}: {x!r}")
        if isinstance(e, (tuple, list)):
            e = tuple(sympy.sympify(x) if not isinstance(x, (tuple, list)) else x for x in e)
        else:
            e = sympy.sympify(e)
        idx = []
        desc = f"{_flat_str(e)}"
    names: set[str] = set()
    for x in _leaves(e):
        for s in sympy.sympify(x).free_symbols:
            names.add(s.name)
    if not idx:     # index variables: the non-negative, not positive symbols (coordinates)
        for x in _leaves(e):
            for s in sympy.sympify(x).free_symbols:
                if s.is_nonnegative and not s.is_positive and s.name not in idx:
                    idx.append(s.name)
        idx.sort()
    if isinstance(obj, Layout):
        names |= {x.name for x in lay_syms}
    params = sorted(n for n in names if n not in idx)
    return e, [n for n in idx if n in names or isinstance(obj, Layout)], params, desc


def _tensor_parts(t: Tensor, lang: str) -> tuple[Any, Any]:
    """(layout, pointer offset) of a tensor over a pointer: element ``i`` is at the pointer's
    base plus ``offset + layout(i)``."""
    eng = t.engine
    if not isinstance(eng, Pointer):
        raise LayoutError(f"emit: the tensor {t} is over {eng}, not a pointer: only a pointer's elements have "
                          "offsets (emit its layout)")
    if lang == "cute":
        raise LayoutError(f"emit: 'cute' builds a layout, and {t} is a tensor (emit its layout)")
    if isinstance(t.layout, ComposedLayout) and not (type(eng.offset) is int and eng.offset == 0):
        raise LayoutError(f"emit: the pointer of {t} is moved by {eng.offset} outside the swizzle; the swizzle "
                          "applies to the layout's offsets alone (emit the layout and add it)")
    return t.layout, eng.offset


def _flat_str(e: Any) -> str:
    if isinstance(e, tuple):
        return "(" + ", ".join(_flat_str(x) for x in e) + ")"
    return str(e)


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def emit(obj: Any, lang: str, name: str = "offset", params: Optional[list[str]] = None,
         index_type: Optional[str] = None) -> str:
    """Source code computing a layout's offset (or an index expression) in ``lang``.

    ``obj`` is a :class:`Layout` (its 1-D offset function, argument ``i``), a
    swizzled :class:`ComposedLayout` ``Sw<B,M,S> o O o L`` (the offset of ``L``
    plus ``O``, then the swizzle's xor), a :class:`~cute_sym.tensor.Tensor` over a pointer
    (element ``i``'s offset from the pointer's base: its offset plus its layout's, the
    symbols of both parameters; over a TMEM pointer, the element's TMEM address ``base + (lane << 16) +
    column``, the base a parameter named as the pointer's), a sympy expression from :func:`~cute_sym.codegen.expr.index_expr` /
    :func:`~cute_sym.codegen.expr.coord_expr`, or a tuple of them (several outputs).
    ``lang`` is one of

    * ``"c"``: a C99 function ``T name(T i, T M, ...)`` with the dynamic
      symbols as extra parameters in name order (``T`` is ``int32_t`` when
      every value is proved below 2^31, else ``int64_t``; a comment says
      which); several outputs are written to ``T *out``;
    * ``"cuda"``: the same as a ``__device__ __forceinline__`` function;
    * ``"python"``: a function on Python ints;
    * ``"numpy"``: a function vectorised over an array of indices;
    * ``"cute"``: CuTe C++ building the same layout (``Int<N>{}`` leaves),
      for a layout only.

    ``index_type`` (``"int32"`` or ``"int64"``) sets ``T`` for C and CUDA
    instead of the proof: ``"int32"`` is the caller's statement that every
    value fits (as CuTe's ``int`` extents are), said in the comment; it is
    refused when the bounds prove a value reaches 2^31.

    For an expression the index arguments are its non-negative symbols (in
    name order), the parameters the rest; ``params`` overrides the order of
    all arguments. Dynamic divisors (a run-time division) are flagged in a
    comment.

    @pre indices and coordinates are in range and non-negative.
    @post the function returns ``layout(i)`` for every ``0 <= i < size``;
          its operator count is at most ``canonical_op_count(layout, atoms=False)`` (a
          composite dynamic extent or stride such as ``M/128`` costs the operations that
          compute it), and at most ``canonical_op_count(layout)`` for a static layout; a
          swizzle adds its xor's three operations.

    >>> from cute_sym.notation import parse
    >>> print(emit(parse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"), "c"))
    #include <stdint.h>
    /* Offset of the layout ((_4,_8),(_2,_2)):((_32,_1),(_16,_8)) at the 1-D index i (0 <= i < 128).
       32-bit: every offset and intermediate value is proved below 2^31 */
    int32_t offset(int32_t i) {
        return ((i & 28) >> 2) + ((i & 64) >> 3) + ((i & 32) >> 1) + ((i & 3) << 5);
    }
    >>> M = sympy.Symbol("M", integer=True, positive=True)
    >>> print(emit(parse("(_4,M):(M,_1)", {"M": M}), "cuda", name="f"))
    #include <stdint.h>
    /* Offset of the layout (_4,M):(M,_1) at the 1-D index i (0 <= i < 4*M).
       64-bit: the largest offset or intermediate may exceed 2^31-1 (values are not bounded) */
    __device__ __forceinline__ int64_t f(int64_t i, int64_t M) {
        return (i >> 2) + ((i & 3) * M);
    }
    >>> print(emit(parse("(_4,M):(M,_1)", {"M": M}), "cuda", index_type="int32").splitlines()[2:4])
    ['   32-bit as asked (index_type="int32"): the caller guarantees every value is below 2^31 */', '__device__ __forceinline__ int32_t offset(int32_t i, int32_t M) {']
    >>> print(emit(parse("Sw<2,2,3> o _0 o (_8,_32):(_32,_1)"), "c").splitlines()[-4:])
    ['int32_t offset(int32_t i) {', '    const int32_t o = (i >> 3) + ((i & 7) << 5);', '    return o ^ ((o & 96) >> 3);', '}']
    >>> print(emit(parse("(_4,M):(_1,_4)"), "cute"))
    // (_4,M):(_1,_4)
    inline auto offset(int64_t M) {
        return cute::make_layout(cute::make_shape(cute::Int<4>{}, M), cute::make_stride(cute::Int<1>{}, cute::Int<4>{}));
    }
    """
    if lang not in LANGS:
        raise LayoutError(f"emit: unknown language {lang!r} (one of {', '.join(LANGS)})")
    if not _IDENT.match(name):
        raise LayoutError(f"emit: {name!r} is not an identifier")
    if index_type not in (None, "int32", "int64"):
        raise LayoutError(f"emit: index_type must be 'int32' or 'int64', got {index_type!r}")
    if lang == "dsl":
        from .emit_dsl import emit_dsl
        return emit_dsl(obj, name)
    base: Any = 0       # a tensor's pointer offset, added to its layout's
    tensor = obj if isinstance(obj, Tensor) else None
    if tensor is not None:
        obj, base = _tensor_parts(tensor, lang)
    if lang == "cute":
        return _emit_cute(obj, name)
    swz: Optional[Swizzle] = None
    if isinstance(obj, ComposedLayout):
        if not isinstance(obj.layout_a, Swizzle) or not isinstance(obj.layout_b, Layout):
            raise LayoutError(f"emit: a composed layout must be a swizzle over a plain layout, got {obj}")
        swz = obj.layout_a
        e, idx, prm, desc = _prepare(obj.layout_b)
        e = e + obj.offset if not (type(obj.offset) is int and obj.offset == 0) else e
        desc = f"Offset of the swizzled layout {obj} at the 1-D index i" + desc.split("at the 1-D index i", 1)[1]
        prm = sorted(set(prm) | {x.name for x in sympy.sympify(obj.offset).free_symbols})
    else:
        e, idx, prm, desc = _prepare(obj)
    if tensor is not None:
        if not (type(base) is int and base == 0):
            e = e + base
            prm = sorted(set(prm) | {x.name for x in sympy.sympify(base).free_symbols} - set(idx))
        desc = f"Offset of element i of the tensor {tensor} from its pointer's base (0 <= i < " \
            + desc.rsplit("(0 <= i < ", 1)[1]
        if isinstance(tensor.engine, Pointer) and tensor.engine.space == "tmem":
            e, prm, desc = _tmem_address(e, tensor, prm, desc)
    args = idx + prm
    if params is not None:
        if sorted(params) != sorted(args):
            raise LayoutError(f"emit: params {params} must name exactly the arguments {args}")
        args = list(params)
    for a in args:
        if not _IDENT.match(a):
            raise LayoutError(f"emit: symbol {a!r} is not an identifier")
    multi = isinstance(e, tuple)
    # names the target forbids or the generated code uses are renamed (deterministically, never onto another)
    rename = safe_names(args, lang, {name, "out"} if multi else {name})
    if rename:
        desc += "; argument " + ", ".join(f"{v} is the symbol {k}" for k, v in sorted(rename.items()))
    orig_args = args
    args = [rename.get(a, a) for a in args]
    idx = [rename.get(a, a) for a in idx]
    roots, dag = lower(e)
    tmp = "t"
    while any(re.match(rf"^{tmp}\d+$", a) for a in args) or tmp == name:
        tmp += "_"
    pr = _Printer(roots, lang, tmp, rename)
    dyn = dynamic_divisors(_flat_tuple(e))
    flag = ("run-time division by " + ", ".join(str(x) for x in dyn)) if dyn else ""
    final = None
    if swz is not None:
        o = fresh_name("o", set(args) | {name})
        sh = f">> {swz.shift}" if swz.shift >= 0 else f"<< {-swz.shift}"
        final = (o, f"{o} ^ (({o} & {swz.yyy_msk}) {sh})")
    if lang in ("c", "cuda"):
        ctype, why = _ctype(dag, roots, orig_args)
        if index_type is not None:
            if index_type == "int32" and ctype == "int64_t" and "reach" in why:
                raise LayoutError("emit: index_type='int32' but a value is proved to reach 2^31")
            if index_type == "int32" and ctype == "int64_t":
                ctype, why = "int32_t", '32-bit as asked (index_type="int32"): the caller guarantees every value is below 2^31'
            elif index_type == "int64":
                ctype, why = "int64_t", '64-bit as asked (index_type="int64")'
        lines = ["#include <stdint.h>", f"/* {desc}."]
        if flag:
            lines.append(f"   {flag} (dynamic divisor: consider precomputed fast division)")
        lines[-1:] = [lines[-1], f"   {why} */"]
        arglist = ", ".join(f"{ctype} {a}" for a in args)
        qual = "__device__ __forceinline__ " if lang == "cuda" else ""
        if multi:
            sig = f"{qual}void {name}({arglist}{', ' if arglist else ''}{ctype} *out) {{"
        else:
            sig = f"{qual}{ctype} {name}({arglist}) {{"
        lines.append(sig)
        used = {rename.get(x.name, x.name) for x in _flat_tuple(e).free_symbols}
        for a in args:
            if a not in used:
                lines.append(f"    (void){a};")
        for n in pr.order:
            lines.append(f"    const {ctype} {pr.temps[n]} = {pr.expr(n)};")
        if multi:
            for k, r in enumerate(roots):
                lines.append(f"    out[{k}] = {pr.expr(r)};")
        elif final is not None:
            lines.append(f"    const {ctype} {final[0]} = {pr.expr(roots[0])};")
            lines.append(f"    return {final[1]};")
        else:
            lines.append(f"    return {pr.expr(roots[0])};")
        lines.append("}")
        return "\n".join(lines)
    # python / numpy
    lines = []
    if lang == "numpy":
        lines += ["import numpy as np", "", ""]
        lines.append(f"def {name}({', '.join(args)}):  # type: ignore[no-untyped-def]")
    else:
        hints = ", ".join(f"{a}: int" for a in args)
        ret = "tuple[int, ...]" if multi else "int"
        lines.append(f"def {name}({hints}) -> {ret}:")
    doc = desc + ("." if not flag else f"; {flag}.")
    if lang == "numpy":
        doc += " Vectorised: index arguments may be integer arrays (int64)."
    lines.append(f'    """{doc}"""')
    if lang == "numpy":
        for a in idx:
            lines.append(f"    {a} = np.asarray({a}, dtype=np.int64)")
    for n in pr.order:
        lines.append(f"    {pr.temps[n]} = {pr.expr(n)}")
    if multi:
        it = iter(roots)
        lines.append(f"    return {_nest(e, it, pr)}")
    elif final is not None:
        lines.append(f"    {final[0]} = {pr.expr(roots[0])}")
        lines.append(f"    return {final[1]}")
    else:
        lines.append(f"    return {pr.expr(roots[0])}")
    return "\n".join(lines)


def _flat_tuple(e: Any) -> Any:
    return sympy.Tuple(*[sympy.sympify(x) for x in _leaves(e)])


def _nest(e: Any, it: Any, pr: _Printer) -> str:
    if isinstance(e, tuple):
        inner = ", ".join(_nest(x, it, pr) for x in e)
        return f"({inner}{',' if len(e) == 1 else ''})"
    return pr.expr(next(it))


# ---------------------------------------------------------------- CuTe
def _cute_leaf(x: Any) -> str:
    if type(x) is int:
        return f"cute::Int<{x}>{{}}"
    return _cxx(sympy.sympify(x))


def _cxx(e: Any) -> str:
    """A dynamic integer formula as C++ text (``4*M``, ``cute::ceil_div(M, 128)``)."""
    return formula_text(e, CXX)


def _cute_tuple(t: Any, maker: str) -> str:
    if isinstance(t, tuple):
        return f"cute::{maker}(" + ", ".join(_cute_tuple(x, maker) for x in t) + ")"
    return _cute_leaf(t)


def _cute_type(t: Any, what: str) -> str:
    if isinstance(t, tuple):
        return f"cute::{what}<" + ", ".join(_cute_type(x, what) for x in t) + ">"
    return f"cute::Int<{t}>"


def _renamed(t: Any, ren: dict[Any, Any]) -> Any:
    if isinstance(t, tuple):
        return tuple(_renamed(x, ren) for x in t)
    return t.xreplace(ren) if ren and isinstance(t, sympy.Basic) else t


def _emit_cute(obj: Any, name: str, offset: Any = None) -> str:
    if isinstance(obj, ComposedLayout) and isinstance(obj.layout_a, Swizzle) and isinstance(obj.layout_b, Layout):
        inner = _emit_cute(obj.layout_b, name, obj.offset).splitlines()
        sw = obj.layout_a
        off = inner.pop(-4)[len("// offset "):]
        ret = inner[-2].replace("return cute::make_layout(", "return cute::composition(cute::Swizzle<"
                                f"{sw.bits},{sw.base},{sw.shift}>{{}}, {off}, cute::make_layout(")
        return "\n".join([f"// {obj}"] + [ln for ln in inner[1:-2] if not ln.startswith("using ")]
                         + [ret[:-1] + ");", inner[-1]])
    if not isinstance(obj, Layout):
        raise LayoutError("emit(..., 'cute') takes a Layout or a swizzled ComposedLayout")
    s, d = obj._shape, obj._stride
    leaves = list(iter_leaves((s, d))) + ([] if offset is None else [offset])
    syms = sorted({x.name for x in leaves if isinstance(x, sympy.Basic) for x in x.free_symbols})
    for a in syms:
        if not _IDENT.match(a):
            raise LayoutError(f"emit: symbol {a!r} is not an identifier")
    rename = safe_names(syms, "cute", {name, name + "_t"})
    if rename:      # a symbol named like a C++ keyword or a generated name takes a fresh name
        ren = {x: sympy.Symbol(rename[x.name]) for x in leaves if isinstance(x, sympy.Basic)
               for x in x.free_symbols if x.name in rename}
        s, d, offset = _renamed(s, ren), _renamed(d, ren), _renamed(offset, ren)
        syms = [rename.get(x, x) for x in syms]
    shape = _cute_tuple(s if isinstance(s, tuple) else (s,), "make_shape")
    stride = _cute_tuple(d if isinstance(d, tuple) else (d,), "make_stride")
    if not isinstance(s, tuple):
        shape = _cute_leaf(s)
        stride = _cute_leaf(d)
    lines = [f"// {obj}" + ("".join(f"; argument {v} is the symbol {k}" for k, v in sorted(rename.items())))]
    if obj.is_static():
        st = _cute_type(s if isinstance(s, tuple) else (s,), "Shape") if isinstance(s, tuple) else f"cute::Int<{s}>"
        dt = _cute_type(d if isinstance(d, tuple) else (d,), "Stride") if isinstance(d, tuple) else f"cute::Int<{d}>"
        lines.append(f"using {name}_t = cute::Layout<{st}, {dt}>;")
    if offset is not None:      # a swizzled layout's offset, read back by the caller
        lines.append(f"// offset {_cute_leaf(offset)}")
    args = ", ".join(f"int64_t {x}" for x in syms)
    lines.append(f"inline auto {name}({args}) {{")
    lines.append(f"    return cute::make_layout({shape}, {stride});")
    lines.append("}")
    return "\n".join(lines)


# ---------------------------------------------------------------- counting
_OPS = re.compile(r"<<|>>|[-+*/%&|^~]")


def count_ops(source: str) -> int:
    """Arithmetic and bitwise operators in the body of emitted C (or CUDA) code.

    Comments, the signature and the sign of a negative literal are not counted.

    >>> count_ops("int f(int i) { /* a + b */ return ((i << 5) & 96) + (i >> 2) - (-8); }")
    5
    """
    src = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    src = re.sub(r"//[^\n]*", " ", src)
    body = src[src.index("{") + 1: src.rindex("}")] if "{" in src else src
    body = re.sub(r"(?<=[(,=])\s*-\s*(?=\d)", " ", body)
    body = re.sub(r"\breturn\s*-\s*(?=\d)", "return ", body)
    return len(_OPS.findall(body))


def _atom_cost(x: Any) -> int:
    """Operations to compute a dynamic value in C (0 for a constant or a symbol)."""
    if type(x) is int:
        return 0
    e = sympy.sympify(x)
    if e.is_Integer or e.is_Symbol:
        return 0
    roots, dag = lower(e, {})
    return _Printer(roots, "c", "t").ops


def canonical_op_count(layout: Layout, atoms: bool = True) -> int:
    """Operations of the coalesced canonical form of ``layout``'s offset.

    Per non-zero-stride mode ``k`` of the coalesced layout: a division if
    ``k > 0``, a modulo unless ``k`` is the last mode, a multiplication unless
    the stride is 1; plus the additions between the terms. With
    ``atoms=False`` a composite dynamic stride or divisor (``4*M``) also
    costs the operations that compute it, once each, as written in C.

    >>> from cute_sym.notation import parse
    >>> canonical_op_count(parse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"))
    12
    >>> canonical_op_count(parse("(_4,M,N):(_1,_4,4*P)"), atoms=False)     # a padded pitch 4*P
    6
    """
    lay = coalesce(layout)
    S = list(iter_leaves(lay._shape))
    D = list(iter_leaves(lay._stride))
    n = len(S)
    ops = 0
    terms = 0
    composite: set[Any] = set()
    P: Any = 1
    for k in range(n):
        dk = D[k]
        if not (dk == 0):
            terms += 1
            if k > 0:
                ops += 1
                composite.add(P)
            if k < n - 1:
                ops += 1
                composite.add(S[k])
            if not (dk == 1):
                ops += 1
                composite.add(dk)
        P = P * S[k]
    ops += max(terms - 1, 0)
    if not atoms:
        ops += sum(_atom_cost(x) for x in composite)
    return ops


Emittable = Union[Layout, sympy.Expr, tuple[Any, ...]]

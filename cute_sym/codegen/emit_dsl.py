"""CuTe DSL code: the ``cutlass.cute`` statements that build a cute_sym value.

``emit(x, "dsl")`` prints a Python function that builds ``x`` with NVIDIA's CuTe Python
DSL, to call where DSL values exist (inside ``@cute.jit`` or a kernel). Static leaves are
Python ints (the DSL keeps them static); each symbol is a parameter of the function, in
name order, asserted to have its divisor with ``cute.assume``; a formula of symbols is
computed with the DSL's arithmetic (``cute.ceil_div``, ``//``, ``%``, ``cutlass.min``).

What it builds: a layout (``cute.make_layout``), a swizzled layout
(``cute.make_composed_layout(cute.make_swizzle(...), offset, layout)``), an int tuple, an
MMA atom or tiled MMA (the DSL op of the same instruction: ``cute.make_tiled_mma``), a
copy atom or tiled copy (``cute.make_copy_atom``, ``cute.make_tiled_copy``), and a thread's
part of a tiled MMA or copy (``get_slice(thr_idx)``; a symbolic thread index is a parameter).
This module does not import the DSL: the text is its output.

>>> from cute_sym.notation import parse
>>> print(emit_dsl(parse("(_4,(M,_2)):(_1,(_4,4*M))"), "smem_layout"))
import cutlass
import cutlass.cute as cute
<BLANKLINE>
<BLANKLINE>
def smem_layout(M: cutlass.Int32):
    \"\"\"(_4,(M,_2)):(_1,(_4,4*M)) in the CuTe DSL (call it inside @cute.jit).\"\"\"
    return cute.make_layout((4, (M, 2)), stride=(1, (4, M * 4)))
"""
from __future__ import annotations

from typing import Any, Optional

import sympy

from ..stride.basis import ScaledBasis
from ..core.errors import LayoutError
from ..core.integers import Dyn
from ..core.int_tuple import Underscore, iter_leaves
from ..layout.layout import Layout
from ..swizzle import ComposedLayout, Swizzle
from .formula_text import DSL, formula_text

__all__ = ["emit_dsl"]

_HEADER = "import cutlass\nimport cutlass.cute as cute\n"


def _py(e: Any) -> str:
    """A dynamic integer formula in the DSL's arithmetic."""
    return formula_text(e, DSL)


def _tuple(t: Any) -> str:
    if isinstance(t, tuple):
        inner = ", ".join(_tuple(x) for x in t)
        return f"({inner}{',' if len(t) == 1 else ''})"
    if isinstance(t, Underscore):
        return "None"
    if isinstance(t, ScaledBasis):
        modes = list(t.modes)
        return f"cute.ScaledBasis({_tuple(t.value)}, {modes[0] if len(modes) == 1 else modes})"
    if isinstance(t, Layout):
        return _layout(t)
    return _py(t)


def _layout(x: Any) -> str:
    if isinstance(x, ComposedLayout):
        sw = x.layout_a
        if not isinstance(sw, Swizzle):
            raise LayoutError(f"emit(..., 'dsl'): the DSL composes a swizzle with a layout, not {x}")
        return (f"cute.make_composed_layout(cute.make_swizzle({sw.bits}, {sw.base}, {sw.shift}), "
                f"{_tuple(x.offset)}, {_layout(x.layout_b)})")
    if isinstance(x, Layout):
        return f"cute.make_layout({_tuple(x.shape)}, stride={_tuple(x.stride)})"
    return _tuple(x)


def _symbols(*trees: Any) -> list[Any]:
    found: dict[str, Any] = {}
    for t in trees:
        for leaf in iter_leaves(t):
            v = leaf.value if isinstance(leaf, ScaledBasis) else leaf
            if isinstance(v, sympy.Basic):
                for s in v.free_symbols:
                    found.setdefault(s.name, s)
    return [found[n] for n in sorted(found)]


def _trees(x: Any) -> list[Any]:
    if isinstance(x, Layout):
        return [x.shape, x.stride]
    if isinstance(x, ComposedLayout):
        return _trees(x.layout_a) + [x.offset] + _trees(x.layout_b)
    if isinstance(x, Swizzle):
        return []
    return [x]


def _atom_lines(x: Any, body: list[str]) -> str:
    """Statements building an atom, tiled atom or thread slice into ``body``; the result's name."""
    from ..tensor.atoms.copy_atom import Copy_Atom
    from ..tensor.copy import ThrCopy, TiledCopy
    from ..tensor.mma import MMA_Atom, ThrMMA, TiledMMA
    if isinstance(x, (ThrMMA, ThrCopy)):
        tiled = _atom_lines(x.tiled_mma if isinstance(x, ThrMMA) else x.tiled_copy, body)
        body.append(f"thr = {tiled}.get_slice({_py(x.thr_idx)})")
        return "thr"
    if isinstance(x, TiledMMA):
        op = _mma_op(x.atom.name)
        perm = x.permutation_mnk_
        p = "None" if all(isinstance(v, Underscore) or v is None for v in perm) else _tuple(tuple(perm))
        body.append(f"op = {op}")
        body.append(f"tiled_mma = cute.make_tiled_mma(op, {_layout(x.atom_layout_mnk)}, {p})")
        return "tiled_mma"
    if isinstance(x, MMA_Atom):
        body.append(f"mma_atom = cute.make_mma_atom({_mma_op(x.name)})")
        return "mma_atom"
    if isinstance(x, TiledCopy):
        atom = _copy_atom(x.Traits.name, str(x.ValType))
        tiler = ", ".join(_layout(t) if isinstance(t, Layout) else f"cute.make_layout({_py(t)})" for t in x.Tiler_MN)
        body.append(f"copy_atom = {atom}")
        body.append(f"tiled_copy = cute.make_tiled_copy(copy_atom, {_layout(x.TiledLayout_TV)}, ({tiler},))")
        return "tiled_copy"
    if isinstance(x, Copy_Atom):
        body.append(f"copy_atom = {_copy_atom(x.Traits.name, str(x.ValType))}")
        return "copy_atom"
    raise LayoutError(f"emit(..., 'dsl'): cannot build a {type(x).__name__} in the CuTe DSL")


def _mma_op(name: str) -> str:
    from ..tensor.atoms.dsl_table import CODES, DSL_TYPES, MMA_OPS, SF_TYPES
    inv = {c: n for n, c in CODES.items()}
    types = {"ta": DSL_TYPES, "tb": DSL_TYPES, "tacc": DSL_TYPES, "tsf": SF_TYPES}
    for (module, cls), (template, ctor) in MMA_OPS.items():
        m = _match(template, name)
        if m is None:
            continue
        args: list[str] = []
        for c in ctor:
            if c == "MNK":
                if "K" in m:
                    k = m["K"]
                else:       # (UMMA's K follows from its types)
                    from ..tensor.mma import MMA_Atom
                    k = str(MMA_Atom(name).Shape_MNK[2])
                args.append(f"({m['M']}, {m['N']}, {k})")
            elif c in ("ab", "a", "b", "acc"):
                args.append(f"cutlass.{inv[m[c]]}")
            elif c in types:
                names = [n for n, t in types[c].items() if t == m[c]]
                if not names:
                    break
                args.append(f"cutlass.{names[0]}")
            elif c == "cta":
                args.append(f"cute.nvgpu.{module}.CtaGroup.{'TWO' if m['cta'] else 'ONE'}")
            elif c == "src":
                args.append(f"cute.nvgpu.{module}.OperandSource.{ {'SS': 'SMEM', 'RS': 'RMEM', 'TS': 'TMEM'}[m['src']] }")
            elif c in ("am", "bm", "K"):
                args.append(f"cute.nvgpu.OperandMajorMode.{m[c] if c != 'K' else 'K'}")
        else:
            return f"cute.nvgpu.{module}.{cls}({', '.join(args)})"
    raise LayoutError(f"emit(..., 'dsl'): no DSL op recorded for CuTe's MMA atom {name}")


def _match(template: str, name: str) -> Optional[dict[str, str]]:
    from ..tensor.atoms.dsl_table import template_regex
    m = template_regex(template).fullmatch(name)
    return m.groupdict() if m else None


def _copy_atom(name: str, element_type: str) -> str:
    from ..tensor.atoms.dsl_table import COPY_OPS, DSL_TYPES
    dtypes = {v: k for k, v in DSL_TYPES.items()}
    if element_type not in dtypes:
        raise LayoutError(f"emit(..., 'dsl'): no DSL type for the element type {element_type}")
    for (module, cls, variant), template in COPY_OPS.items():
        m = _match(template, name)
        if m is None:
            continue
        mod = "cute.nvgpu" + ("" if module == "nvgpu" else "." + module)
        if "n" in m:
            op = f"{mod}.{cls}({variant == 'T'}, {m['n']})"
        elif "n2" in m:
            op = f"{mod}.{cls}({variant == 'T'}, {int(m['n2']) // 2})"
        elif "n4" in m:
            op = f"{mod}.{cls}({variant == 'T'}, {int(m['n4']) // 4})"
        elif "mode" in m:
            op = f"{mod}.{cls}(cute.nvgpu.LoadCacheMode.{m['mode']})"
        else:
            op = f"{mod}.{cls}()"
        bits = f", num_bits_per_copy={m['bits']}" if "bits" in m else ""
        return f"cute.make_copy_atom({op}, cutlass.{dtypes[element_type]}{bits})"
    raise LayoutError(f"emit(..., 'dsl'): no DSL op recorded for CuTe's copy operation {name}")


def _atom_name(x: Any) -> str:
    for attr in ("tiled_mma", "tiled_copy"):
        if hasattr(x, attr):
            return _atom_name(getattr(x, attr))
    if hasattr(x, "Traits"):
        return str(x.Traits.name)
    if hasattr(x, "atom"):
        return str(x.atom.name)
    return str(getattr(x, "name", "cute_sym"))


def emit_dsl(obj: Any, name: str = "offset") -> str:
    """The CuTe DSL function ``name(<symbols>)`` that builds ``obj``.

    ``obj`` is a layout, swizzled layout, int tuple, MMA atom, tiled MMA, copy atom, tiled copy,
    or a thread's slice of a tiled MMA/copy (``ThrMMA``/``ThrCopy``: ``get_slice``).

    @pre ``obj`` is not a tensor (else :class:`LayoutError`); its atoms are ones the DSL has.
    @post the text imports ``cutlass`` and ``cutlass.cute``; its function takes one DSL integer
          per symbol of ``obj`` (name order) and returns the DSL value; called inside
          ``@cute.jit`` it builds what ``cute_sym.dsl.to_dsl(obj)`` builds (a divisor of a symbol
          asserted with ``cute.assume``).

    >>> from cute_sym.tensor.mma import make_tiled_mma
    >>> src = emit_dsl(make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)).get_slice(Dyn("tid", max=127)),
    ...                "thread_mma")
    >>> print(*src.splitlines()[4:], sep=chr(10))
    def thread_mma(tid: cutlass.Int32):
        \"\"\"ThrMMA of SM80_16x8x16_F32F16F16F32_TN in the CuTe DSL (call it inside @cute.jit).\"\"\"
        op = cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16))
        tiled_mma = cute.make_tiled_mma(op, cute.make_layout((2, 2, 1), stride=(1, 2, 0)), None)
        thr = tiled_mma.get_slice(tid)
        return thr
    """
    from ..tensor.atoms.copy_atom import Copy_Atom
    from ..tensor.copy import ThrCopy
    from ..tensor.mma import MMA_Atom, ThrMMA, TiledMMA
    from ..tensor import Tensor
    if isinstance(obj, Tensor):
        raise LayoutError("emit(..., 'dsl') builds layouts, atoms and slices; a tensor's memory is the "
                          "kernel's: emit its layout and make the tensor in the DSL (cute.make_tensor)")
    body: list[str] = []
    if isinstance(obj, (MMA_Atom, TiledMMA, Copy_Atom, ThrMMA, ThrCopy)):
        syms = []
        if isinstance(obj, (ThrMMA, ThrCopy)):
            syms = _symbols(obj.thr_idx)
        what = type(obj).__name__
        result = _atom_lines(obj, body)
        desc = f"{what} of {_atom_name(obj)}"
    else:
        syms = _symbols(*_trees(obj))
        result = _layout(obj)
        desc = str(obj) if not isinstance(obj, tuple) else repr(obj)
    params = ", ".join(f"{s.name}: cutlass.Int32" for s in syms)
    lines = [_HEADER, "", f"def {name}({params}):", f'    """{desc} in the CuTe DSL (call it inside @cute.jit)."""']
    for s in syms:
        div = int(getattr(s, "divisor", 1) or 1)
        if div > 1:
            lines.append(f"    {s.name} = cute.assume({s.name}, divby={div})")
    lines += [f"    {b}" for b in body]
    lines.append(f"    return {result}")
    return "\n".join(lines)

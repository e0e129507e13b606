"""MMA and copy atoms, tiled MMAs and tiled copies between the CuTe DSL and cute_sym.

One mechanism reads the tables of :mod:`.atom_table` both ways: a DSL op's fields fill its
CuTe template (the C++ atom of the same instruction); a CuTe name matched against the
templates gives the DSL op's constructor arguments.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

from ..core.errors import LayoutError
from ..core.int_tuple import _, Underscore
from ..layout.layout import Layout, make_layout
from ..tensor.atoms.copy_atom import Copy_Atom
from ..tensor.copy import TiledCopy
from ..tensor.mma import MMA_Atom, TiledMMA, make_tiled_mma
from ..tensor.atoms.dsl_table import CODES, COPY_OPS, DSL_TYPES, MMA_OPS, SF_TYPES, template_regex
from .values import value_from_dsl, value_to_dsl

__all__ = ["atom_name", "atom_from_dsl", "atom_to_dsl", "is_dsl_atom_value", "is_atom_value"]

_DSL_ATOM_CLASSES = ("MmaAtom", "TiledMma", "CopyAtom", "TiledCopy", "ThrMma", "ThrCopy")


def _module_key(op: Any) -> str:
    """``warp``, ``warpgroup``, ``tcgen05``, ``cpasync`` or ``nvgpu`` (the generic ops)."""
    parts = type(op).__module__.split(".")
    for key in ("warpgroup", "tcgen05", "cpasync", "warp"):
        if key in parts:
            return key
    return "nvgpu"


def is_dsl_atom_value(x: Any) -> bool:
    """A DSL MMA/copy op, atom, tiled MMA or tiled copy (not a layout)."""
    name = type(x).__name__
    return name in _DSL_ATOM_CLASSES or (type(x).__module__.startswith("cutlass") and name.endswith("Op"))


def is_atom_value(x: Any) -> bool:
    return isinstance(x, (MMA_Atom, TiledMMA, Copy_Atom, TiledCopy))


# ---------------------------------------------------------------- names
def _code(dtype: Any) -> str:
    name = getattr(dtype, "__name__", str(dtype))
    if name not in CODES:
        raise LayoutError(f"dsl_atom_name: no CuTe element code for the DSL type {name}")
    return CODES[name]


def _cpp(dtype: Any) -> str:
    name = getattr(dtype, "__name__", str(dtype))
    if name not in DSL_TYPES:
        raise LayoutError(f"dsl_atom_name: no CuTe element type for the DSL type {name}")
    return DSL_TYPES[name]


def _enum(v: Any) -> str:
    return str(getattr(v, "name", v)).split(".")[-1].upper()


def _mma_fields(op: Any) -> dict[str, str]:
    def get(*names: str) -> Any:
        return next((getattr(op, n) for n in names if getattr(op, n, None) is not None), None)
    f: dict[str, str] = {}
    a, b, acc = get("a_dtype", "ab_dtype"), get("b_dtype", "ab_dtype"), get("acc_dtype")
    for key, dt in (("a", a), ("b", b), ("acc", acc)):
        if dt is not None:
            name = getattr(dt, "__name__", str(dt))
            if name in CODES:       # (a 4- or 6-bit type has no code: only tcgen05 ops have it)
                f[key] = CODES[name]
            f["t" + key] = _cpp(dt)
    if "a" in f:
        f["ab"] = f["a"]
    sf = get("sf_dtype")
    if sf is not None:
        sf_name = getattr(sf, "__name__", str(sf))
        if sf_name not in SF_TYPES:
            raise LayoutError(f"dsl_atom_name: no CuTe scale-factor type for the DSL type {sf_name}")
        f["tsf"] = SF_TYPES[sf_name]
    vs = get("sf_vec_size")
    if vs is not None:
        f["vs"] = str(int(vs))
    shape = get("shape_mnk")
    if shape is not None:
        f["M"], f["N"], f["K"] = (str(int(s)) for s in shape)
    src = get("a_src")
    if src is not None:
        f["src"] = {"SMEM": "SS", "RMEM": "RS", "TMEM": "TS"}.get(_enum(src), _enum(src))
    for key, attr in (("am", "a_major_mode"), ("bm", "b_major_mode")):
        v = get(attr)
        if v is not None:
            f[key] = _enum(v)
    cta = get("cta_group")
    if cta is not None:
        f["cta"] = "_2x1SM" if _enum(cta) in ("TWO", "2") else ""
    return f


def _copy_fields(atom: Any) -> tuple[tuple[str, str, str], dict[str, str]]:
    op = atom.op
    key = _module_key(op)
    fields: dict[str, str] = {}
    variant = ""
    if hasattr(op, "num_matrices"):
        n = int(op.num_matrices)
        fields.update(n=str(n), n2=str(2 * n), n4=str(4 * n))
        variant = "T" if op.transpose else "N"
    if hasattr(op, "cache_mode"):
        fields["mode"] = _enum(op.cache_mode)
    if hasattr(op, "repeat"):       # tcgen05.ld/st: repetitions and the 16-bit (un)packing
        fields["r"] = _enum(op.repeat).lstrip("X")
        packing = getattr(op, "pack", getattr(op, "unpack", None))
        fields["pk"] = "" if packing is None or _enum(packing) == "NONE" else "_16b"
    from ..core.int_tuple import product
    src = value_from_dsl(atom.layout_src_tv)
    width = int(atom.value_type.width)
    fields["bits"] = str(int(product(src.shape[1])) * width)
    return (key, type(op).__name__, variant), fields


def atom_name(x: Any) -> str:
    """CuTe's name of the instruction of a DSL MMA op / atom / tiled MMA, or copy atom / tiled copy."""
    kind = type(x).__name__
    if kind in ("MmaAtom", "TiledMma", "ThrMma"):
        return atom_name(x.op)
    if kind in ("CopyAtom", "TiledCopy", "ThrCopy"):
        k, fields = _copy_fields(x)
        if k not in COPY_OPS:
            raise LayoutError(f"dsl_atom_name: no CuTe copy operation recorded for the DSL's {k[0]}.{k[1]}"
                              + (f" ({'transposed' if k[2] == 'T' else 'not transposed'})" if k[2] else ""))
        return COPY_OPS[k].format(**fields)
    key = (_module_key(x), kind)
    if key not in MMA_OPS:
        raise LayoutError(f"dsl_atom_name: no CuTe MMA atom recorded for the DSL's {key[0]}.{key[1]}")
    fields = _mma_fields(x)
    template, ctor = MMA_OPS[key]
    if "K" in ctor and (fields.get("am", "K"), fields.get("bm", "K")) != ("K", "K"):
        raise LayoutError(f"dsl_atom_name: CuTe has the DSL's {key[0]}.{key[1]} only with K-major operands "
                          f"(its _TN atoms), not {fields.get('am')}-major A and {fields.get('bm')}-major B")
    try:
        name = template.format(**fields)
    except KeyError as e:
        raise LayoutError(f"dsl_atom_name: the DSL's {key[0]}.{key[1]} lacks the field {e} its name needs") from None
    if key[0] == "tcgen05":     # (the template writes out what the op fixes: check the op agrees; the
        # vector size is an argument of MXF4's only, MXF8F6F4's is CuTe's fixed 32)
        f = fields
        want = [f.get("ta"), f.get("tb"), f.get("tacc")] + ([f["tsf"]] if "tsf" in f else []) + [f.get("M"), f.get("N")] \
            + ([f["vs"]] if "vs" in f and name.startswith("SM100_MMA_MXF4") else []) + [f"UMMA::Major::{f.get('am', 'K')}", f"UMMA::Major::{f.get('bm', 'K')}"]
        if name[name.index("<") + 1:-1].split(", ") != want:
            raise LayoutError(f"dsl_atom_name: the DSL's {key[0]}.{key[1]} with the arguments {want} is not "
                              f"CuTe's {name}")
    return name


# ---------------------------------------------------------------- DSL -> cute_sym
def _mma_atom(name: str) -> MMA_Atom:
    """CuTe's atom ``name``; a DSL op whose instruction CuTe does not define (an operand source,
    shape or type CuTe's template refuses) is refused naming CuTe's violated condition."""
    try:
        return MMA_Atom(name)
    except LayoutError as e:
        raise LayoutError(f"from_dsl: the DSL's op is {name}, which CuTe does not define: {e}") from None


def _div_tree(t: Any, k: int) -> Any:
    if type(t) is tuple:
        return tuple(_div_tree(e, k) for e in t)
    if type(t) is not int or t % k:
        raise LayoutError(f"from_dsl: the tiled MMA's thread layout has the stride {t}, not a multiple of the atom's {k} threads")
    return t // k


def _tiler_from_dsl(t: Any) -> Any:
    """A tiler read from the DSL; a mode ``n:1`` is CuTe C++'s shape ``n`` (the DSL prints the
    tiled copy's ``Tiler_MN`` as layouts, C++ as the shape)."""
    if isinstance(t, tuple):
        return tuple(_tiler_from_dsl(e) for e in t)
    if isinstance(t, Layout) and type(t.shape) is int and type(t.stride) is int and t.stride == 1:
        return t.shape
    return t


def atom_from_dsl(x: Any) -> Any:
    """cute_sym's MMA atom, tiled MMA, copy atom or tiled copy of a DSL one (or of an MMA op)."""
    kind = type(x).__name__
    if kind == "TiledMma":
        atom = _mma_atom(atom_name(x.op))
        vmnk = value_from_dsl(x.thr_layout_vmnk)
        nthr = int(atom.ThrID.size()) if hasattr(atom.ThrID, "size") else int(_size(atom.ThrID))
        atom_layout = make_layout(tuple(vmnk.shape[1:]), tuple(_div_tree(d, nthr) for d in vmnk.stride[1:]))
        perm = _tiler_from_dsl(value_from_dsl(tuple(x.permutation_mnk)))
        perm_arg = None if all(isinstance(p, Underscore) or p is _ for p in perm) else perm
        return make_tiled_mma(atom, atom_layout, perm_arg)
    if kind == "MmaAtom":
        return _mma_atom(atom_name(x.op))
    if kind == "CopyAtom":
        return Copy_Atom(atom_name(x), DSL_TYPES[x.value_type.__name__])
    if kind == "TiledCopy":
        catom = Copy_Atom(atom_name(x), DSL_TYPES[x.value_type.__name__])
        tv = value_from_dsl(x.layout_tv_tiled)
        tiler = _tiler_from_dsl(value_from_dsl(tuple(x.tiler_mn)))
        return TiledCopy(catom, tv, tiler)
    return _mma_atom(atom_name(x))       # an MMA op


def _size(lay: Layout) -> int:
    from ..core.int_tuple import product
    return int(product(lay.shape))


# ---------------------------------------------------------------- cute_sym -> DSL
def _dsl_type(code: str) -> Any:
    import cutlass
    names = [n for n, c in CODES.items() if c == code]
    if not names:
        raise LayoutError(f"to_dsl: no DSL type for the element code {code}")
    return getattr(cutlass, names[0])


def mma_op_of(name: str) -> Any:
    """The DSL MMA op of CuTe's atom ``name`` (a warp, warpgroup or tcgen05 MMA).

    @post ``dsl_atom_name(mma_op_of(name)) == name`` for a tcgen05 op (the first op of
    :data:`MMA_OPS` the DSL builds that names ``name`` back)."""
    import importlib
    import cutlass
    refused = ""
    for (module, cls), (template, ctor) in MMA_OPS.items():
        m = template_regex(template).fullmatch(name)
        if not m:
            continue
        f = m.groupdict()
        mod = importlib.import_module(f"cutlass.cute.nvgpu.{module}")
        args: list[Any] = []
        for c in ctor:
            if c == "MNK":
                k = f["K"] if "K" in f else MMA_Atom(name).Shape_MNK[2]     # (UMMA's K follows from its types)
                args.append((int(f["M"]), int(f["N"]), int(k)))
            elif c in ("ab", "a", "b", "acc"):
                args.append(_dsl_type(f[c]))
            elif c in ("ta", "tb", "tacc", "tsf"):
                table = SF_TYPES if c == "tsf" else DSL_TYPES
                names = [k for k, v in table.items() if v == f[c]]
                if not names:
                    break       # (no DSL type: this entry cannot make the atom)
                args.append(getattr(cutlass, names[0]))
            elif c == "cta":
                args.append(mod.CtaGroup.TWO if f["cta"] else mod.CtaGroup.ONE)
            elif c == "src":
                src = getattr(mod.OperandSource, {"SS": "SMEM", "RS": "RMEM", "TS": "TMEM"}[f["src"]], None)
                if src is None:
                    break
                args.append(src)
            elif c in ("am", "bm", "K"):
                import cutlass.cute.nvgpu as nv
                args.append(getattr(nv.OperandMajorMode, f[c] if c != "K" else "K"))
            else:
                raise LayoutError(f"to_dsl: cannot fill the DSL argument {c} of {name}")
        else:
            try:
                op = getattr(mod, cls)(*args)
            except Exception as e:  # noqa: BLE001 - the DSL refuses this instance: try the next entry
                refused = f" (the DSL's {module}.{cls} refuses it: {str(e).strip().splitlines()[0] if str(e).strip() else e!r})"
                continue
            # (a tcgen05 op fixes fields the template leaves open, e.g. MXF4's vector size: the
            # op must name the atom back)
            if module != "tcgen05" or atom_name(op) == name:
                return op
    raise LayoutError(f"to_dsl: no DSL op recorded for CuTe's MMA atom {name}{refused}")


def copy_op_of(name: str, element_type: str) -> tuple[Any, Any, int]:
    """(DSL copy op, DSL element type, bits per copy) of CuTe's copy operation ``name``."""
    import importlib
    import cutlass
    dsl_types = {v: k for k, v in DSL_TYPES.items()}
    if element_type not in dsl_types:
        raise LayoutError(f"to_dsl: no DSL type for the element type {element_type}")
    dtype = getattr(cutlass, dsl_types[element_type])
    for (module, cls, variant), template in COPY_OPS.items():
        m = template_regex(template).fullmatch(name)
        if not m:
            continue
        f = m.groupdict()
        mod = importlib.import_module("cutlass.cute.nvgpu" + ("" if module == "nvgpu" else "." + module))
        bits = int(f.get("bits", 0) or 0)
        if "n" in f:
            op = getattr(mod, cls)(variant == "T", int(f["n"]))
        elif "n2" in f:
            op = getattr(mod, cls)(variant == "T", int(f["n2"]) // 2)
        elif "n4" in f:
            op = getattr(mod, cls)(variant == "T", int(f["n4"]) // 4)
        elif "r" in f:      # tcgen05.ld/st
            rep = getattr(mod.Repetition, "x" + f["r"])
            if cls.startswith("St"):
                op = getattr(mod, cls)(rep, mod.Unpack.UNPACK_32b_IN_16b if f["pk"] else mod.Unpack.NONE)
            else:
                op = getattr(mod, cls)(rep, mod.Pack.PACK_16b_IN_32b if f["pk"] else mod.Pack.NONE)
        elif "mode" in f:
            import cutlass.cute.nvgpu as nv
            op = getattr(mod, cls)(getattr(nv.LoadCacheMode, f["mode"]))
        else:
            op = getattr(mod, cls)()
        return op, dtype, bits
    raise LayoutError(f"to_dsl: no DSL op recorded for CuTe's copy operation {name}")


def _copy_atom_to_dsl(a: Copy_Atom) -> Any:
    import cutlass.cute as cute
    op, dtype, bits = copy_op_of(a.Traits.name, a.ValType if isinstance(a.ValType, str) else str(a.ValType))
    return cute.make_copy_atom(op, dtype, num_bits_per_copy=bits) if bits else cute.make_copy_atom(op, dtype)


def atom_to_dsl(x: Any, values: Optional[Mapping[str, Any]] = None) -> Any:
    """The DSL's MMA atom, tiled MMA, copy atom or tiled copy of a cute_sym one."""
    import cutlass.cute as cute
    if isinstance(x, TiledMMA):
        perm = x.permutation_mnk_
        perm_arg = None if all(isinstance(p, Underscore) or p is _ or p is None for p in perm) else \
            tuple(None if isinstance(p, Underscore) or p is _ or p is None else value_to_dsl(p, values) for p in perm)
        return cute.make_tiled_mma(mma_op_of(x.atom.name), value_to_dsl(x.atom_layout_mnk, values), perm_arg)
    if isinstance(x, MMA_Atom):
        return cute.make_mma_atom(mma_op_of(x.name))
    if isinstance(x, TiledCopy):       # (before Copy_Atom: a TiledCopy is one)
        atom = Copy_Atom(x.Traits.name, x.ValType if isinstance(x.ValType, str) else str(x.ValType))
        tiler = x.Tiler_MN
        tiler_dsl = tuple(value_to_dsl(Layout(t, 1) if not isinstance(t, Layout) else t, values) for t in tiler)
        return cute.make_tiled_copy(_copy_atom_to_dsl(atom), value_to_dsl(x.TiledLayout_TV, values), tiler_dsl)
    if isinstance(x, Copy_Atom):
        return _copy_atom_to_dsl(x)
    raise LayoutError(f"to_dsl: not an atom: {type(x).__name__}")

"""Analyses of the Hopper/Blackwell data path: a TMA copy's legality and instruction count,
a GMMA/UMMA operand's descriptor, a TMEM partition's lanes.

Each answers exactly from CuTe's own construction (:func:`cute_sym.make_tma_copy`,
:func:`cute_sym.tensor.smem_desc.check_mma_smem_layout`), its refusals read as reasons.
A symbolic gmem stride answers by cases of its residue modulo 16 bytes (the TMA's
alignment rule), as the other analyses do.

>>> from cute_sym.notation import parse
>>> import cute_sym as cs
>>> sA = cs.tile_to_shape(cs.smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>"), (128, 64))
>>> print(tma_copy_check(parse("(_128,_64):(_64,_1)"), sA, "half_t"))
legal: 1 TMA instruction(s) of 16384 bytes (box (64, 128), swizzle 128B)
>>> print(tma_copy_check(parse("(_128,_64):(_1,_128)"), sA, "half_t").reason.split(":")[0])
Majorness of smem doesn't match majorness of gmem
>>> print(mma_operand_check(sA, "K", "half_t"))
readable: GMMA K-major through 4 descriptor(s), layout type B128 (GMMA::Layout_K_SW128_Atom<half_t>)
"""
from __future__ import annotations

from typing import Any, Union

from ..core.errors import LayoutError, UndecidableError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..layout import Layout, size
from ..swizzle import ComposedLayout
from .cases import Cases

__all__ = ["TmaCheck", "tma_copy_check", "MmaOperandCheck", "mma_operand_check", "tmem_warp_lanes",
           "TMEM_LANES_PER_WARP", "TmemCheck", "tmem_copy_check"]

TMEM_LANES_PER_WARP = 32      # tcgen05.ld/st: warp w of a warpgroup reaches lanes 32*(w%4) .. +31


class TmaCheck:
    """A TMA copy of a tile: ``legal`` (else ``reason``), ``instructions`` per tile, ``bytes``
    per instruction, ``box`` (the descriptor's box, innermost first) and ``swizzle``."""
    __slots__ = ("legal", "reason", "instructions", "bytes", "box", "swizzle")

    def __init__(self, legal: bool, reason: str, instructions: int = 0, nbytes: int = 0,
                 box: tuple[int, ...] = (), swizzle: str = "") -> None:
        for k, v in (("legal", legal), ("reason", reason), ("instructions", instructions), ("bytes", nbytes),
                     ("box", box), ("swizzle", swizzle)):
            object.__setattr__(self, k, v)

    legal: bool
    reason: str
    instructions: int
    bytes: int
    box: tuple[int, ...]
    swizzle: str

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TmaCheck is immutable")

    def key(self) -> tuple[Any, ...]:
        return (self.legal, self.reason, self.instructions, self.bytes, self.box, self.swizzle)

    def __str__(self) -> str:
        if not self.legal:
            return f"illegal: {self.reason}"
        return (f"legal: {self.instructions} TMA instruction(s) of {self.bytes} bytes "
                f"(box {self.box}, swizzle {self.swizzle})")


def _tma_static(gmem: Layout, smem: Any, dtype: str, op: str, multicast: int) -> TmaCheck:
    from ..core.int_tuple.structure import product_each
    from ..tensor.atoms.copy_types import sizeof_bits
    from ..tensor.engine import make_gmem_ptr
    from ..tensor.tensor import make_tensor
    from ..tensor.tma import make_tma_atom, make_tma_copy
    g = make_tensor(make_gmem_ptr("G", dtype), gmem)
    inner: Any = smem.layout_b if isinstance(smem, ComposedLayout) else smem
    try:
        tc = make_tma_copy(op, g, smem, None, multicast)
        atom = make_tma_atom(op, g, smem, product_each(inner.shape), multicast)
    except UndecidableError:
        raise
    except TypeError as e:      # make_tma_copy's gbasis on a padded tile (tensor/tma/gbasis.py): not CuTe's answer
        return TmaCheck(False, f"make_tma_copy cannot build this copy here ({type(e).__name__}: {e})")
    except LayoutError as e:
        text = str(e)
        for head in ("make_tma_copy: ", "make_tma_atom: "):
            text = text[len(head):] if text.startswith(head) else text
        return TmaCheck(False, text)
    per = int(size(atom.ValLayoutRef[1]))
    total = int(size(inner))
    desc = atom.get_tma_descriptor()
    del tc
    return TmaCheck(True, "", -(-total // per), per * sizeof_bits(dtype) // 8, tuple(int(b) for b in desc.box_dim),
                    desc.swizzle.replace("CU_TENSOR_MAP_", ""))


def tma_copy_check(gmem: Layout, smem: Any, dtype: str, op: str = "SM90_TMA_LOAD",
                   multicast: int = 1) -> Union[TmaCheck, Cases[TmaCheck]]:
    """Whether a TMA copy (``op``) between the gmem tile ``gmem`` and the smem tile ``smem``
    (an atom tiled, plain or swizzled) is legal, and how many instructions one tile takes.

    @pre ``gmem`` and ``smem`` have the tile's shape; ``dtype`` a CuTe element type.
    @post legal: ``make_tma_copy(op, gmem, smem)`` succeeds; ``instructions * elements per box ==
          size(smem)``; ``box`` and ``swizzle`` are its descriptor's. Illegal: ``reason`` is CuTe's
          refusal in words (majorness, 16-byte strides, box extents, the swizzle, the multicast).
    @post a gmem stride with a symbol ``s``: a :class:`Cases` over ``s`` modulo 16 bytes' worth
          of elements (each case ``s = m*s' + r``, ``s' >= 0``; the strides are assumed below 2^40 bytes
          by bounding ``s'``, stated in the reason).
    """
    if not isinstance(gmem, Layout):
        raise LayoutError(f"tma_copy_check: the gmem tile is a layout, got {gmem!r}")
    from ..tensor.atoms.copy_types import sizeof_bits
    syms = sorted({x for d in _leaves(gmem.stride) if type(d) is not int for x in d.free_symbols},
                  key=lambda s: s.name)
    if not syms:
        return _tma_static(gmem, smem, dtype, op, multicast)
    if len(syms) > 1:
        raise UndecidableError(f"tma_copy_check: one symbolic stride at a time, got {', '.join(map(str, syms))}")
    from ..core.integers import Dyn, symbol_facts
    from ..notation.notation import subs
    s = syms[0]
    m = max(1, 128 // sizeof_bits(dtype))
    dv, lo, _hi = symbol_facts(s)
    results: dict[tuple[int, ...], list[Any]] = {}
    groups: dict[tuple[Any, ...], tuple[TmaCheck, list[tuple[int, ...]]]] = {}
    feas = [r for r in range(m) if r % (dv if m % dv == 0 else 1) == 0]
    for r in feas:
        lo2 = 0 if lo is None else max(0, -((r - lo) // m))
        fresh = Dyn(f"{s.name}'", min=lo2, max=1 << 30, sign="nonnegative")
        got = _tma_static(subs(gmem, {s.name: m * fresh + r}), smem, dtype, op, multicast)
        results[(r,)] = [((None,), got if got.legal else f"invalid: {got.reason}")]
        k = got.key()
        groups.setdefault(k, (got, []))[1].append((r,))
    from .cases import _condition
    split = [(s, m)]
    bound = f" (and {s.name} < {m} * 2^30)"
    cases = [(_condition(split, [feas], keys) + bound, res) for res, keys in groups.values() if res.legal]
    bad = [(res, keys) for res, keys in groups.values() if not res.legal]
    if len(cases) == 1 and not bad:
        return cases[0][1]
    invalid = []
    if bad:
        keys = sorted(k for _, ks in bad for k in ks)
        first = min(bad, key=lambda b: b[1])[0]
        invalid.append((_condition(split, [feas], keys) + bound, f"{_condition(split, [feas], [keys[0]])}: {first.reason}"))
    return Cases(cases, [], split, results, invalid)


def _leaves(t: Any) -> list[Any]:
    from ..core.int_tuple.types import leaves
    return leaves(t)


class MmaOperandCheck:
    """A GMMA/UMMA operand in shared memory: ``readable`` through descriptors (``descriptors``
    of them, one per K-block, of ``layout_type``), and ``atom``, the canonical layout atom
    it is (readable) or should be (not readable, with ``reason``)."""
    __slots__ = ("readable", "kind", "major", "descriptors", "layout_type", "atom", "reason")

    def __init__(self, readable: bool, kind: str, major: str, descriptors: int, layout_type: str, atom: str,
                 reason: str) -> None:
        for k, v in (("readable", readable), ("kind", kind), ("major", major), ("descriptors", descriptors),
                     ("layout_type", layout_type), ("atom", atom), ("reason", reason)):
            object.__setattr__(self, k, v)

    readable: bool
    kind: str
    major: str
    descriptors: int
    layout_type: str
    atom: str
    reason: str

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("MmaOperandCheck is immutable")

    def __str__(self) -> str:
        if self.readable:
            return (f"readable: {self.kind} {self.major}-major through {self.descriptors} descriptor(s), layout "
                    f"type {self.layout_type} ({self.atom})")
        return f"not readable by {self.kind} {self.major}-major: {self.reason}"


_ATOM_OF_TYPE = {"INTERLEAVE": "INTER", "B32": "SW32", "B64": "SW64", "B128": "SW128", "SWIZZLE_NONE": "INTER",
                 "SWIZZLE_32B": "SW32", "SWIZZLE_64B": "SW64", "SWIZZLE_128B": "SW128",
                 "SWIZZLE_128B_BASE32B": "SW128_32B"}


def mma_operand_check(smem: Any, major: str, dtype: str, kind: str = "GMMA") -> MmaOperandCheck:
    """Whether a ``kind`` (GMMA, UMMA) ``major``-major (K, MN) operand reads the smem tile ``smem``
    through its descriptors, and which canonical layout atom it is or should be.

    @pre ``smem`` is an ``(MN, K)`` tile, plain or swizzled (an atom tiled to it).
    @post readable iff every K-block of the tile has a descriptor (``check_mma_smem_layout``);
          else ``reason`` is the refusal and ``atom`` the canonical atom to tile instead.
    """
    from ..tensor.smem_desc import check_mma_smem_layout
    kind, mj = kind.upper(), str(major).upper()
    try:
        descs = check_mma_smem_layout(smem, mj, dtype, kind)
    except LayoutError as e:
        text = str(e)
        atom = text.split("use tile_to_shape(")[1].split(",")[0] if "use tile_to_shape(" in text else ""
        return MmaOperandCheck(False, kind, mj, 0, "", atom, text)
    lt = str(descs[0].layout_type) if descs else ""
    name = f"{kind}::Layout_{mj}_{_ATOM_OF_TYPE.get(lt, lt)}_Atom<{dtype}>"
    return MmaOperandCheck(True, kind, mj, len(descs), lt, name, "")


def tmem_warp_lanes(warp: int) -> range:
    """The TMEM lanes warp ``warp`` reaches with ``tcgen05.ld``/``st``: 32 lanes, by its rank in
    its warpgroup (CUDA PTX ISA, tcgen05 data movement).

    >>> tmem_warp_lanes(0), tmem_warp_lanes(5)
    (range(0, 32), range(32, 64))
    """
    if type(warp) is not int or warp < 0:
        raise LayoutError(f"tmem_warp_lanes: a warp is a non-negative int, got {warp!r}")
    q = warp % 4
    return range(TMEM_LANES_PER_WARP * q, TMEM_LANES_PER_WARP * (q + 1))


class TmemCheck:
    """A TMEM load/store partition: ``legal`` (else ``reason``: the first thread that leaves its
    warp's lanes), per warp ``lanes`` and ``columns`` reached (``(first, last)``), ``instructions``
    (atom calls per thread) and ``bytes`` a warp moves per instruction."""
    __slots__ = ("legal", "reason", "lanes", "columns", "instructions", "bytes")

    def __init__(self, legal: bool, reason: str, lanes: tuple[tuple[int, int], ...],
                 columns: tuple[tuple[int, int], ...], instructions: int, nbytes: int) -> None:
        for k, v in (("legal", legal), ("reason", reason), ("lanes", lanes), ("columns", columns),
                     ("instructions", instructions), ("bytes", nbytes)):
            object.__setattr__(self, k, v)

    legal: bool
    reason: str
    lanes: tuple[tuple[int, int], ...]
    columns: tuple[tuple[int, int], ...]
    instructions: int
    bytes: int

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TmemCheck is immutable")

    def __str__(self) -> str:
        head = "legal" if self.legal else f"illegal: {self.reason}"
        warps = "; ".join(f"warp {w}: lanes {a}..{b}, columns {c}..{d}"
                          for w, ((a, b), (c, d)) in enumerate(zip(self.lanes, self.columns)))
        return f"{head}: {self.instructions} instruction(s) a thread, {self.bytes} bytes a warp each; {warps}"


def tmem_copy_check(copy: Any, tmem: Any, side: str = "S") -> TmemCheck:
    """Which TMEM lanes and columns each warp of a TMEM copy (``make_tmem_copy``) reaches in the
    TMEM tensor ``tmem`` (its source, ``side="S"``, for a load; destination ``"D"`` for a store),
    how many instructions a thread issues, and whether every warp stays in its lane quarter.

    @pre ``copy`` is a tiled TMEM copy; ``tmem`` a static tensor over a TMEM pointer.
    @post ``lanes[w]``/``columns[w]`` are the least and greatest lane/column of the elements the
          threads of warp ``w`` reach (``tidfrg_S/D`` of the tensor's layout from its base);
          ``legal`` iff every warp's lanes lie in :func:`tmem_warp_lanes` of it (the rule
          ``check_warp_lanes`` enforces on each thread's partition).

    >>> import cute_sym as cs
    >>> acc = cs.make_tensor(cs.make_tmem_ptr("float", "acc"), cs.parse("((_128,_64),_1,_1):((_65536,_1),_0,_0)"))
    >>> print(tmem_copy_check(cs.make_tmem_copy("SM100_TMEM_LOAD_32dp32b8x", acc), acc))
    legal: 8 instruction(s) a thread, 1024 bytes a warp each; warp 0: lanes 0..31, columns 0..63; warp 1: lanes 32..63, columns 0..63; warp 2: lanes 64..95, columns 0..63; warp 3: lanes 96..127, columns 0..63
    """
    from ..tensor.copy import TiledCopy
    from ..tensor.tmem_space import TMEM_DP, is_tmem
    from .tables import layout_table
    if not isinstance(copy, TiledCopy) or not is_tmem(tmem):
        raise LayoutError("tmem_copy_check: expected a tiled TMEM copy and a tensor over a TMEM pointer")
    part = copy.tidfrg_S(tmem.layout) if side == "S" else copy.tidfrg_D(tmem.layout)
    base = tmem.engine.offset
    if not isinstance(part, Layout) or type(base) is not int:
        raise UndecidableError("a static TMEM tensor and base", "tmem_copy_check: the tensor or its base is symbolic")
    tab = layout_table(part)
    if tab is None or tab.syms:
        raise UndecidableError("a static TMEM partition", "tmem_copy_check: the partition is not static")
    dtype = tmem.engine.dtype or "uint32_t"
    dp = TMEM_DP(dtype)
    shift = dp.bit_length() - 17
    nthr, rest = int(size(part[0])), len(tab.const) // int(size(part[0]))
    lanes: list[tuple[int, int]] = []
    cols: list[tuple[int, int]] = []
    reason = ""
    for w in range(-(-nthr // 32)):
        offs = [base + tab.const[t + nthr * j] for t in range(32 * w, min(32 * w + 32, nthr)) for j in range(rest)]
        ls = [o // dp for o in offs]
        cs_ = [(o % dp) >> shift for o in offs]
        lanes.append((min(ls), max(ls)))
        cols.append((min(cs_), max(cs_)))
        q = tmem_warp_lanes(w)
        if not reason and (min(ls) < q.start or max(ls) >= q.stop):
            bad = next(l for l in ls if not q.start <= l < q.stop)
            reason = (f"warp {w} reaches TMEM lane {bad}, but may reach only lanes {q.start}..{q.stop - 1} "
                      f"(tcgen05.ld/st: warp w accesses lanes 32*(w%4)..32*(w%4)+31)")
    calls = int(size(part[1][1])) * int(size(part[2]))
    nbytes = int(copy.AtomNumVal) * copy.bits // 8
    return TmemCheck(not reason, reason, tuple(lanes), tuple(cols), calls, nbytes)


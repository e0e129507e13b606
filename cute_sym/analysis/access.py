"""A warp's access as data: for each thread, the element offsets of its values, in order.

Built from a TV layout ((thr, val) -> index of the tile) over a tensor layout, or from a
``TiledCopy`` over a tensor layout (its ``tidfrg_S``/``tidfrg_D`` partition). A plain
layout or a swizzled one (``Sw<B,M,S> o base o L``) is split into swizzle, base and the
inner layout: offsets are kept inner (possibly symbolic); the case engine
(:mod:`.cases`) adds the base and applies the swizzle to the residues.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Hashable, Optional, Sequence, TypeVar, Union

from ..core.errors import LayoutError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.int_tuple import fmt
from ..core.integers import IntLike
from ..layout import Layout, size
from ..swizzle import ComposedLayout, Swizzle
from ..tensor.copy import TiledCopy
from .hardware import ADDRESS_PERIOD_BYTES, LDMATRIX_ROW_THREADS, ldmatrix_matrices
from .cases import Cases, Space, _symbols, by_cases, linear_form
from .tables import KeyColumns, copy_index_table, expr_of, layout_table, placed_table

R = TypeVar("R")

LayoutLike = Union[Layout, ComposedLayout]
WARP = 32


def split_layout(layout: LayoutLike) -> tuple[Optional[Swizzle], IntLike, Layout]:
    """(swizzle or None, base offset, inner layout) of a plain or swizzled layout.

    @pre ``layout`` is a Layout or a ``ComposedLayout(Swizzle, offset, Layout)``.

    >>> from cute_sym.notation import parse
    >>> split_layout(parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"))[0]
    Swizzle(3, 3, 3)
    """
    if isinstance(layout, Layout):
        return None, 0, layout
    if isinstance(layout, ComposedLayout) and isinstance(layout.layout_a, Swizzle) \
            and isinstance(layout.layout_b, Layout):
        sw = layout.layout_a
        return (None if sw.is_identity() else sw), layout.offset, layout.layout_b
    raise LayoutError(f"expected a layout or a swizzled layout Sw<B,M,S> o offset o layout, got {layout}")


def check_bits(bits: int) -> int:
    if type(bits) is not int or bits < 8 or bits > 128 or bits & (bits - 1):
        raise LayoutError(f"element width must be 8, 16, 32, 64 or 128 bits, got {bits!r}")
    return bits


def period_elems(bits: int, swizzle: Optional[Swizzle]) -> int:
    """Elements whose residues decide banks and sectors (and the swizzle's bits).

    >>> period_elems(16, None), period_elems(16, Swizzle(3, 3, 3)), period_elems(128, None)
    (64, 512, 8)
    """
    p = ADDRESS_PERIOD_BYTES * 8 // bits
    if swizzle is not None:
        p = max(p, 1 << (swizzle.yyy_msk | swizzle.zzz_msk).bit_length())
    return p


class Access:
    """The accesses of one warp: ``offsets[i]`` are thread ``threads[i]``'s element offsets
    (inner, before base and swizzle), value by value; ``chunk`` values make one instruction
    (``None``: to be chosen, the widest vector); ``matrices``: ldmatrix's matrix count.

    ``keys[i]`` are the same offsets as the analyses read them: the offsets themselves, or,
    when ``syms`` is a tuple of symbols, integer linear forms ``(const, coeffs)`` in them
    (the hot path: no sympy object per offset; :meth:`expr` writes one when asked).
    ``static``: every offset is known to be a plain int (read off a static table), so no
    scan for symbols is needed; ``placed`` (static only, or ``None``): each offset after base
    and swizzle, the element it lands on.
    """
    __slots__ = ("threads", "keys", "syms", "bits", "chunk", "matrices", "swizzle", "base", "_what", "static",
                 "placed", "_exprs", "_cols")

    def __init__(self, threads: tuple[int, ...], offsets: Sequence[Sequence[Any]], bits: int,
                 chunk: Optional[int], matrices: Optional[int], swizzle: Optional[Swizzle],
                 base: IntLike, what: Union[str, tuple[object, str]], syms: Optional[tuple[Any, ...]] = None,
                 static: bool = False, placed: Optional[Sequence[Sequence[int]]] = None) -> None:
        put = object.__setattr__
        for k, v in (("threads", threads), ("keys", offsets), ("bits", check_bits(bits)),
                     ("chunk", chunk), ("matrices", matrices), ("swizzle", swizzle), ("base", base),
                     ("_what", what), ("syms", syms), ("static", static and syms is None),
                     ("placed", placed if static and syms is None else None), ("_exprs", {}),
                     ("_cols", None)):
            put(self, k, v)

    threads: tuple[int, ...]
    keys: Sequence[Sequence[Any]]
    syms: Optional[tuple[Any, ...]]
    bits: int
    chunk: Optional[int]
    matrices: Optional[int]
    swizzle: Optional[Swizzle]
    base: IntLike
    _what: Union[str, tuple[object, str]]
    static: bool
    placed: Optional[Sequence[Sequence[int]]]
    _exprs: dict[Any, IntLike]
    _cols: Optional[KeyColumns]

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Access is immutable")

    @property
    def what(self) -> str:
        """What is accessed, in words (written when asked: a copy's repr is not free)."""
        w = self._what
        if isinstance(w, str):
            return w
        src, side = w
        if side == "TV":
            return f"TV layout {src}"
        return f"{src!r} ({'source' if side == 'S' else 'destination'})"

    @property
    def period(self) -> int:
        return period_elems(self.bits, self.swizzle)

    def expr(self, key: Any) -> IntLike:
        """The offset a key stands for (itself, or its linear form written out)."""
        if self.syms is None:
            return key
        got = self._exprs.get(key)
        if got is None:
            got = self._exprs[key] = expr_of(key[0], key[1], self.syms)
        return got

    def columns(self) -> KeyColumns:
        """The keys as flat columns (:class:`.tables.KeyColumns`), built once (keyed mode)."""
        got = self._cols
        if got is None:
            got = KeyColumns(self.keys)
            object.__setattr__(self, "_cols", got)
        return got

    @property
    def offsets(self) -> Sequence[Sequence[IntLike]]:
        if self.syms is None:
            return self.keys
        return tuple(tuple(self.expr(k) for k in row) for row in self.keys)

    def all_offsets(self) -> list[IntLike]:
        return [o for row in self.offsets for o in row]


def _static(n: IntLike, what: str) -> int:
    if type(n) is not int:
        raise LayoutError(f"{what} must be static, got {n}")
    return n


def _warp_threads(nthr: int, warp: int) -> tuple[int, ...]:
    if type(warp) is not int or warp < 0 or WARP * warp >= max(nthr, 1):
        raise LayoutError(f"warp {warp!r} is not among the {nthr} threads")
    return tuple(range(WARP * warp, min(WARP * (warp + 1), nthr)))


def access_of(src: Union[TiledCopy, Layout], layout: LayoutLike, bits: Optional[int] = None,
              vector_bits: Optional[int] = None, warp: int = 0, side: str = "S") -> Access:
    """The accesses of warp ``warp`` when ``src`` reads (``side="S"``) or writes (``"D"``) ``layout``.

    ``src`` is a ``TiledCopy`` (each instruction moves the atom's values; element width
    from the atom) or a TV layout ``(thr, val) -> index of the tile`` (element width
    ``bits``; ``vector_bits`` per instruction, or ``None`` for the widest possible).

    @pre a TV layout is static, of rank 2; ``layout`` is plain or ``Sw o offset o L``.
    @post ``offsets[i][v]`` is the inner offset of the ``v``-th value of thread ``threads[i]``.
    """
    swizzle, base, inner = split_layout(layout)
    if isinstance(src, TiledCopy):
        fast = copy_index_table(src, inner.shape, side)
        if fast is not None:
            nthr, nv, nx, nr, index, bounds = fast
            threads = _warp_threads(nthr, warp)
            # index[th + nthr*k], k = v + nv*(x + nx*r) ascending: one stride-nthr slice a thread
            rows: list[Sequence[int]] = [index[th::nthr] for th in threads]
        else:
            part = src.tidfrg_S(layout) if side == "S" else src.tidfrg_D(layout)
            _, _, t = split_layout(part)
            nthr, nv = _static(size(t[0]), "threads"), _static(size(t[1][0]), "atom values")
            nx = _static(size(t[1][1]), "values")
            if type(size(t[2])) is not int:
                raise LayoutError(f"the copy covers {layout} in {fmt(size(t[2]))} tiles of {fmt(src.Tiler_MN)}, a "
                                  "symbolic number: analyze one tile (a layout of that shape) or bind the extent")
            nr = _static(size(t[2]), "tiles")
            threads = _warp_threads(nthr, warp)
            offs = tuple(tuple(t((th, (v, x), r)) for r in range(nr) for x in range(nx) for v in range(nv))
                         for th in threads)
        b = src.bits if bits is None else bits
        if b != src.bits:
            raise LayoutError(f"the copy moves {src.bits}-bit elements, not {b}-bit")
        mats = ldmatrix_matrices(src.Traits.name)
        if mats is not None:
            threads = threads[:mats * LDMATRIX_ROW_THREADS]
        what: tuple[object, str] = (src, side)
        if fast is not None:
            got = _keyed(threads, rows[:len(threads)], inner, b, nv, mats, swizzle, base, what, bounds)
            if got is not None:
                return got
            offs = tuple(tuple(inner(i) for i in row) for row in rows[:len(threads)])
        return Access(threads, offs[:len(threads)], b, nv, mats, swizzle, base, what)
    if not isinstance(src, Layout) or src.rank() != 2:
        raise LayoutError(f"expected a TiledCopy or a TV layout (thr, val) -> index, got {src}")
    if bits is None:
        raise LayoutError("a TV layout needs the element width (bits=...)")
    check_bits(bits)
    nthr, nv = _static(size(src[0]), "threads"), _static(size(src[1]), "values")
    chunk: Optional[int] = None
    if vector_bits is not None:
        n = vector_bits // bits if type(vector_bits) is int else 0
        if type(vector_bits) is not int or vector_bits % bits or vector_bits > 128 or n < 1 or n & (n - 1) \
                or nv % n:
            # an access is 1, 2, 4, 8 or 16 bytes: a 6-byte "vector" is no instruction
            raise LayoutError(f"vector of {vector_bits!r} bits: not a power-of-two number of {bits}-bit values "
                              f"dividing the {nv} values of a thread, at most 128 bits")
        chunk = vector_bits // bits
    threads = _warp_threads(nthr, warp)
    what = (src, "TV")
    tv = layout_table(src)
    if tv is not None and not tv.syms:
        got = _keyed(threads, [tv.const[th::nthr] for th in threads],
                     inner, bits, chunk, None, swizzle, base, what)
        if got is not None:
            return got
    offs = tuple(tuple(inner(src(th, v)) for v in range(nv)) for th in threads)
    return Access(threads, offs, bits, chunk, None, swizzle, base, what)


def _pick(table: Sequence[int], row: Sequence[int]) -> tuple[int, ...]:
    """``table[i]`` for each ``i`` of ``row`` (one C-level gather)."""
    if len(row) == 1:
        return (table[row[0]],)
    return itemgetter(*row)(table) if row else ()


def _keyed(threads: tuple[int, ...], rows: Sequence[Sequence[int]], inner: Layout, bits: int, chunk: Optional[int],
           mats: Optional[int], swizzle: Optional[Swizzle], base: IntLike,
           what: Union[str, tuple[object, str]], bounds: Optional[tuple[int, int]] = None) -> Optional[Access]:
    """The access read off ``inner``'s table at the 1-D indices ``rows`` (``None``: no table,
    or an index outside its domain); ``bounds``: (least, greatest) index, when known."""
    tab = layout_table(inner)
    if tab is None:
        return None
    n = len(tab.const)
    if bounds is None or bounds[0] < 0 or bounds[1] >= n:       # the whole table's, or these rows'
        full = [row for row in rows if row]
        bounds = (min(map(min, full)), max(map(max, full))) if full else (0, -1)
    if bounds[0] < 0 or bounds[1] >= n:
        return None
    const = tab.const
    cols = tab.coeffs
    used = [s for s, col in enumerate(cols) if any(col[i] for row in rows for i in row)] if tab.syms else []
    if not used:
        placed = None
        if type(base) is int and not tab.syms:
            table = placed_table(inner, tab, swizzle, base)
            placed = [_pick(table, row) for row in rows]
        return Access(threads, tuple(_pick(const, row) for row in rows), bits, chunk, mats,
                      swizzle, base, what, static=True, placed=placed)
    syms = tuple(tab.syms[s] for s in used)
    keys: tuple[tuple[Any, ...], ...]
    if len(used) == 1:
        col = cols[used[0]]
        keys = tuple(tuple((const[i], (col[i],)) for i in row) for row in rows)
    else:
        ucols = [cols[s] for s in used]
        keys = tuple(tuple((const[i], tuple(c[i] for c in ucols)) for i in row) for row in rows)
    return Access(threads, keys, bits, chunk, mats, swizzle, base, what, syms)


def analyze(acc: Access, fn: Callable[[Space, Access], R], key: Callable[[R], Hashable],
            merge: Optional[Callable[[list[R]], R]] = None) -> Union[R, Cases[R]]:
    """``fn`` over ``acc`` by cases of its symbols (:func:`.cases.by_cases`), on its keys.

    @post the answer of ``by_cases`` over ``acc``'s offsets written out.
    """
    if acc.static and type(acc.base) is int:
        # offsets read off a static table: nothing to scan for symbols
        return by_cases((), acc.period, lambda sp: fn(sp, acc), key, acc.swizzle, acc.base, merge)
    if acc.syms is not None:
        base_ok = type(acc.base) is int or linear_form(acc.base, _symbols([acc.base])) is not None
        if base_ok:
            return by_cases([k for row in acc.keys for k in row], acc.period, lambda sp: fn(sp, acc), key,
                            acc.swizzle, acc.base, merge, keyed=acc.syms)
        acc = Access(acc.threads, acc.offsets, acc.bits, acc.chunk, acc.matrices, acc.swizzle, acc.base, acc.what)
    plain = acc
    return by_cases(plain.all_offsets(), plain.period, lambda sp: fn(sp, plain), key, plain.swizzle, plain.base,
                    merge)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


__all__ = ["Access", "access_of", "analyze", "split_layout", "period_elems", "check_bits", "WARP", "ceil_div"]

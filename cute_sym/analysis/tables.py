"""A layout as a table of its offsets, in plain integers: the analyses' hot path.

A layout with a static shape is a sum over its leaves: the offset at the 1-D index ``i``
is ``sum(((i // prefix_k) % shape_k) * stride_k)``. Its table over the whole domain is
built leaf by leaf (the first leaf varies fastest, CuTe's colexicographic order), in
integers. A stride that is an integer-linear form in symbols (``K``, ``8*K + 2``) is kept
as one integer table per symbol: the offset is ``const[i] + sum(coeff_s[i] * s)``, no
sympy object per offset.

A tiled copy's partition of a layout (``tidfrg_S``/``tidfrg_D``) is that layout composed
with a map of tile indices that depends on the layout's shape alone (CuTe's divide and
composition put the layout on the left); the map is computed once per copy and shape
(:func:`copy_index_table`) and the offsets read off the layout's table.
"""
from __future__ import annotations

import math
from itertools import chain
from operator import itemgetter, sub
from typing import TYPE_CHECKING, Any, Optional, Sequence, cast

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core.int_tuple.types import leaves
from ..core.integers import IntLike
from ..layout import Layout, make_layout, size
from ..swizzle import Swizzle

Lin = tuple[int, tuple[int, ...]]          # const + sum(coeff_i * symbol_i)

__all__ = ["Lin", "linear_form", "LinTable", "IndexTable", "layout_table", "copy_index_table", "swizzle_table",
           "placed_table", "KeyColumns", "MAX_TABLE"]

MAX_TABLE = 1 << 20          # the largest domain tabled (larger layouts take the general path)
_CACHE_LIMIT = 256
IndexTable = tuple[int, int, int, int, Sequence[int], tuple[int, int]]
_index_cache: dict[tuple[Any, ...], Optional[IndexTable]] = {}
_swizzle_cache: dict[tuple[Swizzle, int], list[int]] = {}
_placed_cache: dict[Any, tuple[int, ...]] = {}
_table_cache: dict[Any, Any] = {}
_MISS = object()


class LinTable:
    """Offsets over a domain: ``const[i] + sum(coeffs[s][i] * syms[s])`` (``syms`` may be empty).
    Immutable (tuples): tables are cached and shared."""
    __slots__ = ("const", "syms", "coeffs")

    def __init__(self, const: Sequence[int], syms: tuple["sympy.Symbol", ...], coeffs: Sequence[Sequence[int]]) -> None:
        object.__setattr__(self, "const", tuple(const))
        object.__setattr__(self, "syms", syms)
        object.__setattr__(self, "coeffs", tuple(tuple(c) for c in coeffs))

    const: tuple[int, ...]
    syms: tuple["sympy.Symbol", ...]
    coeffs: tuple[tuple[int, ...], ...]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("LinTable is immutable")


def _grow(table: list[int], n: int, d: int) -> list[int]:
    if n == 1:
        return table
    if d == 0:
        return table * n
    return [t + k * d for k in range(n) for t in table]


def linear_form(e: IntLike, syms: Sequence[sympy.Symbol]) -> Optional[Lin]:
    """``e`` as (constant, integer coefficient of each symbol), or ``None`` when not linear.

    >>> K, N = sympy.symbols("K N", integer=True)
    >>> linear_form(3 * K + 2 * N + 5, [K, N]), linear_form(K * N, [K, N])
    ((5, (3, 2)), None)
    """
    zero = (0,) * len(syms)
    if type(e) is int:
        return e, zero
    idx = {s: i for i, s in enumerate(syms)}
    const, co = 0, list(zero)
    for term, k in sympy.expand(e).as_coefficients_dict().items():
        if not k.is_Integer:
            return None
        if term == 1:
            const += int(k)
        elif term in idx:
            co[idx[term]] += int(k)
        else:
            return None
    return const, tuple(co)




def layout_table(layout: Layout) -> Optional[LinTable]:
    """The offsets of ``layout`` at every 1-D index, or ``None`` (a symbolic extent, a stride
    not integer-linear in its symbols, or a domain over :data:`MAX_TABLE`).

    @post ``const[i] + sum(coeffs[s][i] * syms[s]) == layout(i)`` for ``0 <= i < size(layout)``.

    >>> from cute_sym.notation import parse
    >>> t = layout_table(parse("(_2,_3):(_3,_1)"))
    >>> t.const, t.syms
    ((0, 3, 1, 4, 2, 5), ())
    >>> t = layout_table(parse("(_2,_2):(K,_1)"))
    >>> t.const, t.syms, t.coeffs
    ((0, 0, 1, 1), (K,), ((0, 1, 0, 1),))
    """
    try:
        got = _table_cache.get(layout, _MISS)
    except TypeError:           # an unhashable leaf: no caching
        got = _MISS
    if got is not _MISS:
        return cast(Optional[LinTable], got)
    got = _layout_table(layout)
    if len(_table_cache) >= _CACHE_LIMIT:
        _table_cache.clear()
    try:
        _table_cache[layout] = got
    except TypeError:
        pass
    return got


def _layout_table(layout: Layout) -> Optional[LinTable]:
    shapes, strides = leaves(layout.shape), leaves(layout.stride)
    if any(type(s) is not int for s in shapes) or math.prod(shapes) > MAX_TABLE:
        return None
    syms: list[Any] = []
    if any(type(d) is not int for d in strides):
        found: set[Any] = set()
        for d in strides:
            if type(d) is not int:
                found |= getattr(d, "free_symbols", set())
        syms = sorted(found, key=lambda s: s.name)
    lins = []
    for d in strides:
        if type(d) is int:
            lins.append((d, (0,) * len(syms)))
            continue
        got = linear_form(d, syms)
        if got is None:
            return None
        lins.append(got)
    const = [0]
    coeffs = [[0] for _ in syms]
    for n, (c, ks) in zip(shapes, lins):
        const = _grow(const, n, c)
        coeffs = [_grow(col, n, k) for col, k in zip(coeffs, ks)]
    return LinTable(const, tuple(syms), tuple(coeffs))


def copy_index_table(copy: Any, shape: Any, side: str) -> Optional[IndexTable]:
    """(threads, atom values, repeats, tiles, index table, (least, greatest) index) of
    ``copy``'s partition of a layout of ``shape``: ``table[t + T*(v + V*(x + X*r))]`` is the
    1-D index (into that layout's domain) of thread ``t``'s value ``(v, x)`` in tile ``r``
    (an index past the domain: a tile larger than the layout). ``None`` when the partition
    cannot be tabled (a symbolic or too large domain, or the partition raises: the
    general path then raises the user's error).

    @post ``copy.tidfrg_S(L)(t, (v, x), r) == L(table[...])`` for every layout ``L`` of ``shape``.
    """
    key = (copy, shape, side)
    if key in _index_cache:
        return _index_cache[key]
    got: Optional[IndexTable] = None
    try:
        ident = make_layout(shape)
        part = copy.tidfrg_S(ident) if side == "S" else copy.tidfrg_D(ident)
        if isinstance(part, Layout) and part.rank() == 3:
            dims = (size(part[0]), size(part[1][0]), size(part[1][1]), size(part[2]))
            if all(type(d) is int for d in dims) and math.prod(dims) <= MAX_TABLE:
                tab = layout_table(part)
                if tab is not None and not tab.syms and tab.const:
                    got = (dims[0], dims[1], dims[2], dims[3], tab.const, (min(tab.const), max(tab.const)))
    except ValueError:
        got = None
    if len(_index_cache) >= _CACHE_LIMIT:
        _index_cache.clear()
    _index_cache[key] = got
    return got


def swizzle_table(sw: Swizzle, period: int) -> list[int]:
    """``sw(c)`` for every residue ``0 <= c < period`` (cached).

    >>> swizzle_table(Swizzle(1, 0, 1), 4)
    [0, 1, 3, 2]
    """
    key = (sw, period)
    got = _swizzle_cache.get(key)
    if got is None:
        got = [sw(c) for c in range(period)]
        if len(_swizzle_cache) >= _CACHE_LIMIT:
            _swizzle_cache.clear()
        _swizzle_cache[key] = got
    return got


def placed_table(layout: Layout, table: LinTable, swizzle: Optional[Swizzle], base: int) -> tuple[int, ...]:
    """``swizzle(base + layout(i))`` at every 1-D index of a static ``layout`` whose table is
    ``table`` (cached by layout, swizzle and base): the element offsets a static access
    lands on, read with one gather.

    @pre ``table`` is ``layout_table(layout)`` and has no symbol.
    @post ``placed_table(L, t, sw, b)[i] == sw(b + L(i))`` (``sw`` the identity when ``None``).

    >>> from cute_sym.notation import parse
    >>> L = parse("(_2,_4):(_4,_1)")
    >>> placed_table(L, layout_table(L), None, 0)
    (0, 4, 1, 5, 2, 6, 3, 7)
    >>> placed_table(L, layout_table(L), Swizzle(1, 0, 2), 0)
    (0, 5, 1, 4, 2, 7, 3, 6)
    >>> placed_table(L, layout_table(L), Swizzle(1, 1, 1), 3)
    (3, 5, 6, 8, 7, 9, 4, 10)
    """
    if swizzle is None and base == 0:
        return table.const
    key: Optional[tuple[Layout, Optional[Swizzle], int]] = (layout, swizzle, base)
    try:
        got = _placed_cache.get(key)
    except TypeError:           # an unhashable leaf: no caching
        got, key = None, None
    if got is None:
        if swizzle is None:
            got = tuple(base + o for o in table.const)
        else:
            period = 1 << (swizzle.yyy_msk | swizzle.zzz_msk).bit_length()
            sw, msk = swizzle_table(swizzle, period), period - 1
            # the swizzle moves bits below its period only: high part kept, residue looked up
            got = tuple(x - (x & msk) + sw[x & msk] for x in [base + o for o in table.const])
        if key is not None:
            if len(_placed_cache) >= _CACHE_LIMIT:
                _placed_cache.clear()
            _placed_cache[key] = got
    return got


class KeyColumns:
    """An access's keyed offsets (rows of linear forms ``(const, coeffs)``, one row a thread)
    as flat integer columns, row after row: what does not depend on a case of the symbols,
    computed once an access.

    ``width``: the length of every row (``None`` when rows differ in length); ``const[x]``
    and ``coeffs[s][x]``: the constant and the coefficient of symbol ``s`` of the ``x``-th key
    (``x = i * width + v`` for value ``v`` of row ``i``).

    >>> kc = KeyColumns(((( 0, (0,)), (1, (0,))), ((0, (1,)), (1, (1,)))))
    >>> kc.width, kc.const, kc.coeffs
    (2, [0, 1, 0, 1], [[0, 0, 1, 1]])
    >>> kc.steady(2), KeyColumns((((0, (0,)), (1, (1,))),)).steady(2)
    (True, False)
    """
    __slots__ = ("keys", "width", "const", "coeffs", "_steady")

    def __init__(self, keys: Sequence[Sequence[Lin]]) -> None:
        self.keys = keys
        lens = set(map(len, keys))
        self.width: Optional[int] = lens.pop() if len(lens) == 1 else None
        flat = list(chain.from_iterable(keys))
        self.const: list[int] = list(map(itemgetter(0), flat))
        cos = list(map(itemgetter(1), flat))
        self.coeffs: list[list[int]] = [list(map(itemgetter(s), cos)) for s in range(len(cos[0]))] if cos else []
        self._steady: dict[int, bool] = {}

    def steady(self, n: int) -> bool:
        """Whether every run of ``n`` values of a row (``n`` divides ``width``) has one coefficient
        per symbol, and constants ``k, k+1, .., k+n-1``: the run's offsets are consecutive, and in
        any case of the symbols its high parts have one coefficient per symbol.

        @post ``True`` => for every run ``x .. x+n-1`` (``x % n == 0``), ``coeffs[s][x+k] ==
              coeffs[s][x]`` and ``const[x+k] == const[x] + k`` for ``0 <= k < n``.
        """
        got = self._steady.get(n)
        if got is None:
            got = self.width is not None and self.width % n == 0
            if got and n > 1:
                first = self.const[0::n]
                got = all(not any(map(k.__ne__, map(sub, self.const[k::n], first))) for k in range(1, n)) and \
                    all(col[k::n] == col[0::n] for col in self.coeffs for k in range(1, n))
            self._steady[n] = got
        return got


def lin_key(const: int, ks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return const, ks


_expr_cache: dict[tuple[int, tuple[int, ...], tuple[Any, ...]], IntLike] = {}


def expr_of(const: int, ks: tuple[int, ...], syms: tuple[Any, ...]) -> IntLike:
    """The offset ``const + sum(k * s)`` as the algebra writes it (an ``int`` when static);
    cached (sympy objects are immutable), so an access made again writes no offset twice.

    >>> K = sympy.Symbol("K", integer=True)
    >>> expr_of(3, (2,), (K,)), expr_of(3, (0,), (K,))
    (2*K + 3, 3)
    """
    if not any(ks):
        return const
    key = (const, ks, syms)
    got = _expr_cache.get(key)
    if got is None:
        e: Any = const
        for k, s in zip(ks, syms):
            if k:
                e = e + k * s
        if len(_expr_cache) >= 1 << 16:
            _expr_cache.clear()
        got = _expr_cache[key] = e
    return got

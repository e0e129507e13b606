"""Engines of tensors: what an offset (the value of a layout) points into.

* :class:`Pointer` - a symbolic pointer: a memory space (``gmem``, ``smem``,
  ``rmem``), a base name, an element type and an offset formula (a static
  ``int`` or a sympy expression). ``p + k`` moves it; ``p[k]`` is the element's
  address, the pointer moved by ``k``.
* :class:`ArrayEngine` - a NumPy array (numpy is imported only when used) and an
  offset into its flattened elements; ``e[k]`` is the value.
* :class:`CountingEngine` - CuTe's ``ArithmeticTupleIterator``: a coordinate;
  ``e[k]`` is the coordinate plus ``k`` (identity tensors).

>>> p = make_gmem_ptr("A", "half_t")
>>> print(p, p + 16, (p + 16)[4].offset)
gmem_ptr[half_t](A) gmem_ptr[half_t](A+16) 20
>>> from cute_sym import Dyn
>>> print(make_smem_ptr("S") + 4 * Dyn("k"))
smem_ptr(S+4*k)
>>> print(CountingEngine((0, 0)))
ArithTuple(_0,_0)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core.errors import LayoutError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.lazy import is_expr
from ..core.int_tuple import fmt
from ..core.integers import IntLike, as_int_like
from ..swizzle.swizzle import Swizzle
from .arith_tuple import ArithmeticTuple, ScaledBasis, coord_add

__all__ = [
    "Pointer", "ArrayEngine", "CountingEngine", "Engine", "make_gmem_ptr", "make_smem_ptr", "make_rmem_ptr",
    "make_counting_engine",
]

_SPACES = ("gmem", "smem", "rmem", "tmem")


def _add_offset(a: IntLike, b: Any) -> IntLike:
    if isinstance(b, (ScaledBasis, ArithmeticTuple)):
        raise LayoutError(f"a pointer moves by an integer offset, not by the coordinate {b}")
    b = as_int_like(b, "offset")
    if type(b) is int and b == 0:
        return a
    if type(a) is int and a == 0:
        return b
    return a + b


def _offset_str(x: IntLike) -> str:
    if type(x) is int:
        return str(x)
    from ..core.formula import formula_str
    return formula_str(x)


class Pointer:
    """A symbolic pointer ``space_ptr[dtype](name + offset)``.

    @pre ``space`` is ``gmem``, ``smem``, ``rmem`` or ``tmem`` (see :mod:`cute_sym.tensor.tmem_space`); ``name`` a non-empty string; ``offset`` an integer.
    @post immutable; ``(p + a) + b == p + (a + b)``; ``p[k] == p + k``.

    >>> p = Pointer("gmem", "A", "float", 8)
    >>> p.offset, str(p), p == Pointer("gmem", "A", "float", 8)
    (8, 'gmem_ptr[float](A+8)', True)
    """

    __slots__ = ("_space", "_name", "_dtype", "_offset", "_swizzle")

    _space: str
    _name: str
    _dtype: Optional[str]
    _offset: IntLike
    _swizzle: Optional[Swizzle]

    def __init__(self, space: str, name: str, dtype: Optional[str] = None, offset: Any = 0,
                 swizzle: Optional[Swizzle] = None) -> None:
        if space not in _SPACES:
            raise LayoutError(f"Pointer: the memory space is one of {_SPACES}, got {space!r}")
        if not isinstance(name, str) or not name:
            raise LayoutError(f"Pointer: the base name must be a non-empty string, got {name!r}")
        if dtype is not None and not isinstance(dtype, str):
            raise LayoutError(f"Pointer: the element type is a name such as 'half_t', got {dtype!r}")
        object.__setattr__(self, "_space", space)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_dtype", dtype)
        object.__setattr__(self, "_offset", as_int_like(offset, "offset"))
        if swizzle is not None and (not isinstance(swizzle, Swizzle) or space != "smem"):
            raise LayoutError(f"Pointer: only a shared-memory pointer carries a swizzle, got {swizzle!r} on {space}")
        object.__setattr__(self, "_swizzle", swizzle)

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Pointer is immutable")

    @property
    def space(self) -> str:
        return self._space

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> Optional[str]:
        return self._dtype

    @property
    def offset(self) -> IntLike:
        """The offset from the base, in elements: a static ``int`` or a sympy formula."""
        return self._offset

    @property
    def swizzle(self) -> Optional[Swizzle]:
        """CuTe's ``swizzle_ptr``: the swizzle (on byte addresses) the pointer applies, or None."""
        return self._swizzle

    def with_swizzle(self, swizzle: Optional[Swizzle]) -> "Pointer":
        """The same pointer applying ``swizzle`` (CuTe's ``make_smem_ptr(ptr, swizzle)``)."""
        return Pointer(self._space, self._name, self._dtype, self._offset, swizzle)

    def is_static(self) -> bool:
        return type(self._offset) is int

    def __add__(self, k: Any) -> "Pointer":
        return Pointer(self._space, self._name, self._dtype, _add_offset(self._offset, k), self._swizzle)

    def __getitem__(self, k: Any) -> "Pointer":
        return self.__add__(k)

    # an iterator has no end: not iterable (Python would step p[0], p[1], ... forever)
    __iter__ = None

    def _cute_subs(self, go: Any) -> "Pointer":
        return Pointer(self._space, self._name, self._dtype, go(self._offset), self._swizzle)

    def __str__(self) -> str:
        t = f"[{self._dtype}]" if self._dtype else ""
        o = self._offset
        if type(o) is int and o == 0:
            where = self._name
        else:
            text = _offset_str(o)
            where = f"{self._name}{text}" if text.startswith("-") else f"{self._name}+{text}"
        sw = f"{self._swizzle}_" if self._swizzle is not None else ""
        return f"{sw}{self._space}_ptr{t}({where})"

    def __repr__(self) -> str:
        return f"Pointer({self})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Pointer) and self._space == other._space and self._name == other._name
                and self._dtype == other._dtype and bool(self._offset == other._offset)
                and self._swizzle == other._swizzle)

    def __hash__(self) -> int:
        return hash((self._space, self._name, self._dtype, self._offset, self._swizzle))


def make_gmem_ptr(name: str, dtype: Optional[str] = None, offset: Any = 0) -> Pointer:
    """A global-memory pointer named ``name`` (CuTe's ``make_gmem_ptr``).

    >>> print(make_gmem_ptr("A", dtype="half_t"))
    gmem_ptr[half_t](A)
    """
    return Pointer("gmem", name, dtype, offset)


def make_smem_ptr(name: str, dtype: Optional[str] = None, offset: Any = 0) -> Pointer:
    """A shared-memory pointer named ``name`` (CuTe's ``make_smem_ptr``).

    >>> print(make_smem_ptr("sA", "float", 32))
    smem_ptr[float](sA+32)
    """
    return Pointer("smem", name, dtype, offset)


def make_rmem_ptr(name: str, dtype: Optional[str] = None, offset: Any = 0) -> Pointer:
    """A register-memory pointer named ``name`` (CuTe's ``make_rmem_ptr``).

    >>> print(make_rmem_ptr("frg"))
    rmem_ptr(frg)
    """
    return Pointer("rmem", name, dtype, offset)


class ArrayEngine:
    """A NumPy array viewed through an offset into its flattened (C-order) elements.

    @pre ``array`` is a numpy array; ``offset`` an integer.
    @post ``e[k]`` is ``array.reshape(-1)[offset + k]`` (for a concrete ``k``).

    >>> import numpy as np
    >>> e = ArrayEngine(np.arange(10) * 10)
    >>> int(e[3]), int((e + 2)[3]), str(e + 2)
    (30, 50, 'array[int64](+2)')
    """

    __slots__ = ("_array", "_offset")

    _array: Any
    _offset: IntLike

    def __init__(self, array: Any, offset: Any = 0) -> None:
        import numpy as np
        if not isinstance(array, np.ndarray):
            raise LayoutError(f"ArrayEngine: expected a numpy array, got {type(array).__name__}")
        object.__setattr__(self, "_array", array)
        object.__setattr__(self, "_offset", as_int_like(offset, "offset"))

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ArrayEngine is immutable")

    @property
    def array(self) -> Any:
        return self._array

    @property
    def offset(self) -> IntLike:
        return self._offset

    def is_static(self) -> bool:
        return type(self._offset) is int

    def __add__(self, k: Any) -> "ArrayEngine":
        return ArrayEngine(self._array, _add_offset(self._offset, k))

    def _cute_subs(self, go: Any) -> "ArrayEngine":
        return ArrayEngine(self._array, go(self._offset))

    def __getitem__(self, k: Any) -> Any:
        i = _add_offset(self._offset, k)
        if is_expr(i):
            if not i.is_Integer:
                raise LayoutError(f"ArrayEngine: the offset {i} is symbolic; substitute values first")
            i = int(i)
        flat = self._array.reshape(-1)
        if not 0 <= i < flat.size:
            raise LayoutError(f"ArrayEngine: offset {i} is outside the array of {flat.size} elements")
        return flat[i]

    def __str__(self) -> str:
        return f"array[{self._array.dtype}](+{_offset_str(self._offset)})"

    def __repr__(self) -> str:
        return f"ArrayEngine({self})"


class CountingEngine:
    """CuTe's ``ArithmeticTupleIterator``: the engine of identity tensors; ``e[k]`` is ``coord + k``.

    @post ``str(e)`` is ``ArithTuple`` followed by the coordinate, as CuTe prints it.

    >>> from cute_sym.tensor.arith_tuple import E
    >>> e = CountingEngine((0, 0))
    >>> print(e[3 * E(1)], e + E(0) + E(0))
    (_0,_3) ArithTuple(_2,_0)
    """

    __slots__ = ("_coord",)

    _coord: Any

    def __init__(self, coord: Any = 0) -> None:
        if type(coord) is tuple or isinstance(coord, list):
            coord = ArithmeticTuple(coord)
        object.__setattr__(self, "_coord", coord)

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("CountingEngine is immutable")

    @property
    def coord(self) -> Any:
        """The coordinate the iterator points at (an ArithmeticTuple, or an integer)."""
        return self._coord

    def is_static(self) -> bool:
        c = self._coord
        return type(c) is int or (isinstance(c, (ArithmeticTuple, ScaledBasis)) and c.is_static())

    def __add__(self, k: Any) -> "CountingEngine":
        return CountingEngine(coord_add(self._coord, k))

    def __getitem__(self, k: Any) -> Any:
        return coord_add(self._coord, k)

    __iter__ = None     # (endless, as a pointer)

    def _cute_subs(self, go: Any) -> "CountingEngine":
        return CountingEngine(go(self._coord))

    def __str__(self) -> str:
        return "ArithTuple" + fmt(self._coord)

    def __repr__(self) -> str:
        return f"CountingEngine({self})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CountingEngine) and bool(self._coord == other._coord)

    def __hash__(self) -> int:
        return hash(str(self._coord))


def make_counting_engine(coord: Any = 0) -> CountingEngine:
    """CuTe's ``make_inttuple_iter``: a counting engine starting at ``coord``."""
    return CountingEngine(coord)


#: What a tensor's elements live in.
Engine = Union[Pointer, ArrayEngine, CountingEngine]

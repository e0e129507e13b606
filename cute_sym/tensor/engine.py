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
    "Pointer", "ArrayEngine", "OutOfBoundsError", "set_offset_resolver", "resolve_offset", "CountingEngine", "Engine", "make_gmem_ptr", "make_smem_ptr", "make_rmem_ptr",
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
        if dtype is not None and not dtype.startswith(("GMMA::smem_desc<", "UMMA::smem_desc<",
                                                       "UMMA::sparse_smem_desc<")):
            # a CuTe element type, as Copy_Atom checks it ("halfx" is refused); a GMMA/UMMA
            # descriptor fragment's pointer holds descriptors
            from .atoms.copy_types import sizeof_bits
            sizeof_bits(dtype)
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


#: How a symbolic offset gets its value while memory is accessed: a simulation of a CTA sets a
#: function of the formula (the running thread's index substituted); None elsewhere.
_RESOLVER: list[Any] = [None]


def set_offset_resolver(fn: Any) -> Any:
    """Install ``fn(formula) -> int`` (None removes it); returns the one it replaces."""
    old = _RESOLVER[0]
    _RESOLVER[0] = fn
    return old


def resolve_offset(x: Any) -> Any:
    """``x`` itself when it is an integer; else its value from the installed resolver (a
    :class:`LayoutError` naming the formula when there is none)."""
    if type(x) is int:
        return x
    if is_expr(x) and x.is_Integer:
        return int(x)
    fn = _RESOLVER[0]
    if fn is None:
        raise LayoutError(f"the offset {x} is symbolic; substitute values first (or run inside a simulation "
                          "whose thread index it names)")
    return fn(x)


class OutOfBoundsError(LayoutError):
    """An access through a tensor left the memory its engine holds (an offset below 0 or past the end);
    ``offset`` is the offset, ``memory`` the watched memory's name (empty when none watches it)."""

    def __init__(self, message: str, offset: int = 0, memory: str = "") -> None:
        super().__init__(message)
        self.offset, self.memory = offset, memory


class ArrayEngine:
    """Memory you can read and write: a NumPy array, a Python ``list`` or a ``bytearray``, viewed
    flat (C order) from an offset, holding elements of a CuTe type.

    ``dtype`` is the CuTe element type (``half_t``, ``bfloat16_t``, ...; by default the one the
    array's dtype holds, see :mod:`.numeric`); ``e[k]`` is the value of element ``offset + k``
    and ``e[k] = v`` stores ``v`` rounded to the type. A list holds any Python values
    (``dtype`` None), a bytearray ``uint8_t``. ``tracker`` (optional) is told of every access
    (``tracker.access(kind, offsets)``): the simulation's way of seeing memory traffic.

    @pre ``array`` is a NumPy array (C-contiguous to be written), a list or a bytearray;
         ``offset`` an integer.
    @post ``e[k]`` is ``decode(dtype, flat[offset + k])``; ``(e + a)[k] == e[a + k]``; an offset
          outside the memory raises :class:`OutOfBoundsError` (a :class:`LayoutError`).

    >>> import numpy as np
    >>> e = ArrayEngine(np.arange(10) * 10)
    >>> int(e[3]), int((e + 2)[3]), str(e + 2)
    (30, 50, 'array[int64](+2)')
    >>> h = ArrayEngine(np.zeros(4, dtype=np.uint16), dtype="bfloat16_t")
    >>> h[1] = 1.00390625             # 1 + 2**-8 rounds to even: 1.0
    >>> float(h[1]), int(h.array[1])
    (1.0, 16256)
    >>> b = ArrayEngine([0] * 4); b[2] = "x"; b.array
    [0, 0, 'x', 0]
    """

    __slots__ = ("_array", "_offset", "_dtype", "_tracker")

    _array: Any
    _offset: IntLike
    _dtype: Optional[str]
    _tracker: Any

    def __init__(self, array: Any, offset: Any = 0, dtype: Optional[str] = None, tracker: Any = None) -> None:
        if isinstance(array, (list, bytearray)):
            if isinstance(array, bytearray):
                dtype = dtype or "uint8_t"
                if dtype != "uint8_t":
                    raise LayoutError(f"ArrayEngine: a bytearray holds uint8_t elements, not {dtype}")
        else:
            from .numeric import element_type_of, numpy, storage_dtype
            np = numpy()
            if not isinstance(array, np.ndarray):
                raise LayoutError(f"ArrayEngine: expected a numpy array, a list or a bytearray, "
                                  f"got {type(array).__name__}")
            if dtype is None:
                dtype = element_type_of(array.dtype)
            elif storage_dtype(dtype) != array.dtype:
                raise LayoutError(f"ArrayEngine: elements of {dtype} are stored as {storage_dtype(dtype)}, "
                                  f"the array holds {array.dtype}")
        object.__setattr__(self, "_array", array)
        object.__setattr__(self, "_offset", as_int_like(offset, "offset"))
        object.__setattr__(self, "_dtype", dtype)
        object.__setattr__(self, "_tracker", tracker)

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ArrayEngine is immutable")

    @property
    def array(self) -> Any:
        """The memory (the object itself: writes through the engine land in it)."""
        return self._array

    @property
    def offset(self) -> IntLike:
        return self._offset

    @property
    def dtype(self) -> Optional[str]:
        """The CuTe element type (None for a list of Python values)."""
        return self._dtype

    @property
    def tracker(self) -> Any:
        return self._tracker

    def is_static(self) -> bool:
        return type(self._offset) is int

    def __add__(self, k: Any) -> "ArrayEngine":
        return ArrayEngine(self._array, _add_offset(self._offset, k), self._dtype, self._tracker)

    def _cute_subs(self, go: Any) -> "ArrayEngine":
        return ArrayEngine(self._array, go(self._offset), self._dtype, self._tracker)

    def with_tracker(self, tracker: Any) -> "ArrayEngine":
        """The same memory, its accesses told to ``tracker``."""
        return ArrayEngine(self._array, self._offset, self._dtype, tracker)

    def flat(self, write: bool = False) -> Any:
        """The memory as one flat sequence (for a C-contiguous array a view: writes land in it)."""
        a = self._array
        if isinstance(a, (list, bytearray)) or a.flags.c_contiguous:
            return a if isinstance(a, (list, bytearray)) else a.reshape(-1)
        if write:
            raise LayoutError("ArrayEngine: a non-contiguous NumPy array has no flat view to write; "
                              "pass the contiguous array it is a view of")
        return a.reshape(-1)

    def __len__(self) -> int:
        return len(self._array) if isinstance(self._array, (list, bytearray)) else int(self._array.size)

    def _index(self, k: Any) -> int:
        i = _add_offset(self._offset, k)
        if type(i) is not int:
            i = resolve_offset(i)
        n = len(self)
        if not 0 <= int(i) < n:
            raise OutOfBoundsError(f"ArrayEngine: offset {i} is outside the memory of {n} elements", int(i),
                                   self._memory_name())
        return int(i)

    def _memory_name(self) -> str:
        mem = getattr(self._tracker, "memory", None)
        return str(getattr(mem, "name", "")) if mem is not None else ""

    def __getitem__(self, k: Any) -> Any:
        i = self._index(k)
        if self._tracker is not None:
            self._tracker.access("r", [i])
        v = self.flat()[i]
        if self._dtype is None or isinstance(self._array, (list, bytearray)):
            return v
        from .numeric import decode
        return decode(self._dtype, v)[()]

    def __setitem__(self, k: Any, value: Any) -> None:
        i = self._index(k)
        if self._tracker is not None:
            self._tracker.access("w", [i])
        if isinstance(self._array, (list, bytearray)):
            self._array[i] = value
            return
        from .numeric import encode
        self.flat(True)[i] = encode(self._dtype or "double", value)

    # ---- many elements at once (NumPy index arrays): the algorithms' path
    def _indices(self, offsets: Any) -> Any:
        from .numeric import numpy
        np = numpy()
        idx = np.asarray(offsets, dtype=np.int64) + resolve_offset(self._offset)
        n = len(self)
        if idx.size and (idx.min() < 0 or idx.max() >= n):
            bad = idx[(idx < 0) | (idx >= n)]
            raise OutOfBoundsError(f"ArrayEngine: offset {int(bad[0])} is outside the memory of {n} elements",
                                   int(bad[0]), self._memory_name())
        return idx

    def load(self, offsets: Any) -> Any:
        """The values at ``offsets`` (relative to the engine's offset) as an array.

        @post ``load(o)[j] == self[o[j]]``.
        """
        from .numeric import decode, numpy
        np = numpy()
        idx = self._indices(offsets)
        if self._tracker is not None:
            self._tracker.access("r", idx)
        a = self._array
        if isinstance(a, (list, bytearray)):
            return np.array([a[i] for i in idx.tolist()], dtype=object if isinstance(a, list) else np.uint8)
        return decode(self._dtype or "double", self.flat()[idx])

    def load_raw(self, offsets: Any) -> Any:
        """The stored bits at ``offsets`` (the storage dtype, not decoded): what a copy between
        memories of one element type moves."""
        if isinstance(self._array, (list, bytearray)):
            return self.load(offsets)
        idx = self._indices(offsets)
        if self._tracker is not None:
            self._tracker.access("r", idx)
        return self.flat()[idx]

    def store_raw(self, offsets: Any, raw: Any) -> None:
        """Store bits read by :meth:`load_raw` of memory of the same element type."""
        if isinstance(self._array, (list, bytearray)):
            self.store(offsets, raw)
            return
        idx = self._indices(offsets)
        if self._tracker is not None:
            self._tracker.access("w", idx)
        self.flat(True)[idx] = raw

    def store(self, offsets: Any, values: Any) -> None:
        """Store ``values`` (rounded to the element type) at ``offsets``; a repeated offset keeps the
        last value, as the elementwise loop would."""
        from .numeric import encode, numpy
        np = numpy()
        idx = self._indices(offsets)
        if self._tracker is not None:
            self._tracker.access("w", idx)
        a = self._array
        vals = np.broadcast_to(np.asarray(values), idx.shape)
        if isinstance(a, (list, bytearray)):
            for i, v in zip(idx.tolist(), vals.tolist()):
                a[i] = v
            return
        self.flat(True)[idx] = encode(self._dtype or "double", vals)

    def __str__(self) -> str:
        a = self._array
        if isinstance(a, (list, bytearray)):
            kind = type(a).__name__
        elif self._dtype is not None and str(a.dtype) in ("uint8", "uint16", "float32") and self._dtype in (
                "bfloat16_t", "__nv_bfloat16", "float_e4m3_t", "float_e5m2_t", "tfloat32_t"):
            kind = self._dtype          # an emulated type: its CuTe name, not its storage
        else:
            kind = str(a.dtype)
        return f"array[{kind}](+{_offset_str(self._offset)})"

    def __repr__(self) -> str:
        return f"ArrayEngine({self})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ArrayEngine) and self._array is other._array and self._dtype == other._dtype
                and bool(self._offset == other._offset))

    def __hash__(self) -> int:
        return hash((id(self._array), self._dtype, str(self._offset)))


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

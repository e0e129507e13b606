"""Element types as NumPy stores them: CuTe's names (``half_t``, ``bfloat16_t``, ``float_e4m3_t``,
``tfloat32_t``, ``int8_t``...) mapped to a storage dtype of the same width, with the conversions
that give their values.

NumPy is imported on first use (``import cute_sym`` never imports it): every function here
raises a :class:`LayoutError` naming the missing extra when it is absent.

* ``half_t`` is ``float16``; ``float``/``double`` are ``float32``/``float64``; integers are themselves.
* ``bfloat16_t`` is stored as its 16 bits (``uint16``): a value is the ``float32`` with those bits
  on top; storing rounds to nearest, ties to even (CUTLASS's ``float -> bfloat16_t``).
* ``tfloat32_t`` is a ``float32`` whose low 13 mantissa bits are zero; storing rounds to nearest,
  ties away from zero (CUTLASS's default ``round_half_ulp_truncate``, as ``cvt.rna.tf32.f32``).
* ``float_e4m3_t`` / ``float_e5m2_t`` are stored as their 8 bits (``uint8``); storing rounds to
  nearest, ties to even, saturating to the largest finite value (CUTLASS's ``satfinite``).

The storage width equals ``sizeof_bits`` of the type, so a recast between element types
reinterprets the same bits, as CuTe's ``recast<T>`` does.

>>> import numpy as np
>>> [float(v) for v in round_to("bfloat16_t", np.array([1.0 + 2**-8, 1.0 + 3 * 2**-8]))]
[1.0, 1.015625]
>>> [float(v) for v in round_to("float_e4m3_t", np.array([0.3, 500.0, -1000.0]))]
[0.3125, 448.0, -448.0]
>>> storage_dtype("half_t"), storage_dtype("float_e5m2_t")
(dtype('float16'), dtype('uint8'))
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core.errors import LayoutError
from .atoms.copy_types import sizeof_bits, type_name

__all__ = ["numpy", "storage_dtype", "decode", "encode", "round_to", "compute_dtype", "is_float_type",
           "element_type_of"]

_PLAIN = {
    "half_t": "float16", "half": "float16", "__half": "float16",
    "float": "float32", "double": "float64",
    "int8_t": "int8", "int16_t": "int16", "int32_t": "int32", "int64_t": "int64",
    "uint8_t": "uint8", "uint16_t": "uint16", "uint32_t": "uint32", "uint64_t": "uint64",
    "char": "int8", "short": "int16", "int": "int32", "unsigned": "uint32", "bool": "bool",
    "complex<float>": "complex64", "complex<double>": "complex128",
}
_BITS = {"bfloat16_t": "uint16", "__nv_bfloat16": "uint16", "float_e4m3_t": "uint8", "float_e5m2_t": "uint8"}
_ROUNDED = {"tfloat32_t": "float32"}

# numpy dtype name -> CuTe name (an array of that dtype holds elements of that type)
_FROM_NUMPY = {"float16": "half_t", "float32": "float", "float64": "double", "int8": "int8_t",
               "int16": "int16_t", "int32": "int32_t", "int64": "int64_t", "uint8": "uint8_t",
               "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t", "bool": "bool",
               "complex64": "complex<float>", "complex128": "complex<double>"}


def numpy() -> Any:
    """The ``numpy`` module, or a :class:`LayoutError` saying how to install it."""
    try:
        import numpy as np
    except ImportError:     # pragma: no cover - the test environment has numpy
        raise LayoutError("tensors over memory need NumPy: pip install 'cute_sym[numpy]'") from None
    return np


@lru_cache(maxsize=None)
def _key(name: str) -> str:
    key = type_name(name)
    sizeof_bits(key)            # an unknown name raises here, with the table's message
    return key


@lru_cache(maxsize=None)
def storage_dtype(name: str) -> Any:
    """The NumPy dtype that holds elements of the CuTe type ``name`` (same width in bits).

    @pre ``name`` is a CuTe element type NumPy can hold (not sub-byte, not 128-bit), else :class:`LayoutError`.
    """
    np = numpy()
    key = _key(name)
    dt = _PLAIN.get(key) or _BITS.get(key) or _ROUNDED.get(key)
    if dt is None:
        raise LayoutError(f"no NumPy storage for elements of type {key} ({sizeof_bits(key)} bits): "
                          "use a type of 8 bits or more, such as uint8_t, uint32_t, half_t, float")
    return np.dtype(dt)


def element_type_of(dtype: Any) -> str:
    """The CuTe name of the elements a NumPy array of ``dtype`` holds (``float32`` -> ``float``)."""
    np = numpy()
    name = np.dtype(dtype).name
    out = _FROM_NUMPY.get(name)
    if out is None:
        raise LayoutError(f"no CuTe element type for NumPy arrays of {name}")
    return out


@lru_cache(maxsize=None)
def is_float_type(name: str) -> bool:
    key = _key(name)
    return key in ("half_t", "half", "__half", "float", "double", "tfloat32_t") or key in _BITS


@lru_cache(maxsize=None)
def compute_dtype(name: str) -> Any:
    """The dtype arithmetic on values of ``name`` runs in: ``float64``, ``int64`` or ``complex128``."""
    np = numpy()
    key = _key(name)
    if key.startswith("complex"):
        return np.dtype("complex128")
    return np.dtype("float64") if is_float_type(key) else np.dtype("int64")


@lru_cache(maxsize=None)
def _fp8_table(name: str) -> Any:
    """The 256 values of an 8-bit float code (NaN where a code is NaN or infinite)."""
    np = numpy()
    exp_bits, man_bits, bias = (4, 3, 7) if name == "float_e4m3_t" else (5, 2, 15)
    codes = np.arange(256)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    e = (codes >> man_bits) & ((1 << exp_bits) - 1)
    m = codes & ((1 << man_bits) - 1)
    normal = (1.0 + m / (1 << man_bits)) * np.exp2(e.astype(float) - bias)
    sub = (m / (1 << man_bits)) * 2.0 ** (1 - bias)
    vals = sign * np.where(e == 0, sub, normal)
    if name == "float_e4m3_t":        # e4m3: S.1111.111 is NaN, no infinities
        vals[(e == 15) & (m == 7)] = np.nan
    else:                             # e5m2: IEEE-like, exponent 31 is inf/NaN
        vals[e == 31] = np.nan
    return vals


def _fp8_encode(name: str, x: Any) -> Any:
    np = numpy()
    table = _fp8_table(name)
    pos = table[:128]
    finite = np.isfinite(pos)
    codes = np.nonzero(finite)[0]
    mags = pos[finite]                      # ascending with the code
    a = np.abs(np.asarray(x, dtype=np.float64))
    a = np.minimum(a, mags[-1])             # satfinite
    hi = np.clip(np.searchsorted(mags, a), 0, len(mags) - 1)
    lo = np.maximum(hi - 1, 0)
    dlo, dhi = a - mags[lo], mags[hi] - a
    pick_hi = (dhi < dlo) | ((dhi == dlo) & (codes[hi] % 2 == 0))
    c = np.where(pick_hi, codes[hi], codes[lo]).astype(np.uint8)
    neg = np.signbit(np.asarray(x, dtype=np.float64))
    c = np.where(neg, c | 0x80, c)
    nan = np.isnan(np.asarray(x, dtype=np.float64))
    return np.where(nan, np.uint8(0x7F), c).astype(np.uint8)


def encode(name: str, values: Any) -> Any:
    """``values`` (numbers) as the storage of type ``name``: rounded as the type rounds.

    @post ``decode(name, encode(name, v))`` is ``v`` rounded to the type.
    """
    np = numpy()
    key = _key(name)
    if key in _BITS:
        if key.startswith("float_e"):
            return _fp8_encode(key, values)
        f = np.asarray(values, dtype=np.float32)
        u = f.view(np.uint32).astype(np.uint64)
        rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16        # nearest, ties to even
        out = np.where(np.isnan(f), np.uint64(0x7FC0), rounded)
        return out.astype(np.uint16)
    if key in _ROUNDED:
        f = np.asarray(values, dtype=np.float32)
        u = f.view(np.uint32).astype(np.uint64)
        r = ((u + 0x1000) & 0xFFFFE000).astype(np.uint32)     # nearest, ties away from zero
        finite = np.isfinite(f)
        return np.where(finite, r.view(np.float32), f).astype(np.float32)
    dt = storage_dtype(key)
    v = np.asarray(values)
    if dt.kind in "iu" and v.dtype.kind in "iu":
        return v.astype(np.int64).astype(dt)            # two's-complement wrap, as C++'s cast
    with np.errstate(over="ignore", invalid="ignore"):   # as C++'s conversions: inf past the range
        if dt.kind in "iu" and v.dtype.kind == "f":
            return np.trunc(v).astype(np.int64).astype(dt)
        return v.astype(dt)


def decode(name: str, stored: Any) -> Any:
    """The values of the storage ``stored`` of type ``name`` (float32 for bf16/fp8, else the storage)."""
    np = numpy()
    key = _key(name)
    if key in _BITS:
        s = np.asarray(stored)
        if key.startswith("float_e"):
            return _fp8_table(key)[s.astype(np.intp)].astype(np.float32)
        return (s.astype(np.uint32) << 16).view(np.float32)
    return np.asarray(stored)


def round_to(name: str, values: Any) -> Any:
    """``values`` rounded to the type ``name`` (as storing them and reading them back).

    >>> import numpy as np
    >>> [float(v) for v in round_to("tfloat32_t", np.array([1 + 2**-11, 1 + 2**-10]))]
    [1.0009765625, 1.0009765625]
    >>> [int(v) for v in round_to("int8_t", np.array([127, 128, -129]))]
    [127, -128, 127]
    """
    return decode(name, encode(name, values))

"""Names in emitted code: every one accepted by the target language, no two meanings on one name.

A layout's symbols become arguments of the emitted function. A symbol whose
name the target reserves (a keyword such as ``int`` or ``lambda``, a builtin
such as ``len``, a CUDA name such as ``threadIdx``, a macro of ``<stdint.h>``)
or that a generated name uses (the index ``i``, the temporaries ``t0, t1, ...``,
the swizzle's ``o``, the output ``out``, the function's own name) is renamed by
suffixing ``_`` until the name is free: the renaming is deterministic (symbols
are taken in name order) and a new name never equals another symbol's name.

>>> safe_names(["M", "int", "int_"], "c", reserved={"i", "offset"})
{'int': 'int__'}
>>> safe_names(["lambda", "N"], "python", reserved=set())
{'lambda': 'lambda_'}
"""
from __future__ import annotations

import builtins
import keyword
import re
from typing import Iterable

__all__ = ["safe_names", "reserved_words", "fresh_name"]

_C = """auto break case char const continue default do double else enum extern float for goto if inline int
long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while
_Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t uintptr_t intmax_t uintmax_t size_t
ptrdiff_t wchar_t NULL bool true false main"""
_CXX = """alignas alignof and and_eq asm bitand bitor catch char8_t char16_t char32_t class compl concept consteval
constexpr constinit const_cast co_await co_return co_yield decltype delete dynamic_cast explicit export friend
mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public reinterpret_cast
requires static_assert static_cast template this thread_local throw try typeid typename using virtual xor xor_eq
final override import module std cute Int"""
_CUDA = """threadIdx blockIdx blockDim gridDim warpSize __device__ __global__ __host__ __shared__ __constant__
__forceinline__ __restrict__ dim3 half nv_bfloat16 min max abs"""
_PY_EXTRA = "np numpy int tuple self cls"
# macros of <stdint.h> / <limits.h> and the reserved identifiers of C (leading __ or _ and a capital)
_C_MACRO = re.compile(r"^(U?INT(8|16|32|64|PTR|MAX|_LEAST\d+|_FAST\d+)?_(MAX|MIN|C)|SIZE_MAX|PTRDIFF_\w+|"
                      r"WCHAR_\w+|WINT_\w+|SIG_ATOMIC_\w+|U?INT\d*_C|CHAR_BIT|CHAR_\w+|SCHAR_\w+|UCHAR_\w+|"
                      r"SHRT_\w+|USHRT_\w+|INT_\w+|UINT_\w+|LONG_\w+|ULONG_\w+|LLONG_\w+|ULLONG_\w+|__\w*|_[A-Z]\w*)$")


def reserved_words(lang: str) -> frozenset[str]:
    """The names ``lang`` (``c``, ``cuda``, ``python``, ``numpy``, ``cute``) reserves: its keywords and builtins.

    >>> "int" in reserved_words("c") and "threadIdx" in reserved_words("cuda") and "len" in reserved_words("python")
    True
    """
    if lang in ("python", "numpy"):
        return frozenset(keyword.kwlist) | frozenset(getattr(keyword, "softkwlist", [])) \
            | frozenset(dir(builtins)) | frozenset(_PY_EXTRA.split())
    # C takes C++'s words too: emitted C is often compiled as C++ (and CUDA is C++)
    words = set(_C.split()) | set(_CXX.split()) | set(_CUDA.split())
    return frozenset(words)


def _bad(name: str, lang: str, reserved: set[str]) -> bool:
    if name in reserved or name in reserved_words(lang):
        return True
    return lang not in ("python", "numpy") and _C_MACRO.match(name) is not None


def fresh_name(base: str, taken: Iterable[str]) -> str:
    """``base``, or ``base`` suffixed with ``_`` until it is not in ``taken``.

    >>> fresh_name("i", {"i", "i_"})
    'i__'
    """
    used = set(taken)
    name = base
    while name in used:
        name += "_"
    return name


def safe_names(names: Iterable[str], lang: str, reserved: set[str]) -> dict[str, str]:
    """The renaming (old name -> new name) of the ``names`` that ``lang`` or ``reserved`` forbid.

    @post no new name is reserved, a keyword or builtin of ``lang``, or equal to any other name (old or new);
          names not forbidden keep their name (they are not in the map).
    """
    names = sorted(set(names))
    keep = {n for n in names if not _bad(n, lang, reserved)}
    out: dict[str, str] = {}
    taken = set(keep) | set(names)
    for n in names:
        if n in keep:
            continue
        c = n + "_"
        while c in taken or _bad(c, lang, reserved):
            c += "_"
        out[n] = c
        taken.add(c)
    return out

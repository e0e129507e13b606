"""The Blackwell (SM100) tensor-memory copies as data: ``tcgen05.ld``/``tcgen05.st``
(``SM100_TMEM_LOAD_*``, ``SM100_TMEM_STORE_*``, ``SM100_TMEM_LOAD_STAT_*``) and
``tcgen05.cp`` (``SM100_UTCCP_*``).

The 162 ``Copy_Traits`` of ``cute/atom/copy_traits_sm100.hpp`` follow a few rules,
written here once and unrolled into rows (:data:`SM100_TMEM_ROWS`), which
:func:`~cute_sym.tensor.atoms.copy_traits.Copy_Traits` reads like any other row.
Each row is ``(params, ThrID, ValID, Src, Dst, ref)`` with the layouts as
``(shape, stride)`` tuples.

A TMEM load ``SM100_TMEM_LOAD_<dp>dp<b>b<r>x[_16b]`` moves, in each of ``dp``
data-path lanes of a warp's 32-lane quarter of TMEM, ``r`` repetitions of ``b``
bits (``16dp32b`` moves two 32-bit halves a repetition, so 64 bits). ``ValID``
maps the logical bit to its TMEM bit address (lane stride :data:`DP_b`, ``1 << 21``:
a lane is ``1 << 16`` 32-bit words); the ``_16b`` variants keep 16 bits of each
32-bit column (``.pack::16b``/``.unpack::16b``). The TMEM side of the atom is
``(_32,N):(_0,_1)``, every thread naming the whole footprint; the register side says
which thread holds which bit, in the shape of the PTX fragment. A store is the
load with source and destination exchanged; ``RefLayout`` is the TMEM side.

>>> rows = dict(SM100_TMEM_ROWS)
>>> rows["SM100_TMEM_LOAD_16dp128b2x"].val
((256, 16), (1, 2097152))
>>> rows["SM100_TMEM_STORE_32dp32b4x_16b"].src
((32, 128), (128, 1))
>>> len(rows), sum(k.startswith("SM100_UTCCP") for k in rows)
(162, 12)
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ...core.errors import LayoutError

__all__ = ["DP_b", "Row", "SM100_TMEM_ROWS", "TMEM_SHAPES", "tmem_load_to_store", "tmem_op_repeater"]

DP_b = 1 << 21
"""``TMEM::DP_b``: the TMEM bit address of one data-path lane (lane in bits 31:16 of a word address)."""

_Lay = tuple[Any, Any]


class Row(NamedTuple):
    thr: _Lay
    val: _Lay
    src: _Lay
    dst: _Lay
    ref: str        # "src" or "dst"


# (dp, b) -> bits moved in one lane by one repetition, and the repetitions CuTe defines
TMEM_SHAPES: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {
    (16, 256): (256, (1, 2, 4, 8, 16, 32)),
    (16, 128): (128, (1, 2, 4, 8, 16, 32, 64)),
    (16, 64): (64, (1, 2, 4, 8, 16, 32, 64, 128)),
    (16, 32): (64, (1, 2, 4, 8, 16, 32, 64, 128)),
    (32, 32): (32, (1, 2, 4, 8, 16, 32, 64, 128)),
}
_STAT_REPS = (32, 128)
_WARP: _Lay = (32, 1)


def _registers(dp: int, b: int, r: int) -> _Lay:
    """(thread, value) -> bit of the register fragment of ``<dp>dp<b>b<r>x`` (a repetition
    mode of extent 1 is left out, as the header writes it)."""
    if dp == 32:
        return (32, 32 * r), (32 * r, 1)
    if b == 32:
        return ((16, 2), 32 * r), ((64 * r, 32 * r), 1)
    if b == 64:
        val: _Lay = (32, r), (1, 64)
        return (((2, 2, 8), val[0] if r > 1 else 32), ((512 * r, 32, 64 * r), val[1] if r > 1 else 1))
    w = b // 4      # 128b: 32 bits a thread a row; 256b: 64
    vs: tuple[int, ...] = (w, 2, r) if r > 1 else (w, 2)
    vd: tuple[int, ...] = (1, 8 * b * r, b) if r > 1 else (1, 8 * b)
    return ((4, 8), vs), ((w, b * r), vd)


def _tmem_rows() -> list[tuple[str, Row]]:
    out: list[tuple[str, Row]] = []
    for (dp, b), (bits, reps) in TMEM_SHAPES.items():
        for r in reps:
            n = bits * r
            tmem: _Lay = (32, n * dp), (0, 1)
            regs = _registers(dp, b, r)
            for pack in ("", "_16b"):
                val: _Lay = ((n, dp), (1, DP_b)) if not pack else (((16, n // 16), dp), ((1, 32), DP_b))
                name = f"{dp}dp{b}b{r}x{pack}"
                out.append((f"SM100_TMEM_LOAD_{name}", Row(_WARP, val, tmem, regs, "src")))
                out.append((f"SM100_TMEM_STORE_{name}", Row(_WARP, val, regs, tmem, "dst")))
                if dp == 32 and not pack and r in _STAT_REPS:
                    out.append((f"SM100_TMEM_LOAD_STAT_{name}", Row(_WARP, val, tmem, regs, "src")))
    return out


# tcgen05.cp: (name, ValID, SrcLayout's value mode, DstLayout's value mode); ThrID is the CTA count
_UTCCP: tuple[tuple[str, _Lay, _Lay, _Lay], ...] = (
    ("128dp256bit", ((128, 256), (DP_b, 1)), (32768, 1), (32768, 1)),
    ("128dp128bit", ((128, 128), (DP_b, 1)), (16384, 1), (16384, 1)),
    # 4 lanes of each 32-lane subpartition refreshed: the values are (refresh_m, refresh_k)
    ("4dp256bit", ((128, 256), (DP_b, 1)), ((4, 256), (32, 128)), ((4, 256), (32, 128))),
    # [core_matrix_strided, core_matrix_leading, broadcast(, repeat)]
    ("4x32dp128bit", ((32, 128, 4), (DP_b, 1, 32 * DP_b)), ((32, 128, 4), (1, 32, 0)), (16384, 1)),
    ("2x64dp128bitlw0213", ((64, 128, 2), (DP_b, 1, 64 * DP_b)), ((64, 128, 2), (1, 64, 0)), (16384, 1)),
    ("2x64dp128bitlw0123", ((32, 128, 2, 2), (DP_b, 1, 64 * DP_b, 32 * DP_b)),
     ((32, 128, 2, 2), (1, 32, 4096, 0)), (16384, 1)),
)


def _utccp_rows() -> list[tuple[str, Row]]:
    out: list[tuple[str, Row]] = []
    for name, val, src, dst in _UTCCP:
        for ctas in (1, 2):
            thr: _Lay = (ctas, 1 if ctas > 1 else 0)
            out.append((f"SM100_UTCCP_{name}_{ctas}cta",
                        Row(thr, val, ((ctas, src[0]), (0, src[1])), ((ctas, dst[0]), (0, dst[1])), "dst")))
    return out


SM100_TMEM_ROWS: tuple[tuple[str, Row], ...] = tuple(_tmem_rows() + _utccp_rows())
_NAMES = frozenset(name for name, _ in SM100_TMEM_ROWS)


def tmem_load_to_store(op: str) -> str:
    """CuTe's ``TMEM::tmem_load_to_store``: the TMEM store that undoes the load ``op``.

    @pre ``op`` names a ``SM100_TMEM_LOAD_*`` operation (not ``LOAD_STAT``, which has no store),
         else :class:`LayoutError`.

    >>> tmem_load_to_store("SM100_TMEM_LOAD_16dp256b4x_16b")
    'SM100_TMEM_STORE_16dp256b4x_16b'
    """
    prefix = "SM100_TMEM_LOAD_"
    store = "SM100_TMEM_STORE_" + op[len(prefix):] if isinstance(op, str) and op.startswith(prefix) else ""
    if not store or store not in _NAMES:
        raise LayoutError(f"tmem_load_to_store: {op!r} is not a TMEM load with a matching store")
    return store


def tmem_op_repeater(op: str, bits_n: int) -> str:
    """CuTe's ``TMEM::op_repeater<CopyOp, bits_n>()``: of the 1x TMEM load or store ``op``, the
    variant with the most repetitions whose bits along N (per lane) divide ``bits_n``.

    @pre ``op`` is a ``SM100_TMEM_LOAD_*1x*`` or ``SM100_TMEM_STORE_*1x*`` operation ("Must pass 1x
         tmem copy operator") and ``bits_n`` a positive multiple of its bits a lane, else
         :class:`LayoutError`.
    @post ``result`` is ``op`` with ``1x`` replaced by ``<r>x``, ``r`` the largest repetition CuTe
          defines with ``bits_n % (bits * r) == 0``.

    >>> tmem_op_repeater("SM100_TMEM_LOAD_32dp32b1x", 32 * 24), tmem_op_repeater("SM100_TMEM_STORE_16dp256b1x_16b", 4096)
    ('SM100_TMEM_LOAD_32dp32b8x', 'SM100_TMEM_STORE_16dp256b16x_16b')
    """
    import re
    m = re.fullmatch(r"(SM100_TMEM_(?:LOAD|STORE)_)(\d+)dp(\d+)b1x(_16b)?", op) if isinstance(op, str) else None
    if m is None or (int(m[2]), int(m[3])) not in TMEM_SHAPES:
        raise LayoutError(f"tmem_op_repeater: Must pass 1x tmem copy operator, got {op!r}")
    if isinstance(bits_n, bool) or type(bits_n) is not int or bits_n <= 0:
        raise LayoutError(f"tmem_op_repeater: bits_n is a positive int, got {bits_n!r}")
    bits, reps = TMEM_SHAPES[(int(m[2]), int(m[3]))]
    for r in sorted(reps, reverse=True):
        if bits_n % (bits * r) == 0:
            return f"{m[1]}{m[2]}dp{m[3]}b{r}x{m[4] or ''}"
    raise LayoutError(f"tmem_op_repeater: {bits_n} bits along N is not a multiple of {op}'s {bits} bits a lane")

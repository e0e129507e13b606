"""One MMA atom's facts as the readers of the atom tables hand them to :class:`.MMA_Traits`,
and the parsing of a templated C++ name they share."""
from __future__ import annotations

from typing import NamedTuple

from ...core.errors import LayoutError
from .copy_types import template_args

__all__ = ["Entry", "split_template", "strip_ns"]

_NAMESPACES = ("cute::", "cutlass::", "UMMA::", "GMMA::", "SM90::")


class Entry(NamedTuple):
    """An atom's traits as CuTe notation texts: ``name`` (canonical), value types (D, A, B, C),
    fragment types (A, B, C), ``Shape_MNK``, ``ThrID``, ``ALayout``, ``BLayout``, ``CLayout``,
    the header; for block-scaled atoms ``SFVecSize`` (0: none), ``SFALayout``/``SFBLayout``
    (``""``: CuTe declares none) and the scale type."""

    name: str
    types: tuple[str, str, str, str]
    frg: tuple[str, str, str]
    mnk: str
    thr: str
    a: str
    b: str
    c: str
    source: str
    sf_vec: int = 0
    sfa: str = ""
    sfb: str = ""
    sf_type: str = ""


def strip_ns(text: str) -> str:
    """``text`` without blanks and without the ``cute::``, ``cutlass::``, ``UMMA::``, ``GMMA::``
    and ``SM90::`` qualifications (``UMMA::Major::K`` is ``Major::K``).

    >>> strip_ns("cutlass::half_t"), strip_ns(" UMMA::Major:: MN")
    ('half_t', 'Major::MN')
    """
    out = "".join(text.split())
    for ns in _NAMESPACES:
        out = out.replace(ns, "")
    return out


def split_template(name: str) -> tuple[str, tuple[str, ...]]:
    """``"A::B<x, C<y,z>>"`` -> ``("A::B", ("x", "C<y,z>"))``: the template and its top-level
    arguments, blanks and CuTe's namespaces (:func:`strip_ns`) dropped from the arguments.

    >>> split_template("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>")[1]
    ('half_t', 'half_t', 'float', '128', '256', 'Major::K', 'Major::K')
    >>> split_template("SM120_16x8x32_TN<cutlass::complex<float>,float_e2m1_t>")
    ('SM120_16x8x32_TN', ('complex<float>', 'float_e2m1_t'))
    """
    text = "".join(name.split())
    if "<" not in text:
        if ">" in text or "," in text:
            raise LayoutError(f"malformed MMA operation name {name!r}")
        return text, ()
    head, _, rest = text.partition("<")
    if not rest.endswith(">"):
        raise LayoutError(f"malformed MMA operation name {name!r}: it does not end with '>'")
    args = template_args(rest[:-1], f"malformed MMA operation name {name!r}")
    if any(not a for a in args):
        raise LayoutError(f"malformed MMA operation name {name!r}: an empty template argument")
    return head, tuple(strip_ns(a) for a in args)

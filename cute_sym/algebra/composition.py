"""composition: ``R(c) = A(B(c))``, CuTe's composition_impl."""
from __future__ import annotations

import math

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy
from ..core.lazy import is_expr

from ..core import decide
from ..core.decide.values import value_set
from ..core.errors import DivisibilityError, LayoutError, UndecidableError
from ..core.int_tuple import (
    _, unwrap, cdiv, ceil_div, fmt, leaves, norm, smin, whole_multiple,
)
from ..core.integers import IntLike, symbol_facts
from ..layout.layout import Layout, _mk, _mk_static, is_static_layout
from ._util import _is1, _mul, _composed_dispatch, _stride_fact
from ..stride.basis import ArithmeticTuple, ScaledBasis
from ..stride.kind import StrideKind
from .by_values import check_open_at_values
from .coalesce import _coalesce_x, _transform_layout
from .composition_static import (
    _compose_static, _compose_ints, _compose_layouts_static, _coalesce_x_ints, _check_modes_add_ints, _check_pointwise,
    _ints, _max_digit, _DIGIT_SCAN_LIMIT, _tiler_static,
)


def _compose_min(a: IntLike, b: IntLike) -> IntLike:
    """``cute::min`` of two positive extents: a ``min`` formula when the order is unknown."""
    if type(a) is int and type(b) is int:
        return a if a <= b else b
    return smin(a, b)


def _compose_abs_sign(r: IntLike) -> tuple[IntLike, IntLike]:
    """``(abs(r), signum(r))`` of a non-zero rhs stride; of unknown sign, the formulas ``abs(r)``,
    ``sign(r)`` when ``r != 0`` is known, else the fact ``r > 0`` is required.

    @pre ``r != 0`` (CuTe divides by it).
    """
    if type(r) is int:
        return (r, 1) if r > 0 else (-r, -1)
    if decide.positive_by_shape(r) or decide.prove(">", r, 0):
        return r, 1
    if decide.prove("<", r, 0):
        return norm(-r), -1
    if decide.prove("!=", r, 0) is True:
        return sympy.Abs(r), sympy.sign(r)
    # the sign is unknown too: ask for a positive stride (the usual one) rather than carry
    # abs/sign formulas through the rest of the fold
    if not decide.require(">", r, 0, why="composition (the rhs stride is positive)"):
        raise DivisibilityError("composition: division by zero (stride 0)")  # pragma: no cover
    return r, 1


def _compose_sd(ls: Any, ld: Any, rs: Any, rd: Any, strict: bool = False) -> tuple[Any, Any]:
    """CuTe's composition_impl on a coalesced (flat) lhs ``ls:ld`` and rhs ``rs:rd``.

    For a tuple lhs and an integral rhs ``rs:rd`` the modes ``0 .. R-2`` of the lhs
    are folded left to right with ``(rest_shape, rest_stride) = (rs, rd)``:

    * Stride Divisibility Condition (checked when ``s_i`` and ``rest_stride`` are
      static): ``rest_stride % s_i == 0`` or ``rest_stride < s_i``;
    * ``next_shape = ceil_div(s_i, |rest_stride|)``,
      ``next_stride = ceil_div(|rest_stride|, s_i) * signum(rest_stride)``;
    * when ``next_shape`` or ``rest_shape`` is a static 1 the mode is skipped;
      otherwise ``new_shape = min(next_shape, rest_shape)`` (Shape Divisibility
      Condition, checked when both are static: ``new_shape | rest_shape``) is
      appended with stride ``rest_stride * d_i`` and ``rest_shape /= new_shape``;
    * ``rest_stride = next_stride``.

    The last lhs mode takes ``rest_shape : rest_stride * d_{R-1}``; it is dropped
    when ``rest_shape`` is a static 1 and something was appended; a single
    resulting mode is unwrapped. No coalesce of the result.
    """
    if type(rs) is tuple:
        ss: list[Any] = []
        dd: list[Any] = []
        for s, d in zip(rs, rd):
            ms, md = _compose_sd(ls, ld, s, d, strict)
            ss.append(ms)
            dd.append(md)
        return tuple(ss), tuple(dd)
    if type(rd) is int and rd == 0:
        return rs, rd
    if type(ls) is not tuple:
        return rs, _mul(rd, ld)
    if type(rd) is not int and decide.prove("==", rd, 0):
        return rs, 0
    R = len(ls)
    if type(rs) is int and type(rd) is int:
        for x in ls:
            if type(x) is not int:
                break
        else:
            for x in ld:
                if type(x) is not int:
                    break
            else:
                return _compose_static(ls, ld, rs, rd, strict)
    res_s: list[Any] = []
    res_d: list[Any] = []
    rest_shape: Any = rs
    rest_stride: Any = rd
    for i in range(R - 1):
        cs = ls[i]
        if type(cs) is int and type(rest_stride) is int:
            # plain-int fast path
            if not (rest_stride % cs == 0 or rest_stride < cs):
                raise DivisibilityError(
                    f"Stride Divisibility Condition: {rest_stride} % {cs} != 0 and {rest_stride} >= {cs}")
            ars = rest_stride if rest_stride >= 0 else -rest_stride
            if ars == 0:
                raise DivisibilityError("composition: division by zero (stride 0)")
            next_shape: Any = (cs + ars - 1) // ars
            next_stride: Any = ((ars + cs - 1) // cs) * ((rest_stride > 0) - (rest_stride < 0))
        else:
            ars, sgn = _compose_abs_sign(rest_stride)
            # CuTe's Stride Divisibility Condition, decided: s_i | r, or r < s_i
            if not (_stride_fits(cs, ars) or decide.prove("|", cs, ars) or decide.prove("<", ars, cs)):
                if not decide.require_any([("|", cs, ars), ("<", ars, cs)],
                                          why="composition (Stride Divisibility Condition)"):
                    raise DivisibilityError(
                        f"Stride Divisibility Condition: {fmt(ars)} % {fmt(cs)} != 0 and {fmt(ars)} >= {fmt(cs)}")
            next_shape = ceil_div(cs, ars)
            next_stride = _mul(ceil_div(ars, cs), sgn)
        if _is1(next_shape) or _is1(rest_shape):
            rest_stride = next_stride
            continue
        whole = whole_multiple(rest_shape, next_shape)
        if whole is not None:
            # rest = q * next, q a positive integer at every value: min is next, and it divides
            res_s.append(next_shape)
            res_d.append(_mul(rest_stride, ld[i]))
            rest_shape = whole      # (the rhs ends inside the extent exactly when it is 1)
            _check_even_step(ls, ld, i, rest_stride, rest_shape, rd, strict, (rest_shape, 1))
            rest_stride = next_stride
            continue
        new_shape = _compose_min(next_shape, rest_shape)
        if type(new_shape) is int and type(rest_shape) is int:
            if rest_shape % new_shape != 0:
                raise DivisibilityError(
                    f"Shape Divisibility Condition: {rest_shape} % {new_shape} != 0")
            res_s.append(new_shape)
            res_d.append(_mul(rest_stride, ld[i]))
            before, rest_shape = rest_shape, rest_shape // new_shape
            _check_even_step(ls, ld, i, rest_stride, rest_shape, rd, strict, (before, next_shape))
        else:
            # CuTe divides at run time; exact only when new_shape | rest_shape
            if not decide.require("|", new_shape, rest_shape, why="composition (Shape Divisibility Condition)"):
                raise DivisibilityError(f"Shape Divisibility Condition: {rest_shape} % {new_shape} != 0")
            res_s.append(new_shape)
            res_d.append(_mul(rest_stride, ld[i]))
            before, rest_shape = rest_shape, cdiv(rest_shape, new_shape)
            _check_even_step(ls, ld, i, rest_stride, rest_shape, rd, strict, (before, next_shape))
        rest_stride = next_stride
    last_d = _mul(rest_stride, ld[R - 1])
    if not res_s:
        return rest_shape, last_d
    if _is1(rest_shape):
        if len(res_s) == 1:
            return res_s[0], res_d[0]
        return tuple(res_s), tuple(res_d)
    res_s.append(rest_shape)
    res_d.append(last_d)
    return tuple(res_s), tuple(res_d)



def _check_even_step(ls: Any, ld: Any, i: int, stride: IntLike, rest: IntLike, rd: IntLike, strict: bool,
                     ends: tuple[IntLike, IntLike]) -> None:
    """The rhs steps evenly over the lhs extent ``s_i`` (``|stride|`` divides it), ends inside it,
    or steps over all of it at once.

    ``ends``: ``(r, n)`` with ``r <= n`` exactly when the rhs ends inside ``s_i`` (the rest after
    the step is 1): the rest before the step and the next extent (the rest after it is
    ``r / min(n, r)``), or the rest after it and 1; the form asked (a bound, not a quotient of a
    min: read off the symbol's values at once).

    Otherwise CuTe's answer is not ``lhs(rhs(i))``. For the divides and products
    (``strict`` false), which follow CuTe's answer, that is fine as long as the lhs
    is the same layout the static values give: mode ``i`` does not merge with
    mode ``i+1`` (``d_{i+1} != s_i * d_i``, and ``s_{i+1} >= 2`` so it is not dropped).
    """
    if (type(rest) is int or getattr(rest, "is_Integer", False)) and rest == 1:
        return      # the rest after the step is 1: the rhs ends inside s_i (ends[0] <= ends[1])
    cs = ls[i]
    if type(cs) is int and type(stride) is int and type(rest) is int:
        if rest == 1 or cs % abs(stride) == 0 or cs <= abs(stride):
            return
        if strict:
            raise DivisibilityError(
                f"composition: stride {rd} steps over extent {cs} unevenly ({cs} % {abs(stride)} != 0) and the "
                f"rhs runs past it: CuTe's answer would not be lhs(rhs(i))")
    ars = _compose_abs_sign(stride)[0]
    r, n = ends
    if type(r) is int and r <= 2 and not _is1(n):
        # n = ceil_div(s_i, |stride|) >= 1: where n >= 2 the rhs ends inside (r <= 2 <= n), else
        # n == 1 and it steps over all of s_i at once: one of the two holds at every value
        return
    if decide.prove("|", ars, cs):
        return      # the usual answer, before the questions about mode i+1 below
    alts: list[tuple[str, Any, Any]] = [("|", ars, cs), ("<=", ends[0], ends[1]), ("<=", cs, ars)]
    why = "composition (the rhs steps evenly over an lhs extent or ends inside it)"
    if not strict and i + 1 < len(ls):
        # an answer (strides of different kinds or basis positions) or an integer question
        apart = _stride_fact("!=", ld[i + 1], _mul(cs, ld[i]))
        big = decide.prove(">=", ls[i + 1], 2)
        if big:
            if apart is True or apart is not False and decide.prove(*apart):
                return      # the modes stay apart (the usual case): the bound on the rest unasked
            if apart is not False:
                alts.append(apart)
        elif (big is None and apart is not False and (apart is True or decide.prove(*apart) is not False)
              and all(decide.prove(*a) is False for a in alts)):
            # modes i and i+1 stay apart only where s_{i+1} >= 2 as well, and nothing else is
            # left: both facts (a refusal here would be wrong where they hold)
            if apart is not True:
                decide.require(*apart, why=why)
            decide.require(">=", ls[i + 1], 2, why=why)
            return
    if not decide.require_any(alts, why=why):
        raise DivisibilityError(f"composition: stride {fmt(rd)} steps over extent {fmt(cs)} unevenly and the "
                                "rhs runs past it: CuTe's answer would not be lhs(rhs(i))")


def _stride_fits(cs: IntLike, r: IntLike) -> bool:
    """``cs | r or r < cs`` for every value of a symbolic extent ``cs``, when ``r`` is a small static
    stride: checked value by value over the extent's possible values up to ``r`` (for a symbol,
    the multiples of its divisor in its bounds); for a formula ``r`` of few values (a ceil_div the
    fold carries), each of them in turn. False: not shown this way (the questions decide).

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.int_tuple import ceil_div
    >>> _stride_fits(Dyn("S", divisible_by=4), 8), _stride_fits(Dyn("S", divisible_by=2), 8)
    (True, False)
    >>> _stride_fits(Dyn("T", min=2), sympy.Integer(1))     # a dynamic 1: every T >= 2 is above it
    True
    >>> _stride_fits(Dyn("T", divisible_by=2), ceil_div(8, Dyn("S", divisible_by=4)))   # 1 or 2
    True
    """
    if type(r) is not int:
        if not (is_expr(r) and r.is_Integer):
            # a formula stride (a ceil_div the fold carries): below every value of cs by the
            # bounds alone (the usual answer), or each of its few values fits every value of cs
            # (every pair of values, a superset of those taken together: sound); else the questions
            if decide.by_bounds("<", r, cs) is True:
                return True
            vals = value_set(r) if type(cs) is not int else None
            return vals is not None and len(vals[0]) <= 8 and all(v >= 1 and _stride_fits(cs, v) for v in vals[0])
        r = int(r)      # a dynamic number (the 1 a fold carries): its value
    if r > 64 or type(cs) is int:
        return False
    lo, hi = decide.bounds(cs)
    if lo is None or lo < 1:
        return False
    if lo > r:
        return True     # r < cs at every value (the usual small stride against a large extent)
    top = r if hi is None else min(int(hi), r)
    # a symbol takes only multiples of its divisor: step by it (its other facts only narrow the set)
    step = symbol_facts(cs)[0] if getattr(cs, "is_Symbol", False) else 1
    first = -(-int(math.ceil(lo)) // step) * step
    return all(r % c == 0 for c in range(first, top + 1, step))


def _compose_impl(ls: Any, ld: Any, rs: Any, rd: Any, strict: bool = False, modes_add: bool = False) -> Layout:
    """_compose_sd as a layout (with :func:`_check_modes_add` when ``modes_add``); a static flat
    lhs and rhs take the pure-int fold. A long symbolic fold tries values first
    (:func:`~cute_sym.algebra.by_values.check_open_at_values`: these steps on the values, the
    flat structure kept)."""
    fs = ls if type(ls) is tuple else (ls,)
    fd = ld if type(ld) is tuple else (ld,)
    if len(fs) == len(fd) and _ints(fs) and _ints(fd):
        if not modes_add:
            r = _compose_ints(fs, fd, rs, rd, strict, None)
            if r is not None:
                return _mk_static(r[0], r[1])
    if type(ls) is tuple and not (len(fs) == len(fd) and _ints(fs) and _ints(fd)):
        check_open_at_values(_compose_steps, (ls, ld, rs, rd, strict, modes_add), (len(ls) - 1) * len(leaves(rs)))
    return _compose_steps(ls, ld, rs, rd, strict, modes_add)


def _compose_steps(ls: Any, ld: Any, rs: Any, rd: Any, strict: bool, modes_add: bool) -> Layout:
    if type(ls) is tuple and _ints(ls) and _ints(ld):
        # plain ints (the values tried first): the static twins, the same answers and errors
        modes: Optional[list[tuple[int, int]]] = [] if modes_add else None
        r = _compose_ints(ls, ld, rs, rd, strict, modes)
        if r is not None:
            if modes is not None and len(modes) > 1:
                _check_modes_add_ints(ls, ld, modes, _mk(rs, rd), r)
            return _mk_static(r[0], r[1])
    result = _mk(*_compose_sd(ls, ld, rs, rd, strict))
    if modes_add:
        _check_modes_add(_mk(ls, ld), _mk(rs, rd), result)
    return result


def composition(lhs: Any, rhs: Any) -> Any:
    """Functional composition ``lhs o rhs``: ``result(c) = lhs(rhs(c))``.

    ``rhs`` is a layout, a tiler (tuple of layouts / shapes / ``_``, applied mode by
    mode; modes of ``lhs`` past the tiler are dropped, as in CuTe), a shape, an
    integer ``n`` (``n:1``), or a swizzle.

    @pre the strides and shapes of ``rhs`` divide the (coalesced) shape of ``lhs``
         (CuTe's shape_div: "Static shape_div failure" otherwise).
    @post ``compatible(rhs, result)``: the result has the shape of ``rhs``.
    @post ``result(i) == lhs(rhs(i))`` for every ``i < size(rhs)``: where CuTe's weak check lets a
          stride through that steps over an lhs extent unevenly and runs past it, this raises
          (CuTe answers, but not pointwise); the divides and products keep CuTe's answer.

    >>> from cute_sym.notation import parse
    >>> print(composition(parse("_20:_2"), parse("(_5,_4):(_4,_1)")))
    (_5,_4):(_8,_2)
    >>> print(composition(parse("(_12,(_4,_8)):(_59,(_13,_1))"), parse("(_3,_8)")))
    (_3,(_4,_2)):(_59,(_13,_1))
    """
    return _composition(lhs, rhs, True)


def _composition_cute(lhs: Any, rhs: Any) -> Any:
    """composition exactly as CuTe computes it (used by the divides and products)."""
    return _composition(lhs, rhs, False)


def _check_modes_add(flat: Layout, rhs: Layout, result: Optional[Layout] = None) -> None:
    """CuTe composes mode by mode, ``R(i) = sum_k A(B_k(i_k))``; that is ``A(B(i))`` only when the
    rhs modes' values add without a carry across an lhs extent (``A`` is additive on its
    mixed-radix digits, not across them). Checked for static layouts: in every lhs mode but
    the last (which extends), the largest digits the rhs modes reach must sum below its extent;
    with a negative rhs stride (digits do not bound it), ``result(i) == flat(rhs(i))`` point by
    point where ``rhs(i)`` is in the lhs's domain (``result``: the mode-by-mode answer, static).
    """
    shapes, strides = leaves(rhs._shape), leaves(rhs._stride)
    modes = [(s, d) for s, d in zip(shapes, strides) if not (type(s) is int and s == 1) and not (type(d) is int and d == 0)]
    if len(modes) < 2:
        return
    ls, ld = leaves(flat._shape), leaves(flat._stride)
    if not all(type(d) is int and d > 0 or type(d) is not int and decide.prove(">", d, 0) for _, d in modes):
        # a negative rhs stride: digits do not bound its values. Static: point by point where
        # rhs(i) is in the lhs's domain; symbolic: CuTe's answer kept
        if result is not None and flat.is_static() and rhs.is_static() and result.is_static():
            _check_pointwise(leaves(flat._shape), leaves(flat._stride), rhs, (result._shape, result._stride))
        return
    static = all(type(s) is int and type(d) is int for s, d in modes)
    p: IntLike = 1
    run: IntLike = 1        # the extent of the modes before j that a carry joined to mode j
    why = "composition (the rhs modes add up past an lhs extent: the next lhs stride must continue it)"
    for j, nj in enumerate(ls[:-1]):
        n = _mul(run, nj)
        bound: Optional[IntLike] = None     # k*n + c, built only when a question needs it
        k, c = 0, 0     # the bound's parts (the symbolic branch)
        by_values = None if type(n) is int else _digits_fit_at_values(modes, p, n)
        if static and type(p) is int and type(n) is int:
            fits, exact = sum(_max_digit(s, d, p, n) for s, d in modes) < n, True
        elif by_values is not None:
            # static modes and base, the extent one symbol: the sum itself at each of its values
            fits, exact = by_values, not by_values
        else:
            k, c, exact = _digit_bound_sum(modes, p, n)
            # k*n + c < n, asked as c < (1-k)*n: for k of 0 or 1 (the usual) no sum with n is built
            verdict = decide.prove("<", c, n) if k == 0 else decide.prove("<", c, 0) if k == 1 else None
            if verdict is None and k > 1:
                bound = _add(_mul(k, n), c)
                verdict = decide.prove("<", bound, n)
            fits, exact = verdict is True, exact and verdict is False
        if fits:
            p, run = _mul(p, n), 1
            continue
        # a carry out of mode j is harmless only where mode j+1 continues it (d_{j+1} == s_j * d_j);
        # then the carry is a digit of modes j..j+1 together, checked with mode j+1 (same base p)
        cont = _stride_fact("==", ld[j + 1], _mul(nj, ld[j]))    # an answer, or a question
        if exact:       # the digits are known not to fit: the next stride must continue the mode
            if not (cont if type(cont) is bool else decide.require(*cont, why=why)):
                raise DivisibilityError(
                    f"composition: the rhs modes {fmt(rhs._shape)}:{fmt(rhs._stride)} add up past the lhs extent "
                    f"{fmt(nj)} (mode {j}) with a carry: CuTe's mode-by-mode answer would not be lhs(rhs(i))")
        elif cont is not True and not decide.require_any(
                ([] if cont is False else [cont]) + [("<", _add(_mul(k, n), c) if bound is None else bound, n)], why=why):
            # the next stride does not continue the mode, and only a bound of the digits is known
            # not to fit: the digits themselves may (a fact this procedure cannot state)
            fact = f"the largest digits of the rhs modes in the lhs extent {fmt(nj)} (mode {j}) add up below it"
            raise UndecidableError(fact, f"{why} needs {fact} (cannot be decided)")
        run = n


_DIGIT_VALUES_MAX = 256


def _digits_fit_at_values(modes: list[tuple[Any, Any]], p: IntLike, n: IntLike) -> Optional[bool]:
    """Whether the largest digits ``(t*d // p) % n`` of the static rhs modes sum below the extent
    ``n``, a symbol, at every one of its allowed values (True), at none (False), or at some
    (None; also when a mode is not static, ``p`` is neither an int nor another symbol, or there
    are too many values to try).

    For one value of ``p``: past ``T = max((s-1)*d // p)`` no mode wraps (``p*n > (s-1)*d >= d``)
    and the sum is the constant ``C = sum((s-1)*d // p)``, below ``n`` past ``C``: the values up
    to ``max(T, C)`` are tried one by one (:func:`_max_digit`), and every larger one fits. A
    symbolic base ``p`` (the extents of the lhs modes before, one symbol) takes its values up to
    ``max((s-1)*d)`` the same way: past it every digit is 0, and the sum fits.

    @post a True (False) answer holds at every value the symbols' own facts allow, so under any
          facts in force too (they only narrow the values).
    """
    if not is_expr(n) or not n.is_Symbol or n.is_integer is not True:
        return None
    if not all(type(s) is int and type(d) is int and s >= 2 and d > 0 for s, d in modes):
        return None
    dv, lo, hi = symbol_facts(n)
    if lo is None or lo < 1:
        return None
    bases = _base_values(p, max((s - 1) * d for s, d in modes), n)
    if bases is None:
        return None
    values, larger = bases
    seen: set[bool] = set()
    if larger:
        seen.add(True)          # every digit 0: the sum 0 is below n >= 1
    first = -(-lo // dv) * dv
    budget = _DIGIT_VALUES_MAX
    for pv in values:
        tops = [(s - 1) * d // pv for s, d in modes]
        last = max(max(tops), sum(tops))
        top = last if hi is None else min(hi, last)
        if top >= first:
            budget -= (top - first) // dv + 1
            if budget < 0 or pv * top > _DIGIT_SCAN_LIMIT:
                return None     # too many values, or a digit _max_digit would only bound
        for v in range(first, top + 1, dv):
            seen.add(sum(_max_digit(s, d, pv, v) for s, d in modes) < v)
        if hi is None or hi > last:
            seen.add(True)          # the values past max(T, C): no wrap, and C < n
        if len(seen) > 1:
            return None
    return None if len(seen) != 1 else seen.pop()


def _base_values(p: IntLike, top: int, n: Any) -> Optional[tuple[list[int], bool]]:
    """The values of the digit base ``p`` up to ``top`` (an int: itself) and whether it takes larger
    ones; None for a base that is not an int >= 1 or a positive symbol other than ``n``, or that
    has too many values up to ``top``."""
    if type(p) is int:
        return ([p], False) if p >= 1 else None
    if not is_expr(p) or not p.is_Symbol or p == n or p.is_integer is not True:
        return None
    dv, lo, hi = symbol_facts(p)
    if lo is None or lo < 1:
        return None
    first = -(-lo // dv) * dv
    last = top if hi is None else min(hi, top)
    if (last - first) // dv >= _DIGIT_VALUES_MAX:
        return None
    return list(range(first, last + 1, dv)), hi is None or hi > top


def _digit_bound_sum(modes: list[tuple[Any, Any]], p: IntLike, n: IntLike) -> tuple[int, IntLike, bool]:
    """An upper bound ``k*n + c`` of the sum of the largest digits ``(t*d // p) % n`` (symbolic
    sizes), as ``(k, c, exact)``, ``exact`` when it is the sum itself: 0 where ``p*n | d`` (the
    mode skips the digit), ``(s-1)*d // p`` where the values stay below ``p*n`` (no wrap), both
    exact; ``n - gcd(d/p, n)`` where ``p | d`` (multiples of ``d/p`` modulo ``n``, reached only
    when the mode has enough values), else ``n - 1``."""
    k = 0
    c: IntLike = 0
    exact = True
    for s, d in modes:
        span = _mul(p, n)
        if decide.prove("|", span, d) is True:
            continue
        top = _mul(s - 1, d)
        if decide.prove("<", top, span) is True:
            c = _add(c, cdiv(top, p))
        elif decide.prove("|", p, d) is True:
            q = cdiv(d, p)
            k += 1
            if type(q) is int and type(n) is int:
                c = _add(c, -math.gcd(q, n))
            else:
                c = _add(c, -q if decide.prove("|", q, n) is True else -1)
            exact = False       # reached only when the mode has enough values
        else:
            k += 1
            c = _add(c, -1)
            exact = False
    return k, c, exact


def _add(a: IntLike, b: IntLike) -> IntLike:
    """``a + b``; plain ints stay plain."""
    if type(a) is int and type(b) is int:
        return a + b
    if type(b) is int and b == 0:
        return a
    if type(a) is int and a == 0:
        return b
    return norm(a + b)


def _composition(lhs: Any, rhs: Any, strict: bool) -> Any:
    if type(lhs) is Layout and is_static_layout(lhs):
        tr = type(rhs)
        if tr is Layout:
            if is_static_layout(rhs):
                return _mk_static(*_compose_layouts_static(lhs._shape, lhs._stride, rhs, strict))
        elif tr is int:
            return _mk_static(*_compose_ints(*_coalesce_x_ints(lhs._shape, lhs._stride), rhs, 1, strict, None))  # type: ignore[misc]
        elif tr is tuple:
            return _mk(*_tiler_static(lhs._shape, lhs._stride, rhs, strict, composition if strict else _composition_cute))
    return _composition_generic(lhs, rhs, strict)


def _composition_generic(lhs: Any, rhs: Any, strict: bool) -> Any:
    """The general path (any mix of static and symbolic arguments, swizzles dispatched)."""
    if not isinstance(lhs, Layout):
        return _composed_dispatch("composition", lhs, rhs)
    if type(rhs) is not Layout:
        rhs = unwrap(rhs)
    if isinstance(rhs, Layout):
        if _has_kind(rhs._stride):
            return _mk(*_compose_kind_rhs(lhs, rhs._shape, rhs._stride, strict))
        flat = _coalesce_x(lhs)
        # an lhs of coordinate strides (scaled bases) answers as CuTe does where rhs modes carry
        # across an lhs extent: the coordinate passes the extent, its index is lhs(rhs(i))
        modes_add = strict and not _has_kind(flat._stride)
        return _compose_impl(flat._shape, flat._stride, rhs._shape, rhs._stride, strict, modes_add)
    if type(rhs) is tuple:
        return _transform_layout(lhs, rhs, composition if strict else _composition_cute,
                                 keep_rest=False, what="composition")
    if rhs is _:
        return lhs
    if type(rhs) is int or is_expr(rhs):
        flat = _coalesce_x(lhs)
        return _mk(*_compose_sd(flat._shape, flat._stride, rhs, 1, strict))
    return _composed_dispatch("composition", lhs, rhs)


def _has_kind(t: Any) -> bool:
    """Whether a stride tree holds a leaf that is not an integer (:mod:`cute_sym.stride`)."""
    if type(t) is tuple:
        return any(_has_kind(e) for e in t)
    return isinstance(t, StrideKind)


def _compose_kind_rhs(lhs: Layout, rs: Any, rd: Any, strict: bool) -> tuple[Any, Any]:
    """An rhs whose strides are scaled bases: a leaf ``s:k@P`` composes with the lhs mode at the
    position ``P`` (CuTe's ``basis_get``: ``composition(get<P>(lhs), s:k)``); integer leaves compose
    with the whole lhs."""
    if type(rs) is tuple:
        parts = [_compose_kind_rhs(lhs, s, d, strict) for s, d in zip(rs, rd)]
        return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
    if type(rd) is int and rd == 0:
        return rs, rd
    if isinstance(rd, ScaledBasis):
        sub: Any = lhs
        for m in rd.modes:
            if type(sub._shape) is not tuple or m >= len(sub._shape):
                if m == 0 and type(sub._shape) is not tuple:
                    continue        # mode 0 of a rank-1 layout is itself
                raise LayoutError(f"composition: rhs stride {rd} has no mode in the lhs {sub}")
            sub = _mk(sub._shape[m], sub._stride[m])
        r = _composition(sub, _mk(rs, rd.value), strict)
        return r._shape, r._stride
    if isinstance(rd, ArithmeticTuple):
        # a sum of bases: the sum of the lhs modes each part selects (R(i) = sum_k A_k(i * a_k))
        from .join import layout_add
        out: Any = None
        for value, modes in _basis_parts(rd.values, ()):
            r = _compose_kind_rhs(lhs, rs, ScaledBasis(value, modes), strict)
            part = _mk(*r)
            out = part if out is None else layout_add(out, part)
        if out is None:
            return rs, 0
        return out._shape, out._stride
    if isinstance(rd, StrideKind):
        raise LayoutError(f"composition: an rhs stride {rd} of this kind does not select an lhs mode")
    r = _composition(lhs, _mk(rs, rd), strict)
    return r._shape, r._stride


def _basis_parts(values: tuple[Any, ...], prefix: tuple[int, ...]) -> list[tuple[Any, tuple[int, ...]]]:
    """The non-zero leaves of an arithmetic tuple with their positions."""
    out: list[tuple[Any, tuple[int, ...]]] = []
    for i, v in enumerate(values):
        if isinstance(v, ArithmeticTuple):
            out.extend(_basis_parts(v.values, prefix + (i,)))
        elif not (type(v) is int and v == 0):
            out.append((v, prefix + (i,)))
    return out

"""CuTe notation: read what CuTe prints, print what CuTe prints.

``parse`` reads int tuples (``(_2,(_3,M))``), layouts (``(_4,_8):(_1,_4)``),
tilers (``(_4:_1,_)``, ``(_4,_8)``), ``_``, swizzles (``Sw<3,4,3>``) and composed
layouts (``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)``). ``_4`` is a static integer;
a plain ``4`` is a dynamic integer whose value is known; an identifier is a
dynamic symbol, assumed by position: a positive integer in a shape or a bare
IntTuple, any integer in a stride (coordinates are re-read as non-negative by
the operations that take them). One name is one integer throughout a text: a
name read in a shape is that positive integer in the strides too
(``(M,N):(_1,M)``). Leaves may be formulas as cute_sym prints them
(``16*N``, ``ceil_div(M,128)``, ``M//4``, ``M%4``, ``min(a,b)``).

>>> L = parse("(_4,(M,_2)):(_1,(_4,4*M))")
>>> print(L), str(parse("(_3:_3,(_2,_4):(_1,_8))"))
(_4,(M,_2)):(_1,(_4,4*M))
(None, '(_3:_3,(_2,_4):(_1,_8))')
>>> print(subs(L, {"M": 8}))
(_4,(8,_2)):(_1,(_4,32))
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy
from ..core.lazy import is_basic

from ..core.errors import NotationError
from ..core.int_tuple import _, fmt, norm, wrap
from ..stride.basis import ArithmeticTuple, ScaledBasis
from ..core.integers import Dyn
from ..layout.layout import MAX_NESTING, Layout, _mk, symbols_by_name
from .substitute import subs

__all__ = ["parse", "to_str", "subs"]

_TOKEN = re.compile(
    r"\s*(?:(?P<sw>Sw<\s*-?\d+\s*,\s*-?\d+\s*,\s*-?\d+\s*>)|(?P<o>\bo\b)|(?P<st>_-?\d+)|(?P<num>\d+)"
    r"|(?P<at>@\d+)|(?P<ptr>(?:gmem|smem|rmem)_ptr(?:\[[^\]]*\])?\()"
    r"|(?P<id>[A-Za-z][A-Za-z0-9_]*)|(?P<op>//|[-+*%(),:/])|(?P<us>_))")

_FUNCS = ("ceil_div", "min", "max", "abs", "sign", "floor_div")


def _show(text: str, limit: int = 80) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def _tokens(text: str, pattern: "re.Pattern[str]" = _TOKEN) -> list[tuple[str, str, int]]:
    """(kind, text, column) of each token."""
    out: list[tuple[str, str, int]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = pattern.match(text, pos)
        if not m or m.end() == pos:
            col = pos + len(text[pos:]) - len(text[pos:].lstrip())
            raise NotationError(f"cannot read {text[col:col + 10]!r} at column {col} in {_show(text)}", col)
        kind = m.lastgroup
        if kind is None:
            raise NotationError(f"cannot read {text!r} at column {pos}", pos)
        out.append((kind, m.group(kind), m.start(kind)))
        pos = m.end()
    return out


class _Reader:
    pattern = _TOKEN

    def __init__(self, text: str, symbols: Mapping[str, Any], positive: frozenset[str] = frozenset()) -> None:
        self.text = text
        self.toks = _tokens(text, self.pattern)
        self.i = 0
        self.symbols = dict(symbols)
        self.made: dict[tuple[str, str], Any] = {}
        self.level = 0
        self.positive = positive     # names read in a shape somewhere in the text: positive everywhere

    # -- token helpers
    def column(self) -> int:
        """Where the next token starts (the end of the text after the last)."""
        return self.toks[self.i][2] if self.i < len(self.toks) else len(self.text.rstrip())

    def fail(self, what: str) -> NotationError:
        col = self.column()
        return NotationError(f"{what} at column {col} in {_show(self.text)}", col)

    def peek(self, k: int = 0) -> Optional[tuple[str, str, int]]:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def take(self, value: Optional[str] = None) -> tuple[str, str, int]:
        tok = self.peek()
        if tok is None or (value is not None and tok[1] != value):
            raise self.fail(f"expected {value!r}" if value else "unexpected end")
        self.i += 1
        return tok

    def enter(self) -> None:
        self.level += 1
        if self.level > MAX_NESTING:
            raise self.fail(f"nesting deeper than {MAX_NESTING} levels")

    def at(self, value: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == "op" and tok[1] == value

    # -- grammar
    def whole(self) -> Any:
        obj = self.elem("shape")
        if self.peek() is not None:
            raise self.fail(f"trailing text {self.text_from(self.i)!r}")
        return obj

    def text_from(self, i: int) -> str:
        return "".join(t[1] for t in self.toks[i:])

    def elem(self, role: str) -> Any:
        tok = self.peek()
        if tok is not None and tok[0] == "sw":
            return self.composed()
        if tok is not None and tok[0] == "ptr":
            return self.pointer()
        if tok is not None and tok[0] == "id" and tok[1] == "ArithTuple" and self.peek(1) is not None \
                and self.peek(1)[1] == "(":     # type: ignore[index]
            return self.coord_tensor()
        shape = self.tup(role)
        if self.at(":"):
            self.take(":")
            stride = self.tup("stride")
            return _layout(shape, stride)     # (parse checks one symbol a name at the end)
        return shape

    def pointer(self) -> Any:
        """``smem_ptr[half_t](sA+8)`` (cute_sym's symbolic pointer), alone or ``... o L`` (a tensor)."""
        head = self.take()[1]
        space = head[:4]
        dtype = head[head.index("[") + 1: head.index("]")] if "[" in head else None
        tok = self.peek()
        if tok is None or tok[0] != "id":
            raise self.fail("expected the pointer's name")
        name = self.take()[1]
        offset: Any = 0
        if self.at("+"):
            self.take("+")
            offset = self.expr("stride")
        elif self.at("-"):
            offset = self.expr("stride")
        self.take(")")
        if type(offset) is not int and is_basic(offset) and offset.is_Integer:
            offset = int(offset)        # (a pointer prints its offset without the _ of a static one)
        tok = self.peek()
        if tok is None or tok[0] != "o":
            return _build("pointer", self, space, name, dtype, offset)
        self.take()
        return _build("pointer_tensor", self, space, name, dtype, offset, self.elem("shape"))

    def coord_tensor(self) -> Any:
        """``ArithTuple(c0,c1) o L`` (cute_sym's and CuTe's print of a coordinate tensor), or the
        arithmetic tuple ``ArithTuple(c0,c1)`` alone."""
        self.take()
        self.take("(")
        self.enter()
        items: list[Any] = []
        while not self.at(")"):
            items.append(self.elem("shape"))
            if self.at(","):
                self.take(",")
        self.take(")")
        self.level -= 1
        start = ArithmeticTuple(tuple(items))
        tok = self.peek()
        if tok is None or tok[0] != "o":
            return start
        self.take()
        return _coord_tensor(start, self.elem("shape"), self)

    def composed(self) -> Any:
        from ..swizzle import ComposedLayout, Swizzle
        text = self.take()[1]
        b, m, s = (int(x) for x in re.findall(r"-?\d+", text))
        sw = Swizzle(b, m, s)
        tok = self.peek()
        if tok is None or tok[0] != "o":
            return sw
        self.take()
        offset = self.leaf("stride")
        tok = self.peek()
        if tok is None or tok[0] != "o":
            raise self.fail("expected ' o ' after the offset")
        self.take()
        inner = self.elem("shape")
        return ComposedLayout(sw, offset, inner)

    def tup(self, role: str) -> Any:
        if self.at("("):
            start = self.i
            self.take("(")
            self.enter()
            items: list[Any] = []
            while not self.at(")"):
                items.append(self.elem(role))
                if self.at(","):
                    self.take(",")
                elif not self.at(")"):
                    raise self.fail("expected ',' or ')'")
            self.take(")")
            self.level -= 1
            nxt = self.peek()
            if nxt is not None and nxt[0] == "op" and nxt[1] in ("+", "-", "*", "//", "%", "/"):
                # a parenthesised formula, not a 1-tuple
                self.i = start
                return self.expr(role)
            return tuple(items)
        return self.leaf(role)

    def leaf(self, role: str) -> Any:
        tok = self.peek()
        if tok is None:
            raise self.fail("unexpected end")
        if tok[0] == "us":
            self.take()
            return _
        if tok[0] == "st":
            self.take()
            return self.scaled(int(tok[1][1:]))
        return self.scaled(self.expr(role))

    def scaled(self, value: Any) -> Any:
        """``value@i@j...`` (a scaled basis: the innermost index first, as CuTe prints it)."""
        modes: list[int] = []
        while (tok := self.peek()) is not None and tok[0] == "at":
            self.take()
            modes.append(int(tok[1][1:]))
        return ScaledBasis(value, tuple(reversed(modes))) if modes else value

    # formula grammar: sum of products; parentheses group
    def expr(self, role: str) -> Any:
        v = self.term(role)
        while self.at("+") or self.at("-"):
            op = self.take()[1]
            r = self.term(role)
            v = v + r if op == "+" else v - r
        return norm(v) if not (is_basic(v) and v.is_Integer) else v

    def term(self, role: str) -> Any:
        v = self.unary(role)
        while self.at("*") or self.at("//") or self.at("%") or self.at("/"):
            op = self.take()[1]
            r = self.unary(role)
            if op == "*":
                v = v * r
            elif op == "//" or op == "/":
                v = _quotient(v, r)
            else:
                from ..core.symbolic import IMod
                v = IMod(v, r)
        return v

    def unary(self, role: str) -> Any:
        sign = 1
        while self.at("-"):
            self.take()
            sign = -sign
        v = self.atom(role)
        return -v if sign < 0 else v

    def atom(self, role: str) -> Any:
        tok = self.take()
        kind, val = tok[0], tok[1]
        if kind == "num":
            return sympy.Integer(int(val))
        if kind == "st":
            return int(val[1:])
        if kind == "op" and val == "(":
            self.enter()
            v = self.expr(role)
            self.take(")")
            self.level -= 1
            return v
        if kind == "id":
            if self.at("(") and val in _FUNCS:
                self.take("(")
                args = [self.expr(role)]
                while self.at(","):
                    self.take(",")
                    args.append(self.expr(role))
                self.take(")")
                return _call(val, args, self.text)
            return self.symbol(val, role)
        self.i -= 1
        raise self.fail(f"unexpected {val!r}")

    def symbol(self, name: str, role: str) -> Any:
        if name in self.symbols:
            return self.symbols[name]
        if name in self.positive:
            role = "shape"
        key = (name, role)
        if key not in self.made:
            self.made[key] = Dyn(name, sign="any" if role == "stride" else "positive")
        return self.made[key]

    def roles(self) -> tuple[frozenset[str], frozenset[str]]:
        """The names made into symbols in a shape (or a bare IntTuple), and in a stride."""
        return (frozenset(n for n, r in self.made if r != "stride"),
                frozenset(n for n, r in self.made if r == "stride"))


def _layout(shape: Any, stride: Any) -> Layout:
    """``shape:stride`` read: checked as any user's layout; a stride with scaled bases (an
    identity layout's ``_1@0``) is checked for congruence here, its leaves being values.

    (The scaled basis is a pure value of ``stride.basis``, below this layer, so the notation
    builds it without importing the tensor layer; the basis layout is made with the trusted
    constructor, as ``make_identity_layout`` makes it. Should ``make_layout`` come to take
    scaled-basis strides itself, this branch can become that call.)"""
    from ..core.int_tuple import iter_leaves
    from ..core.int_tuple.structure import congruent
    if any(isinstance(d, ScaledBasis) for d in iter_leaves(stride)):
        Layout._read(shape, shape)      # the shape checked as any shape
        if not congruent(shape, stride):
            raise NotationError(f"the stride {fmt(stride)} is not congruent to the shape {fmt(shape)}")
        return _mk(shape, stride)
    return Layout._read(shape, stride)


#: Builders of the values of higher layers that the notation reads (a coordinate tensor is the
#: tensor layer's): the tensor layer registers its own when it loads (no upward import here;
#: ``import cute_sym`` always loads it, so ``parse`` never finds this empty).
_BUILDERS: dict[str, Any] = {}


def register_builder(kind: str, build: Any) -> None:
    """Hook for a higher layer: ``coord_tensor(start, layout)`` makes the value ``ArithTuple(..) o L``
    reads; ``pointer(space, name, dtype, offset)`` and ``pointer_tensor(..., layout)`` the values of
    ``smem_ptr[half_t](sA+8)`` and ``smem_ptr[half_t](sA) o L``."""
    _BUILDERS[kind] = build


def _build(kind: str, reader: "_Reader", *args: Any) -> Any:
    build = _BUILDERS.get(kind)
    if build is None:
        raise reader.fail(f"a {kind.replace('_', ' ')} needs the tensor layer (import cute_sym)")
    return build(*args)


def _coord_tensor(start: Any, layout: Any, reader: "_Reader") -> Any:
    build = _BUILDERS.get("coord_tensor")
    if build is None:
        raise reader.fail("a coordinate tensor needs the tensor layer (import cute_sym)")
    if not isinstance(layout, Layout):
        raise reader.fail(f"a coordinate tensor's layout must be a layout, got {layout!r}")
    return build(start, layout)


def _call(name: str, args: list[Any], text: str) -> Any:
    if name == "ceil_div" and len(args) == 2:
        return sympy.ceiling(sympy.sympify(args[0]) / args[1])
    if name == "floor_div" and len(args) == 2:
        return sympy.floor(sympy.sympify(args[0]) / args[1])
    if name == "min":
        return sympy.Min(*args)
    if name == "max":
        return sympy.Max(*args)
    if name == "abs" and len(args) == 1:
        return sympy.Abs(args[0])
    if name == "sign" and len(args) == 1:
        return sympy.sign(args[0])
    raise NotationError(f"bad call {name}({len(args)} arguments) in {text!r}")


def parse(text: str, symbols: Optional[Mapping[str, Any]] = None, dialect: str = "cute") -> Any:
    """Read CuTe notation into an IntTuple, Layout, tiler, ``_``, Swizzle, ComposedLayout,
    scaled basis (``_1@0``) or coordinate tensor (``ArithTuple(_0,_0) o (_4,_8):(_1@0,_1@1)``).

    ``symbols`` maps identifiers to the integers (symbols or values) to use for them.
    ``dialect="dsl"`` reads what NVIDIA's CuTe Python DSL prints (bare integers are
    static, ``?`` and ``?{div=N}`` are dynamic, ``S<B,M,S>``, ``tensor<...>``; see
    :mod:`cute_sym.notation.dsl_dialect`).

    @post ``str(parse(s)) == s`` for every static string CuTe prints, and
          ``parse(str(x)) == x`` for every layout, swizzled layout, int tuple and
          coordinate tensor cute_sym prints.

    >>> parse("(_2,(_3,_4))"), parse("_")
    ((_2,(_3,_4)), _)
    >>> print(parse("(M,N):(_1,M)", {"M": 128}))
    (_128,N):(_1,_128)
    >>> print(parse("(_4,_8):(_1@0,_1@1)"), parse("(4,8):(8,1)", dialect="dsl"))
    (_4,_8):(_1@0,_1@1) (_4,_8):(_8,_1)
    >>> print(parse("smem_ptr[half_t](sA+8) o (_8,_64):(_64,_1)"))
    smem_ptr[half_t](sA+8) o (_8,_64):(_64,_1)
    """
    if not isinstance(text, str):
        raise NotationError(f"parse takes a string, got {type(text).__name__}")
    if not text.strip():
        raise NotationError("parse: empty text")
    if dialect != "cute":
        if dialect not in _DIALECTS:
            raise NotationError(f"parse: the dialect is one of {['cute', *sorted(_DIALECTS)]}, got {dialect!r}")
        return _DIALECTS[dialect](text, symbols)
    return _parse_with(_Reader, text, symbols)


#: Readers of other printed notations by name (``"dsl"``: :mod:`.dsl_dialect`, which registers
#: itself when the package loads; a hook, so that this module does not import its own reader's).
_DIALECTS: dict[str, Any] = {}


def _parse_with(reader_class: Any, text: str, symbols: Optional[Mapping[str, Any]]) -> Any:
    reader = reader_class(text, symbols or {})
    obj = reader.whole()
    both = _both_roles([reader])
    if both:
        # one name, one integer: the stride's M in (M,N):(_1,M) is the shape's (positive) M
        obj = reader_class(text, symbols or {}, both).whole()
    if not (isinstance(obj, Layout) and obj._st):      # (static: no symbol at all)
        symbols_of(obj)         # one name, one integer: also across the symbols given
    return wrap(obj)


def symbols_of(obj: Any) -> dict[str, Any]:
    """The symbols of a layout, swizzled layout or tuple of them, by name; two different symbols
    of one name are refused (:func:`~cute_sym.layout.layout.symbols_by_name`)."""
    from ..swizzle import ComposedLayout
    trees: list[Any] = []

    def go(x: Any) -> None:
        if isinstance(x, Layout):
            trees.extend((x._shape, _basis_values(x._stride)))
        elif isinstance(x, ScaledBasis):
            trees.append(x.value)
        elif isinstance(x, ComposedLayout):
            go(x.layout_a)
            trees.append(x.offset)
            go(x.layout_b)
        elif type(x) is tuple:
            for e in x:
                go(e)
        elif type(x) is int or is_basic(x):
            trees.append(x)
    go(obj)
    return symbols_by_name(*trees, what="text")


def _basis_values(t: Any) -> Any:
    """``t`` with each scaled basis replaced by its value (the integer that carries its symbols)."""
    if type(t) is tuple:
        return tuple(_basis_values(e) for e in t)
    return t.value if isinstance(t, ScaledBasis) else t


def shared_names(texts: Sequence[str]) -> frozenset[str]:
    """The identifiers that ``texts``, read together (the arguments of one call), read both in a
    shape (or a bare IntTuple) and in a stride: one positive integer each across the texts
    (``symbols={name: Dyn(name)}``), as :func:`parse` makes them in one text.

    >>> sorted(shared_names(["(M,_4):(_1,M)", "_8:N", "N"]))
    ['M', 'N']
    """
    readers = [_Reader(text, {}) for text in texts]
    for r in readers:
        r.whole()
    return _both_roles(readers)


def _both_roles(readers: Sequence[_Reader]) -> frozenset[str]:
    shape: set[str] = set()
    stride: set[str] = set()
    for r in readers:
        s, d = r.roles()
        shape |= s
        stride |= d
    return frozenset(shape & stride)


def to_str(obj: Any) -> str:
    """CuTe notation of any cute_sym value (``str`` of a layout, ``fmt`` of a tuple).

    @post static integers print as ``_4``, dynamic ones (symbols, sympy
          ``Integer``) without the underscore; ``parse(to_str(x))`` reads back
          ``x`` for a layout or IntTuple.

    >>> from cute_sym.core.integers import Dyn
    >>> M = Dyn("M")
    >>> to_str((4, (2, M))), to_str(8), to_str(sympy.Integer(8)), to_str(4 * M)
    ('(_4,(_2,M))', '_8', '8', '4*M')
    >>> to_str(parse("(_4,M):(_1,_4)"))
    '(_4,M):(_1,_4)'
    """
    if isinstance(obj, (tuple, int)) or is_basic(obj):
        return fmt(obj)
    return str(obj)


def _quotient(a: Any, b: Any) -> Any:
    """``a / b`` as the notation reads it (CuTe's integer division): the exact quotient where
    ``b`` divides ``a`` at every value (``M/4`` for a multiple ``M`` of 4, as a result prints
    it), else ``floor(a / b)``."""
    from ..core import decide
    sa, sb = sympy.sympify(a), sympy.sympify(b)
    if not (sa.is_Integer and sb.is_Integer) and not sb.is_zero and decide.prove("|", sb, sa) is True:
        return sa / sb
    return sympy.floor(sa / sb)

"""``einfold``: regroup, permute, duplicate or drop the modes of a layout, tensor or tuple by an
equation such as ``"(ab)c -> c(ba)"`` (NVIDIA PyCuTe's example, written for cute_sym).

The left side names the modes of the source: a name binds a whole mode (however deep), a group
``( )`` descends into a mode of exactly that many sub-modes; at the top level the modes the
left side leaves unnamed are kept, after the result. The right side builds the result from the
names: each group one mode, a repeated name a copy, an omitted name dropped. A layout folds its
shape and stride together; a tensor keeps its engine; any other tuple folds its leaves.

>>> from cute_sym.layout import make_layout
>>> print(einfold("(ab)c -> c(ba)", make_layout(((2, 3), 5), ((1, 2), 6))))
(_5,(_3,_2)):(_6,(_2,_1))
>>> einfold("ij -> ji", ("m", "n")), einfold("i -> ii", 4)
(('n', 'm'), (4, 4))
>>> parse_modes("(ab)c"), parse_modes("(i)"), parse_modes("(ji)")
((('a', 'b'), 'c'), ('i',), (('j', 'i'),))
"""
from __future__ import annotations

from typing import Any, Union

from ..core.errors import LayoutError
from ..layout.layout import Layout, _mk
from ..swizzle import ComposedLayout
from .tensor import Tensor

__all__ = ["einfold", "parse_modes"]

_Pattern = Union[str, tuple[Any, ...]]


class _Group(tuple):  # type: ignore[type-arg]
    """A parenthesised group while parsing (a plain tuple once parsed)."""


def _items(text: str, pos: int, depth: int) -> tuple[list[Any], int]:
    items: list[Any] = []
    while pos < len(text):
        ch = text[pos]
        if ch.isspace():
            pos += 1
        elif ch == "(":
            inner, pos = _items(text, pos + 1, depth + 1)
            if not inner:
                raise LayoutError("einfold: empty mode group '()'")
            items.append(_Group(inner))
        elif ch == ")":
            if depth == 0:
                raise LayoutError(f"einfold: unmatched ')' at {pos} in {text!r}")
            return items, pos + 1
        elif ch == ",":
            raise LayoutError(f"einfold: separators between modes are implied; remove ',' from {text!r}")
        elif ch.isalnum():
            items.append(ch)
            pos += 1
        else:
            raise LayoutError(f"einfold: invalid mode name {ch!r} in {text!r}")
    if depth:
        raise LayoutError(f"einfold: unclosed '(' in {text!r}")
    return items, pos


def _lone(item: Any) -> bool:
    """A group around a lone name (or around such a group)."""
    return isinstance(item, _Group) and len(item) == 1 and (type(item[0]) is str or _lone(item[0]))


def _plain(item: Any) -> Any:
    return tuple(_plain(x) for x in item) if isinstance(item, _Group) else item


def parse_modes(text: str) -> _Pattern:
    """The mode expression ``text`` as a nested tuple of one-character names.

    A lone name is a leaf; a group around a lone name nests it one level deeper (``"(i)"`` is
    ``("i",)``); every other group is one mode of its level (``"(ji)"`` is ``(("j","i"),)``).

    @pre names are letters or digits; parentheses balance; no empty group; no separators, else
         :class:`LayoutError` naming the fault.
    """
    if not isinstance(text, str):
        raise LayoutError(f"einfold: a mode expression is a string, got {type(text).__name__}")
    items, _pos = _items(text, 0, 0)
    if not items:
        raise LayoutError(f"einfold: empty mode expression {text!r}")
    if len(items) == 1 and (type(items[0]) is str or _lone(items[0])):
        return _plain(items[0])  # type: ignore[no-any-return]
    return tuple(_plain(x) for x in items)


def _names(p: Any) -> list[str]:
    return [p] if type(p) is str else [n for x in p for n in _names(x)]


_UNMATCHED = "einfold: the input {} does not match the source profile {}"


def _bind(p: Any, src: Any, out: dict[str, Any], top: bool, whole: Any) -> Any:
    """Bind the names of pattern ``p`` to the parts of ``src``; at the top level, the unnamed rest."""
    if type(p) is str:
        out[p] = src
        return ()
    if not isinstance(src, tuple) or len(src) < len(p) or (not top and len(src) != len(p)):
        raise LayoutError(_UNMATCHED.format(p, whole))
    for q, s in zip(p, src):
        _bind(q, s, out, False, whole)
    return src[len(p):]


def _build(p: Any, bound: dict[str, Any]) -> Any:
    return bound[p] if type(p) is str else tuple(_build(x, bound) for x in p)


def _fold(lhs: Any, rhs: Any, src: Any, profile: Any) -> Any:
    bound: dict[str, Any] = {}
    rest = _bind(lhs, src, bound, True, profile)
    out = _build(rhs, bound)
    if rest:
        out = (out if type(rhs) is tuple else (out,)) + tuple(rest)
    elif isinstance(src, tuple) and type(src) is not tuple and isinstance(out, tuple):
        out = type(src)(out)                   # an int tuple of cute_sym's stays one
    return out


def _zip(shape: Any, stride: Any) -> Any:
    if type(shape) is tuple:
        return tuple(_zip(s, d) for s, d in zip(shape, stride))
    return _Leaf(shape, stride)


class _Leaf:
    __slots__ = ("shape", "stride")

    def __init__(self, shape: Any, stride: Any) -> None:
        self.shape, self.stride = shape, stride


def _unzip(t: Any, which: str) -> Any:
    return tuple(_unzip(x, which) for x in t) if type(t) is tuple else getattr(t, which)


def einfold(subscripts: str, source: Any) -> Any:
    """Fold ``source`` (a layout, a tensor, or a tuple) by ``"input -> output"`` mode expressions.

    @pre one ``->``; input names distinct ("input contains repeated names"); output names among
         them ("output contains unknown names"); the input matches the source's profile (a group
         a mode of as many sub-modes; at the top level a prefix of the modes), else :class:`LayoutError`.
    @post a layout gives a layout whose shape and stride are ``einfold`` of the source's; a tensor
          gives a tensor over the same engine; the unnamed top-level modes follow, unchanged.

    >>> from cute_sym.layout import make_layout
    >>> print(einfold("ij -> ji", make_layout(((12, 4), 42, 5, 7))))
    (_42,(_12,_4),_5,_7):(_48,(_1,_12),_2016,_10080)
    """
    if not isinstance(subscripts, str):
        raise LayoutError(f"einfold: the subscripts are a string, got {type(subscripts).__name__}")
    parts = subscripts.split("->")
    if len(parts) != 2:
        raise LayoutError(f"einfold: expected exactly one '->' in {subscripts!r}")
    lhs, rhs = parse_modes(parts[0]), parse_modes(parts[1])
    names = _names(lhs)
    if len(set(names)) != len(names):
        raise LayoutError(f"einfold: input contains repeated names: {parts[0].strip()!r}")
    unknown = [n for n in dict.fromkeys(_names(rhs)) if n not in names]
    if unknown:
        raise LayoutError(f"einfold: output contains unknown names: {unknown}")
    if isinstance(source, Tensor):
        return Tensor(source.engine, einfold(subscripts, source.layout))
    if isinstance(source, ComposedLayout):
        raise LayoutError("einfold: a swizzled layout's modes cannot be regrouped (fold its inner layout)")
    if isinstance(source, Layout):
        pairs = _fold(lhs, rhs, _zip(source.shape, source.stride), source.shape)
        return _mk(_unzip(pairs, "shape"), _unzip(pairs, "stride"))
    return _fold(lhs, rhs, source, source)

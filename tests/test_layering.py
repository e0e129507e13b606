"""The house as drawn in docs/architecture.md: each layer imports only from the layers below it.

Every import counts, also one inside a function (a lazy import upward is still an
upward call); only ``if TYPE_CHECKING:`` blocks are exempt (they never run).
Inside one layer, modules may import each other, but the import graph of the
whole package has no circle: a module importing its own package (``from ..decide
import prove``) counts as importing that package's ``__init__``, which imports the
package's modules, so such an import closes a circle and is caught. Packages that
are stacks of their own (``core.decide``) have a rank table of their modules, and
there every import, also a ``TYPE_CHECKING`` one, goes strictly down.
"""
from __future__ import annotations

import ast
import pathlib

PKG = pathlib.Path(__file__).resolve().parent.parent / "cute_sym"

# Bottom to top. Layers of equal rank are siblings: neither imports the other.
LAYERS: dict[str, float] = {
    "core": 0.0, "core.errors": 0.0, "core.symbolic": 0.05, "core.integers": 0.1, "core.monomials": 0.15, "core.formula": 0.2, "core.decide": 0.3, "core.int_tuple": 0.4, "stride": 0.5,
    "layout": 1, "algebra": 2, "swizzle": 3, "notation": 4, "tensor": 5,
    "analysis": 6, "codegen": 6.5, "execute": 6.7, "views": 7, "api": 7.6, "__init__": 8, "dsl": 8.5, "cli": 9,  # the CLI reads the public API; dsl: the CuTe DSL bridge (imported only when asked)
}
MAX_LINES = 600

# Packages that are stacks: module -> rank inside the package (the package's __init__ is its
# entry module, on top). Equal ranks are siblings, neither importing the other.
STACKS: dict[str, dict[str, float]] = {
    "core.decide": {
        "base": 0,                       # relations, facts, the facts in force, the static path
        "intervals": 1, "witness": 1,    # interval arithmetic; evaluation at allowed values
        "rounding": 2, "expansion": 2, "sums": 2,
        "reason": 3,                     # facts as structure, orderings
        "divisibility": 4,
        "values": 5,                     # the few values of a formula
        "quick": 6, "disjunction": 6,
        "prove": 7,
        "guards": 8,                     # require, require_any, collect_guards
        "assume": 9,
        "__init__": 10,                  # the entry module
    },
}


def _module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(PKG).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _layer(module: str) -> tuple[str, float]:
    best = ""
    for name in LAYERS:
        if (module == name or module.startswith(name + ".")) and len(name) > len(best):
            best = name
    assert best, f"{module} is in no layer of LAYERS: add it to the map (and to docs/architecture.md)"
    return best, LAYERS[best]


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(path: pathlib.Path, type_checking: bool = False) -> list[tuple[str, int]]:
    """(absolute module inside cute_sym, line) for every import of the package that runs
    (with ``type_checking``, also those of ``if TYPE_CHECKING:`` blocks)."""
    tree = ast.parse(path.read_text())
    me = _module_name(path).split(".")
    package = me if path.name == "__init__.py" else me[:-1]
    if path.name == "__init__.py" and me == ["__init__"]:
        package = []
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node) and not type_checking:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
                targets = [mod] if node.module else [".".join(base + [a.name]) for a in node.names]
                found.extend((t, node.lineno) for t in targets)
            elif node.module and node.module.split(".")[0] == "cute_sym":
                found.append((node.module[len("cute_sym."):] or "__init__", node.lineno))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "cute_sym":
                    found.append((a.name[len("cute_sym."):] or "__init__", node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _modules() -> list[pathlib.Path]:
    return sorted(PKG.rglob("*.py"))


def test_every_import_goes_down() -> None:
    wrong = []
    for path in _modules():
        me = _module_name(path)
        my_layer, my_rank = _layer(me)
        for target, line in _imports(path):
            layer, rank = _layer(target)
            if layer == my_layer:
                continue
            if rank >= my_rank:
                wrong.append(f"{path.relative_to(PKG.parent)}:{line}: {me} ({my_layer}) imports {target} ({layer})")
    assert not wrong, "imports from a layer above (or a sibling):\n" + "\n".join(wrong)


def _resolve(target: str, known: set[str]) -> str:
    """The module an import runs: ``from .x import y`` may name the sub-module ``x.y``."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or "__init__"


def _graph() -> dict[str, set[str]]:
    """module -> the modules its imports run. A package's ``__init__`` importing its own modules
    is how it re-exports (an edge down, no circle by itself); a module importing its own
    package is an edge to that ``__init__``, so a circle through the re-exports is seen."""
    paths = {_module_name(p): p for p in _modules()}
    known = set(paths)
    return {m: {_resolve(t, known) for t, _ in _imports(p)} - {m} for m, p in paths.items()}


def test_no_import_circle() -> None:
    paths = {_module_name(p): p for p in _modules()}
    known = set(paths)
    graph = _graph()
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                raise AssertionError("import circle: " + " -> ".join(stack[stack.index(t):] + [t]))
            if t not in state:
                dfs(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            dfs(m)


def test_stacks_go_down() -> None:
    """Inside a stack package every import of a sibling module goes to a lower rank."""
    wrong = []
    for pkg, ranks in STACKS.items():
        folder = PKG.joinpath(*pkg.split("."))
        names = {p.stem for p in folder.glob("*.py")}
        assert names == set(ranks), f"{pkg}: modules {sorted(names ^ set(ranks))} missing from / stale in STACKS"
        known = {_module_name(p) for p in _modules()}
        for path in sorted(folder.glob("*.py")):
            me = path.stem
            for target, line in _imports(path, type_checking=True):
                t = _resolve(target, known)
                other = "__init__" if t == pkg else (t[len(pkg) + 1:] if t.startswith(pkg + ".") else None)
                if other is None or other == me:
                    continue
                if "." in other or ranks[other] >= ranks[me]:
                    wrong.append(f"{path.relative_to(PKG.parent)}:{line}: {me} ({ranks[me]}) imports {other} "
                                 f"({ranks.get(other, '?')})")
    assert not wrong, "imports that do not go down a stack:\n" + "\n".join(wrong)


def test_circles_are_caught() -> None:
    """The circle check sees a module importing its own package's re-exports."""
    graph = _graph()
    assert "core.decide.prove" in graph["core.decide"]       # the entry module re-exports
    for m, targets in graph.items():
        for t in targets:
            assert not (m.startswith(t + ".") and m in graph.get(t, ())), f"{m} <-> {t}"


def test_no_module_needs_scrolling() -> None:
    long = [f"{p.relative_to(PKG.parent)}: {n} lines" for p in _modules()
            if (n := len(p.read_text().splitlines())) > MAX_LINES]
    assert not long, f"modules over {MAX_LINES} lines (split them by concept):\n" + "\n".join(long)

"""The layers: the engine uses the standard library alone, and arrows run one way."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "cardtable"
ENGINE = ["cards", "game", "games", "pasur", "durak", "bots"]
# What each engine part may import from cardtable itself.
ALLOWED = {
    "cards": set(),
    "game": {"cards"},
    "games": {"game", "pasur", "durak"},
    "pasur": {"cards", "game", "pasur"},
    "durak": {"cards", "game", "durak"},
    "bots": {"cards", "game", "games", "pasur", "durak", "bots"},
}


def modules_of(part: str) -> list[Path]:
    path = ROOT / part
    return sorted(path.rglob("*.py")) if path.is_dir() else [ROOT / f"{part}.py"]


def imported(path: Path) -> set[str]:
    """Top-level names imported by a module; relative imports as cardtable parts."""
    tree = ast.parse(path.read_text())
    package = path.relative_to(ROOT).parts
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                names.add(node.module or "")
            else:
                base = list(package[:-1])[: len(package) - node.level]
                target = [*base, *(node.module.split(".") if node.module else [])]
                if target:
                    names.add("cardtable." + ".".join(target))
                else:  # "from . import x" at the top of the package
                    names.update("cardtable." + alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("part", ENGINE)
def test_the_engine_imports_only_the_standard_library_and_lower_layers(part):
    for path in modules_of(part):
        for name in imported(path):
            top = name.split(".")[0]
            if top == "cardtable":
                inner = name.split(".")[1] if "." in name else ""
                assert inner in ALLOWED[part], f"{path.name} imports {name}"
            elif top != "__future__":
                assert top in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_importing_the_engine_loads_no_third_party_package():
    code = ("import sys; import cardtable.cards, cardtable.game, cardtable.pasur, "
            "cardtable.durak, cardtable.bots; "
            "print(sorted({m.split('.')[0] for m in sys.modules}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    loaded = set(ast.literal_eval(out.strip()))
    third_party = {m for m in loaded if m not in sys.stdlib_module_names
                   and m not in {"cardtable", "__main__"} and not m.startswith("_")}
    assert third_party == set()


# -- one plug-in per game ----------------------------------------------------------------

def _plugin_modules() -> set[Path]:
    """The per-game modules of the outer layers, each named by its game's SPEC."""
    from cardtable import games

    found = set()
    for name in games.names():
        spec = games.get(name)
        for path in (spec.kit, spec.screen, spec.episode):
            if path:
                module = path.partition(":")[0].split(".")[1:]
                found.add(ROOT.joinpath(*module).with_suffix(".py"))
        if spec.pettingzoo_name:   # the environment's own entry module
            found.add(ROOT / "adapters" / "pettingzoo" / f"{spec.pettingzoo_name}.py")
    return found


def _names_a_game(path: Path, names: set[str]) -> list[str]:
    """Where a module names a game: a string (not a docstring) or an import of its package."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docstrings
                and any(name in node.value.lower().split("_") or name == node.value.lower()
                        for name in names)):
            found.append(f"line {node.lineno}: {node.value!r}")
        elif isinstance(node, ast.ImportFrom) and node.module and any(
                name in node.module.split(".") for name in names):
            found.append(f"line {node.lineno}: imports {node.module}")
    return found


def test_no_module_outside_the_game_packages_names_a_game():
    from cardtable import games

    names = set(games.names())
    allowed = _plugin_modules() | {ROOT / "games.py"}
    offenders = {}
    for path in sorted(ROOT.rglob("*.py")):
        part = path.relative_to(ROOT).parts[0]
        if part in names or path in allowed:
            continue
        where = _names_a_game(path, names)
        if where:
            offenders[str(path.relative_to(ROOT))] = where
    assert offenders == {}


def test_the_page_names_a_game_only_in_its_registry_and_the_games_own_modules():
    js = ROOT / "server" / "static" / "js"
    registry = (js / "games.js").read_text()
    own = {js / f"{name}.js" for name in re.findall(r'from "\./(\w+)\.js"', registry)
           if name != "generic"}
    from cardtable import games

    names = "|".join(games.names())
    pattern = re.compile(rf"""["'`]({names})["'`]|\b({names})\.\w""")
    offenders = {path.name: pattern.findall(path.read_text())
                 for path in js.glob("*.js") if path not in own | {js / "games.js"}}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_no_source_file_is_over_seven_hundred_lines():
    long = {str(path.relative_to(ROOT)): n for path in ROOT.rglob("*")
            if path.suffix in (".py", ".js")
            and (n := len(path.read_text().splitlines())) > 700}
    assert long == {}


def module_graph() -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    """Every import between cardtable's modules (at the top, in a function, or for the
    type checker alone: a circle of any of them is a circle of the design), and every
    name taken from the ``__init__`` of a package holding the importer."""
    names = {}
    for path in ROOT.rglob("*.py"):
        parts = ("cardtable", *path.relative_to(ROOT).with_suffix("").parts)
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {name: set() for name in names}
    upward = []
    for name, path in names.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name in names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                for alias in node.names:
                    if f"{source}.{alias.name}" in names:
                        graph[name].add(f"{source}.{alias.name}")
                    elif source in names:
                        graph[name].add(source)
                        if name.startswith(source + ".") and alias.name != "__version__":
                            upward.append((name, f"{source}.{alias.name}"))
    for name in graph:
        graph[name].discard(name)
    return graph, upward


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_of_cardtable_is_in_an_import_circle() -> None:
    graph, _ = module_graph()
    assert "cardtable.server.play.tables" in graph["cardtable.server.web.app"]  # it sees
    assert circles(graph) == []


def test_no_module_takes_a_name_from_a_package_above_it() -> None:
    """A package's ``__init__`` imports its modules; a module importing it back would
    make a circle (``__version__``, which the top one defines alone, is the exception)."""
    _, upward = module_graph()
    assert upward == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# -- one owner per live table ---------------------------------------------------------------
SERVER = ROOT / "server"
OWNER = SERVER / "play" / "dealer.py"
NOT_TABLES = {"row", "entry", "record", "answer"}
"""Names the server gives to what is not a live table although it has fields of the same
names: database rows, quick-play entries, game records, the health check's answer."""
MUTATORS = {"append", "add", "discard", "remove", "pop", "popleft", "clear", "extend",
            "update", "push", "insert", "setdefault"}


def table_fields() -> set[str]:
    import dataclasses

    from cardtable.server.play.live import Life, LiveSeat, LiveTable

    return {f.name for cls in (LiveTable, LiveSeat, Life) for f in dataclasses.fields(cls)}


def changes_to_tables(path: Path, fields: set[str]) -> list[str]:
    """Every place in ``path`` that assigns a field of a table, a seat or a table's life,
    or changes one in place (``life.left.append``), other than an object's own."""
    found = []

    def owned_elsewhere(node: ast.AST) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr in fields
                and not (isinstance(node.value, ast.Name)
                         and node.value.id in {"self", *NOT_TABLES}))

    for node in ast.walk(ast.parse(path.read_text())):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for item in (target.elts if isinstance(target, ast.Tuple | ast.List) else [target]):
                if isinstance(item, ast.Subscript):
                    item = item.value
                if owned_elsewhere(item):
                    found.append(f"{path.name}:{node.lineno} {ast.unparse(item)} =")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in MUTATORS and owned_elsewhere(node.func.value)):
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node.func)}()")
    return found


def test_only_the_dealer_changes_a_live_table() -> None:
    fields = table_fields()
    changes = [change for path in sorted(SERVER.rglob("*.py")) if path != OWNER
               for change in changes_to_tables(path, fields)]
    assert changes == []


def test_no_module_takes_a_lock_of_a_table() -> None:
    from cardtable.server.play.live import LiveTable

    assert "lock" not in table_fields() and not hasattr(LiveTable, "lock")
    taken = [f"{path.name}:{node.lineno}" for path in sorted(SERVER.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Attribute) and node.attr == "lock"]
    assert taken == []


def test_the_owner_check_finds_a_change(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f(table, life, row):\n    table.status = 'over'\n"
                      "    life.banks[0] = 1.0\n    life.left.append(2)\n"
                      "    row.status = 'over'\n")
    assert changes_to_tables(sample, table_fields()) == [
        "sample.py:2 table.status =", "sample.py:3 life.banks =",
        "sample.py:4 life.left.append()"]

"""The layers: the engine uses the standard library alone, and arrows run one way."""

import ast
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "cardtable"
SERVER = ROOT / "server"
ENGINE = ["_engine", "cards", "game", "games", "pasur", "durak", "bots"]
# What each engine part may import from cardtable itself (``_engine`` loads the compiled
# cores: the standard library alone).
ALLOWED = {
    "_engine": set(),
    "cards": set(),
    "game": {"cards"},
    "games": {"game", "pasur", "durak"},
    "pasur": {"_engine", "cards", "game", "pasur"},
    "durak": {"_engine", "cards", "game", "durak"},
    "bots": {"_engine", "cards", "game", "games", "pasur", "durak", "bots"},
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


SIZE_BUDGET = 800
"""Lines a source file may have before its size wants a reason: a file over it says why in
a line of its own (``# size: ...`` or ``// size: ...``) and the run warns of it.  The
size is reviewed, not enforced: an owner is as long as its job."""


def oversized(paths: list[Path]) -> dict[str, tuple[int, str | None]]:
    """Each file over ``SIZE_BUDGET`` lines, with its line count and its reason (if any)."""
    found = {}
    for path in paths:
        lines = path.read_text().splitlines()
        if len(lines) > SIZE_BUDGET:
            reasons = [line.split("size:", 1)[1].strip() for line in lines
                       if line.lstrip().startswith(("# size:", "// size:"))]
            name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
            found[name] = (len(lines), reasons[0] if reasons else None)
    return found


def test_a_file_over_the_size_budget_says_why() -> None:
    import warnings

    over = oversized([path for path in sorted(ROOT.rglob("*"))
                      if path.suffix in (".py", ".js")])
    for name, (count, reason) in over.items():
        warnings.warn(f"{name}: {count} lines (budget {SIZE_BUDGET}): {reason}",
                      stacklevel=1)
    assert {name for name, (_, reason) in over.items() if not reason} == set()


def test_the_size_report_reads_a_reason(tmp_path: Path) -> None:
    body = "x = 1\n" * SIZE_BUDGET
    (tmp_path / "said.py").write_text("# size: one owner, one file\n" + body)
    (tmp_path / "silent.py").write_text("y = 2\n" + body)
    (tmp_path / "short.py").write_text("z = 3\n")
    assert oversized(sorted(tmp_path.iterdir())) == {
        "said.py": (SIZE_BUDGET + 1, "one owner, one file"),
        "silent.py": (SIZE_BUDGET + 1, None)}


def module_graph() -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    """Every import between cardtable's modules (at the top, in a function, or for the
    type checker alone: a circle of any of them is a circle of the design), and every
    name taken from the ``__init__`` of a package holding the importer."""
    names = {}
    for path in ROOT.rglob("*.py"):
        parts = ("cardtable", *path.relative_to(ROOT).with_suffix("").parts)
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    for core in ROOT.rglob("_core.c"):   # a compiled core is a module that imports none
        names[".".join(("cardtable", *core.relative_to(ROOT).with_suffix("").parts))] = core
    graph: dict[str, set[str]] = {name: set() for name in names}
    upward = []
    for name, path in names.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        if path.suffix != ".py":
            continue
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


# -- the server's layers ----------------------------------------------------------------------
SERVER_LAYERS = ("web", "cluster", "play", "people", "store", "core")
"""The server's sub-packages from the top down: each imports only those below it.  ``web``
holds every router, middleware and the dependencies; ``cluster`` joins processes;
``play`` and ``people`` are services; ``store`` holds every row and store; ``core`` the
refusal, codes, clock, settings, bounds, metrics and the messages' models."""
SERVER_ENTRIES = {"cardtable.server", "cardtable.server.__main__", "cardtable.server.viewer"}
"""The server package's own modules, above every layer (``viewer`` is a client)."""


def layer_of(module: str) -> int | None:
    """A server module's place in ``SERVER_LAYERS`` (0 is the top); ``None`` outside them."""
    parts = module.split(".")
    if parts[:2] != ["cardtable", "server"] or len(parts) < 3:
        return None
    return SERVER_LAYERS.index(parts[2]) if parts[2] in SERVER_LAYERS else None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a server module from a layer above its own."""
    return sorted(f"{module} -> {other}" for module, others in graph.items()
                  for other in others
                  if (mine := layer_of(module)) is not None
                  and (theirs := layer_of(other)) is not None and theirs < mine)


def test_the_servers_layers_import_only_downward() -> None:
    """Imports made in a function or for the type checker alone count too."""
    graph, _ = module_graph()
    assert "cardtable.server.core.errors" in graph["cardtable.server.play.live"]   # it sees
    assert upward_imports(graph) == []


def test_every_server_module_is_in_a_layer() -> None:
    graph, _ = module_graph()
    outside = {name for name in graph if name.startswith("cardtable.server")
               and layer_of(name) is None and name not in SERVER_ENTRIES}
    assert outside == set()


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = {"cardtable.server.store.rows": {"cardtable.server.play.chat"},
             "cardtable.server.play.chat": {"cardtable.server.store.rows"},
             "cardtable.server.web.app": {"cardtable.server.core.codes"}}
    assert upward_imports(graph) == [
        "cardtable.server.store.rows -> cardtable.server.play.chat"]


def _defined(part: str, test: Callable[[ast.ClassDef | ast.Assign], bool]) -> list[str]:
    """Where a class or an assignment of the server outside ``part`` passes ``test``."""
    found = []
    for path in sorted((SERVER).rglob("*.py")):
        if path.relative_to(SERVER).parts[0] == part:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef | ast.Assign) and test(node):
                found.append(f"{path.relative_to(SERVER)}:{node.lineno}")
    return found


def test_every_row_and_store_lives_in_store() -> None:
    def row_or_store(node: ast.ClassDef | ast.Assign) -> bool:
        return isinstance(node, ast.ClassDef) and any(
            isinstance(base, ast.Name) and base.id in {"Base", "Store"} for base in node.bases)

    assert _defined("store", row_or_store) == []


def test_the_core_knows_no_web_framework() -> None:
    """A refusal is mapped to HTTP at the edge (``web.errors``), not where it is raised."""
    found = [f"{path.name} imports {name}" for path in sorted((SERVER / "core").rglob("*.py"))
             for name in imported(path) if name.split(".")[0] == "fastapi"]
    assert found == []


def test_every_router_lives_in_web() -> None:
    def router(node: ast.ClassDef | ast.Assign) -> bool:
        return (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "APIRouter")

    assert _defined("web", router) == []


# -- one owner per live table ---------------------------------------------------------------
OWNER = SERVER / "play" / "dealer.py"
NOT_TABLES = {"row", "entry", "record", "answer", "message"}
"""Names the server gives to what is not a live table although it has fields of the same
names: database rows, quick-play entries, game records, the health check's answer, a
state message to a page."""
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

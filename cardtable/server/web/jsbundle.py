"""The page's JavaScript modules as one file, made by the server when it starts.

A browser fetching the page's sixty-odd modules one by one finds each level of imports only
after the level before has arrived: on a link with a two-second round trip that is half a
minute.  :func:`bundle` joins an entry module and everything it imports into one script,
so the page costs one request, with no build step and no tool outside Python.

Each module keeps its own scope: its text goes into a block (``if (...) { ... }``), where its
``const``, ``class`` and (in strict code) ``function`` declarations are private, as they
are in a module.  Its imports become constants read from the modules already run, and its
exports an object filed under its path.  Modules run in the order a browser runs them
(depth first, in the order of the imports), so every import has been made when it is read.

The page's modules are ordinary ES modules and stay loadable one by one (a test or a
developer can still ``import("/js/cards.js")``).  The bundle understands the forms they
use and refuses any other with :class:`BundleError` (an import cycle, ``export let``, an
import not at a line's start...): the server then serves the modules unbundled.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> _ = (root / "a.js").write_text('import { twice } from "./b.js";\\n'
...                                'export const four = twice(2);\\n')
>>> _ = (root / "b.js").write_text("export function twice(x) { return 2 * x; }\\n")
>>> print(bundle(root, "a.js", prefix="/js/"))
const __modules = (globalThis.cardtableModules ??= new Map());
// /js/b.js
if (!__modules.has("/js/b.js")) {
function twice(x) { return 2 * x; }
__modules.set("/js/b.js", Object.freeze({ __proto__: null, twice }));
}
// /js/a.js
if (!__modules.has("/js/a.js")) {
const { twice } = __modules.get("/js/b.js");
const four = twice(2);
__modules.set("/js/a.js", Object.freeze({ __proto__: null, four }));
}
<BLANKLINE>
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["BundleError", "Module", "bundle", "modules_of", "read_module"]


class BundleError(ValueError):
    """A module uses a form the bundle does not understand (the page is then unbundled)."""


# ``import ... from "x";`` at a line's start, possibly over several lines.
IMPORT = re.compile(r'^import\s+(?P<what>[^;"\']*?)\s+from\s+'
                    r'(?P<q>["\'])(?P<path>[^"\']+)(?P=q)\s*;?[ \t]*$', re.M | re.S)
DECLARED = re.compile(r"^export\s+(?P<kind>(?:async\s+)?function\*?|const|class)\s+"
                      r"(?P<name>[A-Za-z_$][\w$]*)", re.M)
DEFAULT = re.compile(r"^export\s+default\s+", re.M)
LISTED = re.compile(r"^export\s*\{(?P<names>[^}]*)\}\s*;?[ \t]*$", re.M)
LEFT = re.compile(r"^\s*(import|export)\b", re.M)
NAME = re.compile(r"^[A-Za-z_$][\w$]*$")
RESERVED = ("__modules", "__default")


@dataclass
class Module:
    """One module's text with its imports and exports taken out."""

    path: str
    body: str
    imports: list[tuple[str, str]] = field(default_factory=list)
    """(the statement's binding list, the imported module's path), in the source's order."""
    exports: list[tuple[str, str]] = field(default_factory=list)
    """(exported name, local name)."""


def _names(listed: str, where: str) -> list[tuple[str, str]]:
    """``a, b as c`` as ``[("a", "a"), ("b", "c")]``."""
    pairs = []
    for item in listed.split(","):
        item = item.strip()
        if not item:
            continue
        parts = item.split()
        if len(parts) == 1 and NAME.match(parts[0]):
            pairs.append((parts[0], parts[0]))
        elif len(parts) == 3 and parts[1] == "as" and NAME.match(parts[0]) and NAME.match(parts[2]):
            pairs.append((parts[0], parts[2]))
        else:
            raise BundleError(f"{where}: cannot read {item!r}")
    return pairs


def read_module(path: str, text: str) -> Module:
    """Take ``path``'s imports and exports out of its ``text`` (``path`` as the page's URL)."""
    for name in RESERVED:
        if re.search(rf"\b{name}\b", text):
            raise BundleError(f"{path}: uses the bundle's own name {name}")
    module = Module(path, text)
    here = posixpath.dirname(path)

    def take_import(match: re.Match[str]) -> str:
        target = match["path"]
        if not target.startswith("."):
            raise BundleError(f"{path}: imports {target!r}, not a relative path")
        resolved = posixpath.normpath(posixpath.join(here, target))
        module.imports.append((match["what"].strip(), resolved))
        return ""

    body = IMPORT.sub(take_import, text)

    def take_declared(match: re.Match[str]) -> str:
        module.exports.append((match["name"], match["name"]))
        return match["kind"] + " " + match["name"]

    body = DECLARED.sub(take_declared, body)
    if len(DEFAULT.findall(body)) > 1:
        raise BundleError(f"{path}: two default exports")
    if DEFAULT.search(body):
        module.exports.append(("default", "__default"))
        body = DEFAULT.sub("const __default = ", body)

    def take_listed(match: re.Match[str]) -> str:
        module.exports.extend((out, local) for local, out in _names(match["names"], path))
        return ""

    body = LISTED.sub(take_listed, body)
    left = LEFT.search(body)
    if left:
        line = body[left.start():].strip().splitlines()[0]
        raise BundleError(f"{path}: cannot bundle {line[:80]!r}")
    module.body = body
    return module


def _binding(what: str, target: str, where: str) -> str:
    """One import statement's bindings as a constant read from ``target``'s exports."""
    source = f'__modules.get("{target}")'
    star = re.fullmatch(r"\*\s+as\s+([A-Za-z_$][\w$]*)", what)
    if star:
        return f"const {star[1]} = {source};"
    default, _, rest = what.partition(",") if not what.startswith("{") else ("", "", what)
    lines = []
    if default.strip():
        if not NAME.match(default.strip()):
            raise BundleError(f"{where}: cannot read import {what!r}")
        lines.append(f"const {default.strip()} = {source}.default;")
    rest = rest.strip()
    if rest:
        if not (rest.startswith("{") and rest.endswith("}")):
            raise BundleError(f"{where}: cannot read import {what!r}")
        pairs = _names(rest[1:-1], where)
        inner = ", ".join(name if name == local else f"{name}: {local}" for name, local in pairs)
        lines.append(f"const {{ {inner} }} = {source};")
    return "\n".join(lines)


def modules_of(root: Path, entry: str, prefix: str = "/js/", strip: bool = False,
               skip: frozenset[str] = frozenset()) -> list[Module]:
    """``entry`` and every module it imports, in the order a browser runs them (their
    comments taken out if ``strip``), less the modules in ``skip`` and what they import
    (another bundle's, already run)."""
    order: list[Module] = []
    done: set[str] = set(skip)
    running: list[str] = []

    def visit(path: str) -> None:
        if path in done:
            return
        if path in running:
            cycle = [*running[running.index(path):], path]
            raise BundleError("an import cycle: " + " -> ".join(cycle))
        file = root / path[len(prefix):]
        if not path.startswith(prefix) or not file.is_file():
            raise BundleError(f"{running[-1] if running else entry}: no module {path}")
        text = file.read_text(encoding="utf-8")
        module = read_module(path, strip_comments(text) if strip else text)
        running.append(path)
        for _, target in module.imports:
            visit(target)
        running.pop()
        done.add(path)
        order.append(module)

    visit(prefix + entry)
    return order


def bundle(root: Path, entry: str, prefix: str = "/js/", strip: bool = False,
           skip: frozenset[str] = frozenset()) -> str:
    """One script (to be loaded as a module) running ``entry`` and all it imports (without
    their comments if ``strip``: a sixth fewer bytes once compressed), less the modules of
    ``skip`` (and theirs): a second bundle, run after a first that has them.

    Every module's exports are kept in ``globalThis.cardtableModules`` (a ``Map`` from the
    module's path), so a test or a person at the console reaches the page's own modules,
    and a second bundle on the page runs only the modules the first did not.
    """
    parts = ["const __modules = (globalThis.cardtableModules ??= new Map());"]
    for module in modules_of(root, entry, prefix, strip, skip):
        bindings = [_binding(what, target, module.path) for what, target in module.imports]
        exported = ", ".join(local if out == local else f"{out}: {local}"
                             for out, local in module.exports)
        body = module.body.strip("\n")
        parts.append(f'// {module.path}\nif (!__modules.has("{module.path}")) {{')
        parts.extend(line for line in bindings if line)
        if body:
            parts.append(body)
        parts.append(f'__modules.set("{module.path}", Object.freeze({{ __proto__: null'
                     + (f", {exported}" if exported else "") + " }));\n}")
    return "\n".join(parts) + "\n"


# After these a ``/`` starts a regular expression, not a division.
_BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^") | {""}
_KEYWORDS_BEFORE_REGEX = {"return", "typeof", "case", "do", "else", "in", "of", "new",
                          "delete", "void", "throw", "instanceof", "yield", "await"}


def strip_comments(text: str) -> str:
    """``text`` without its comments and its lines' indentation (what gzip cannot take out).

    A small scanner of JavaScript's strings, template literals (``${...}`` included),
    regular expressions and comments: nothing inside a string, template or regular
    expression changes.  A comment that spanned lines leaves a line break (so no statement
    joins the next), and a line keeps its indentation if it starts inside a template.

    >>> print(strip_comments('const a = "// no"; // yes\\n  /* b */ let r = /[/]*/g; // c'))
    const a = "// no";
    let r = /[/]*/g;
    >>> print(strip_comments("x = `\\n  // kept ${y /* gone */} `;"))
    x = `
      // kept ${y } `;
    """
    out: list[str] = []
    i, n = 0, len(text)
    braces: list[int] = []   # for each open ``${``, the depth of ``{`` inside it
    last = ""                # the last significant character or word of code
    line_start = True

    def word_before() -> str:
        j = len(out) - 1
        while j >= 0 and out[j] in " \t":
            j -= 1
        k = j
        while k >= 0 and (out[k].isalnum() or out[k] in "_$"):
            k -= 1
        return "".join(out[k + 1:j + 1])

    def template(i: int) -> int:
        """Copy a template's text from ``i`` to its end or its next ``${``; returns where."""
        while i < n:
            c = text[i]
            if c == "\\":
                out.append(text[i:i + 2])
                i += 2
                continue
            out.append(c)
            i += 1
            if c == "`":
                return i
            if c == "$" and i < n and text[i] == "{":
                out.append("{")
                braces.append(0)
                return i + 1
        raise BundleError("a template literal does not end")

    while i < n:
        c = text[i]
        if line_start and c in " \t":
            i += 1
            continue
        line_start = False
        if c == "\n":
            # drop the spaces before the line break
            while out and out[-1] in " \t":
                out.pop()
            if out and out[-1] != "\n":
                out.append("\n")
            i += 1
            line_start = True
            continue
        if c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise BundleError("a comment does not end")
            if "\n" in text[i:end]:
                out.append("\n")
                line_start = True
            else:
                out.append(" ")
            i = end + 2
            continue
        if c in "'\"":
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\n":
                    raise BundleError("a string does not end on its line")
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
            last = c
            continue
        if c == "`":
            out.append("`")
            i = template(i + 1)
            last = "`"
            continue
        if c == "/":
            regex = last in _BEFORE_REGEX or (
                last.isalnum() and word_before() in _KEYWORDS_BEFORE_REGEX)
            if regex:
                j, in_class = i + 1, False
                while j < n:
                    d = text[j]
                    if d == "\\":
                        j += 2
                        continue
                    if d == "\n":
                        raise BundleError("a regular expression does not end on its line")
                    if d == "[":
                        in_class = True
                    elif d == "]":
                        in_class = False
                    elif d == "/" and not in_class:
                        break
                    j += 1
                j += 1
                while j < n and (text[j].isalnum() or text[j] == "_"):
                    j += 1   # the flags
                out.append(text[i:j])
                i = j
                last = "/"
                continue
        if braces and c == "{":
            braces[-1] += 1
        elif braces and c == "}":
            if braces[-1] == 0:
                braces.pop()
                out.append("}")
                i = template(i + 1)
                last = "`"
                continue
            braces[-1] -= 1
        out.append(c)
        if c not in " \t":
            last = c
        i += 1
    return "".join(out).strip("\n") + "\n"

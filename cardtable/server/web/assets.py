"""The page's files under names that change with their content, kept a year, sent compressed.

On a slow link each request costs a round trip, and each byte its share of the bandwidth.
So the page (``index.html``) is answered afresh every time and names its files by their
content's hash: ``/assets/app.<hash>.js`` (every module ``app.js`` imports, one file: see
``jsbundle``), ``/assets/style.<hash>.css``, ``/assets/favicon.<hash>.svg``.  A file under
such a name never changes, so the browser keeps it for a year without asking
(``immutable``); a new version of the page names new files.  Each file is compressed once
(gzip, level 9) when it is made, and sent compressed to a browser that accepts it.

Each language's words but English's (which the first script holds) are a bundle of their
own too, ``/assets/words-fa.<hash>.js``, named by the page's ``<meta name="cardtable-words"
data-lang="fa">`` (from the folder the page's one such ``<meta>`` names): frame.js starts
the download of the reader's language with the page, and the other languages are fetched
when the reader picks one.  A reader compiles one language's words, not four.  A first
visit's page (below) holds the words of the first language its browser asks for
(``Accept-Language``) beside the script: a Persian reader's first visit costs no round
trip more than an English one's.

The screens neither the lobby nor a table shows (history, replay, analysis, lessons,
puzzles, account pages) are a bundle of their own, ``/assets/later.<hash>.js``, named by
the page's ``<meta name="cardtable-later">`` and fetched by the page when one is first
opened: without the modules the first bundle already has.

A module script marked ``data-inline`` (the frame's, a few kilobytes) goes into the page
itself, so the header speaks the reader's language without a request of its own; so does
a style sheet marked ``data-inline`` (the header is drawn with the page's first bytes,
not a round trip later).  The page's Content-Security-Policy names their hashes.

A first visit costs two round trips before the lobby can be used: the page, then its
script.  So a browser that has not got this version's script yet (it sends no
``cardtable_assets`` cookie naming it) is sent :attr:`Page.first`, the page with the
script inside it: one round trip.  Its script tag says the script's name
(``data-script``); once the service worker keeps that file on the device, the page sets
the cookie, and the next visit gets the short page that names the script (taken from the
device).  A browser with no service worker never sets it, and gets the script inside.

There is no build step: the files are made when the server starts and made again when
one of ``static/`` changes (checked at most once a second, when the page is asked for).
If the modules cannot be bundled (:class:`jsbundle.BundleError`), the page is served as
plain modules, each preloaded (``pagefiles``), and a warning says why.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> (root / "js").mkdir()
>>> _ = (root / "index.html").write_text(
...     '<link rel="stylesheet" href="/style.css"><script type="module" src="/js/app.js"></script>')
>>> _ = (root / "style.css").write_text("body { margin: 0 }")
>>> _ = (root / "js" / "app.js").write_text("export const x = 1;")
>>> page = build(root)
>>> print(page.html.decode().replace("><", ">\\n<"))
<link rel="stylesheet" href="/assets/style.997faceca2.css">
<script type="module" src="/assets/app.5ba3d036fc.js">
</script>
>>> page.files["style.997faceca2.css"].body
b'body { margin: 0 }'
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from fastapi.responses import Response

from .headers import POLICY
from .jsbundle import BundleError, bundle, modules_of

__all__ = ["FOREVER", "Asset", "Page", "PageAssets", "build"]

log = logging.getLogger(__name__)

FOREVER = "public, max-age=31536000, immutable"
"""A file whose name is its content's hash: kept a year, never asked for again."""

TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json",
         ".webmanifest": "application/manifest+json"}

LINKED = re.compile(r'(?P<attr>\b(?:href|src))="(?P<url>/[^"#?]+)"')
MODULE = re.compile(r'<script type="module" src="(?P<url>/js/[^"]+\.js)"(?P<inline> data-inline)?>'
                    r"</script>")
STYLE = re.compile(r'<link rel="stylesheet" href="(?P<url>/[^"]+\.css)" data-inline>')
LATER = re.compile(r'<meta name="cardtable-later" content="(?P<url>/js/[^"]+\.js)">')
WORDS = re.compile(r'<meta name="cardtable-words" content="(?P<url>/js/[^"]+/)">')
PRELOAD = re.compile(r'(?P<indent>[ \t]*)<link rel="modulepreload" href="(?P<url>/js/[^"]+)">\n?')


@dataclass
class Asset:
    """One file as sent: its bytes, the same gzipped (None when that is no smaller), and
    brotli's, once :meth:`squeeze` has made them (seconds for the script: done beside the
    server's work, gzip meanwhile)."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str
    brotli: bytes | None = None

    def squeeze(self) -> None:
        """Make the brotli bytes (quality 11), when the ``brotli`` package is installed."""
        try:
            import brotli
        except ImportError:
            return
        packed: bytes = brotli.compress(self.body, quality=11)
        if len(packed) < len(self.gzipped or self.body):
            self.brotli = packed

    @classmethod
    def of(cls, body: bytes, media_type: str) -> Asset:
        packed = gzip.compress(body, 9, mtime=0)
        return cls(body, packed if len(packed) < len(body) else None, media_type,
                   '"' + hashlib.sha256(body).hexdigest()[:32] + '"')

    def response(self, accept_encoding: str | None, cache: str,
                 if_none_match: str | None = None,
                 more: dict[str, str] | None = None) -> Response:
        """This file for a request: 304 if the browser's copy matches, gzipped if it may."""
        headers = {"Cache-Control": cache, "ETag": self.etag, "Vary": "Accept-Encoding",
                   **(more or {})}
        if if_none_match and self.etag in [tag.strip() for tag in if_none_match.split(",")]:
            return Response(status_code=304, headers=headers)
        if self.brotli is not None and accepts(accept_encoding, "br"):
            headers["Content-Encoding"] = "br"
            return Response(self.brotli, media_type=self.media_type, headers=headers)
        if self.gzipped is not None and accepts(accept_encoding, "gzip"):
            headers["Content-Encoding"] = "gzip"
            return Response(self.gzipped, media_type=self.media_type, headers=headers)
        return Response(self.body, media_type=self.media_type, headers=headers)


def accepts(header: str | None, coding: str) -> bool:
    """Whether an Accept-Encoding header takes ``coding`` (and does not refuse it with q=0).

    >>> accepts("gzip, deflate, br", "br"), accepts("br;q=0, gzip", "br"), accepts(None, "gzip")
    (True, False, False)
    """
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in (coding, "*"):
            return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


@dataclass(frozen=True)
class Page:
    """The page and its files, made from one state of ``static/``."""

    html: bytes
    files: dict[str, Asset]
    """By the name under ``/assets/``."""
    worker: Asset | None = None
    """``sw.js`` told this version and its files (None when ``static/`` has none)."""
    inline: tuple[tuple[str, str], ...] = ()
    """("script-src" or "style-src", the hash of a script or style sheet in the page)."""
    first: bytes | None = None
    """The page with its script inside (no request of its own): for a first visit."""
    first_in: tuple[tuple[str, bytes], ...] = ()
    """(language, the first visit's page with that language's words inside too): for a
    first visit whose browser asks for that language first (Accept-Language)."""
    script: str = ""
    """The script's name under ``/assets/``: the cookie of a browser that has it."""
    words: tuple[tuple[str, str], ...] = ()
    """(language, the hash of its words as its first visit's page holds them)."""

    @property
    def policy(self) -> str:
        """The site's Content-Security-Policy, letting in the page's own inline parts."""
        return self.policy_for(None)

    def policy_for(self, lang: str | None) -> str:
        """The policy of the page sent with ``lang``'s words inside (None: no words inside):
        one language's words let in, not every language's."""
        inline = self.inline + tuple(("script-src", value)
                                     for said, value in self.words if said == lang)
        policy = POLICY
        for directive in ("script-src", "style-src"):
            hashes = "".join(f" '{value}'" for kind, value in inline if kind == directive)
            policy = policy.replace(f"{directive} 'self'", f"{directive} 'self'{hashes}")
        return policy

    @cached_property
    def document(self) -> Asset:
        """The page itself, ready to send (made once a version)."""
        return Asset.of(self.html, "text/html; charset=utf-8")

    @cached_property
    def first_document(self) -> Asset | None:
        """The page with its script inside, ready to send (None: no bundled script)."""
        return None if self.first is None else Asset.of(self.first, "text/html; charset=utf-8")

    @cached_property
    def first_documents(self) -> dict[str, Asset]:
        """The first visit's page with a language's words inside, by language, ready to send."""
        return {lang: Asset.of(html, "text/html; charset=utf-8") for lang, html in self.first_in}

    def first_for(self, lang: str) -> Asset | None:
        """The first visit's page for a reader of ``lang`` (its words inside, but English's,
        which the script holds)."""
        return self.first_documents.get(lang, self.first_document)


def _hashed(name: str, body: bytes) -> str:
    stem, dot, ext = name.rpartition(".")
    return f"{stem}.{hashlib.sha256(body).hexdigest()[:10]}{dot}{ext}"


def _digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def build(static: Path, head: str = "") -> Page:
    """The page of ``static/index.html`` and every file it names, hashed and compressed;
    ``head`` goes at the end of its ``<head>`` (data the page would otherwise ask for).

    Raises :class:`BundleError` when the modules cannot be bundled.
    """
    html = (static / "index.html").read_text(encoding="utf-8")
    files: dict[str, Asset] = {}
    inline: list[tuple[str, str]] = []

    def add(name: str, body: bytes) -> str:
        hashed = _hashed(name, body)
        suffix = "." + name.rpartition(".")[2]
        files[hashed] = Asset.of(body, TYPES.get(suffix, "application/octet-stream"))
        return "/assets/" + hashed

    bundled: dict[str, str] = {}
    spoken: dict[str, str] = {}   # a language's words' bundle, by language

    def module(match: re.Match[str]) -> str:
        entry = match["url"][len("/js/"):]
        script = bundle(static / "js", entry, strip=True)
        if match["inline"]:
            if "</script" in script.lower():
                raise BundleError(f"{match['url']}: cannot go inline (holds </script)")
            text = "\n" + script
            inline.append(("script-src", _digest(text)))
            return f'<script type="module">{text}</script>'
        name = entry.rpartition("/")[2]
        url = bundled[match["url"]] = add(name, script.encode())
        return f'<script type="module" src="{url}"></script>'

    def preload(match: re.Match[str]) -> str:
        # a bundle's own preload stays (its download starts early); a module's goes
        url = bundled.get(match["url"])
        return f'{match["indent"]}<link rel="modulepreload" href="{url}">\n' if url else ""

    html = MODULE.sub(module, html)
    html = PRELOAD.sub(preload, html)

    def later(match: re.Match[str]) -> str:
        # the screens the page opens by name when first needed (not before the first paint)
        entry = match["url"][len("/js/"):]
        done = frozenset(module.path for module in modules_of(static / "js", "app.js"))
        script = bundle(static / "js", entry, strip=True, skip=done)
        url = add(entry.rpartition("/")[2], script.encode())
        return f'<meta name="cardtable-later" content="{url}">'

    def words(match: re.Match[str]) -> str:
        # each language's words apart (but those the first script has: English's)
        folder = match["url"][len("/js/"):]
        done = frozenset(module.path for module in modules_of(static / "js", "app.js"))
        named = []
        for source in sorted((static / "js" / folder).glob("*.js")):
            if f"/js/{folder}{source.name}" in done:
                continue
            script = bundle(static / "js", folder + source.name, strip=True, skip=done)
            url = add(f"words-{source.name}", script.encode())
            spoken[source.stem] = script
            named.append(f'<meta name="cardtable-words" data-lang="{source.stem}" content="{url}">')
        return "\n  ".join(named)

    if "/js/app.js" in bundled:
        html = LATER.sub(later, html)
        html = WORDS.sub(words, html)

    def style(match: re.Match[str]) -> str:
        text = "\n" + (static / match["url"].lstrip("/")).read_text(encoding="utf-8")
        if "</style" in text.lower():
            raise BundleError(f"{match['url']}: cannot go inline (holds </style)")
        inline.append(("style-src", _digest(text)))
        return f"<style>{text}</style>"

    html = STYLE.sub(style, html)
    if head:
        at = html.find("</head>")
        html = html[:at] + head + html[at:] if at >= 0 else html

    def linked(match: re.Match[str]) -> str:
        url = match["url"]
        file = static / url.lstrip("/")
        if url.startswith("/assets/") or not file.is_file() or file.suffix == ".html":
            return match[0]
        return f'{match["attr"]}="{add(file.name, file.read_bytes())}"'

    html = LINKED.sub(linked, html)
    body = html.encode()
    first, script = _first_visit(html, bundled, files, inline)
    first_in: list[tuple[str, bytes]] = []
    hashed: list[tuple[str, str]] = []   # each language's words, as their pages hold them
    if first is not None:
        for lang, said in spoken.items():
            text = "\n" + said
            if "</script" in text.lower():
                continue   # this language's readers fetch their words (frame.js)
            hashed.append((lang, _digest(text)))
            # before the page's script: module scripts run in their order in the page
            at = first.find(b'<script type="module" data-script=')
            tag = f'<script type="module" data-words="{lang}">{text}</script>\n'.encode()
            first_in.append((lang, first[:at] + tag + first[at:]))
    return Page(body, files, worker=_worker(static, body, files), inline=tuple(inline),
                first=first, script=script, first_in=tuple(first_in), words=tuple(hashed))


def _first_visit(html: str, bundled: dict[str, str], files: dict[str, Asset],
                 inline: list[tuple[str, str]]) -> tuple[bytes | None, str]:
    """The page with the app's script inside it instead of named (and the script's name),
    or ``(None, "")`` when the page names no bundled script or it cannot go inline."""
    url = bundled.get("/js/app.js")
    if url is None:
        return None, ""
    name = url[len("/assets/"):]
    text = "\n" + files[name].body.decode()
    tag = f'<script type="module" src="{url}"></script>'
    if "</script" in text.lower() or tag not in html:
        return None, ""
    inline.append(("script-src", _digest(text)))
    html = html.replace(f'<link rel="modulepreload" href="{url}">\n', "").replace(tag, "")
    # at the end of the body: the header is drawn from the page's first bytes, while the
    # script's arrive (a module script runs once the page is read, wherever it stands)
    inside = f'<script type="module" data-script="{name}">{text}</script>\n'
    at = html.rfind("</body>")
    html = html[:at] + inside + html[at:] if at >= 0 else html + inside
    return html.encode(), name


def _worker(static: Path, html: bytes, files: dict[str, Asset]) -> Asset | None:
    """``static/sw.js`` with this version's name and the files it keeps on the device."""
    source = static / "sw.js"
    if not source.is_file():
        return None
    text = source.read_text(encoding="utf-8")
    version = hashlib.sha256(html).hexdigest()[:16]
    shell = json.dumps(["/", *sorted("/assets/" + name for name in files)])
    text, versions = re.subn(r'^const VERSION = "[^"]*";$', f'const VERSION = "{version}";',
                             text, count=1, flags=re.M)
    text, shells = re.subn(r"^const SHELL = \[.*?\];$", f"const SHELL = {shell};", text,
                           count=1, flags=re.M)
    if versions != 1 or shells != 1:
        raise BundleError("sw.js has no VERSION or SHELL line for the server to fill")
    return Asset.of(text.encode(), TYPES[".js"])


def _squeeze(files: list[Asset]) -> None:
    for one in files:
        one.squeeze()


class PageAssets:
    """The current :class:`Page` of a ``static/`` folder, made again when a file changes."""

    def __init__(self, static: Path, recheck: float = 1.0,
                 head: Callable[[], str] | None = None) -> None:
        self.static = static
        self.head = head
        self.recheck = recheck
        self._lock = threading.Lock()
        self._page: Page | None = None
        self._stamp: tuple[float, int] | None = None
        self._checked = float("-inf")
        self._broken: str | None = None
        self._kept: dict[str, Asset] = {}

    def _state(self) -> tuple[float, int]:
        times = [path.stat().st_mtime for path in self.static.rglob("*") if path.is_file()]
        return (max(times, default=0.0), len(times))

    def page(self) -> Page | None:
        """The page, or None if it cannot be bundled (then serve the plain modules)."""
        now = time.monotonic()
        with self._lock:
            if now - self._checked >= self.recheck:
                self._checked = now
                stamp = self._state()
                if stamp != self._stamp:
                    self._stamp = stamp
                    try:
                        page = build(self.static, self.head() if self.head else "")
                        # the first visit's page first: once the script is squeezed, so is it
                        squeezing = [*([page.first_document] if page.first_document else []),
                                     *page.first_documents.values(),
                                     *page.files.values(), page.document]
                        if page.worker is not None:
                            squeezing.append(page.worker)
                        threading.Thread(target=_squeeze, args=(squeezing,),
                                         name="page-brotli", daemon=True).start()
                        # the files of the version before stay reachable: a page loaded
                        # just before a change still finds its script
                        before = self._page.files if self._page else {}
                        self._page, self._broken = page, None
                        self._kept = {**before, **page.files}
                    except BundleError as error:
                        if str(error) != self._broken:
                            log.warning("the page's modules are served unbundled: %s", error)
                        self._page, self._broken = None, str(error)
            return self._page

    def file(self, name: str) -> Asset | None:
        """A file under ``/assets/`` by its hashed name, from this or an earlier version."""
        self.page()
        return self._kept.get(name)

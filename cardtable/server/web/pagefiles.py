"""The page's files as a browser should fetch them: every module preloaded, and every
file with a validator so that a page opened again costs a round of 304s, not bytes.

The page's JavaScript modules import one another three levels deep; a browser finds the
next level only after the previous one has arrived.  ``page_html`` lists every module of
``js/`` as a ``<link rel="modulepreload">`` in the page's head, so they are all asked for
at once.  Files carry an ``ETag`` (the content's hash for the page, Starlette's for the
others) and ``Cache-Control: no-cache``: kept by the browser, checked each time (the
modules' names carry no hash, so they must not be taken from a cache unchecked).

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> (root / "js").mkdir()
>>> _ = (root / "index.html").write_text("<html><head><title>x</title></head></html>")
>>> _ = (root / "js" / "app.js").write_text("export {};")
>>> print(page_html(root).decode())
<html><head><title>x</title>
<link rel="modulepreload" href="/js/app.js">
</head></html>
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope

from .accounts import page_language
from .assets import FOREVER, Asset, PageAssets

__all__ = ["CACHE", "SCRIPT_COOKIE", "PageFiles", "page_html", "page_response", "router"]

SCRIPT_COOKIE = "cardtable_assets"
"""Names the page's script the device keeps (set by the page, js/app.js): a visit with it
gets the short page that names the script (``assets``)."""

CACHE = "no-cache"
"""Keep, but ask again (with the ETag) before using: the files' names have no hash."""


def modules(static: Path) -> list[str]:
    """Every JavaScript module of the page, as its URL path, in a stable order."""
    folder = static / "js"
    if not folder.is_dir():
        return []
    return sorted("/" + path.relative_to(static).as_posix() for path in folder.rglob("*.js"))


def page_html(static: Path) -> bytes:
    """index.html with a modulepreload link per module just before ``</head>``."""
    html = (static / "index.html").read_text(encoding="utf-8")
    links = "".join(f'<link rel="modulepreload" href="{url}">\n' for url in modules(static))
    at = html.find("</head>")
    if at < 0 or not links:
        return html.encode()
    return (html[:at] + "\n" + links + html[at:]).encode()


def page_response(static: Path, if_none_match: str | None) -> Response:
    """The page (at / and at every invite link): 304 when the browser's copy is current."""
    body = page_html(static)
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": CACHE}
    if if_none_match and etag in [tag.strip() for tag in if_none_match.split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="text/html", headers=headers)


class PageFiles(StaticFiles):
    """Starlette's static files (ETag, Last-Modified, 304 on If-None-Match), told to be
    checked again before each use."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = CACHE
        return response


router = APIRouter(include_in_schema=False)
"""The page, at ``/`` and at a table's invitation ``/table/{id}`` (the app's ``static``)."""


@router.get("/")
async def index(request: Request) -> Response:
    return _page(request.app.state.static, request)


@router.get("/table/{table_id}")
async def invite(table_id: str, request: Request) -> Response:
    return _page(request.app.state.static, request)


def page_files(request: Request) -> PageAssets:
    """The app's page and its files (made by ``create_app``)."""
    files: PageAssets = request.app.state.page_files
    return files


@router.get("/assets/{name}")
async def asset(name: str, request: Request) -> Response:
    """A file of the page under its content's name (``assets``): kept a year."""
    found = page_files(request).file(name)
    if found is None:
        return JSONResponse(status_code=404, content={"detail": "no such file",
                                                      "code": "not_found"})
    return found.response(request.headers.get("accept-encoding"), FOREVER,
                          request.headers.get("if-none-match"))


@router.get("/sw.js")
async def worker(request: Request) -> Response:
    """The service worker (``static/sw.js`` told this version's files): checked each time,
    so that a new version of the page replaces the kept one."""
    page = page_files(request).page()
    source = request.app.state.static / "sw.js"
    if page is not None and page.worker is not None:
        found = page.worker
    elif source.is_file():
        found = Asset.of(source.read_bytes(), "text/javascript; charset=utf-8")
    else:
        return JSONResponse(status_code=404, content={"detail": "no such file",
                                                      "code": "not_found"})
    return found.response(request.headers.get("accept-encoding"), CACHE,
                          request.headers.get("if-none-match"))


MANIFEST_WORDS = {
    "en": ("Pasur and Transfer Durak with friends and bots", "ltr"),
    "pt": ("Pasur e Durak de transferência com amigos e bots", "ltr"),
    "fa": ("پاسور و دوراکِ انتقالی با دوستان و ربات‌ها", "rtl"),
    "ru": ("Пасур и переводной дурак с друзьями и ботами", "ltr"),
}
"""The installed app's description in each language (the frame's tagline, js/lang/frame.js)."""


def manifest(lang: str) -> dict[str, object]:
    """The web app manifest in ``lang`` (English for a language the page does not speak).

    >>> manifest("fa")["dir"], manifest("xx")["lang"], manifest("ru")["short_name"]
    ('rtl', 'en', 'cardtable')
    """
    lang = lang if lang in MANIFEST_WORDS else "en"
    description, direction = MANIFEST_WORDS[lang]
    return {
        "name": "cardtable", "short_name": "cardtable", "description": description,
        "lang": lang, "dir": direction, "id": "/", "start_url": "/", "scope": "/",
        "display": "standalone", "background_color": "#1d6b45", "theme_color": "#1d6b45",
        "icons": [{"src": "/favicon.svg", "sizes": "any", "type": "image/svg+xml",
                   "purpose": "any"}],
    }


@router.get("/manifest.webmanifest")
async def web_manifest(lang: str = "en") -> Response:
    """What a phone needs to install the page as an app, in the reader's language."""
    return JSONResponse(manifest(lang[:8]), media_type="application/manifest+json",
                        headers={"Cache-Control": "public, max-age=86400"})


def _page(static: Path, request: Request) -> Response:
    index = static / "index.html"
    if not index.is_file():
        return JSONResponse(status_code=404, content={
            "detail": "the web page is not installed (cardtable/server/static/index.html)",
            "code": "not_found"})
    page = page_files(request).page()
    if page is None:
        return page_response(static, request.headers.get("if-none-match"))
    more = {"Content-Security-Policy": page.policy,
            "Vary": "Accept-Encoding, Cookie, Accept-Language"}
    lang = page_language(request)
    first = page.first_for(lang)
    if first is not None and request.cookies.get(SCRIPT_COOKIE) != page.script:
        # a browser without this version's script on the device: the page with the script
        # (and its reader's words) inside: one round trip, not two; the page sets the cookie
        # once it keeps the file
        more["Content-Security-Policy"] = page.policy_for(lang)
        return first.response(request.headers.get("accept-encoding"), CACHE,
                              request.headers.get("if-none-match"), more)
    return page.document.response(request.headers.get("accept-encoding"), CACHE,
                                  request.headers.get("if-none-match"), more)

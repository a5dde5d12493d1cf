"""The page: served from cardtable/server/static with the right types, at / and /table/{id}."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from cardtable.server import create_app
from cardtable.server.web.app import STATIC
from cardtable.server.web.pagefiles import page_html


def make_page(folder: Path) -> None:
    (folder / "js").mkdir(parents=True)
    (folder / "index.html").write_text("<!doctype html><title>cardtable</title>")
    (folder / "js" / "app.js").write_text("export const x = 1;\n")
    (folder / "style.css").write_text("body { margin: 0 }\n")


def test_the_page_is_served_at_the_root_and_at_invite_links(tmp_path: Path) -> None:
    make_page(tmp_path / "static")
    with TestClient(create_app(data_dir=tmp_path / "data",
                               static_dir=tmp_path / "static")) as client:
        for path in ("/", "/table/AbCdEf12"):
            response = client.get(path)
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/html")
            assert "<title>cardtable</title>" in response.text


def test_javascript_modules_and_styles_have_their_types(tmp_path: Path) -> None:
    make_page(tmp_path / "static")
    with TestClient(create_app(data_dir=tmp_path / "data",
                               static_dir=tmp_path / "static")) as client:
        script = client.get("/js/app.js")
        assert script.status_code == 200
        assert script.headers["content-type"].startswith("text/javascript")
        assert client.get("/style.css").headers["content-type"].startswith("text/css")
        assert client.get("/js/missing.js").status_code == 404
        assert client.get("/api/health").json()["status"] == "ok"


def test_without_a_page_the_root_says_so_and_the_api_still_works(tmp_path: Path) -> None:
    with TestClient(create_app(data_dir=tmp_path / "data",
                               static_dir=tmp_path / "nothing")) as client:
        response = client.get("/")
        assert response.status_code == 404
        assert "not installed" in response.json()["detail"]
        assert client.get("/api/games").status_code == 200


def test_by_default_the_page_of_the_package_is_served(tmp_path: Path) -> None:
    page = STATIC / "index.html"
    assert page.is_file(), "cardtable/server/static/index.html is missing"
    with TestClient(create_app(data_dir=tmp_path / "data")) as client:
        served = client.get("/").text
        assert served == page_html(STATIC).decode()
        # the page itself, with the preload links added in its head
        unlinked = re.sub(r'\n(<link rel="modulepreload" href="[^"]+">\n)+</head>', "</head>",
                          served)
        assert unlinked == page.read_text(encoding="utf-8")


def test_every_module_of_the_page_is_preloaded(tmp_path: Path) -> None:
    """The modules load at once, not three levels one after another."""
    with TestClient(create_app(data_dir=tmp_path / "data")) as client:
        html = client.get("/table/AbCdEf12").text
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    on_disk = {"/" + p.relative_to(STATIC).as_posix() for p in (STATIC / "js").rglob("*.js")}
    assert on_disk and preloaded == on_disk
    assert {"/js/app.js", "/js/table.js", "/js/lang/ru.js"} <= preloaded


def test_files_carry_validators_and_answer_304_when_unchanged(tmp_path: Path) -> None:
    make_page(tmp_path / "static")
    with TestClient(create_app(data_dir=tmp_path / "data",
                               static_dir=tmp_path / "static")) as client:
        for path in ("/", "/js/app.js", "/style.css"):
            first = client.get(path)
            assert first.status_code == 200
            assert first.headers["cache-control"] == "no-cache"
            etag = first.headers["etag"]
            again = client.get(path, headers={"If-None-Match": etag})
            assert again.status_code == 304 and again.content == b""
            other = client.get(path, headers={"If-None-Match": '"something-else"'})
            assert other.status_code == 200 and other.content == first.content
        # a changed file has a new tag, so a browser's copy is not used
        old = client.get("/js/app.js").headers["etag"]
        (tmp_path / "static" / "js" / "app.js").write_text("export const x = 22;\n")
        assert client.get("/js/app.js", headers={"If-None-Match": old}).status_code == 200

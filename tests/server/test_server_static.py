"""The page: served from cardtable/server/static with the right types, at / and /table/{id}."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cardtable.server import create_app
from cardtable.server.web.app import STATIC
from cardtable.server.web.assets import _digest, build
from cardtable.server.web.jsbundle import modules_of
from cardtable.server.web.pagefiles import SCRIPT_COOKIE


def short_page(client: TestClient, path: str = "/") -> Any:
    """The page a returning browser gets (its device keeps the script: the page names it),
    after the first visit's page with the script inside when this client had not the
    cookie the page sets then."""
    answer = client.get(path)
    inside = re.search(r'<script type="module" data-script="([^"]+)">', answer.text)
    if not inside:
        return answer
    client.cookies.set(SCRIPT_COOKIE, inside.group(1))
    return client.get(path)


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
        served = short_page(client).text
        games = client.get("/api/games").json()
    # the page itself, its files under their hashed names and its modules in one script,
    # with the games the lobby offers as /api/games gives them
    carried = re.search(r'<script type="application/json" id="games-data">(.*?)</script>',
                        served, re.S)
    assert carried and json.loads(carried.group(1)) == games
    assert served == build(STATIC, carried.group(0) + "\n").html.decode()
    assert served.startswith(page.read_text(encoding="utf-8")[:200])
    # the style sheet inside it (the header is drawn with the page's first bytes)
    assert "<style>" in served and 'href="/style.css"' not in served
    assert (STATIC / "style.css").read_text(encoding="utf-8") in served
    # one preload: the script's own (its download starts with the page's first bytes)
    assert len(re.findall(r'<link rel="modulepreload" href="/assets/app\.[0-9a-f]{10}\.js">',
                          served)) == 1
    assert 'href="/js/' not in served and 'src="/js/' not in served


def test_a_first_visit_gets_the_script_inside_the_page(tmp_path: Path) -> None:
    """One round trip, not two, for a browser whose device has not got this version's
    script: the page carries it (its hash in the policy, its name beside it); once the
    page's cookie names the script, the short page that names the script is sent; a new
    version's script goes inside again."""
    make_page(tmp_path / "static")
    static = tmp_path / "static"
    (static / "index.html").write_text(
        '<!doctype html><head><link rel="modulepreload" href="/js/app.js">\n'
        '<script type="module" src="/js/app.js"></script></head>')
    with TestClient(create_app(data_dir=tmp_path / "data", static_dir=static)) as client:
        first = client.get("/")
        assert "x = 1;" in first.text and "/assets/app." not in first.text
        assert "Cookie" in first.headers["vary"] and "set-cookie" not in first.headers
        inside = re.search(r'<script type="module" data-script="(app\.[0-9a-f]{10}\.js)">'
                           r"(.*?)</script>", first.text, re.S)
        assert inside and _digest(inside.group(2)) in first.headers["content-security-policy"]
        assert client.get("/").text == first.text   # no cookie yet: the script inside again
        client.cookies.set(SCRIPT_COOKIE, "app.0000000000.js")   # an old version's
        assert client.get("/").text == first.text
        client.cookies.set(SCRIPT_COOKIE, inside.group(1))
        again = client.get("/")
        assert f'<script type="module" src="/assets/{inside.group(1)}">' in again.text
        assert "x = 1;" not in again.text
        assert "x = 1;" in client.get(f"/assets/{inside.group(1)}").text
        # a new version: its script is new to every device, so it goes inside again
        (static / "js" / "app.js").write_text("export const x = 22;\n")
        later = time.monotonic() + 5
        while time.monotonic() < later and "x = 22" not in (newer := client.get("/")).text:
            time.sleep(0.2)
        assert "/assets/app." not in newer.text and "x = 22" in newer.text


def test_the_page_is_a_handful_of_requests(tmp_path: Path) -> None:
    """Every module app.js imports arrives in one file; the frame's are in the page."""
    with TestClient(create_app(data_dir=tmp_path / "data")) as client:
        html = short_page(client, "/table/AbCdEf12").text
        # what the browser fetches (links to other screens aside)
        named = re.findall(r'<(?:link|script)[^>]*(?:href|src)="(/[^"]*)"', html)
        scripts = re.findall(r'<script type="module" src="(/assets/app\.[0-9a-f]{10}\.js)">', html)
        assert len(scripts) == 1 and len(named) <= 4, named
        script = client.get(scripts[0])
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    reached = {module.path for module in modules_of(STATIC / "js", "app.js")}
    assert {"/js/app.js", "/js/table.js", "/js/lang/en.js", "/js/cards.js"} <= reached
    for path in reached:
        assert f'__modules.set("{path}",' in script.text
    # the frame (its words, the page's direction) runs from the page itself
    assert '__modules.set("/js/frame.js",' in html and "drawFrame(reader);" in html


def test_hashed_files_are_kept_a_year_and_sent_compressed(tmp_path: Path) -> None:
    make_page(tmp_path / "static")
    (tmp_path / "static" / "index.html").write_text(
        '<!doctype html><head><link rel="stylesheet" href="/style.css">'
        '<script type="module" src="/js/app.js"></script></head>' + "<p>words</p>" * 50)
    with TestClient(create_app(data_dir=tmp_path / "data",
                               static_dir=tmp_path / "static")) as client:
        html = short_page(client).text
        urls = re.findall(r'"(/assets/[^"]+)"', html)
        assert len(urls) == 2   # the style sheet and the script
        for url in urls:
            zipped = client.get(url, headers={"Accept-Encoding": "gzip"})
            assert zipped.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert zipped.headers["vary"] == "Accept-Encoding"
            plain = client.get(url, headers={"Accept-Encoding": "identity"})
            assert "content-encoding" not in plain.headers
            assert zipped.content == plain.content   # the client undid the gzip
        # the page itself is asked for every time
        page = client.get("/", headers={"Accept-Encoding": "gzip"})
        assert page.headers["cache-control"] == "no-cache"
        assert page.headers["content-encoding"] == "gzip"
        assert client.get("/assets/app.0000000000.js").status_code == 404
        # a changed module makes a new script under a new name; the old one stays reachable
        (tmp_path / "static" / "js" / "app.js").write_text("export const x = 22;\n")
        later = time.monotonic() + 5
        while time.monotonic() < later and short_page(client).text == html:
            time.sleep(0.2)
        new_urls = re.findall(r'"(/assets/[^"]+)"', short_page(client).text)
        assert new_urls[0] == urls[0] and new_urls[1] != urls[1]
        assert "22" in client.get(new_urls[1]).text
        assert client.get(urls[1]).status_code == 200


def test_modules_the_bundle_cannot_read_are_served_one_by_one(tmp_path: Path) -> None:
    make_page(tmp_path / "static")
    (tmp_path / "static" / "index.html").write_text(
        '<!doctype html><head><script type="module" src="/js/app.js"></script></head>')
    (tmp_path / "static" / "js" / "app.js").write_text('import { y } from "./b.js";\n')
    (tmp_path / "static" / "js" / "b.js").write_text('import { x } from "./app.js";\n')
    with TestClient(create_app(data_dir=tmp_path / "data",
                               static_dir=tmp_path / "static")) as client:
        html = short_page(client).text
    assert '<script type="module" src="/js/app.js">' in html
    assert '<link rel="modulepreload" href="/js/b.js">' in html


def test_files_carry_validators_and_answer_304_when_unchanged(tmp_path: Path) -> None:
    make_page(tmp_path / "static")
    with TestClient(create_app(data_dir=tmp_path / "data",
                               static_dir=tmp_path / "static")) as client:
        for path in ("/", "/js/app.js", "/style.css"):
            first = short_page(client, path)
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


def test_the_service_worker_keeps_this_versions_files(tmp_path: Path) -> None:
    make_page(tmp_path / "static")
    static = tmp_path / "static"
    (static / "index.html").write_text(
        '<!doctype html><head><link rel="icon" href="/favicon.svg">'
        '<script type="module" src="/js/app.js"></script></head>')
    (static / "favicon.svg").write_text("<svg></svg>")
    (static / "sw.js").write_text((STATIC / "sw.js").read_text(encoding="utf-8"))
    with TestClient(create_app(data_dir=tmp_path / "data", static_dir=static)) as client:
        named = set(re.findall(r'"(/assets/[^"]+)"', short_page(client).text))
        worker = client.get("/sw.js")
        assert worker.headers["cache-control"] == "no-cache"
        assert worker.headers["content-type"].startswith("text/javascript")
        kept = json.loads(re.search(r"^const SHELL = (.*);$", worker.text, re.M).group(1))
        assert kept[0] == "/" and set(kept[1:]) == named and len(named) == 2
        version = re.search(r'^const VERSION = "(\w+)";$', worker.text, re.M).group(1)
        assert version != "unbundled"
        # a new version of the page: a new worker, which replaces what the device keeps
        (static / "js" / "app.js").write_text("export const x = 3;\n")
        later = time.monotonic() + 5
        while time.monotonic() < later and version in client.get("/sw.js").text:
            time.sleep(0.2)
        assert version not in client.get("/sw.js").text


def test_the_script_is_sent_in_brotli_once_it_is_made(tmp_path: Path) -> None:
    """Brotli at its best takes seconds for the script: made beside the server's work, gzip
    meanwhile; then a browser that takes br gets fewer bytes, the same text."""
    with TestClient(create_app(data_dir=tmp_path / "data")) as client:
        script = re.search(r'src="(/assets/app\.[0-9a-f]{10}\.js)"', short_page(client).text)
        assert script
        plain = client.get(script.group(1), headers={"Accept-Encoding": "identity"})
        gzipped = client.get(script.group(1), headers={"Accept-Encoding": "gzip"})
        assert gzipped.headers["content-encoding"] == "gzip"
        later = time.monotonic() + 60
        while True:
            squeezed = client.get(script.group(1), headers={"Accept-Encoding": "gzip, br"})
            if squeezed.headers.get("content-encoding") == "br" or time.monotonic() > later:
                break
            time.sleep(0.5)
        assert squeezed.headers["content-encoding"] == "br"
        assert squeezed.content == plain.content   # the client undid the brotli
        assert int(squeezed.headers["content-length"]) < int(gzipped.headers["content-length"])


def test_the_screens_a_table_does_not_show_come_in_a_second_file(tmp_path: Path) -> None:
    """The page names the later screens' bundle (fetched when one is first opened): it
    holds those screens and none of the first script's modules, and the first script has
    none of them."""
    with TestClient(create_app(data_dir=tmp_path / "data")) as client:
        html = short_page(client).text
        named = re.search(
            r'<meta name="cardtable-later" content="(/assets/later\.[0-9a-f]{10}\.js)">', html)
        first = re.search(r'<script type="module" src="(/assets/app\.[0-9a-f]{10}\.js)">', html)
        assert named and first
        later = client.get(named.group(1))
        script = client.get(first.group(1)).text
    assert later.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert later.headers["content-type"].startswith("text/javascript")
    set_in = re.compile(r'__modules\.set\("([^"]+)",')
    in_later, in_first = set(set_in.findall(later.text)), set(set_in.findall(script))
    assert {"/js/later.js", "/js/history.js", "/js/analysis.js", "/js/lesson.js"} <= in_later
    assert {"/js/app.js", "/js/table.js", "/js/lobby.js", "/js/i18n.js"} <= in_first
    assert not in_later & in_first


def test_each_language_but_english_comes_in_a_file_of_its_own(tmp_path: Path) -> None:
    """The first script holds English's words and no other language's; the page names one
    bundle for each other language, holding its words only (a Persian reader fetches and
    compiles Persian's, not Russian's), none of the first script's modules."""
    with TestClient(create_app(data_dir=tmp_path / "data")) as client:
        html = short_page(client).text
        named = dict(re.findall(r'<meta name="cardtable-words" data-lang="(\w+)" '
                                r'content="(/assets/words-\w+\.[0-9a-f]{10}\.js)">', html))
        first = re.search(r'<script type="module" src="(/assets/app\.[0-9a-f]{10}\.js)">', html)
        assert first and sorted(named) == ["fa", "pt", "ru"], named
        script = client.get(first.group(1)).text
        words = {lang: client.get(url) for lang, url in named.items()}
    set_in = re.compile(r'__modules\.set\("([^"]+)",')
    in_first = set(set_in.findall(script))
    assert {"/js/i18n.js", "/js/lang/all/en.js", "/js/lang/en.js",
            "/js/lang/codes/en.js"} <= in_first
    assert not {path for path in in_first if re.search(r"/(pt|fa|ru)\.js$", path)}, in_first
    for lang, answer in words.items():
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert answer.headers["content-type"].startswith("text/javascript")
        in_words = set(set_in.findall(answer.text))
        assert {f"/js/lang/all/{lang}.js", f"/js/lang/{lang}.js", f"/js/lang/rules/{lang}.js",
                f"/js/lang/social/{lang}.js"} <= in_words
        assert all(path.endswith(f"/{lang}.js") for path in in_words), (lang, in_words)
        assert not in_words & in_first
    # a word only Persian has is in Persian's file, not in the first script
    assert "کارت" in words["fa"].text and "کارت" not in script


def test_a_first_visit_gets_its_readers_words_inside_the_page(tmp_path: Path) -> None:
    """A first visit's page holds the words of the first language the browser asks for
    (beside the script, before it, each let in by the page's policy): no round trip more
    for a Persian reader; an English reader's page holds none (the script has English)."""
    with TestClient(create_app(data_dir=tmp_path / "data")) as client:
        persian = client.get("/", headers={"Accept-Language": "de-DE, fa-IR;q=0.9, en;q=0.8"})
        english = client.get("/", headers={"Accept-Language": "en-GB"})
        russian = client.get("/", headers={"Accept-Language": "ru"})
    words = re.compile(r'<script type="module" data-words="(\w+)">(.*?)</script>', re.S)
    inside = words.findall(persian.text)
    assert [lang for lang, _ in inside] == ["fa"]
    assert _digest(inside[0][1]) in persian.headers["content-security-policy"]
    assert '__modules.set("/js/lang/all/fa.js",' in inside[0][1]
    assert persian.text.index('data-words="fa"') < persian.text.index("data-script=")
    assert "Accept-Language" in persian.headers["vary"]
    assert not words.findall(english.text) and "data-script=" in english.text
    assert [lang for lang, _ in words.findall(russian.text)] == ["ru"]

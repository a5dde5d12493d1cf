"""Every answer carries the headers that hold a browser to the page."""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server.web.app import STATIC
from cardtable.server.web.headers import POLICY


@pytest.fixture
def client(make_client: Any) -> TestClient:
    return make_client(static_dir=STATIC)   # the real page


@pytest.mark.parametrize("path", ["/", "/table/abc", "/api/health", "/api/tables/nosuch",
                                  "/js/app.js", "/nosuch.png"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    answer = client.get(path)
    # the page lets in its own inline script and style sheet by their hashes, nothing more
    assert re.sub(r" 'sha256-[A-Za-z0-9+/=]+'", "",
                  answer.headers["content-security-policy"]) == POLICY
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "same-origin"
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["cross-origin-opener-policy"] == "same-origin"
    # plain HTTP: a browser is not told to insist on TLS it has not seen
    assert "strict-transport-security" not in answer.headers


@pytest.mark.parametrize("language", ["en", "fa", "ru"])
def test_the_page_names_the_hash_of_each_inline_part_and_no_other(client: TestClient,
                                                                   language: str) -> None:
    # a first visit in Persian or Russian holds that language's words too, and its policy
    # lets in those words, not another language's
    answer = client.get("/", headers={"Accept-Language": language})
    assert ('<script type="module" data-words="' in answer.text) is (language != "en")
    rules = dict(rule.strip().split(" ", 1)
                 for rule in answer.headers["content-security-policy"].split(";"))

    def hashes(pattern: str) -> set[str]:
        return {"'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
                + "'" for text in re.findall(pattern, answer.text, re.S)}

    # the first visit's page carries its script too (a module with a data-script attribute)
    scripts = hashes(r"<script type=\"module\"[^>]*>(.*?)</script>")
    styles = hashes(r"<style>(.*?)</style>")
    assert scripts and styles
    assert set(rules["script-src"].split()) == {"'self'"} | scripts
    assert set(rules["style-src"].split()) == {"'self'"} | styles


def test_the_policy_allows_no_inline_script_and_no_framing() -> None:
    rules = dict(rule.strip().split(" ", 1) for rule in POLICY.split(";"))
    assert rules["script-src"] == "'self'" and "unsafe" not in POLICY
    assert rules["frame-ancestors"] == "'none'" and rules["object-src"] == "'none'"


def test_an_answer_over_tls_tells_the_browser_to_stay_on_it(client: TestClient) -> None:
    secure = TestClient(client.app, base_url="https://testserver")
    assert secure.get("/api/health").headers["strict-transport-security"].startswith(
        "max-age=")


def test_the_api_explorer_keeps_its_inline_script(client: TestClient) -> None:
    answer = client.get("/docs")
    assert answer.status_code == 200 and "content-security-policy" not in answer.headers
    assert answer.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize(("trusted", "told"), [(("--trusted-proxies", "127.0.0.1"), True),
                                               ((), False)])
def test_behind_a_trusted_tls_proxy_the_browser_is_told_to_stay_on_tls(
        tmp_path: Any, trusted: tuple[str, ...], told: bool) -> None:
    """A real server behind a proxy that ends TLS (``X-Forwarded-Proto: https``): HSTS only
    when that proxy is trusted; anyone else saying so is not believed."""
    import httpx
    from tablekit import server

    with server(tmp_path / "data", *trusted) as (_, base):
        answer = httpx.get(f"{base}/api/health", headers={"X-Forwarded-Proto": "https"})
    assert ("strict-transport-security" in answer.headers) is told
    assert answer.headers["content-security-policy"] == POLICY

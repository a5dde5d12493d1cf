"""Installable, and honest without a network: the page kept on the device opens offline
and says so in words; its manifest speaks the reader's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

OFFLINE = {"en-US": "You are offline", "ru-RU": "Нет связи"}


def test_the_page_opens_without_a_network_and_says_so(open_page: Any) -> None:
    for locale, words in OFFLINE.items():
        page = open_page("/", locale=locale)
        page.wait_for_selector("button.play-computer")
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        assert page.locator("#offline").count() == 0
        page.context.set_offline(True)
        page.reload()
        # the kept page and its script, from the device: the header, and why nothing loads
        banner = page.locator("#offline")
        banner.wait_for()
        assert banner.inner_text().startswith(words)
        assert page.locator("#header nav a").count() >= 4
        # a screen whose script comes apart (later.js), first opened now: from the device
        page.click('#header nav a[data-nav="history"]')
        page.wait_for_selector('body[data-screen="history"] main h2')
        # the network back: the banner goes by itself
        page.context.set_offline(False)
        page.wait_for_selector("#offline", state="detached")


def test_the_manifest_names_the_app_in_the_readers_language(open_page: Any,
                                                            server_url: str) -> None:
    page = open_page("/", locale="fa-IR")
    link = page.locator('link[rel="manifest"]')
    assert link.get_attribute("href") == "/manifest.webmanifest?lang=fa"
    persian = httpx.get(server_url + "/manifest.webmanifest?lang=fa").json()
    english = httpx.get(server_url + "/manifest.webmanifest").json()
    assert persian["dir"] == "rtl" and persian["lang"] == "fa"
    assert persian["description"] != english["description"]
    assert english["start_url"] == "/" and english["display"] == "standalone"
    icon = httpx.get(server_url + english["icons"][0]["src"])
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")


def test_a_first_visit_has_the_script_inside_and_a_return_visit_takes_it_from_the_device(
        open_page: Any) -> None:
    """One round trip on a first visit (the script inside the page); once the service
    worker keeps the script, a cookie says so and the next visit gets the page that names
    it, whose script comes from the device (no request reaches the network for it)."""
    page = open_page("/")
    page.wait_for_selector("button.play-computer")
    assert page.locator("script[data-script]").count() == 1
    assert page.locator('script[src^="/assets/app."]').count() == 0
    name = page.locator("script[data-script]").get_attribute("data-script")
    page.wait_for_function(f"() => document.cookie.includes('cardtable_assets={name}')")
    fetched: list[str] = []
    page.on("requestfinished", lambda request: fetched.append(request.url)
            if "/assets/" in request.url and request.response() is not None
            and not request.response().from_service_worker else None)
    page.reload()
    page.wait_for_selector("button.play-computer")
    assert page.locator(f'script[src="/assets/{name}"]').count() == 1
    assert page.locator("script[data-script]").count() == 0
    assert not [url for url in fetched if url.endswith(name)], fetched
    page.click("button.play-computer")
    page.wait_for_url("**/table/*")


def test_chromium_finds_the_page_installable(browser: Any, server_url: str,
                                             tmp_path: Path) -> None:
    """What Lighthouse's removed PWA audit "installable-manifest" asked Chromium (its 12th
    version dropped the PWA category): the manifest, its icons and the service worker make
    an installable app, by Chromium's own list of what is missing.  In a profile kept on
    disk, as a person's is (a test's usual context is incognito, never installable)."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path="/usr/bin/chromium",
        args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
    try:
        page = context.new_page()
        page.goto(server_url + "/")
        page.wait_for_selector("button.play-computer", timeout=20_000)
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
    finally:
        context.close()

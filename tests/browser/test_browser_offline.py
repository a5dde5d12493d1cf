"""Installable, and honest without a network: the page kept on the device opens offline
and says so in words; its manifest speaks the reader's language."""

from __future__ import annotations

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

"""Web Push on the page: with notifications allowed and a kind routed to push, opening the
inbox gives the service worker the words of each kind in the page's language, and a push
delivered to the worker (through the browser's DevTools protocol: headless Chromium has
no push service to subscribe with) is shown in them, filled with the notice's data."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browserkit import DESKTOP, serving
from test_browser_challenges import registered

from cardtable.server import create_app
from cardtable.server.core.vapid import new_keys

pytestmark = pytest.mark.browser

PERSIAN_CHALLENGE = "{from} شما را به {game} دعوت می‌کند"


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(data_dir=tmp_path_factory.mktemp("push-data"), bot_delay=0, grace=600,
                     register_per_address="1000/hour", guests_per_address="10000/hour",
                     vapid_private_key=new_keys()[0], vapid_subject="mailto:ops@cards.example")
    with serving(app) as url:
        yield url


def kept_words(page: Any) -> Any:
    return page.evaluate("""caches.open("cardtable.push-words")
        .then((cache) => cache.match("/push-words")).then((r) => (r ? r.json() : null))""")


def test_a_push_is_shown_in_the_pages_language(browser: Any, server_url: str) -> None:
    context = browser.new_context(locale="fa-IR", viewport=DESKTOP)
    try:
        context.grant_permissions(["notifications"], origin=server_url)
        page = context.new_page()
        page.goto(server_url + "/")
        registered(page, "parvin")
        routed = page.evaluate("""fetch("/api/social/settings", {method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({routes: {challenge: ["inbox", "push"]}})})
            .then((r) => r.status)""")
        assert routed == 200
        page.goto(server_url + "/#inbox")
        page.locator("#push").wait_for()   # the box: this server has its VAPID keys
        deadline = time.monotonic() + 20
        while (words := kept_words(page)) is None:
            assert time.monotonic() < deadline, "the worker was never given the words"
            page.wait_for_timeout(100)
        assert words["kinds"]["challenge"] == PERSIAN_CHALLENGE and words["dir"] == "rtl"
        # a push as people/push.py sends it, delivered to the page's service worker
        cdp = context.new_cdp_session(page)
        registrations: list[dict[str, Any]] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated",
               lambda event: registrations.extend(event["registrations"]))
        cdp.send("ServiceWorker.enable")
        deadline = time.monotonic() + 20
        while not registrations:
            assert time.monotonic() < deadline, "no service worker registration"
            page.wait_for_timeout(100)
        payload = {"title": "cardtable", "body": "anahita challenges you to durak",
                   "kind": "challenge", "url": "/#challenge/c1",
                   "data": {"from": "anahita", "game": "durak"}}
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": server_url, "registrationId": registrations[0]["registrationId"],
            "data": json.dumps(payload)})
        shown_js = """navigator.serviceWorker.ready.then((r) => r.getNotifications())
            .then((list) => list.map((n) => ({body: n.body, dir: n.dir, url: n.data.url})))"""
        deadline = time.monotonic() + 20
        while not (shown := page.evaluate(shown_js)):
            assert time.monotonic() < deadline, "the push was never shown"
            page.wait_for_timeout(100)
        assert shown[0]["body"].startswith("anahita شما را به ")
        # the game named as the page names it, not by its code
        assert shown[0]["body"].endswith(" دعوت می‌کند") and "durak" not in shown[0]["body"]
        assert shown[0]["dir"] == "rtl" and shown[0]["url"] == "/#challenge/c1"
    finally:
        context.close()

"""Helpers of the accessibility and legibility tests: a page seated at a table against a
bot, what axe-core finds, and the contrast of text as the browser drew it."""

from __future__ import annotations

import io
from typing import Any

from browserkit import turn_now, wait_for_next_version, wait_for_turn_or_end

GRAVE = ("serious", "critical")


def grave_findings(page: Any) -> list[str]:
    """What axe-core finds serious or critical on the page as it is now, one line each
    (the rule, its impact, and the first few places)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + ", ".join(str(node["target"]) for node in v["nodes"][:4])
            for v in results.response["violations"] if v["impact"] in GRAVE]


SETTLED = """() => {
  const main = document.querySelector('main');
  const { t } = window.cardtableModules.get('/js/i18n.js');
  return !!main?.querySelector('h2') && !main.innerText.includes(t('lobby.loading'));
}"""


def settled(page: Any) -> None:
    """Wait until the screen has drawn and says nothing is loading any more (not for the
    network to fall idle: the page keeps a long poll open, for the inbox)."""
    page.wait_for_function(SETTLED)


def seated_table(open_page: Any, server_url: str, game: str, *, locale: str = "en-US",
                 viewport: dict | None = None, body: dict | None = None) -> Any:
    """A page seated at a new table of ``game`` against a random bot: made through the API
    with the page's own guest cookie, its seat key kept where the page keeps it."""
    page = open_page("/", locale=locale, viewport=viewport, reduced_motion=True)
    page.wait_for_selector("#account-badge bdi")   # a guest now
    answer = page.request.post(f"{server_url}/api/tables", data={
        "game": game, "seats": ["human", "bot:random"], **(body or {})})
    assert answer.ok, answer.text()
    made = answer.json()
    page.evaluate("([id, seat, token]) => localStorage.setItem('cardtable.seat.' + id,"
                  " JSON.stringify({seat, token}))", [made["table"], made["seat"], made["token"]])
    page.goto(f"{server_url}/table/{made['table']}")
    page.wait_for_selector("#table-root[data-version]")
    return page


def play_first_moves(page: Any, turns: int) -> None:
    """This seat's first legal move, ``turns`` times (sent by the page's table itself)."""
    for _ in range(turns):
        if not wait_for_turn_or_end(page):
            return
        version, moves = turn_now(page)
        if not moves:
            continue
        page.evaluate("move => window.cardtableScreen.play(move)", moves[0])
        wait_for_next_version(page, version)


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2's contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


HIDE_TEXT = """el => { for (const e of [el, ...el.querySelectorAll('*')]) {
    e.dataset.was = e.getAttribute('style') || '';
    e.style.setProperty('color', 'transparent', 'important');
    e.style.setProperty('text-shadow', 'none', 'important');
    if (e !== el && e.matches('svg, img, .card'))
      e.style.setProperty('visibility', 'hidden', 'important'); }
  const box = el.getBoundingClientRect(), s = getComputedStyle(el);
  const x = parseFloat(s.borderLeftWidth), y = parseFloat(s.borderTopWidth);
  return { x: box.x + x, y: box.y + y,
           width: box.width - x - parseFloat(s.borderRightWidth),
           height: box.height - y - parseFloat(s.borderBottomWidth) }; }"""
SHOW_TEXT = """el => { for (const e of [el, ...el.querySelectorAll('*')]) {
    if (e.dataset.was) e.setAttribute('style', e.dataset.was); else e.removeAttribute('style');
    delete e.dataset.was; } }"""


def drawn_contrast(element: Any) -> float:
    """The lowest contrast between an element's text colour and the pixels drawn behind
    its text: the element (inside its borders) is photographed with its text made
    transparent and its pictures (cards) hidden, so that only what lies behind it (a
    panel, the felt's gradient) is in the picture."""
    from PIL import Image

    colour = element.evaluate("el => getComputedStyle(el).color")
    rgb = tuple(int(part) for part in colour[colour.index("(") + 1:-1].split(",")[:3])
    element.scroll_into_view_if_needed()
    clip = element.evaluate(HIDE_TEXT)
    try:
        shot = element.page.screenshot(clip=clip, animations="disabled")
    finally:
        element.evaluate(SHOW_TEXT)
    picture = Image.open(io.BytesIO(shot)).convert("RGB")
    behind = picture.getcolors(picture.width * picture.height) or []
    return min(contrast(rgb, pixel) for _, pixel in behind)   # type: ignore[arg-type]

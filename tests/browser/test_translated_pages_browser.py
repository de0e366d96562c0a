"""A phone in each of the app's languages, from sign-up to a judge's verdict at 360 × 740: every
page in that language, nothing cut off or wider than the screen (the ratings table, the history's
period, a scoring table's bands, a played game's explanations and a refused hand among them),
and in every language but English no English word left (bar names and card codes).

The English vocabulary comes from the catalogues, not from a list kept here: the words of the
English msgids, less those the translators also wrote in the target language (so "points" or
"total" may stay in French). The drive itself never reads a word off the page: it goes by ids,
names and addresses, so it runs the same in every language."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils.translation import get_language_info, to_locale

from companion.models import Group, Player
from tests.conftest import PHONE
from tests.reading import shown_in_browser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "companion"))
from history_games import make_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES]
# Every translated language (each catalogue is whole) shows no English word; every language,
# English too, is checked for what does not fit.
NO_ENGLISH_LEFT = {code for code in LANGUAGES if code.split("-")[0] != "en"}
CAST = ("Mei", "Jun", "Lin", "Hao")
GROUP = "Thursday Tractor"
USERNAME = "mei"
PASSWORD = "a long table password"
KITTY = ("5H", "KD", "2C", "3C", "4C", "6C", "7C", "8C")  # 15 points

PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sd]|\{\w*\}|<[^>]*>|&\w+;")
WORD = re.compile(r"[^\W\d_]+")
# A word in Latin letters, hyphens and all: "open-ladder" is a preset's code, "open" is English.
LATIN = re.compile(r"[0-9A-Za-z\u00c0-\u024f]+(?:-[0-9A-Za-z\u00c0-\u024f]+)*")
# Card codes, as the verdict also writes them: side by side ("SJSJ" for a pair of small jokers).
CARD_CODES = re.compile(r"(?:(?:10|[2-9TJQKA])[SHDC]|[SB]J)+")


def browser_locale(code: str) -> str:
    """The browser's language (its Accept-Language) for one of the app's: zh-hans is asked
    for as zh-CN, pt-br as pt-BR."""
    language, _, region = code.partition("-")
    region = {"hans": "CN", "hant": "TW"}.get(region, region.upper())
    return f"{language}-{region}" if region else language


# Everything that does not fit a 360 px screen: the page wider than it, anything reaching past
# its edges, text wider than its box (cut off, or sticking out over its neighbour), a select's
# choice clipped, a button whose words wrap onto 3 lines or more, a range of totals ("5–35")
# broken over two lines, a refused entry's error icon drawn where its value goes.
MISFITS = """(width) => {
  const misfits = [];
  const name = (e) => {
    const text = (e.innerText || e.getAttribute('aria-label') || '').trim().replace(/\\s+/g, ' ');
    return `<${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}> "${text.slice(0, 50)}"`;
  };
  const shown = (e) => {
    const box = e.getBoundingClientRect();
    return e.checkVisibility() && box.width > 1 && box.height > 1;  // not .visually-hidden
  };
  const scrolls = (e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  const lines = (e) => {
    const middles = [];
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(walker.currentNode);
      for (const box of range.getClientRects()) {
        if (box.width > 0) middles.push((box.top + box.bottom) / 2);
      }
    }
    middles.sort((a, b) => a - b);
    const gap = parseFloat(getComputedStyle(e).fontSize) / 2;
    return middles.filter((middle, i) => i === 0 || middle - middles[i - 1] > gap).length;
  };

  const page = document.documentElement.scrollWidth;
  if (page > width) misfits.push(`the page is ${page}px wide`);
  const past = new Set();
  for (const e of document.body.querySelectorAll('*')) {
    if (!shown(e)) continue;
    const { left, right } = e.getBoundingClientRect();
    let scroller = e.parentElement;
    while (scroller && !scrolls(scroller)) scroller = scroller.parentElement;
    if ((right > width + 1 || left < -1) && !scroller) {
      past.add(e);
      const [from, to] = [left, right].map(Math.round);
      if (!past.has(e.parentElement)) {
        misfits.push(`${name(e)} reaches past the screen: ${from} to ${to}px`);
      }
    }
  }

  const controls = new Set(document.querySelectorAll(
    'button, .btn, .badge, .nav-link, .navbar-brand, .navbar-text, label, legend, summary, th'
  ));
  for (const e of document.body.querySelectorAll('*')) {
    const own = [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.trim());
    if (!(own || controls.has(e)) || !shown(e) || scrolls(e)) continue;
    const style = getComputedStyle(e);
    if (style.display !== 'inline' && e.scrollWidth > e.clientWidth + 1) {
      const how = style.overflowX === 'visible' ? 'sticks out of its box' : 'is cut off';
      misfits.push(`${name(e)} ${how}: ${e.scrollWidth}px of text in ${e.clientWidth}px`);
    }
    if (e.matches('button, .btn, .badge, .nav-link') && lines(e) > 2) {
      misfits.push(`${name(e)} wraps onto ${lines(e)} lines`);
    }
  }

  // A select shows its chosen option in the room its padding and arrow leave.
  const pen = document.createElement('canvas').getContext('2d');
  for (const e of document.querySelectorAll('select')) {
    if (!shown(e) || e.selectedIndex < 0) continue;
    const style = getComputedStyle(e);
    pen.font = style.font;
    const text = e.options[e.selectedIndex].text;
    const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (pen.measureText(text).width > room + 1) {
      misfits.push(`<select${e.id ? '#' + e.id : ''}> "${text}" is cut off`);
    }
  }

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (const range of node.data.matchAll(/\\d+–\\d+/g)) {
      const box = document.createRange();
      box.setStart(node, range.index);
      box.setEnd(node, range.index + range[0].length);
      const tops = [...box.getClientRects()].filter((b) => b.width > 0).map((b) => b.top);
      if (new Set(tops.map(Math.round)).size > 1) {
        misfits.push(`the range "${range[0]}" breaks over two lines`);
      }
    }
  }

  // Bootstrap draws a refused entry's icon inside its right padding, from the right edge:
  // where the padding is narrower than the icon, the icon sits on the value.
  for (const e of document.querySelectorAll('input[aria-invalid=true]')) {
    const style = getComputedStyle(e);
    if (!shown(e) || style.backgroundImage === 'none') continue;
    const from = /100% - ([\\d.]+)px/.exec(style.backgroundPositionX);
    const reach = (from ? parseFloat(from[1]) : 0) + parseFloat(style.backgroundSize);
    if (reach > parseFloat(style.paddingRight) + 1) {
      misfits.push(`<input#${e.id}> "${e.value}": its error icon sits on the value`);
    }
  }
  return misfits;
}"""


def words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(PLACEHOLDER.sub(" ", text)) if len(word) > 1}


def texts(entry: polib.POEntry) -> list[str]:
    return [entry.msgstr, *entry.msgstr_plural.values()]


@cache
def translated(language: str) -> list[polib.POEntry]:
    """The target catalogue's messages a page can show: translated and not fuzzy (msgfmt leaves
    fuzzy ones out), and not an English sentence copied over as it is."""
    folder = to_locale(language)
    catalogue = polib.pofile(str(LOCALE / folder / "LC_MESSAGES" / "django.po"))
    return [
        entry
        for entry in catalogue.translated_entries()
        if not (entry.msgstr == entry.msgid and len(words(entry.msgid)) > 2)
    ]


def proper_names() -> set[str]:
    """The cast, the group, the app's name, the account, and each language's own name in the
    switch at the foot of the page."""
    names = [*CAST, GROUP, "Tractor Companion", USERNAME]
    names += [get_language_info(code)["name_local"] for code, _ in settings.LANGUAGES]
    return set().union(*map(words, names))


@cache
def english_vocabulary(language: str) -> frozenset[str]:
    english = polib.pofile(str(LOCALE / "en" / "LC_MESSAGES" / "django.po"))
    vocabulary = set().union(*(words(e.msgid) | words(e.msgid_plural) for e in english))
    shared = set().union(*(words(text) for entry in translated(language) for text in texts(entry)))
    return frozenset(vocabulary - shared - proper_names())


@cache
def latin_words_allowed(language: str) -> frozenset[str]:
    """For a language not written in Latin letters: the names, and the Latin words its
    translators kept (formats such as JSON or CSV, the preset code open-ladder, Wi-Fi)."""
    kept = {
        word
        for entry in translated(language)
        for text in texts(entry)
        for word in LATIN.findall(PLACEHOLDER.sub(" ", text))
    }
    return frozenset({word.lower() for word in kept} | proper_names())


def english_on(page, language: str) -> list[str]:
    shown = shown_in_browser(page)
    if language.startswith("zh"):
        allowed = latin_words_allowed(language)
        found = [
            word
            for word in LATIN.findall(shown)
            if len(re.sub(r"[0-9-]", "", word)) > 1
            and not CARD_CODES.fullmatch(word)
            and word.lower() not in allowed
        ]
    else:
        vocabulary = english_vocabulary(language)
        found = [word for word in WORD.findall(shown) if word.lower() in vocabulary]
    return sorted({word.lower(): word for word in found}.values(), key=str.lower)


class Pages:
    """Checks each page the phone reaches, and keeps what is wrong with all of them for one
    assertion at the end, so a run names every page at fault at once."""

    def __init__(self, phone, language: str, screenshot) -> None:
        self.phone, self.language, self.screenshot = phone, language, screenshot
        self.faults: list[str] = []

    def check(self, name: str) -> None:
        phone = self.phone
        phone.wait_for_load_state()
        self.screenshot(phone, f"{self.language}-{name}")
        lang = phone.locator("html").get_attribute("lang")
        if lang.lower() != self.language:
            self.faults.append(f"{name}: <html lang={lang!r}>, not {self.language!r}")
        if self.language in NO_ENGLISH_LEFT and (english := english_on(phone, self.language)):
            self.faults.append(f"{name}: English left: {', '.join(english)}")
        for misfit in phone.evaluate(MISFITS, PHONE["width"]):
            self.faults.append(f"{name}: {misfit}")


@pytest.fixture(params=LANGUAGES)
def language(request) -> str:
    if request.param.startswith("zh"):
        request.getfixturevalue("cjk_font")
    return request.param


@pytest.fixture
def phone_in_language(browser, live_server, language) -> Iterator[object]:
    """A 360 × 740 phone whose browser asks for ``language`` first, closed after the test."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, has_touch=True, locale=browser_locale(language)
    )
    page = context.new_page()
    yield page
    context.close()


def submit(phone, form: str) -> None:
    phone.locator(f"{form} [type=submit]").click()


def test_it_speaks_the_phone_s_language_from_sign_up_to_a_verdict(
    phone_in_language, language, live_server, screenshot
):
    phone = phone_in_language
    pages = Pages(phone, language, screenshot)
    phone.goto(live_server.url)
    pages.check("home")

    phone.locator('main a[href="/accounts/signup/"]').click()
    pages.check("sign-up")
    phone.locator("#id_username").fill(USERNAME)
    phone.locator("#id_password1").fill(PASSWORD)
    phone.locator("#id_password2").fill(PASSWORD)
    submit(phone, 'form[action="/accounts/signup/"]')
    phone.locator('main a[href="/groups/new/"]').click()
    pages.check("new-group")
    phone.locator("#id_name").fill(GROUP)
    submit(phone, 'form[action="/groups/new/"]')
    phone.wait_for_url("**/groups/*/")
    roster = phone.locator("#roster input[name=name]")
    for name in CAST:
        roster.fill(name)
        roster.press("Enter")
        phone.locator("#players li", has_text=name).wait_for()
    pages.check("group")

    phone.locator('a[href$="/games/new/"]').click()
    for seat, name in enumerate(CAST, start=1):
        phone.locator(f"#id_seat_{seat}").select_option(label=name)
    phone.locator("#table-summary .card").wait_for()
    pages.check("new-game")
    phone.locator("button[name=action][value=start]").click()
    phone.wait_for_url("**/games/*/")
    pages.check("new-scoreboard")

    phone.locator('main a[href$="/hands/new/"]').click()
    phone.locator("input[name=declarer] + label", has_text="Mei").click()
    phone.locator("input[name=trump][value=H] + label").click()
    phone.locator("#kitty-more > summary").click()
    for card in KITTY:
        phone.locator(f'.kitty-card[data-card="{card}"]').click()
    phone.locator('.quick-points [data-value="0"]').click()
    for _ in range(3):
        phone.locator('.stepper [data-step="5"]').click()
    # The preview follows the taps a moment later: wait for the one of 15 points.
    phone.locator("#preview .card", has_text=re.compile(r"(?<!\d)15(?!\d)")).wait_for()
    pages.check("hand-form")
    # 83 points: refused, the error beside the points, which still show.
    points = phone.locator("#id_opponent_points")
    points.fill("83")
    submit(phone, "#hand-form")
    phone.locator("#id_opponent_points[aria-invalid=true]").wait_for()
    pages.check("refused-hand")
    points.fill("15")
    submit(phone, "#hand-form")
    phone.wait_for_url("**/games/*/")
    phone.locator("#hand-1").wait_for()
    pages.check("scoreboard")
    scoreboard = phone.url

    # A season of finished games for the ratings table and the history's period choice, then
    # a new scoring table's bands.
    phone.goto("about:blank")  # no poll of the scoreboard while the games are written
    group = Group.objects.get(name=GROUP)
    games = make_games(group, list(Player.objects.filter(group=group)), 3, seed=2, most=60)
    phone.goto(f"{live_server.url}/groups/{group.pk}/history/")
    phone.locator("#ratings").wait_for()
    pages.check("ladder-history")
    # A long game: each hand's explanation names its band's range of totals.
    phone.goto(f"{live_server.url}{max(games, key=lambda game: game.version).get_absolute_url()}")
    pages.check("played-game")
    phone.goto(f"{live_server.url}/groups/{group.pk}/tables/new/")
    phone.locator("#table-preview li").first.wait_for()
    pages.check("scoring-table")
    phone.goto(scoreboard)

    # Hearts are trumps; Lin leads a pair of small jokers and Jun, who holds a pair of hearts,
    # does not play it: the judge gives that as its reason. Mei's cards are tapped on the grid.
    phone.locator('main a[href$="/dispute/"]').first.click()
    phone.locator("input[name=trump][value=H] + label").click()
    grid = phone.locator(".cards-field", has=phone.locator("#id_play_0"))
    grid.locator(".cards-toggle").click()
    for _ in range(2):
        grid.locator('.grid-card[data-card="5H"]').click()
    pages.check("card-grid")
    grid.locator("[data-grid=done]").click()
    for field, cards in {
        "play_1": "9H KH",
        "hand_1": "9H KH 7H 7H 3C",
        "play_2": "SJ SJ",
        "play_3": "2C 3C",
    }.items():
        if field.startswith("hand_"):
            phone.locator("details", has=phone.locator(f"#id_{field}")).locator("summary").click()
        phone.locator(f"#id_{field}").fill(cards)
    phone.locator("button[name=action][value=judge]").click()
    phone.locator("#verdict .verdict-headline").wait_for()
    assert phone.locator("#verdict .verdict-play.illegal").count() == 1
    pages.check("verdict")

    assert not pages.faults, "\n".join(pages.faults)

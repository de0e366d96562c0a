"""The one way the tests read a page: as a screen reader hears it, by landmark and role.

A page is a Django test response or its HTML (a browser test passes ``page.content()``, or a
locator's ``inner_html()``). What is read of it:

- its text nodes and an image's ``alt``, character references unescaped, runs of white space
  folded to single spaces; a button, a link or an image named by ``aria-label`` (or
  ``aria-labelledby``) is read as that name alone;
- the page as it is served, before its scripts run: not scripts, styles or templates, nor
  anything ``hidden`` (a script may show it later) or ``aria-hidden="true"`` (a screen reader
  skips it); a ``<noscript>`` is read, as a browser without scripts shows it (every form of
  the app works without them);
- text that is only for screen readers (``visually-hidden``) is read, as a screen reader says
  it: "Kitty 8 of 8 cards", not "Kitty";
- inline elements (a span, a link, a label…) run on in their sentence, as the eye reads them
  ("5–35" written as two spans is "5–35"); every other element stands apart from its
  neighbours by a space.

Where a page is read in part, ``within`` names the part: a landmark by its role (``main``,
``navigation``, ``banner``, ``contentinfo``, ``complementary``, ``form``, ``search``; ``<main>``
or ``role="main"`` alike), an element by ``#id``, or a region (a section, a form, a navigation…)
by its accessible name (``aria-label``, or the text of the element ``aria-labelledby`` names).
A browser test reads what the browser draws through Playwright's own locators
(``inner_text``, ``expect(...).to_have_text``); where it needs every word a page shows, it asks
``shown_in_browser``, the browser's half of ``shown_words``.

Only tests/reading.py reads a page into text: tests/test_page_reader.py fails a test module that
writes its own reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["Element", "elements", "names", "parse", "rows", "shown_words", "text", "texts"]

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr"}
UNREAD = {"script", "style", "template"}
INLINE = {"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd"}
INLINE |= {"label", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time"}
INLINE |= {"u", "var"}
LANDMARKS = {
    "main": "main",
    "nav": "navigation",
    "header": "banner",
    "footer": "contentinfo",
    "aside": "complementary",
    "form": "form",
    "search": "search",
    "section": "region",
}
# What a screen reader announces by its name alone, its content unread.
NAMED_FOR_WHAT_THEY_ARE = {"button", "link", "img"}
# Attributes whose words a page shows or says besides its text.
SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "data-confirm")
SELECTOR = re.compile(r"(?P<tag>[\w-]+)?(?P<id>#[\w-]+)?(?P<classes>(?:\.[\w-]+)*)(?P<attrs>.*)")
ATTRIBUTE = re.compile(r'\[([\w-]+)(?:="([^"]*)")?\]')


@dataclass(eq=False)
class Element:
    """An element of the page, its attributes and what is inside it (text as strings)."""

    tag: str
    attrs: dict[str, str]
    parent: Element | None = None
    children: list[Element | str] = field(default_factory=list)

    @property
    def role(self) -> str:
        return self.attrs.get("role") or LANDMARKS.get(self.tag, "")

    @property
    def unread(self) -> bool:
        hidden = "hidden" in self.attrs or self.attrs.get("aria-hidden") == "true"
        return hidden or self.tag in UNREAD

    def walk(self):
        """This element and every element inside it, in the page's order."""
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.walk()

    def matches(self, selector: str) -> bool:
        """Whether this element is what a simple selector names: ``li.verdict-play``,
        ``#verdict``, ``input[name="trump"][checked]``."""
        found = SELECTOR.fullmatch(selector)
        tag, id_, classes, attrs = found.group("tag", "id", "classes", "attrs")
        wanted = list(ATTRIBUTE.finditer(attrs))
        assert "".join(w.group() for w in wanted) == attrs, f"not a simple selector: {selector}"
        return (
            (not tag or self.tag == tag)
            and (not id_ or self.attrs.get("id") == id_[1:])
            and set(classes.split(".")[1:]) <= set(self.attrs.get("class", "").split())
            and all(
                w[1] in self.attrs and (w[2] is None or self.attrs[w[1]] == w[2]) for w in wanted
            )
        )


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.open = Element("#document", {})

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs}, self.open)
        self.open.children.append(element)
        if tag not in VOID:
            self.open = element

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        # An end tag closes the nearest open element of its name, and those left open inside it.
        element = self.open
        while element is not self.root and element.tag != tag:
            element = element.parent
        if element is not self.root:
            self.open = element.parent

    def handle_data(self, data: str) -> None:
        self.open.children.append(data)


def _html(page: object) -> str:
    if isinstance(page, str):
        return page
    if isinstance(page, bytes):
        return page.decode()
    return page.content.decode(page.charset or "utf-8")  # a Django response


def parse(page: object) -> Element:
    """The page as a tree of elements."""
    if isinstance(page, Element):
        return page
    tree = _Tree()
    tree.feed(_html(page))
    tree.close()
    return tree.root


def _name(element: Element, root: Element) -> str:
    """An element's accessible name as its own attributes give it."""
    if "aria-labelledby" in element.attrs:
        ids = element.attrs["aria-labelledby"].split()
        return " ".join(_read(e) for e in root.walk() if e.attrs.get("id") in ids)
    return element.attrs.get("aria-label", "")


def _part(page: object, within: str | None) -> Element:
    root = parse(page)
    if within is None:
        return root
    if within.startswith("#"):
        found = [e for e in root.walk() if e.attrs.get("id") == within[1:]]
    else:
        found = [e for e in root.walk() if e.role == within]
        if within in LANDMARKS:  # a tag's name for its landmark: nav for navigation
            found = [e for e in root.walk() if e.role == LANDMARKS[within]]
        if not found:
            found = [e for e in root.walk() if e.role and _name(e, root) == within]
    assert len(found) == 1, f"{len(found)} parts of the page are {within!r}"
    return found[0]


def _pieces(element: Element) -> list[str]:
    """The element's words, a space standing between those that do not run on."""
    if element.unread:
        return []
    if element.tag == "img":
        return [" ", element.attrs.get("alt", ""), " "]
    if _kind(element) in NAMED_FOR_WHAT_THEY_ARE and _name(element, _root(element)):
        return [" ", _name(element, _root(element)), " "]
    gap = [] if element.tag in INLINE else [" "]
    pieces = list(gap)
    for child in element.children:
        pieces += [child] if isinstance(child, str) else _pieces(child)
    return pieces + gap


def _root(element: Element) -> Element:
    while element.parent is not None:
        element = element.parent
    return element


def _read(element: Element) -> str:
    return " ".join("".join(_pieces(element)).split())


def text(page: object, within: str | None = None) -> str:
    """What a screen reader says of the page, or of its part ``within``: see the module."""
    return _read(_part(page, within))


def elements(page: object, selector: str, within: str | None = None) -> list[Element]:
    """The elements a simple selector names (see `Element.matches`), in the page's order:
    for the markup itself, where it is the point (an attribute, a checked radio)."""
    return [e for e in _part(page, within).walk() if e.matches(selector)]


def texts(page: object, selector: str, within: str | None = None) -> list[str]:
    """The text of each element the selector names, in the page's order (those not read are
    left out)."""
    return [_read(e) for e in elements(page, selector, within) if not _read_nowhere(e)]


def _read_nowhere(element: Element) -> bool:
    while element is not None:
        if element.unread:
            return True
        element = element.parent
    return False


def _kind(element: Element) -> str:
    """What a screen reader calls the element: a button, a link, or its own role."""
    if "role" in element.attrs:
        return element.attrs["role"]
    if element.tag == "button" or (
        element.tag == "input" and element.attrs.get("type") in {"submit", "button"}
    ):
        return "button"
    return "link" if element.tag == "a" and "href" in element.attrs else ""


def names(page: object, role: str, within: str | None = None) -> list[str]:
    """The names of the page's buttons (``role="button"``) or links (``"link"``), as a screen
    reader announces them: an ``aria-label``, else their words (a submit input's value)."""
    root = parse(page)
    return [
        _name(element, root) or element.attrs.get("value", "")
        if element.tag == "input"
        else _name(element, root) or _read(element)
        for element in _part(root, within).walk()
        if _kind(element) == role and not _read_nowhere(element)
    ]


def rows(page: object, within: str | None = None) -> list[list[str]]:
    """A table's rows, each a list of its cells' text (its header row too)."""
    return [
        [
            _read(cell)
            for cell in row.children
            if isinstance(cell, Element) and cell.tag in {"td", "th"}
        ]
        for row in _part(page, within).walk()
        if row.tag == "tr" and not _read_nowhere(row)
    ]


def shown_words(page: object) -> str:
    """Every word a player might meet on the page, one piece a line: its text, hidden parts
    and those kept from screen readers too (a script shows them, or the eye reads them), and
    wherever they stand, even in a template a script copies, the words of the attributes a
    page shows or says (a title, an ``aria-label``, a placeholder, an image's ``alt``, a
    confirmation's question)."""
    pieces: list[str] = []

    def gather(element: Element, unread: bool) -> None:
        unread = unread or element.tag in UNREAD
        pieces.extend(element.attrs[name] for name in SHOWN_ATTRIBUTES if element.attrs.get(name))
        for child in element.children:
            if isinstance(child, Element):
                gather(child, unread)
            elif not unread:
                pieces.append(child)

    gather(parse(page), unread=False)
    return "\n".join(pieces)


# What shown_words reads, as the browser draws it: the text shown (CSS applied), the title, the
# shown attributes, and a visible select's choices.
SHOWN_IN_BROWSER = """(names) => {
  const pieces = [document.title, document.body.innerText];
  for (const element of document.querySelectorAll(names.map((name) => `[${name}]`).join())) {
    for (const name of names) {
      if (element.hasAttribute(name)) pieces.push(element.getAttribute(name));
    }
  }
  for (const option of document.querySelectorAll('select option')) {
    if (option.parentElement.closest('select').checkVisibility()) pieces.push(option.text);
  }
  return pieces.join('\\n');
}"""


def shown_in_browser(page) -> str:
    """Every word a Playwright ``page`` shows a player, one piece a line: its drawn text and
    title, the words of the attributes it shows or says (as ``shown_words`` reads them), and the
    choices of the selects in view."""
    return page.evaluate(SHOWN_IN_BROWSER, list(SHOWN_ATTRIBUTES))

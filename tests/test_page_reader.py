"""The tests read a page one way, tests/reading.py's, and no test module writes its own reader:
a second one would read the same page otherwise, and its assertions break on markup a player
never notices."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.reading import elements, names, rows, shown_words, text, texts

TESTS = Path(__file__).parent
PAGE = """<!doctype html><html lang="en"><head><title>Mei's game</title>
<style>.x { color: red }</style><script>document.title = "Lost";</script></head><body>
<nav aria-label="Main"><a href="/">Home</a> <a href="/groups/">Groups</a></nav>
<main>
  <h1>Mei &amp; Lin <span class="badge" aria-hidden="true">2</span></h1>
  <p>In the <span>5–</span><span>35</span> band, the declarers climb 1 level.</p>
  <p id="kept" hidden>Hand kept on this phone</p>
  <noscript><button type="submit">Show</button></noscript>
  <template><p>A row to come</p></template>
  <details><summary>Kitty <span class="visually-hidden">8 of 8 cards</span></summary></details>
  <section aria-labelledby="hands-heading"><h2 id="hands-heading">Hands</h2>
    <ol><li class="hand-row">Hand 2</li><li class="hand-row done">Hand 1</li></ol></section>
  <button type="button" aria-label="Remove Jun">✕</button><button type="submit">Save hand</button>
  <input type="submit" value="Undo"><input type="radio" name="trump" value="H" checked>
  <input type="radio" name="trump" value="S">
  <table><tr><th>Player</th><th>Level</th></tr><tr><td>Mei</td><td>5</td></tr></table>
</main>
<footer title="Made at the table">Tractor Companion</footer>
</body></html>"""


def test_it_reads_a_page_as_a_screen_reader_says_it():
    assert text(PAGE) == (
        "Mei's game Home Groups Mei & Lin In the 5–35 band, the declarers climb 1 level. "
        "Show Kitty 8 of 8 cards Hands Hand 2 Hand 1 Remove Jun Save hand Player Level Mei 5 "
        "Tractor Companion"
    )


MAIN = (
    "Mei & Lin In the 5–35 band, the declarers climb 1 level. Show Kitty 8 of 8 cards Hands "
    "Hand 2 Hand 1 Remove Jun Save hand Player Level Mei 5"
)


@pytest.mark.parametrize(
    ("within", "said"),
    [
        ("main", MAIN),
        ("navigation", "Home Groups"),
        ("nav", "Home Groups"),
        ("Main", "Home Groups"),
        ("contentinfo", "Tractor Companion"),
        ("Hands", "Hands Hand 2 Hand 1"),
        ("#hands-heading", "Hands"),
        ("#kept", ""),
    ],
)
def test_it_reads_a_landmark_a_region_or_an_element_alone(within, said):
    assert text(PAGE, within) == said


def test_it_refuses_a_part_the_page_does_not_have_or_has_twice():
    with pytest.raises(AssertionError, match="0 parts of the page are 'Scoreboard'"):
        text(PAGE, "Scoreboard")
    with pytest.raises(AssertionError, match="2 parts"):
        text(PAGE + PAGE, "main")


def test_it_lists_what_the_player_taps_by_its_name():
    assert names(PAGE, "button") == ["Show", "Remove Jun", "Save hand", "Undo"]
    assert names(PAGE, "link") == ["Home", "Groups"]
    assert texts(PAGE, "li.hand-row") == ["Hand 2", "Hand 1"]
    assert texts(PAGE, "#kept") == []
    assert rows(PAGE) == [["Player", "Level"], ["Mei", "5"]]


def test_it_finds_the_markup_where_the_markup_is_the_point():
    checked = elements(PAGE, 'input[name="trump"][checked]')
    assert [element.attrs["value"] for element in checked] == ["H"]
    assert [e.attrs["class"] for e in elements(PAGE, "li.done")] == ["hand-row done"]


def test_shown_words_are_every_word_a_player_might_meet():
    shown = shown_words(PAGE)
    for words in ("Made at the table", "Remove Jun", "Hand kept on this phone", "2"):
        assert words in shown
    assert "Lost" not in shown and "color" not in shown


# What makes a reader of its own: a parser, a regular expression that strips tags, entities
# unescaped by hand, a response's text folded into words, a script that gathers the whole
# drawn page's text in the browser.
TAG_PATTERN = re.compile(r"<\[\^>\]")


def readers_of_their_own(source: str) -> list[str]:
    """The lines of a test module where it reads a page into text by itself."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and node.module in {"html", "html.parser"}:
            found.append(f"{line}: from {node.module} import …")
        elif isinstance(node, ast.Import) and any(a.name.startswith("html") for a in node.names):
            found.append(f"{line}: import html")
        elif isinstance(node, ast.Call) and _strips_tags(node):
            found.append(f"{line}: strips tags with {node.args[0].value!r}")
        elif isinstance(node, ast.Call) and _captures_text(node):
            found.append(f"{line}: reads an element's content with {node.args[0].value!r}")
        elif isinstance(node, ast.Call) and _folds_a_page(node):
            found.append(f"{line}: folds a page's white space")
        elif isinstance(node, ast.Constant) and "document.body.innerText" in str(node.value):
            found.append(f"{line}: gathers the drawn page's text in a script")
    return found


def _strips_tags(call: ast.Call) -> bool:
    """``re.sub(r"<[^>]+>", …)``, or a compiled pattern that is only a tag."""
    pattern = call.args[0] if call.args else None
    if not (isinstance(pattern, ast.Constant) and TAG_PATTERN.search(str(pattern.value))):
        return False
    if _called(call) == "compile":
        return re.fullmatch(r"<\[\^>\][*+]>", pattern.value) is not None
    return _called(call) in {"sub", "subn"}


def _captures_text(call: ast.Call) -> bool:
    """``re.findall(r"<dd>(.*?)</dd>", page)``: an element's content cut out by hand."""
    pattern = call.args[0] if call.args else None
    return (
        _called(call) in {"findall", "finditer", "search", "match", "fullmatch", "compile"}
        and isinstance(pattern, ast.Constant)
        and re.search(r">\((?:\.|\[\^<\]).*\)<", str(pattern.value)) is not None
    )


def _folds_a_page(call: ast.Call) -> bool:
    """``response.text.split()``, ``….content.decode().split()``: a page's words by hand."""
    return (
        _called(call) == "split"
        and not call.args
        and any(
            isinstance(inner, ast.Attribute) and inner.attr in {"text", "content"}
            for inner in ast.walk(call.func)
        )
    )


def _called(node: ast.AST) -> str | None:
    target = node.func if isinstance(node, ast.Call) else node
    return getattr(target, "attr", None) or getattr(target, "id", None)


def test_no_test_module_reads_a_page_by_itself():
    found = {
        str(path.relative_to(TESTS)): lines
        for path in sorted(TESTS.rglob("*.py"))
        # The reader itself, and this check, whose planted readers are its examples.
        if path.name not in {"reading.py", "test_page_reader.py"}
        and (lines := readers_of_their_own(path.read_text()))
    }
    assert found == {}, "read pages with tests/reading.py"


@pytest.mark.parametrize(
    "planted",
    [
        "from html.parser import HTMLParser\nclass Words(HTMLParser): pass",
        "import html\ndef read(page): return html.unescape(page)",
        "import re\ndef read(page): return re.sub(r'<[^>]+>', ' ', page)",
        "import re\nTAGS = re.compile(r'<[^>]*>')",
        "def words(response): return ' '.join(response.text.split())",
        "def words(client): return ' '.join(client.get('/').content.decode().split())",
        "import re\ndef said(page): return re.findall(r'<dd[^>]*>(.*?)</dd>', page, re.S)",
        "import re\ndef level(page): return re.search(r'id=\"level\">([^<]*)<', page)",
        "SHOWN = '() => [document.title, document.body.innerText].join()'",
    ],
)
def test_it_finds_a_reader_planted_in_a_test_module(planted):
    assert readers_of_their_own(planted)


def test_it_lets_a_test_read_words_that_are_not_a_page():
    assert readers_of_their_own("import re\nWORD = re.compile(r'%\\(\\w+\\)s|<[^>]*>|\\w+')") == []
    assert readers_of_their_own("def words(line): return line.split()") == []

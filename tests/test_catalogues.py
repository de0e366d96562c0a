"""Every page speaks all five languages: each string marked in companion/, scoring/ and templates/
is in each catalogue (a fresh `makemessages` in a copy of the sources finds no other), translated
and not fuzzy, with its msgid's placeholders, accepted by `msgfmt -c`, and compiled into the
committed django.mo. Extracting and checking need GNU gettext: without it those tests skip,
saying so, except in CI (the CI environment variable), where they fail."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("zh_Hans", "en", "fr", "es", "pt_BR")
# What `make messages` reads and writes.
SOURCES = ("companion", "scoring", "templates", "manage.py", "locale")
MAKEMESSAGES = [
    *(option for language in LANGUAGES for option in ("-l", language)),
    *("-i", ".venv/*", "-i", "benchmarks/*", "-i", "tests/*", "-i", "docs/*"),
    "--add-location",
    "file",
]
GETTEXT = ("xgettext", "msguniq", "msgmerge", "msgattrib", "msgfmt")

# Python's %-placeholders, named and positional (after "%%" is taken out), and str.format's.
NAMED = re.compile(r"%\(\w+\)[#0+-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
POSITIONAL = re.compile(r"%[#0+-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
BRACES = re.compile(r"\{\w*(?:[!:][^{}]*)?\}")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def messages(po: polib.POFile) -> list[polib.POEntry]:
    return [entry for entry in po if not entry.obsolete]


def named(entry: polib.POEntry) -> str:
    """The message as a translator finds it: its msgid (and context), cut short."""
    text = entry.msgid if len(entry.msgid) <= 100 else entry.msgid[:99] + "…"
    return f"  {text!r}" + (f" (context {entry.msgctxt!r})" if entry.msgctxt else "")


def fail_on(language: str, *problems: tuple[str, list[polib.POEntry], str]) -> None:
    """Fails naming every message at fault, each problem as (what, messages, the fix)."""
    found = [
        f"locale/{language}: {len(entries)} {what} ({fix}):\n"
        + "\n".join(named(entry) for entry in entries)
        for what, entries, fix in problems
        if entries
    ]
    if found:
        pytest.fail("\n".join(found), pytrace=False)


def placeholders(text: str) -> tuple:
    text = text.replace("%%", "")
    return (
        Counter(NAMED.findall(text)).keys(),
        POSITIONAL.findall(NAMED.sub("", text)),
        Counter(BRACES.findall(text)).keys(),
    )


def plural_form_fits(singular: str, plural: str):
    """Whether a plural form's placeholders fit the English forms' (see below)."""
    one_named, one_positional, one_braces = placeholders(singular)
    many_named, many_positional, many_braces = placeholders(plural)

    def fits(form: str) -> bool:
        named, positional, braces = placeholders(form)
        return (
            one_named & many_named <= named <= one_named | many_named
            and one_braces & many_braces <= braces <= one_braces | many_braces
            and positional in (one_positional, many_positional)
        )

    return fits


@pytest.fixture(scope="module")
def gettext() -> None:
    missing = [tool for tool in GETTEXT if shutil.which(tool) is None]
    if missing:
        message = (
            f"GNU gettext is missing ({', '.join(missing)} not found): "
            "`apt-get install gettext` to check the catalogues"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def extracted(gettext, tmp_path_factory) -> polib.POFile:
    """Every marked string as `make messages` finds it today, extracted in a copy of the
    sources (the committed catalogues are the translators', never rewritten here)."""
    copy = tmp_path_factory.mktemp("sources")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy / name)
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", *MAKEMESSAGES, "--keep-pot"],
        cwd=copy,
        env={**os.environ, "DEBUG": "true"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, f"makemessages failed:\n{result.stdout}\n{result.stderr}"
    return polib.pofile(str(copy / "locale" / "django.pot"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_has_every_marked_string(language, extracted):
    def key(entry):
        return entry.msgctxt, entry.msgid, entry.msgid_plural

    known = {key(entry) for entry in messages(catalogue(language))}
    missing = [entry for entry in messages(extracted) if key(entry) not in known]

    fail_on(
        language,
        ("marked strings not in the catalogue", missing, "`make messages`, then translate them"),
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_translates_every_message(language):
    entries = messages(catalogue(language))
    fuzzy = [entry for entry in entries if entry.fuzzy]
    untranslated = [entry for entry in entries if not entry.fuzzy and not entry.translated()]

    fail_on(
        language,
        ("untranslated messages", untranslated, "translate them"),
        ("fuzzy messages", fuzzy, "check the words, then remove the fuzzy flag"),
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_its_translations_keep_the_placeholders(language):
    """A translation names what its msgid names: a missing or misspelt one is a KeyError, or
    a wrong number, on the page. A plural's every form names what both English forms name and
    nothing else; it may leave out only what the English singular leaves out (the count, where
    the English says "one"). Fuzzy messages, which the app does not use, fail the test above."""
    mismatched = []
    for entry in messages(catalogue(language)):
        if entry.fuzzy:
            continue
        if entry.msgid_plural:
            ok = plural_form_fits(entry.msgid, entry.msgid_plural)
            if any(form and not ok(form) for form in entry.msgstr_plural.values()):
                mismatched.append(entry)
        elif entry.msgstr and placeholders(entry.msgstr) != placeholders(entry.msgid):
            mismatched.append(entry)

    fail_on(language, ("translations whose placeholders differ", mismatched, "use the msgid's"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_msgfmt_accepts_it(language, gettext):
    path = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"

    result = subprocess.run(
        ["msgfmt", "--check", "-o", os.devnull, str(path)], capture_output=True, text=True
    )

    assert result.returncode == 0, f"msgfmt -c refuses locale/{language}:\n{result.stderr}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_its_compiled_catalogue_is_current(language):
    """The app reads django.mo, committed so that running it needs no gettext: it holds the
    catalogue's translations as they are now."""
    folder = ROOT / "locale" / language / "LC_MESSAGES"
    mo_path = folder / "django.mo"
    assert mo_path.is_file(), f"locale/{language} is not compiled: `make messages`"
    po = catalogue(language)
    compiled = polib.mofile(str(mo_path))

    def words(entries) -> dict:
        return {
            (entry.msgctxt, entry.msgid): entry.msgstr_plural or entry.msgstr for entry in entries
        }

    expected = words(
        entry
        for entry in messages(po)
        if not entry.fuzzy and (entry.msgstr or entry.msgstr_plural.get(0))
    )
    found = words(compiled)
    stale = sorted(
        (key for key in expected.keys() | found.keys() if expected.get(key) != found.get(key)),
        key=lambda key: (key[0] or "", key[1]),
    )
    assert compiled.metadata.get("Plural-Forms") == po.metadata.get("Plural-Forms")
    if stale:
        pytest.fail(
            f"locale/{language}/LC_MESSAGES/django.mo differs from its django.po in {len(stale)} "
            "messages (`make messages` compiles it):\n"
            + "\n".join(f"  {msgid!r}" for _context, msgid in stale),
            pytrace=False,
        )

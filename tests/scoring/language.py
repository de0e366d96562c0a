"""A made-up catalogue for tests: ``gettext`` and ``ngettext`` backed by a dict, with French's
plural rule (0 and 1 take the singular), so that a test sees which form a count picks."""

from __future__ import annotations

from collections.abc import Callable, Mapping

Catalogue = Mapping[str, str | tuple[str, str]]


def fake_french(
    catalogue: Catalogue,
) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """``gettext`` and ``ngettext`` over ``catalogue``: a msgid to its translation, or a plural
    msgid's singular to the translated singular and plural. Anything missing stays English."""

    def gettext(message: str) -> str:
        found = catalogue.get(message, message)
        return found if isinstance(found, str) else found[0]

    def ngettext(singular: str, plural: str, count: int) -> str:
        found = catalogue.get(singular)
        if not isinstance(found, tuple):
            return singular if count == 1 else plural
        return found[0] if count <= 1 else found[1]

    return gettext, ngettext

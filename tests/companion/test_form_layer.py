"""Every form renders through django-crispy-forms and the project's template pack: each form
has a helper whose layout names its fields, and no page draws a field past the pack."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from django import forms
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

import companion.forms
from companion.forms.games import GameForm
from companion.forms.layout import Helper
from companion.forms.tables import BandFormSet

TEMPLATES = Path(settings.BASE_DIR) / "templates"
PACK = TEMPLATES / settings.CRISPY_TEMPLATE_PACK

#: What draws a field without crispy: the field template included by hand, a whole form or a
#: field (or its widget, or a formset's management form) printed as is, Django's own field
#: group, or an ``<input>`` named after a field.
DIRECT_DRAWS = {
    "the field template included": re.compile(r"{%\s*include\s+\S*field\.html"),
    "a form printed": re.compile(r"{{\s*(\w+\.)*\w*form\s*}}"),
    "a field printed": re.compile(r"{{\s*(field|\w+\.\w+)\.?(autofocused|as_widget)?\s*}}"),
    "a field group": re.compile(r"as_field_group"),
    "a control named after a field": re.compile(r'name="{{\s*[\w.]+\.html_name'),
}

#: Forms no template draws: their values come from buttons (``name``/``value``), or they only
#: lend their fields to the forms that are drawn.
UNDRAWN = {"MemberForm", "RoleForm", "HandResultForm", "TrumpDeclaredForm"}


def direct_draws(text: str) -> list[str]:
    """The lines of a template that draw a field past crispy, with what each does."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for what, pattern in DIRECT_DRAWS.items():
            for match in pattern.finditer(line):
                if what == "a field printed" and not _prints_a_field(match.group(0)):
                    continue
                found.append(f"{number}: {what}: {line.strip()}")
    return found


#: Values pages print with ``{{ x.y }}`` that are not fields.
NOT_FIELDS = re.compile(r"\.(name|label|seat|deck_count|get_\w+|pk|\w+_url|url|value|code)\s*}}")


def _prints_a_field(printed: str) -> bool:
    if printed.replace(" ", "") in ("{{field}}", "{{field.autofocused}}", "{{field.as_widget}}"):
        return True
    head = printed.removeprefix("{{").strip().split(".")[0]
    return head.endswith("form") and not NOT_FIELDS.search(printed)


@pytest.mark.parametrize(
    "line",
    [
        '{% include "companion/includes/field.html" with field=form.rules %}',
        "{{ form }}",
        "{{ rename_form }}",
        "{{ form.bands.management_form }}",
        "{{ field }}",
        "{{ field.autofocused }}",
        "{{ form.players }}",
        "{{ account_form.player }}",
        "{{ form.rules.as_field_group }}",
        '<input type="checkbox" name="{{ band.DELETE.html_name }}">',
    ],
)
def test_it_spots_a_field_drawn_past_crispy(line):
    assert direct_draws(line)


@pytest.mark.parametrize(
    "line",
    [
        "{{ form.rules|as_crispy_field }}",
        "{% crispy form %}",
        "{{ form|crispy }}",
        "{{ form.bands.management_form|crispy }}",
        '<div data-decks="{{ form.deck_count }}">',
        '<div data-field="{{ seat.play.html_name }}">',
        "{{ form.opponent_points.label }}",
    ],
)
def test_it_lets_crispy_and_plain_values_be(line):
    assert not direct_draws(line)


def test_it_draws_fields_only_through_crispy():
    drawn = {
        str(path.relative_to(TEMPLATES)): found
        for path in sorted(TEMPLATES.rglob("*.html"))
        if PACK not in path.parents and (found := direct_draws(path.read_text()))
    }

    assert drawn == {}


def form_classes() -> list[type[forms.BaseForm]]:
    for module in pkgutil.iter_modules(companion.forms.__path__):
        importlib.import_module(f"companion.forms.{module.name}")
    return [
        cls
        for module in pkgutil.iter_modules(companion.forms.__path__)
        for _name, cls in inspect.getmembers(
            importlib.import_module(f"companion.forms.{module.name}"), inspect.isclass
        )
        if issubclass(cls, forms.BaseForm) and cls.__module__.startswith("companion.forms.")
    ]


def test_it_finds_the_forms():
    names = {cls.__name__ for cls in form_classes()}

    assert {"HandForm", "GameForm", "DisputeForm", "SignupForm", "BandForm"} <= names


@pytest.mark.parametrize("form", form_classes(), ids=lambda cls: cls.__name__)
def test_it_gives_each_form_a_helper_naming_its_fields(form):
    if form.__name__ in UNDRAWN:
        assert not hasattr(form, "helper")
        return

    # A helper made for each form (one whose buttons name its hand) is made without arguments.
    helper = getattr(form, "helper", None) or form().helper
    assert isinstance(helper, Helper)
    assert helper.form_tag is False
    named = {pointer.name for pointer in helper.layout.get_field_names()}
    assert set(form.base_fields) <= named


def render(template: str, **context) -> str:
    return Template("{% load crispy_forms_tags %}" + template).render(Context(context))


@pytest.mark.django_db
def test_it_gives_a_field_its_options_through_as_crispy_field(group):
    form = GameForm(group=group)

    teams = render("{{ form.teams|as_crispy_field }}", form=form)
    seat = render("{{ form.seat_1|as_crispy_field }}", form=form)
    decks = render("{{ form.decks|as_crispy_field }}", form=form)

    assert "btn-group-vertical" in teams
    assert 'class="visually-hidden" for="id_seat_1"' in seat
    assert "btn-group-vertical" not in decks and 'class="form-label"' in decks


def test_it_names_each_band_for_screen_readers():
    bands = BandFormSet(initial=[{}, {}], prefix="band")

    with translation.override("en"):
        html = render("{{ bands.forms.1.low|as_crispy_field }}", bands=bands)

    assert ">Band 2: from</label>" in html


def test_it_puts_the_focus_on_the_next_name_after_an_htmx_add(member, group, players):
    response = member.post(f"/groups/{group.pk}/", {"name": "Zoe"}, headers={"HX-Request": "true"})
    plain = member.get(f"/groups/{group.pk}/")

    assert re.search(r'<input type="text" name="name"[^>]* autofocus', response.text)
    assert not re.search(r'<input type="text" name="name"[^>]* autofocus', plain.text)

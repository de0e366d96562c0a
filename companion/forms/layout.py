"""How a form is laid out for django-crispy-forms and the project's own template pack.

Each form has a :class:`Helper` naming its fields in order, with :class:`Field` wherever a field
takes options. ``{% crispy form %}`` draws the whole layout inside the page's own ``<form>``;
``{{ form.name|as_crispy_field }}`` draws one field where a page puts it between its own widgets,
with the same options: the pack's ``field.html`` (``templates/tractor/``) finds them in the form's
layout by the field's name.
"""

from __future__ import annotations

from collections.abc import Iterator

from crispy_forms import layout
from crispy_forms.helper import FormHelper
from django import forms


class Helper(FormHelper):
    """A form's layout, drawn without a ``<form>`` tag: the page's template owns the ``<form>``,
    its action, buttons and htmx attributes."""

    form_tag = False

    def __init__(self, *fields: str | layout.LayoutObject) -> None:
        super().__init__()
        self.layout = layout.Layout(*fields)


class Field(layout.Field):
    """Fields with options for the pack's ``field.html``, as template context rather than
    widget attributes (which crispy's own Field makes of extra keywords): ``hide_label`` (its
    label and help for screen readers only), ``list`` (its choices in a column), ``sides`` (its
    choices coloured declarers blue, opponents red), ``messages_apart`` (the page places the
    help and errors itself, with ``tractor/field_messages.html``), ``cards`` (card codes, with the
    Cards button that opens the Dispute page's card grid)."""

    def __init__(
        self,
        *names: str,
        hide_label: bool = False,
        list: bool = False,
        sides: bool = False,
        messages_apart: bool = False,
        cards: bool = False,
    ) -> None:
        super().__init__(*names)
        self.options = {
            "hide_label": hide_label,
            "list": list,
            "sides": sides,
            "messages_apart": messages_apart,
            "cards": cards,
        }


def _items(item: str | layout.LayoutObject) -> Iterator[str | layout.LayoutObject]:
    yield item
    for inner in getattr(item, "fields", ()):
        yield from _items(inner)


def options(field: forms.BoundField) -> dict[str, bool]:
    """The options the form's layout gives ``field`` (none if it names it plainly)."""
    helper = getattr(field.form, "helper", None)
    if helper is None or helper.layout is None:
        return {}
    for item in _items(helper.layout):
        if isinstance(item, Field) and field.name in item.fields:
            return item.options
    return {}

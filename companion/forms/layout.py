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
from crispy_forms.utils import TEMPLATE_PACK, flatatt
from django import forms
from django.template import Context
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe


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
    Cards button that opens the Dispute page's card grid), ``remove`` (a checkbox drawn as a
    small ✕ toggle that strikes out its row, its help as the tooltip), ``switch`` (a checkbox
    drawn as a switch, its widget with ``role="switch"``)."""

    def __init__(
        self,
        *names: str,
        hide_label: bool = False,
        list: bool = False,
        sides: bool = False,
        messages_apart: bool = False,
        cards: bool = False,
        remove: bool = False,
        switch: bool = False,
    ) -> None:
        super().__init__(*names)
        self.options = {
            "hide_label": hide_label,
            "list": list,
            "sides": sides,
            "messages_apart": messages_apart,
            "cards": cards,
            "remove": remove,
            "switch": switch,
        }


class Button:
    """A button beside a field in an :class:`InputGroup`: its text, and its attributes as
    keywords (``hx_post`` is ``hx-post``); a submit button unless ``type`` says otherwise."""

    def __init__(self, text: str, css_class: str = "btn-outline-secondary", **attrs: str) -> None:
        self.text = text
        self.attrs = {"class": f"btn {css_class}", "type": "submit", **attrs}

    def render(self) -> SafeString:
        # The text is translated as it is drawn (crispy's StrictButton keeps its first rendering).
        context = {"text": self.text, "attrs": mark_safe(flatatt(self.attrs))}
        return mark_safe(render_to_string("tractor/layout/button.html", context))


class InputGroup(Field):
    """A field with its buttons in one input group, such as the roster's name and its Add
    button; drawn by ``{% crispy %}``, which renders the layout objects themselves."""

    def __init__(self, name: str, *buttons: Button, hide_label: bool = False) -> None:
        super().__init__(name, hide_label=hide_label)
        self.buttons = buttons

    def render(
        self,
        form: forms.BaseForm,
        context: Context,
        template_pack: str = TEMPLATE_PACK,
        extra_context: dict | None = None,
        **kwargs,
    ) -> SafeString:
        buttons = mark_safe("".join(button.render() for button in self.buttons))
        # A name no page uses: {% crispy %} draws the fields in the page's own context.
        extra_context = {**(extra_context or {}), "input_group_buttons": buttons}
        return super().render(form, context, template_pack, extra_context, **kwargs)


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

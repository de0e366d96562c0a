"""One way to render a field: our templates, Bootstrap's class for each kind of control.

Django already marks a refused value with ``aria-invalid`` and points ``aria-describedby`` at
``<id>_helptext`` and ``<id>_error``; ``templates/companion/includes/field.html`` writes those
ids, so every form gets the same accessible markup.
"""

from __future__ import annotations

from django import forms
from django.forms.renderers import TemplatesSetting

#: Bootstrap's class for a widget's ``input_type``; text, numbers, files and text areas are
#: ``form-control``, radios and checkbox lists are drawn as buttons by the template.
CONTROL_CLASS = {"select": "form-select", "checkbox": "form-check-input", "radio": "btn-check"}


class BoundField(forms.BoundField):
    def build_widget_attrs(self, attrs: dict, widget: forms.Widget | None = None) -> dict:
        attrs = super().build_widget_attrs(attrs, widget)
        widget = widget or self.field.widget
        if widget.is_hidden:
            return attrs
        kind = getattr(widget, "input_type", None)
        classes = [widget.attrs.get("class", ""), CONTROL_CLASS.get(kind, "form-control")]
        if self.errors:
            classes.append("is-invalid")
        attrs["class"] = " ".join(dict.fromkeys(" ".join(classes).split()))
        return attrs

    def autofocused(self) -> str:
        """The control taking the focus: the field to fill next after an htmx swap."""
        return self.as_widget(attrs={"autofocus": True})


class Renderer(TemplatesSetting):
    """``{{ form }}`` and ``{{ field.as_field_group }}`` come out as our templates."""

    form_template_name = "companion/includes/form.html"
    field_template_name = "companion/includes/field.html"
    bound_field_class = BoundField

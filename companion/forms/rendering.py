"""Bootstrap's class for each kind of control, on the widget itself.

The project's crispy template pack (templates/tractor/) draws each field around ``{{ field }}``;
this BoundField gives the control its class and ``is-invalid``, while Django marks a refused value
``aria-invalid`` and points ``aria-describedby`` at ``<id>_helptext`` and ``<id>_error``, the ids
``tractor/field_messages.html`` writes.
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


class Renderer(TemplatesSetting):
    """Every form's fields are this BoundField (the admin's too)."""

    bound_field_class = BoundField

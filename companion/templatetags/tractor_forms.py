"""The template pack's adapter to the forms' layouts (companion.forms.layout)."""

from __future__ import annotations

from django import template

from companion.forms import layout

register = template.Library()

register.filter("layout_options", layout.options)

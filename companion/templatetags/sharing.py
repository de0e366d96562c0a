"""Links to hand to other phones: absolute, and as QR codes their cameras read."""

from __future__ import annotations

import functools

import segno
from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag(takes_context=True)
def absolute_url(context: template.Context, path: str) -> str:
    """``path`` as a full address on the host the page was asked for."""
    return context["request"].build_absolute_uri(path)


@register.filter
def qr_code(url: str, svgclass: str = "qr-code") -> SafeString:
    """The link as a QR code, an inline SVG that scales with its box."""
    return mark_safe(_qr_svg(url, svgclass, _("QR code of the link")))


@functools.lru_cache(maxsize=256)
def _qr_svg(url: str, svgclass: str, title: str) -> str:
    # Encoding a code costs more than the rest of the game page together, and a share link's
    # code never changes: the same arguments always make the same SVG.
    code = segno.make(url, error="m")
    # segno escapes the title; the rest is its own markup.
    return code.svg_inline(scale=4, border=2, omitsize=True, svgclass=svgclass, title=title)

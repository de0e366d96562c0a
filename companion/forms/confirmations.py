"""A hand's flag, and a group's choice to ask for second-seat confirmations."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.models import FLAG_NOTE_LENGTH


class FlagForm(forms.Form):
    note = forms.CharField(
        label=_("What is wrong? (optional)"),
        max_length=FLAG_NOTE_LENGTH,
        required=False,
        error_messages={
            "max_length": _("Say what is wrong in at most %(limit_value)d characters."),
        },
    )


class ConfirmationsForm(forms.Form):
    hands_need_confirmation = forms.BooleanField(
        label=_("Each hand needs an opponent's confirmation"), required=False
    )

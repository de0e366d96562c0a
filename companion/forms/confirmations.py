"""A hand's flag, and a group's choice to ask for second-seat confirmations."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.forms.layout import Button, Field, Helper, InputGroup
from companion.models import FLAG_NOTE_LENGTH


class FlagForm(forms.Form):
    """A note on what is wrong with hand ``number``; each hand waiting on the game page has its
    own form, its note's id ``flag-note-<number>``."""

    note = forms.CharField(
        label=_("What is wrong? (optional)"),
        max_length=FLAG_NOTE_LENGTH,
        required=False,
        error_messages={
            "max_length": _("Say what is wrong in at most %(limit_value)d characters."),
        },
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, number: int | None = None, **kwargs) -> None:
        if number is not None:
            kwargs["auto_id"] = f"flag-%s-{number}"
        super().__init__(*args, **kwargs)
        flag = Button(_("Flag hand %(number)s") % {"number": number}, css_class="btn-danger")
        self.helper = Helper(InputGroup("note", flag))


class ConfirmationsForm(forms.Form):
    hands_need_confirmation = forms.BooleanField(
        label=_("Each hand needs an opponent's confirmation"),
        required=False,
        widget=forms.CheckboxInput(attrs={"role": "switch"}),
    )
    helper = Helper(Field("hands_need_confirmation", switch=True))

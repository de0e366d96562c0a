"""The "Trump declared" tap on the game page: the trump the table named for the hand being
played, before the hand is recorded."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.models import Game


class TrumpDeclaredForm(forms.Form):
    """The hand being played (as the page showed it) and the trump tapped for it."""

    hand = forms.IntegerField(min_value=1, max_value=32767)
    trump = forms.ChoiceField(
        choices=Game._meta.get_field("trump_declared").choices,
        error_messages={"required": _("Tap the trump suit, or No trump.")},
    )

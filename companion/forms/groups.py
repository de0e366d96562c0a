"""Accounts, groups and their rosters."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from companion.forms.layout import Button, Helper, InputGroup
from companion.models import Group, Player

# Accounts, groups, rosters, scoring tables, new games.


class SignupForm(UserCreationForm):
    """Django's sign-up form, with the e-mail address that a password reset needs."""

    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional: only to reset a forgotten password."),
    )

    helper = Helper("username", "email", "password1", "password2")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class GroupForm(forms.ModelForm):
    helper = Helper("name")

    class Meta:
        model = Group
        fields = ["name"]
        labels = {"name": _("Group name")}
        widgets = {"name": forms.TextInput(attrs={"placeholder": _("Thursday Tractor")})}


class PlayerForm(forms.ModelForm):
    """A name for the group's roster; the same name twice (in any case) is refused."""

    class Meta:
        model = Player
        fields = ["name"]
        labels = {"name": _("Player's name")}
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off"})}

    helper = Helper(InputGroup("name", Button(_("Add"))))

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.instance.group = group

    def focus(self) -> None:
        """The name takes the focus: after an htmx swap, the next player is typed at once."""
        self.fields["name"].widget.attrs["autofocus"] = True

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        same = self.instance.group.players.filter(name__iexact=name).first()
        if same is not None and same.retired:
            raise forms.ValidationError(
                _("%(name)s is retired: bring them back instead."),
                params={"name": same.name},
                code="unique",
            )
        if same is not None:
            raise forms.ValidationError(
                _("%(name)s is already on the roster."), params={"name": name}, code="unique"
            )
        return name


class SeatedPlayerForm(PlayerForm):
    """A player added from the new-game page, inside the game's own form: its button posts to
    the page, which puts them on the roster and in the first empty seat."""

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, prefix="player", group=group, **kwargs)
        self.fields["name"].help_text = _(
            "They join the group's roster and take the first empty seat."
        )
        add = Button(
            _("Add"),
            name="action",
            value="add_player",
            hx_post=reverse("game_new", args=[group.pk]),
            hx_target="#game-form",
            hx_swap="outerHTML",
            hx_vals='{"preview": ""}',
        )
        self.helper = Helper(InputGroup("name", add))


class PlayerAccountForm(forms.Form):
    """Which player on the roster is the signed-in member: one each, and never someone
    another account already claimed."""

    player = forms.ModelChoiceField(
        label=_("You on the roster"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("Nobody yet"),
    )
    helper = Helper("player")

    def __init__(self, *args, group: Group, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.group, self.user = group, user
        field = self.fields["player"]
        field.queryset = group.players.filter(Q(user=None) | Q(user=user))
        field.initial = group.players.filter(user=user).first()

    def save(self) -> bool:
        """Claim the chosen player (or none); False if another account got them first."""
        player = self.cleaned_data["player"]
        if player is None:
            self.group.players.filter(user=self.user).update(user=None)
            return True
        return player.claim(self.user)


class RetireForm(forms.Form):
    """A player to retire, chosen from those playing; or, with ``back``, a retired player to
    bring back."""

    player = forms.ModelChoiceField(
        label=_("Player to retire"),
        queryset=Player.objects.none(),
        empty_label="—",
    )
    helper = Helper(InputGroup("player", Button(_("Retire")), hide_label=True))

    def __init__(self, *args, group: Group, back: bool = False, **kwargs) -> None:
        # Its ids stay apart from PlayerAccountForm's player on the same page.
        super().__init__(*args, auto_id="retire-%s", **kwargs)
        field = self.fields["player"]
        field.queryset = group.players.filter(retired=back)
        if back:
            choose = _("Choose a retired player to bring back.")
        else:
            choose = _("Choose a player on the roster to retire.")
        field.error_messages = {"required": choose, "invalid_choice": choose}


class MemberForm(forms.Form):
    """Another member of the group, to remove from it."""

    member = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(),
        error_messages={
            "required": _("Choose the member to remove."),
            "invalid_choice": _("That person is not a member of the group."),
        },
    )

    def __init__(self, *args, group: Group, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Leaving is its own action, which asks a different question first.
        self.fields["member"].queryset = group.members.exclude(pk=user.pk)


class RoleForm(forms.Form):
    """A member of the group (oneself too, stepping down) to make an admin, or no longer one."""

    member = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(),
        error_messages={
            "required": _("Choose the member to make an admin, or no longer one."),
            "invalid_choice": _("That person is not a member of the group."),
        },
    )
    admin = forms.TypedChoiceField(
        choices=[("yes", "yes"), ("no", "no")],
        coerce=lambda value: value == "yes",
        error_messages={
            "required": _("Say whether the member becomes an admin or no longer is one."),
            "invalid_choice": _("Say whether the member becomes an admin or no longer is one."),
        },
    )

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = group.members.all()

"""A group's export file, imported as a new group."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from companion import exchange

# An export of 2,000 games (43,000 hands with their history) is 34 MB.
MAX_IMPORT_BYTES = 40 * 1024 * 1024


class GroupImportForm(forms.Form):
    """An export file and the new group's name; ``cleaned_data["file"]`` is the checked
    `companion.exchange.GroupExport`, ready to import."""

    file = forms.FileField(
        label=_("Export file"),
        help_text=_("A .json file from a group's “Export everything” link."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    name = forms.CharField(
        label=_("New group's name"),
        max_length=80,
        required=False,
        help_text=_("Leave empty to keep the name in the file."),
    )

    def clean_file(self) -> exchange.GroupExport:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)d MB; an export up to %(most)d MB can be imported."),
                params={"size": upload.size // 2**20, "most": MAX_IMPORT_BYTES // 2**20},
            )
        try:
            return exchange.load(upload.read())
        except exchange.ExchangeError as error:
            raise forms.ValidationError(str(error)) from None

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())

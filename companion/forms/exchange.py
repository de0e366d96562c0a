"""A group's export file, to be imported as a new group by a job."""

from __future__ import annotations

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from companion.forms.layout import Helper
from companion.limits import MAX_IMPORT_BYTES
from companion.models import new_token


class GroupImportForm(forms.Form):
    """An export file and the new group's name; the file is read by the import's job, which
    names what is wrong with it. ``request_key`` makes a form sent twice one job."""

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
    request_key = forms.CharField(
        max_length=40, required=False, widget=forms.HiddenInput, initial=new_token
    )

    helper = Helper("request_key", "file", "name")

    def clean_file(self) -> UploadedFile:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)d MB; an export up to %(most)d MB can be imported."),
                params={"size": upload.size // 2**20, "most": MAX_IMPORT_BYTES // 2**20},
            )
        return upload

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())

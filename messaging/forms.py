"""The Send message and Tell a friend forms: shape and length here, the rules in the services."""

from __future__ import annotations

from django import forms

from messaging.invitations import NOTE_MAX
from messaging.models import BODY_MAX, SUBJECT_MAX


class MessageForm(forms.Form):
    to = forms.CharField(label="To (userid)", max_length=150)
    subject = forms.CharField(label="Subject", max_length=SUBJECT_MAX, required=False,
                              help_text="Optional.")
    body = forms.CharField(
        label="Message", max_length=BODY_MAX,
        widget=forms.Textarea(attrs={"rows": 8, "maxlength": BODY_MAX}),
        help_text=f"At most {BODY_MAX} characters; line breaks are kept.",
    )
    reply_to = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=1)


class InvitationForm(forms.Form):
    email = forms.EmailField(label="Your friend's e-mail address", max_length=254)
    note = forms.CharField(
        label="A short note", max_length=NOTE_MAX, required=False,
        widget=forms.Textarea(attrs={"rows": 4, "maxlength": NOTE_MAX}),
        help_text=f"Optional, at most {NOTE_MAX} characters: it goes in the e-mail under your userid.",
    )

from __future__ import annotations

from typing import Any, ClassVar

from django import forms

from notices.models import NoticePreferences
from notices.preferences import PREFERENCE_FLAGS


class NoticePreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = NoticePreferences
        fields = ("delivery", *PREFERENCE_FLAGS)
        widgets: ClassVar[dict[str, Any]] = {"delivery": forms.RadioSelect}
        labels: ClassVar[dict[str, str]] = {"delivery": "How should we tell you?"}
        help_texts: ClassVar[dict[str, str]] = {
            "your_turn": "At most one a game every hour, and none while you are on the site.",
            "time_warning": "Once a move, when a fifth of its time is left.",
        }

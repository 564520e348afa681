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
        labels: ClassVar[dict[str, str]] = {"delivery": "How should we e-mail you?"}
        help_texts: ClassVar[dict[str, str]] = {
            "your_turn": "E-mail: at most one a game every hour, none while you are on the site. "
                         "Push: none while a page of the site is open.",
            "time_warning": "Once a move, when a fifth of its time is left.",
            "game_finished": "By push only: there is no e-mail for it.",
            "membership_reminder": "Once a period, a week before it ends (unless you choose no e-mail at all).",
        }

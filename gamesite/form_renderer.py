"""The forms' renderer (settings.FORM_RENDERER): Django's Jinja2 copies of its form and widget
templates, and its own template engine for the templates that have no Jinja2 copy (the admin's
and the auth app's own widgets).

The Jinja2 copies write the same markup but for blank lines, three times quicker than Django's
template engine, which was two thirds of the Auto-Match page's time: a page each live player opens
before every match. Our own copies in gamesite/form_templates/ come before Django's: a group of
checkboxes or radio buttons is one template there, the same markup, where Django's includes four
templates for each choice (the Auto-Match form's 32 choices were 130 of its 160): its fields
written in 1.8 ms rather than 2.8, back to back in one process, on the 2-core machine in a slow
hour.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import django.forms
from django.forms.renderers import BaseRenderer, DjangoTemplates, Jinja2
from django.template.exceptions import TemplateDoesNotExist
from django.utils.functional import cached_property

__all__ = ["JinjaFirstRenderer"]

OUR_FORM_TEMPLATES = Path(__file__).parent / "form_templates"
DJANGOS_FORM_TEMPLATES = Path(django.forms.__file__).parent / "jinja2"


class _OursThenDjangos(Jinja2):
    @cached_property
    def engine(self) -> Any:
        return self.backend({"APP_DIRS": True, "DIRS": [OUR_FORM_TEMPLATES, DJANGOS_FORM_TEMPLATES],
                             "NAME": "djangoforms", "OPTIONS": {}})


class JinjaFirstRenderer(BaseRenderer):
    """A form template from our Jinja2 copies, else Django's, else from Django's own templates."""

    def __init__(self) -> None:
        self.jinja = _OursThenDjangos()
        self.django = DjangoTemplates()

    def get_template(self, template_name: str) -> Any:
        try:
            return self.jinja.get_template(template_name)
        except TemplateDoesNotExist:
            return self.django.get_template(template_name)

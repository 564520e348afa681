"""The forms' renderer: the site's forms through Django's Jinja2 copies of its templates, the
admin's and auth's own widgets (no Jinja2 copy) through Django's template engine."""

from __future__ import annotations

import re

from django.contrib.admin.widgets import AdminSplitDateTime
from django.forms.renderers import DjangoTemplates
from django.template.backends.django import Template as DjangoTemplate
from django.template.backends.jinja2 import Template as JinjaTemplate

from backgammon.forms import AutoMatchForm
from gamesite.form_renderer import JinjaFirstRenderer


def _collapsed(markup: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", markup)).replace("> ", ">").replace(" <", "<")


def test_the_sites_forms_are_written_by_jinja2_and_the_admins_widgets_by_django() -> None:
    renderer = JinjaFirstRenderer()
    assert isinstance(renderer.get_template("django/forms/widgets/checkbox_select.html"), JinjaTemplate)
    assert isinstance(renderer.get_template(AdminSplitDateTime.template_name), DjangoTemplate)
    assert 'name="when_0"' in AdminSplitDateTime().render("when", None, renderer=renderer)


def test_a_form_reads_the_same_as_with_djangos_own_templates_but_for_blank_space() -> None:
    for data in (None, {"variants": ["XX"], "max_games": "0"}):
        ours, django = (AutoMatchForm(data=data, initial={"variants": ["BP"]}, renderer=renderer)
                        for renderer in (JinjaFirstRenderer(), DjangoTemplates()))
        if data:
            assert not ours.is_valid() and not django.is_valid()
        for name in ours.fields:
            assert _collapsed(str(ours[name].as_field_group())) == _collapsed(str(django[name].as_field_group()))

"""The forms' renderer: the site's forms through Django's Jinja2 copies of its templates, the
admin's and auth's own widgets (no Jinja2 copy) through Django's template engine."""

from __future__ import annotations

import re
from pathlib import Path

from django.contrib.admin.widgets import AdminSplitDateTime
from django.forms import CheckboxSelectMultiple
from django.forms.renderers import DjangoTemplates
from django.template.backends.django import Template as DjangoTemplate
from django.template.backends.jinja2 import Template as JinjaTemplate
from jinja2 import ChoiceLoader, DictLoader

from backgammon.forms import AutoMatchForm
from gamesite.form_renderer import OUR_FORM_TEMPLATES, JinjaFirstRenderer


def _collapsed(markup: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", markup)).replace("> ", ">").replace(" <", "<")


def test_the_sites_forms_are_written_by_jinja2_and_the_admins_widgets_by_django() -> None:
    renderer = JinjaFirstRenderer()
    assert isinstance(renderer.get_template("django/forms/widgets/checkbox_select.html"), JinjaTemplate)
    assert isinstance(renderer.get_template(AdminSplitDateTime.template_name), DjangoTemplate)
    assert 'name="when_0"' in AdminSplitDateTime().render("when", None, renderer=renderer)
    # A group of choices is one template of ours, its choices written in it.
    group = renderer.get_template("django/forms/widgets/multiple_input.html")
    assert Path(group.origin.name).is_relative_to(OUR_FORM_TEMPLATES)


def test_a_group_whose_choices_have_a_template_of_their_own_still_includes_it() -> None:
    class Tagged(CheckboxSelectMultiple):
        option_template_name = "tests/tagged_option.html"

    renderer = JinjaFirstRenderer()
    renderer.jinja.engine.env.loader = ChoiceLoader([
        renderer.jinja.engine.env.loader, DictLoader({"tests/tagged_option.html": "<i>{{ widget.label }}</i>"})])
    markup = Tagged(choices=[("a", "Ant"), ("b", "Bee")]).render("insects", ["b"], renderer=renderer)
    assert markup.count("<i>") == 2 and "<i>Bee</i>" in markup and "<input" not in markup


def test_a_form_reads_the_same_as_with_djangos_own_templates_but_for_blank_space() -> None:
    for data in (None, {"variants": ["XX"], "max_games": "0"}):
        ours, django = (AutoMatchForm(data=data, initial={"variants": ["BP"]}, renderer=renderer)
                        for renderer in (JinjaFirstRenderer(), DjangoTemplates()))
        if data:
            assert not ours.is_valid() and not django.is_valid()
        for name in ours.fields:
            assert _collapsed(str(ours[name].as_field_group())) == _collapsed(str(django[name].as_field_group()))

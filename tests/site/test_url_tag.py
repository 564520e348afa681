"""The {% url %} tag every Django template gets (gamesite/url_tag.py): Django's answers, with
each reverse kept per process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.template import Context, Template
from django.urls import NoReverseMatch, get_script_prefix, reverse, set_script_prefix

from gamesite.url_tag import KeptURLNode


@pytest.fixture
def script_prefix() -> Iterator[None]:
    before = get_script_prefix()
    yield
    set_script_prefix(before)


def _drawn(source: str, **context: object) -> str:
    return Template(source).render(Context(context))


def test_every_template_has_the_kept_tag_and_it_answers_as_djangos() -> None:
    assert isinstance(Template("{% url 'home' %}").nodelist[0], KeptURLNode)
    assert _drawn("{% url 'home' %}") == reverse("home")
    game_url = reverse("backgammon:game", args=[7])
    assert _drawn("{% url 'backgammon:game' game_id %}", game_id=7) == game_url
    assert _drawn("{% url 'backgammon:game' '7' %}") == reverse("backgammon:game", args=["7"])
    assert _drawn("{% url 'backgammon:game' game_id=7 %}") == game_url
    assert _drawn("{% url 'backgammon:game' 7 as there %}[{{ there }}]") == f"[{game_url}]"


def test_a_name_that_does_not_reverse_fails_as_with_djangos_tag() -> None:
    with pytest.raises(NoReverseMatch):
        _drawn("{% url 'no-such-page' %}")
    with pytest.raises(NoReverseMatch):
        _drawn("{% url 'backgammon:game' 'not-a-number' %}")
    assert _drawn("{% url 'no-such-page' as there %}[{{ there }}]") == "[]"


def test_an_argument_is_escaped_and_a_new_script_prefix_gives_new_urls(script_prefix: None) -> None:
    profile = reverse("people:profile", args=["a&b"])  # "&" is left as it is in a path
    assert "&" in profile and _drawn("{% url 'people:profile' name %}", name="a&b") == profile.replace("&", "&amp;")
    at_root = _drawn("{% url 'home' %}")
    set_script_prefix("/backgammon/")  # the site served under a path (SCRIPT_NAME)
    assert _drawn("{% url 'home' %}") == "/backgammon" + at_root

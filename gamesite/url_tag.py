"""Django's ``{% url %}`` tag, with each reverse kept per process (gamesite/kept_urls.py).

Every full page's menus ask for about 35 URLs, each a ``reverse()`` of tens of microseconds
(the resolver's patterns, the language, the script prefix): a third of drawing base.html. The
answer depends only on the name, the arguments, the namespace the page was reached under and
the script prefix, so it is kept under those; anything else (keyword arguments, an argument
that is not a plain string or number, a name that does not reverse) goes to Django's own tag,
which answers and fails exactly as before. Installed for every Django template as a builtin
(settings.TEMPLATES), in place of Django's tag of the same name.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import Parser, Token
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as djangos_url_tag
from django.urls import NoReverseMatch
from django.utils.html import conditional_escape

from gamesite.kept_urls import kept_reverse

register = template.Library()


class KeptURLNode(URLNode):
    def render(self, context: Any) -> str:
        if self.kwargs:
            return str(super().render(context))
        args = [arg.resolve(context) for arg in self.args]
        if not all(type(arg) is int or isinstance(arg, str) for arg in args):
            return str(super().render(context))
        try:
            url = kept_reverse(self.view_name.resolve(context), *args, current_app=_current_app(context))
        except NoReverseMatch:
            return str(super().render(context))  # raises, or sets the variable to "" with "as"
        if self.asvar:
            context[self.asvar] = url
            return ""
        return str(conditional_escape(url)) if context.autoescape else url


def _current_app(context: Any) -> str | None:
    # As Django's tag reads it: the namespace an instance of an app was reached under.
    request = getattr(context, "request", None)
    current_app = getattr(request, "current_app", None)
    if current_app is not None:
        return str(current_app)
    match = getattr(request, "resolver_match", None)
    return None if match is None else match.namespace


@register.tag
def url(parser: Parser, token: Token) -> KeptURLNode:
    node = djangos_url_tag(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)

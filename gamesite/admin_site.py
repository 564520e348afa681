"""The admin site, with one check Django's lacks: an action's selection must be row ids.

Django's admin filters the selected rows with whatever ``_selected_action`` holds, and a value
that is not an id ("abc") fails inside the query as a 500. Every model page of the admin comes
through ``admin_view``, so the selection is checked there once, for every model, after the
admin's own log-in and permission check.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.admin.apps import AdminConfig
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse

from gamesite.bad_requests import bad_request

__all__ = ["GammonAdminConfig", "GammonAdminSite"]


def _bad_selection(request: HttpRequest, model_admin: admin.ModelAdmin) -> str:  # type: ignore[type-arg]
    if request.method != "POST":
        return ""
    pk_field = model_admin.model._meta.pk
    for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
        try:
            pk_field.to_python(value)
        except ValidationError:
            plural = model_admin.model._meta.verbose_name_plural
            return f"The selection must name the {plural} by id, and {value!r} is not an id."
    return ""


class GammonAdminSite(admin.AdminSite):
    def admin_view(self, view: Callable[..., Any], cacheable: bool = False) -> Callable[..., Any]:
        model_admin = getattr(view, "__self__", None)
        if not isinstance(model_admin, admin.ModelAdmin):
            return super().admin_view(view, cacheable)

        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            problem = _bad_selection(request, model_admin)
            if problem:
                return bad_request(request, message=problem)
            response: HttpResponse = view(request, *args, **kwargs)
            return response

        return super().admin_view(checked, cacheable)


class GammonAdminConfig(AdminConfig):
    default_site = "gamesite.admin_site.GammonAdminSite"

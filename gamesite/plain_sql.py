"""The pieces of a statement written once as plain SQL (where building the ORM's query cost a hot
path more than its round trip): a model's table and its fields' columns, quoted for the database
in use, and the placeholders of an IN list."""

from __future__ import annotations

from django.db import connection, models

__all__ = ["columns", "placeholders", "table"]


def table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def columns(model: type[models.Model], *fields: str) -> dict[str, str]:
    """Each of ``fields`` (a foreign key by its field's name: "owner") -> its quoted column."""
    return {name: connection.ops.quote_name(model._meta.get_field(name).column) for name in fields}


def placeholders(count: int) -> str:
    """``count`` parameters' placeholders for an IN list: "%s, %s, %s"."""
    return ", ".join(["%s"] * count)

"""Buddy list and ignore list: the one place either changes, and the questions others ask of them.

An ignore works both ways for everything it hides: neither player sees the other's open
challenges, neither is paired with the other by auto-match, neither can message the other.
Whoever is ignored is not told so; what they try is refused with the same words as for anyone
who cannot do it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef, Q

from accounts.models import Relation
from gamesite.plain_sql import columns, placeholders, table

__all__ = [
    "RelationRefused",
    "buddy_ids",
    "either_ignores",
    "ignore_wall_ids",
    "ignore_walls",
    "relation_of",
    "relation_remove",
    "relation_set",
    "walled_off_from",
]

Kind = Relation.Kind


class RelationRefused(ValueError):
    """A list change that cannot be made; the message is for the player."""


def _other_user(owner: Any, username: str) -> Any:
    User = get_user_model()
    username = (username or "").strip()
    other = User.objects.filter(username__iexact=username, is_active=True).first()
    if other is None:
        raise RelationRefused(f"There is no player called “{username}”.")
    if other.pk == owner.pk:
        raise RelationRefused("That is you: your lists are for other players.")
    return other


def relation_set(*, owner: Any, username: str, kind: str) -> Relation:
    """Put the player called ``username`` on ``owner``'s buddy or ignore list (moving them if
    they were on the other one); doing it twice changes nothing."""
    if kind not in Kind.values:
        raise RelationRefused("A player goes on the buddy list or the ignore list.")
    other = _other_user(owner, username)
    for _attempt in range(2):  # a racing twin may insert the row between our read and write
        try:
            with transaction.atomic():
                relation, created = Relation.objects.select_for_update().get_or_create(
                    owner=owner, other=other, defaults={"kind": kind}
                )
                if not created and relation.kind != kind:
                    relation.kind = kind
                    relation.save(update_fields=["kind"])
                return relation
        except IntegrityError:
            continue
    raise RelationRefused("That list changed at the same moment: please try again.")


def relation_remove(*, owner: Any, username: str, kind: str) -> None:
    """Take the player off ``owner``'s list of that kind; not being on it is no error."""
    other = _other_user(owner, username)
    Relation.objects.filter(owner=owner, other=other, kind=kind).delete()


def relation_of(owner: Any, other: Any) -> str | None:
    """"buddy", "ignore" or None: what ``other`` is to ``owner``."""
    if owner is None or not getattr(owner, "is_authenticated", False) or owner.pk == other.pk:
        return None
    return Relation.objects.filter(owner=owner, other=other).values_list("kind", flat=True).first()


def buddy_ids(user: Any) -> set[int]:
    """The ids of the players on ``user``'s buddy list."""
    return set(Relation.objects.filter(owner=user, kind=Kind.BUDDY).values_list("other_id", flat=True))


def ignore_wall_ids(user: Any) -> set[int]:
    """The ids of the players ``user`` ignores or is ignored by: hidden from each other."""
    return ignore_walls([user.pk])[user.pk]


def ignore_walls(user_ids: Iterable[int]) -> dict[int, set[int]]:
    """``ignore_wall_ids`` of each of several players, in one query."""
    ids = sorted(set(user_ids))
    walls: dict[int, set[int]] = {user_id: set() for user_id in ids}
    if not ids:
        return walls
    # Plain SQL: every Auto-Match pairing asks this while its player waits, and building the ORM's
    # query cost more than its round trip.
    with connection.cursor() as cursor:
        cursor.execute(_ignore_walls_sql(len(ids)), [Kind.IGNORE.value, *ids, *ids])
        rows = cursor.fetchall()
    for owner, other in rows:
        if owner in walls:
            walls[owner].add(other)
        if other in walls:
            walls[other].add(owner)
    return walls


@lru_cache(maxsize=16)  # one database per process: built once for each number of players
def _ignore_walls_sql(count: int) -> str:
    column = columns(Relation, "kind", "owner", "other")
    ids = placeholders(count)
    return (f"SELECT {column['owner']}, {column['other']} FROM {table(Relation)} "
            f"WHERE {column['kind']} = %s AND ({column['owner']} IN ({ids}) OR {column['other']} IN ({ids}))")


def walled_off_from(user: Any, other_field: str) -> Exists:
    """For a query over rows naming another player in ``other_field`` (a message's "sender"):
    whether one of ``user`` and that player ignores the other, as one SQL EXISTS."""
    return Exists(Relation.objects.filter(kind=Kind.IGNORE).filter(
        Q(owner=user, other=OuterRef(other_field)) | Q(owner=OuterRef(other_field), other=user)
    ))


def either_ignores(a: Any, b: Any) -> bool:
    """Whether one of the two players ignores the other."""
    return Relation.objects.filter(kind=Kind.IGNORE).filter(
        Q(owner=a, other=b) | Q(owner=b, other=a)
    ).exists()

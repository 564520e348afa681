"""Buddy and ignore lists (accounts.relations) and presence (accounts.presence): the shared
facts the community features ask about."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.template import Context, Template
from django.test import Client
from django.utils import timezone

from accounts.models import Profile, Relation
from accounts.presence import forget_marks_here, here_now, mark_seen, seen_key
from accounts.relations import (
    RelationRefused,
    buddy_ids,
    either_ignores,
    ignore_wall_ids,
    relation_of,
    relation_remove,
    relation_set,
)

pytestmark = pytest.mark.django_db


def test_a_player_is_on_one_list_at_most(alice: Any, bob: Any) -> None:
    relation_set(owner=alice, username="BOB", kind="buddy")
    relation_set(owner=alice, username="bob", kind="buddy")  # twice changes nothing
    assert buddy_ids(alice) == {bob.pk}
    relation_set(owner=alice, username="bob", kind="ignore")
    assert buddy_ids(alice) == set()
    assert relation_of(alice, bob) == "ignore"
    assert Relation.objects.count() == 1


def test_an_ignore_hides_both_ways(alice: Any, bob: Any, charlie: Any) -> None:
    relation_set(owner=bob, username="alice", kind="ignore")
    assert either_ignores(alice, bob) and either_ignores(bob, alice)
    assert ignore_wall_ids(alice) == {bob.pk}
    assert ignore_wall_ids(bob) == {alice.pk}
    assert not either_ignores(alice, charlie)
    relation_remove(owner=bob, username="alice", kind="ignore")
    assert not either_ignores(alice, bob)


@pytest.mark.parametrize("username", ["", "nobody", "alice"])
def test_bad_names_are_refused_and_change_nothing(alice: Any, username: str) -> None:
    with pytest.raises(RelationRefused):
        relation_set(owner=alice, username=username, kind="buddy")
    assert not Relation.objects.exists()


def test_a_kind_that_is_no_list_is_refused(alice: Any, bob: Any) -> None:
    with pytest.raises(RelationRefused):
        relation_set(owner=alice, username="bob", kind="enemy")
    assert not Relation.objects.exists()


def test_a_page_marks_its_player_seen_once_a_minute(alice: Any) -> None:
    from django.contrib.sessions.models import Session

    client = Client()
    client.force_login(alice)
    session_saved = Session.objects.get().expire_date
    assert Profile.objects.get(user=alice).last_seen is None
    with time_machine.travel(timezone.now(), tick=False) as clock:
        client.get("/")
        first = Profile.objects.get(user=alice).last_seen
        assert first is not None
        clock.shift(timedelta(seconds=59))
        client.get("/")
        assert Profile.objects.get(user=alice).last_seen == first
        clock.shift(timedelta(seconds=2))
        client.get("/")
        assert Profile.objects.get(user=alice).last_seen == first + timedelta(seconds=61)
    assert list(here_now().values_list("user__username", flat=True)) == ["alice"]
    # Marking writes the profile alone: the session is not saved for it.
    assert Session.objects.get().expire_date == session_saved


def test_another_server_that_marked_the_player_this_minute_spares_the_write(alice: Any) -> None:
    """The cache's mark is shared by the app servers: of those that see the player in a minute,
    one writes."""
    client = Client()
    client.force_login(alice)
    cache.add(seen_key(alice.pk), 1, timeout=60)  # another server marked alice a moment ago
    client.get("/")
    assert Profile.objects.get(user=alice).last_seen is None
    forget_marks_here()
    cache.delete(seen_key(alice.pk))  # a minute later: the mark lapsed
    client.get("/")
    assert Profile.objects.get(user=alice).last_seen is not None


def test_a_server_failure_marks_nobody_seen(alice: Any, rf: Any) -> None:
    """A 503 is usually the database out of reach: marking would wait for it a second time."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.http import HttpResponse

    from accounts.presence import SeenMiddleware

    for status, seen in ((503, False), (500, False), (404, True)):
        Profile.objects.filter(user=alice).update(last_seen=None)
        forget_marks_here()
        cache.clear()
        request = rf.get("/games/")
        request.user, request.session = alice, SessionStore()
        request.session.create()
        SeenMiddleware(lambda _request, status=status: HttpResponse(status=status))(request)
        assert (Profile.objects.get(user=alice).last_seen is not None) is seen, status
        assert (cache.get(seen_key(alice.pk)) is not None) is seen, status


def test_players_not_seen_lately_are_not_here(alice: Any, bob: Any) -> None:
    mark_seen(bob.pk)
    Profile.objects.filter(user=alice).update(last_seen=timezone.now() - timedelta(hours=1))
    assert list(here_now().values_list("user__username", flat=True)) == ["bob"]


def test_player_link_escapes_and_links(alice: Any) -> None:
    html = Template("{% load players %}{{ p|player_link }}").render(Context({"p": alice}))
    assert html == '<a class="player-link" href="/players/alice/">alice</a>'
    assert Template("{% load players %}{{ p|player_link }}").render(Context({"p": "<b>"})) == (
        '<a class="player-link" href="/players/%3Cb%3E/">&lt;b&gt;</a>'
    )


def test_an_api_token_marks_its_player_seen_without_starting_a_session(alice: Any) -> None:
    from django.contrib.sessions.models import Session

    from api.tokens import token_create

    _, secret = token_create(user=alice, name="bot")
    client = Client()
    for _ in range(2):
        assert client.get("/api/v1/me", headers={"Authorization": f"Bearer {secret}"}).status_code == 200
    assert Profile.objects.get(user=alice).last_seen is not None
    assert not Session.objects.exists()

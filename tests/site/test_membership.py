"""Members' ladders and tournaments: staff make a player a member (the profile, in Django
admin); only members may join, everyone else is refused with the reason and nothing changes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from membership.periods import membership_extend
from tournaments.ladders import LadderConflict, ladder_create, ladder_join
from tournaments.models import Entry, LadderRung
from tournaments.tournaments import TournamentConflict, tournament_create, tournament_join

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


def make_member(user: Any) -> None:
    # As an operator does in the admin (a staff period): the profile's save is heard by the kept copy.
    membership_extend(user=user, staff=None, days=30, reason="a test's member")
    user.refresh_from_db()
    user.profile.refresh_from_db()


def test_only_members_join_a_members_ladder(admin_user: Any, alice: Any, bob: Any) -> None:
    ladder = ladder_create(staff=admin_user, name="Members' BX", variant="BX", match_length=None,
                           time_limit=DAY, members_only=True)
    with pytest.raises(LadderConflict, match="for members only"):
        ladder_join(ladder_id=ladder.pk, player=alice)
    assert not LadderRung.objects.exists()
    make_member(bob)
    ladder_join(ladder_id=ladder.pk, player=bob)
    assert list(LadderRung.objects.values_list("player__username", flat=True)) == ["bob"]


def test_only_members_join_a_members_tournament(admin_user: Any, alice: Any, bob: Any) -> None:
    cup = tournament_create(staff=admin_user, name="Members' cup", variant="BX",
                            format="single_elimination", size=4, time_limit=DAY, members_only=True)
    with pytest.raises(TournamentConflict, match="for members only"):
        tournament_join(tournament_id=cup.pk, player=alice)
    make_member(bob)
    tournament_join(tournament_id=cup.pk, player=bob)
    assert list(Entry.objects.values_list("player__username", flat=True)) == ["bob"]


def test_an_open_ladder_takes_anyone(admin_user: Any, alice: Any) -> None:
    ladder = ladder_create(staff=admin_user, name="Open BX", variant="BX", match_length=None,
                           time_limit=DAY)
    ladder_join(ladder_id=ladder.pk, player=alice)
    assert LadderRung.objects.count() == 1


def test_the_profile_says_whether_one_is_a_member(alice_client: Client, alice: Any) -> None:
    page = " ".join(alice_client.get(reverse("accounts:profile")).content.decode().split())
    assert "<dt>Membership</dt><dd>Not a member (" in page
    make_member(alice)
    page = " ".join(alice_client.get(reverse("accounts:profile")).content.decode().split())
    assert "<dt>Membership</dt><dd>Member until" in page

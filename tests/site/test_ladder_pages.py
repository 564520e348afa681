"""The Ladders page: ranks and records, Join and Leave, Challenge buttons only where allowed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from gamebuilder import fast_passwords  # noqa: F401

from tournaments.ladders import ladder_create, ladder_join
from tournaments.models import Ladder, LadderMatch, LadderRung

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(make_user: Any) -> Ladder:
    staff = make_user("steward")
    staff.is_staff = True
    staff.save()
    return ladder_create(staff=staff, name="BX 2 days", variant="BX", match_length=None,
                         time_limit=timedelta(days=2))


def test_the_page_lists_ranks_records_and_challenge_buttons_where_allowed(
    ladder: Ladder, alice: Any, bob: Any, charlie: Any, charlie_client: Any
) -> None:
    for user in (alice, bob, charlie):
        ladder_join(ladder_id=ladder.pk, player=user)
    LadderRung.objects.filter(player=alice).update(wins=3, losses=1)
    page = charlie_client.get(reverse("tournaments:ladders"))
    html = page.content.decode()
    assert page.status_code == 200 and "BX 2 days" in html and "2 days per move" in html
    assert "3–1" in html and "Leave BX 2 days" in html
    assert "Challenge alice" in html and "Challenge bob" in html and "Challenge charlie" not in html


def test_the_menu_links_the_page_and_strangers_see_it_without_buttons(
    ladder: Ladder, alice: Any, bob: Any, client: Any, alice_client: Any
) -> None:
    ladder_join(ladder_id=ladder.pk, player=alice)
    ladder_join(ladder_id=ladder.pk, player=bob)
    assert reverse("tournaments:ladders") in alice_client.get(reverse("backgammon:status")).content.decode()
    html = client.get(reverse("tournaments:ladders")).content.decode()
    assert "alice" in html and "bob" in html
    assert "Challenge alice" not in html and "Join BX 2 days" not in html and "<form" not in html.split("<main")[1]


def test_join_challenge_and_leave_from_the_page(ladder: Ladder, alice: Any, bob_client: Any) -> None:
    ladder_join(ladder_id=ladder.pk, player=alice)
    joined = bob_client.post(reverse("tournaments:ladder_join", args=[ladder.pk]), follow=True)
    assert "You joined the ladder BX 2 days at rank 2." in joined.content.decode()
    made = bob_client.post(reverse("tournaments:ladder_challenge", args=[ladder.pk]), {"opponent": "alice"},
                           follow=True)
    assert "You challenged alice" in made.content.decode()
    assert LadderMatch.objects.get().challenge.challenged == alice
    left = bob_client.post(reverse("tournaments:ladder_leave", args=[ladder.pk]), follow=True)
    assert "You left the ladder." in left.content.decode()
    assert list(LadderRung.objects.values_list("player__username", flat=True)) == ["alice"]


def test_refusals_show_the_reason_and_change_nothing(
    ladder: Ladder, alice: Any, bob: Any, alice_client: Any, charlie_client: Any
) -> None:
    ladder_join(ladder_id=ladder.pk, player=alice)
    ladder_join(ladder_id=ladder.pk, player=bob)
    again = alice_client.post(reverse("tournaments:ladder_join", args=[ladder.pk]))
    assert again.status_code == 409 and "You are already on the ladder BX 2 days." in again.content.decode()
    below = alice_client.post(reverse("tournaments:ladder_challenge", args=[ladder.pk]), {"opponent": "bob"})
    assert below.status_code == 400 and "bob is below you" in below.content.decode()
    outsider = charlie_client.post(reverse("tournaments:ladder_challenge", args=[ladder.pk]), {"opponent": "alice"})
    assert outsider.status_code == 400 and "Join the ladder BX 2 days" in outsider.content.decode()
    missing = alice_client.post(reverse("tournaments:ladder_join", args=[999]))
    assert missing.status_code == 404
    assert not LadderMatch.objects.exists() and LadderRung.objects.count() == 2


def test_actions_need_a_log_in_and_a_post(ladder: Ladder, client: Any, alice_client: Any) -> None:
    url = reverse("tournaments:ladder_join", args=[ladder.pk])
    assert client.post(url).status_code == 302 and not LadderRung.objects.exists()
    assert alice_client.get(url).status_code == 405

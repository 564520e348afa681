"""Staff see ratings and their history in Django admin; the history cannot be edited there."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords, start_game  # noqa: F401

from backgammon.services import game_adjudicate
from tournaments.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def adjudicated(alice: Any, bob: Any, admin_user: Any) -> None:
    game = start_game(alice, bob, "BX")
    game_adjudicate(game_id=game.pk, staff=admin_user, winner=bob, reason="Alice left")


def test_staff_see_ratings_and_their_history(admin_client: Client, adjudicated: None) -> None:
    ratings = admin_client.get(reverse("admin:tournaments_rating_changelist"), {"q": "bob"})
    assert ratings.status_code == 200 and "1510.0" in ratings.content.decode()
    history = admin_client.get(reverse("admin:tournaments_ratingchange_changelist"))
    assert history.status_code == 200 and "-10.0" in history.content.decode()


def test_the_history_is_read_only(admin_client: Client, adjudicated: None) -> None:
    change = RatingChange.objects.get(change__gt=0)
    url = reverse("admin:tournaments_ratingchange_change", args=[change.pk])
    admin_client.post(url, {"change": "99", "rating_after": "2000"})
    change.refresh_from_db()
    assert round(change.change, 2) == 10.0
    delete = admin_client.post(reverse("admin:tournaments_ratingchange_delete", args=[change.pk]), {"post": "yes"})
    assert delete.status_code == 403 and RatingChange.objects.count() == 2
    assert admin_client.get(reverse("admin:tournaments_rating_add")).status_code == 403
    rating = Rating.objects.get(player__username="bob")
    admin_client.post(reverse("admin:tournaments_rating_change", args=[rating.pk]), {"rating": "3000"})
    rating.refresh_from_db()
    assert rating.rating == pytest.approx(1510.0)

"""The pages of section 4: vacations on the profile, more time and time left on the game and
status pages."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
import time_machine
from django.urls import reverse
from gamebuilder import fast_passwords, scripted_dice, start_game  # noqa: F401

from accounts.models import Vacation
from accounts.vacations import vacation_book
from backgammon.models import Game, TimeGift

pytestmark = pytest.mark.django_db

MONDAY = "2026-01-05 12:00:00+00:00"
PROFILE = reverse("accounts:profile")
BOOK = reverse("accounts:vacation_book")


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Alice to play in a BP match with a 2-day limit, started Monday noon."""
    scripted_dice(monkeypatch).then((3, 1))
    with time_machine.travel(MONDAY, tick=False):
        return start_game(alice, bob, "BP", time_limit=timedelta(days=2))


def test_a_player_books_and_cancels_a_vacation_on_the_profile(
    alice: Any, client_for: Any, settings: Any
) -> None:
    settings.VACATION_DAYS_PER_YEAR = 14
    client = client_for(alice)
    with time_machine.travel(MONDAY, tick=False):
        response = client.post(BOOK, {"start": "2026-01-10", "days": "3"})
        assert response.status_code == 302
        page = client.get(PROFILE).content.decode()
        assert "10 January 2026 to 12 January 2026 (3 days)" in page
        assert "You have 11 of 14 days left in 2026" in page
        vacation = Vacation.objects.get(user=alice)
        response = client.post(reverse("accounts:vacation_cancel", args=[vacation.pk]))
        assert response.status_code == 302
    assert not Vacation.objects.exists()


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"start": "2026-01-05", "days": "2"}, "A vacation must start tomorrow or later"),
        ({"start": "2026-01-10", "days": "15"}, "You have 14 vacation days left in 2026"),
        ({"start": "next week", "days": "2"}, "Give the first day of the vacation as a date."),
        ({"start": "2026-01-10", "days": "two"}, "Give the number of days as a whole number."),
    ],
)
def test_a_refused_booking_says_why_and_changes_nothing(
    alice: Any, client_for: Any, settings: Any, data: dict[str, str], reason: str
) -> None:
    settings.VACATION_DAYS_PER_YEAR = 14
    with time_machine.travel(MONDAY, tick=False):
        response = client_for(alice).post(BOOK, data)
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not Vacation.objects.exists()


def test_the_game_and_status_pages_show_time_left_counting_the_vacation(
    game: Game, alice: Any, bob: Any, client_for: Any
) -> None:
    with time_machine.travel(MONDAY, tick=False):
        vacation_book(user=alice, start=date(2026, 1, 6), days=3)
    with time_machine.travel("2026-01-07 09:00:00+00:00", tick=False):
        game_page = client_for(bob).get(reverse("backgammon:game", args=[game.pk])).content.decode()
        status_page = client_for(alice).get(reverse("backgammon:status")).content.decode()
    # Deadline pushed from Wednesday noon to Saturday noon: 3 days 3 hours from Wednesday 9:00.
    words = "3 days 3 hours left (alice is on vacation until 9 January)"
    assert words in game_page
    assert "3 days 3 hours (alice is on vacation until 9 January)" in status_page


def test_the_waiting_player_gives_more_time_from_the_game_page(
    game: Game, alice: Any, bob: Any, client_for: Any
) -> None:
    url = reverse("backgammon:game", args=[game.pk])
    give = reverse("backgammon:game_give_time", args=[game.pk])
    assert give not in client_for(alice).get(url).content.decode()  # alice is to act
    with time_machine.travel(MONDAY, tick=False):
        assert give in client_for(bob).get(url).content.decode()
        response = client_for(bob).post(give, {"days": "7"})
        assert response.status_code == 302
        page = client_for(alice).get(url).content.decode()
    assert "bob gave alice 7 more days" in page
    assert "9 days left" in page
    assert TimeGift.objects.get().extra == timedelta(days=7)


@pytest.mark.parametrize(("who", "days", "status"), [("alice", "1", 400), ("charlie", "1", 403),
                                                     ("bob", "5", 400), ("bob", "x", 400)])
def test_more_time_refused_on_the_page_changes_nothing(
    game: Game, client_for: Any, request: Any, who: str, days: str, status: int
) -> None:
    give = reverse("backgammon:game_give_time", args=[game.pk])
    response = client_for(request.getfixturevalue(who)).post(give, {"days": days})
    assert response.status_code == status
    assert not TimeGift.objects.exists()
    assert Game.objects.get(pk=game.pk).deadline == game.deadline


def test_operators_see_vacations_in_admin_but_book_them_only_through_the_service(
    alice: Any, make_user: Any, client_for: Any
) -> None:
    staff = make_user("operator")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    with time_machine.travel(MONDAY, tick=False):
        vacation_book(user=alice, start=date(2026, 1, 6), days=2)
    client = client_for(staff)
    listing = client.get(reverse("admin:accounts_vacation_changelist"))
    assert listing.status_code == 200 and "alice" in listing.content.decode()
    assert client.get(reverse("admin:accounts_vacation_add")).status_code == 403


def test_one_move_gets_at_most_seven_more_days_from_the_page(
    game: Game, alice: Any, bob: Any, client_for: Any
) -> None:
    """Issue 29: six gifts at once moved a deadline by 42 days. One move takes 7 days at most."""
    give = reverse("backgammon:game_give_time", args=[game.pk])
    client = client_for(bob)
    with time_machine.travel(MONDAY, tick=False):
        assert client.post(give, {"days": "3"}).status_code == 302
        assert client.post(give, {"days": "3"}).status_code == 302
        too_much = client.post(give, {"days": "3"})
        assert too_much.status_code == 400
        assert "you can give 1 day more at most" in too_much.content.decode()
        assert client.post(give, {"days": "1"}).status_code == 302
        full = client.post(give, {"days": "1"})
    assert full.status_code == 400
    assert "alice has already been given 7 days more on this move" in full.content.decode()
    assert sum((gift.extra for gift in TimeGift.objects.all()), timedelta()) == timedelta(days=7)
    assert Game.objects.get(pk=game.pk).deadline == game.deadline + timedelta(days=7)

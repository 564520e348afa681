"""The lobby pages: Game status, Start new game, challenge answers, Next game, the header count."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

from accounts.relations import relation_set
from backgammon.engine.actions import Action
from backgammon.models import Challenge, Game
from backgammon.services import challenge_create
from backgammon.views.lobby import game_url

pytestmark = pytest.mark.django_db

STATUS = "backgammon:status"


def challenge(challenger: Any, opponent: Any, variant: str = "BP") -> Challenge:
    return challenge_create(
        challenger=challenger, opponent=opponent.get_username(), variant=variant, time_limit=timedelta(days=1)
    )


def form_data(**changes: Any) -> dict[str, Any]:
    data = {"opponent": "bob", "variant": "BP", "match_length": "", "time_limit": str(3 * 86400)}
    data.update(changes)
    return data


def test_the_lobby_pages_need_a_login(client: Client) -> None:
    for name in (STATUS, "backgammon:new_game", "backgammon:next_game"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.parametrize("kept_answers", [True, False], ids=["kept answers", "no kept answers"])
def test_status_lists_my_turn_first_then_theirs_then_challenges(
    alice_client: Client, alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch, settings: Any,
    kept_answers: bool,
) -> None:
    settings.KEPT_ANSWERS = kept_answers  # the players are kept users, or read in one query
    scripted_dice(monkeypatch).then((3, 1), (1, 3), (3, 1))
    mine = start_game(alice, bob, "BX")  # alice won the opening: her turn
    theirs = start_game(alice, charlie, "BX")  # charlie won it: his turn
    incoming = challenge(charlie, alice, "BN")
    outgoing = challenge(alice, bob, "B9")
    ended = start_game(charlie, alice, "BX")  # charlie's turn: he resigns
    ended = act(act(ended, charlie, Action.resign(1)), alice, Action.accept_resign())
    page = alice_client.get(reverse(STATUS)).content.decode()
    finished = page[page.index("Recently finished"):]
    assert f"#{ended.pk}<" in finished and ">charlie<" in finished and ended.result and ended.result in finished
    assert page.index(f"#{mine.pk}<") < page.index("Waiting for your opponent") < page.index(f"#{theirs.pk}<")
    assert "Your turn <span class=\"count\">(1)</span>" in page
    assert f'action="{reverse("backgammon:challenge_respond", args=[incoming.pk])}"' in page
    assert f'action="{reverse("backgammon:challenge_respond", args=[outgoing.pk])}"' in page
    assert 'value="withdraw"' in page and 'value="accept"' in page
    assert "Nackgammon" in page and "a match to 9" in page


def test_status_lists_read_the_active_games_once_and_keep_each_list_by_deadline(
    alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    from backgammon.services.queries import status_lists

    scripted_dice(monkeypatch).then((3, 1), (1, 3), (3, 1), (1, 3))
    games = [start_game(alice, bob, "BX"), start_game(alice, charlie, "BX"),
             start_game(alice, charlie, "BX"), start_game(alice, bob, "BX")]
    # Deadlines in the opposite order to creation, so the lists' order is the deadlines'.
    for hours, game in enumerate(reversed(games)):
        Game.objects.filter(pk=game.pk).update(deadline=game.deadline + timedelta(hours=hours))
    with django_assert_num_queries(4):  # active games, finished games, challenges, the players not kept
        status_lists(alice)
    with django_assert_num_queries(3):  # the players are kept now
        lists = status_lists(alice)
    assert [g.pk for g in lists.my_turn] == [games[2].pk, games[0].pk]
    assert [g.pk for g in lists.their_turn] == [games[3].pk, games[1].pk]
    assert {g.actor_id for g in lists.my_turn} == {alice.pk}
    assert alice.pk not in {g.actor_id for g in lists.their_turn}


def test_status_shows_nothing_of_other_players(charlie_client: Client, alice: Any, bob: Any) -> None:
    start_game(alice, bob, "BX")
    challenge(alice, bob)
    page = charlie_client.get(reverse(STATUS)).content.decode()
    assert "alice" not in page and "bob" not in page


def test_the_header_counts_games_where_i_must_act(
    alice_client: Client, alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1), (4, 1), (1, 3))
    start_game(alice, bob, "BX")
    start_game(alice, charlie, "BN")
    start_game(alice, charlie, "BX")  # charlie's turn: not counted
    page = alice_client.get(reverse("help_rules")).content.decode()
    assert "Game status <span id=\"play-menu-count\"><span class=\"badge\" aria-label=\"2 waiting for you\">(2)</span></span>" in page


def test_new_game_offers_every_variant_with_sensible_defaults(alice_client: Client) -> None:
    page = alice_client.get(reverse("backgammon:new_game"), {"opponent": "bob"}).content.decode()
    for code in ("BX", "BP", "BA", "BN", "BR", "BS", "BO", "B9", "MP"):
        assert f'value="{code}"' in page
    assert 'value="BP"' in page and 'value="bob"' in page
    assert '<option value="259200" selected>3 days</option>' in page
    assert "All checkers start on the bar" in page


def test_new_game_sends_a_challenge(alice_client: Client, alice: Any, bob: Any) -> None:
    response = alice_client.post(reverse("backgammon:new_game"), form_data(match_length="7", message="Hi Bob"))
    assert response.status_code == 302 and response["Location"] == reverse(STATUS)
    sent = Challenge.objects.get()
    assert (sent.challenger, sent.challenged, sent.variant, sent.match_length, sent.message) == (alice, bob, "BP", 7, "Hi Bob")
    assert sent.time_limit == timedelta(days=3)
    page = alice_client.get(reverse(STATUS)).content.decode()
    assert "Your challenge was sent to bob." in page


@pytest.mark.parametrize(
    ("changes", "rated", "terms"),
    [
        ({"rated": "on"}, True, "per move, rated."),
        ({}, False, "per move, unrated."),  # an unticked box is not sent
        ({"variant": "MP", "rated": "on"}, False, "stake"),  # money play is never rated
    ],
)
def test_new_game_asks_whether_the_game_is_rated(
    alice_client: Client, alice: Any, bob: Any, changes: dict[str, str], rated: bool, terms: str
) -> None:
    form = alice_client.get(reverse("backgammon:new_game")).content.decode()
    assert 'name="rated"' in form and "changes both players' ratings" in form
    alice_client.post(reverse("backgammon:new_game"), form_data(**changes))
    assert Challenge.objects.get().rated is rated
    status = alice_client.get(reverse(STATUS)).content.decode()
    assert terms in " ".join(status.split())
    if changes.get("variant") == "MP":
        assert "rated" not in status.split("You challenged", 1)[1].split("</p>", 1)[0]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"opponent": "alice"}, "You cannot challenge yourself"),
        ({"opponent": "zed"}, "There is no player called &#x27;zed&#x27;"),
        ({"variant": "BX", "match_length": "5"}, "Backgammon is a single game"),
        ({"time_limit": "12345"}, "Select a valid choice"),
        ({"variant": "BP", "jacoby": "on"}, "belong to the money game (MP)"),
        ({"opponent": "bob", "ignored": True}, "That player cannot receive your challenges."),
    ],
)
def test_new_game_errors_re_render_and_change_nothing(
    alice_client: Client, bob: Any, changes: dict[str, str], message: str
) -> None:
    if changes.pop("ignored", False):
        relation_set(owner=bob, username="alice", kind="ignore")
    response = alice_client.post(reverse("backgammon:new_game"), form_data(**changes))
    assert response.status_code == 400
    assert message in response.content.decode()  # as written: a sentence with its capital letter
    assert not Challenge.objects.exists()


def test_accepting_a_challenge_starts_the_game_and_goes_to_it(bob_client: Client, alice: Any, bob: Any) -> None:
    sent = challenge(alice, bob)
    response = bob_client.post(reverse("backgammon:challenge_respond", args=[sent.pk]), {"response": "accept"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game_url(game)
    assert (game.black, game.white, game.status) == (alice, bob, "active")


def test_declining_and_withdrawing(alice_client: Client, bob_client: Client, alice: Any, bob: Any) -> None:
    first, second = challenge(alice, bob, "BX"), challenge(alice, bob, "BN")
    bob_client.post(reverse("backgammon:challenge_respond", args=[first.pk]), {"response": "decline"})
    alice_client.post(reverse("backgammon:challenge_respond", args=[second.pk]), {"response": "withdraw"})
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == ("declined", "withdrawn")


def test_a_refused_answer_shows_why_and_changes_nothing(alice_client: Client, alice: Any, bob: Any) -> None:
    sent = challenge(alice, bob)
    url = reverse("backgammon:challenge_respond", args=[sent.pk])
    response = alice_client.post(url, {"response": "accept"})
    assert response.status_code == 409
    assert "Only the challenged player can answer this challenge." in response.content.decode()
    assert alice_client.post(url, {"response": "dance"}).status_code == 400
    assert alice_client.get(url).status_code == 405
    sent.refresh_from_db()
    assert sent.status == "pending" and not Game.objects.exists()


def test_outsiders_get_404_for_challenges_that_are_not_theirs(charlie_client: Client, alice: Any, bob: Any) -> None:
    sent = challenge(alice, bob)
    for response in ("accept", "decline", "withdraw"):
        url = reverse("backgammon:challenge_respond", args=[sent.pk])
        assert charlie_client.post(url, {"response": response}).status_code == 404
    assert charlie_client.post(reverse("backgammon:challenge_respond", args=[sent.pk + 99]), {"response": "accept"}).status_code == 404
    sent.refresh_from_db()
    assert sent.status == "pending"


def test_next_game_goes_to_the_oldest_deadline_first(
    alice_client: Client, alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1), (3, 1))
    later = start_game(alice, bob, "BX", time_limit=timedelta(days=7))
    sooner = start_game(alice, charlie, "BX", time_limit=timedelta(hours=1))
    response = alice_client.get(reverse("backgammon:next_game"))
    assert response.status_code == 302 and response["Location"] == game_url(sooner)
    act(sooner, alice, Action.play([(8, 5), (6, 5)]))
    assert alice_client.get(reverse("backgammon:next_game"))["Location"] == game_url(later)


def test_next_game_with_nothing_to_do_says_so(alice_client: Client) -> None:
    response = alice_client.get(reverse("backgammon:next_game"), follow=True)
    assert response.redirect_chain[-1][0] == reverse(STATUS)
    assert "No game is waiting for you." in response.content.decode()


def _challenge_item(page: str, challenge: Challenge) -> str:
    start = page.index(f'<li class="challenge" id="challenge-{challenge.pk}">')
    item = page[start:page.index("</li>", start)]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "TOKEN", item)


def test_a_challenge_to_me_reads_the_same_on_game_status_and_the_main_screen(
    alice_client: Client, alice: Any, bob: Any
) -> None:
    # One list (backgammon/jinja2/backgammon/_challenges.html) for both pages, not two copies.
    to_me = challenge_create(challenger=bob, opponent="alice", variant="MP", time_limit=timedelta(days=1), stake=3,
                             jacoby=True, beavers=True, automatic_doubles=2, message="Hi <b>you</b>\nline two & more")
    status = alice_client.get(reverse(STATUS)).content.decode()
    item = _challenge_item(status, to_me)
    assert item == _challenge_item(alice_client.get("/").content.decode(), to_me)
    assert ">bob</a></strong> challenges you to" in item
    assert "stake 3 per point, Jacoby, beavers, up to 2 automatic doubles." in item and "rated" not in item
    assert "Hi &lt;b&gt;you&lt;/b&gt;<br>line two &amp; more" in item and "Sent just now." in item


def test_game_status_forms_carry_a_token_the_csrf_check_accepts(alice: Any, bob: Any, charlie: Any) -> None:
    incoming = challenge(bob, alice)
    outgoing = challenge(alice, charlie)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    lists = browser.get(reverse(STATUS), headers={"HX-Request": "true"}).content.decode()
    assert lists.startswith('<div id="status-lists"') and "<html" not in lists
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', lists))
    assert len(tokens) == 1  # read once for every form of the lists
    respond = reverse("backgammon:challenge_respond", args=[incoming.pk])
    assert browser.post(respond, {"response": "accept"}).status_code == 403
    assert Challenge.objects.get(pk=incoming.pk).status == Challenge.Status.PENDING
    token = tokens.pop()
    assert browser.post(respond, {"response": "accept", "csrfmiddlewaretoken": token}).status_code == 302
    withdraw = reverse("backgammon:challenge_respond", args=[outgoing.pk])
    assert browser.post(withdraw, {"response": "withdraw", "csrfmiddlewaretoken": token}).status_code == 302
    assert [c.status for c in Challenge.objects.order_by("pk")] == [Challenge.Status.ACCEPTED, Challenge.Status.WITHDRAWN]


def test_the_time_left_says_when_in_the_sites_time_zone(
    alice_client: Client, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.TIME_ZONE = "Europe/Paris"
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BX")
    page = alice_client.get(reverse(STATUS)).content.decode()
    local = game.deadline.astimezone(ZoneInfo("Europe/Paris")).isoformat()
    assert f'<time datetime="{local}">' in page and local.endswith("+01:00")


def test_the_lists_ask_for_the_csrf_cookie_only_when_they_have_a_form(alice_client: Client, alice: Any, bob: Any) -> None:
    # Every open Game status asks for its lists on each status event: with no challenge they have
    # no form, and their answer should not send the CSRF cookie again each time.
    refresh = alice_client.get(reverse(STATUS), headers={"HX-Request": "true"})
    assert refresh.status_code == 200 and "csrftoken" not in refresh.cookies
    challenge(bob, alice)
    refresh = alice_client.get(reverse(STATUS), headers={"HX-Request": "true"})
    assert "csrftoken" in refresh.cookies and 'name="csrfmiddlewaretoken"' in refresh.content.decode()

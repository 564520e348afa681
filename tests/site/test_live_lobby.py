"""Live play in the Waiting Room and Auto-Match (issue 31): live offers and live requests only of
players who are here now ("Who is here?"), paired at once and on the worker's tick, never a live
request with a correspondence one, the gentlest shared clock; the Live tab; joining re-checks
presence under the challenge's lock; bad input that changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from gamebuilder import fast_passwords  # noqa: F401

from accounts.models import Profile
from accounts.presence import here_for_live, here_now, mark_seen, note_seen
from backgammon.engine.clock import LIVE_PRESETS, TimeControl
from backgammon.models import AutoMatchRequest, Challenge, Game
from backgammon.services import (
    ChallengeRejected,
    OpenChallengeFilters,
    auto_match_cancel,
    auto_match_pair,
    auto_match_set,
    open_challenge_create,
    open_challenge_join,
    open_challenges_for,
)
from backgammon.signals import worker_tick

pytestmark = pytest.mark.django_db

ROOM = reverse("backgammon:waiting_room")
LIVE_ROOM = reverse("backgammon:waiting_room_live")
AUTO = reverse("backgammon:auto_match")
DAY = timedelta(days=1)
BLITZ_5 = TimeControl.live(8, 150)  # Blitz for BP's 5-point match


def leave(user: Any) -> None:
    """The player was last seen longer ago than "Who is here?" counts (PRESENCE_MINUTES), and so
    longer ago than live play counts (LIVE_PRESENCE_SECONDS)."""
    Profile.objects.filter(user=user).update(last_seen=timezone.now() - timedelta(minutes=11))


def live_ask(player: Any, presets: tuple[str, ...] = ("blitz",), variants: tuple[str, ...] = ("BP",),
             **options: Any) -> AutoMatchRequest:
    options.setdefault("max_games", 1)
    return auto_match_set(player=player, variants=list(variants), time_limits=[], rated="either",
                          live_presets=list(presets), **options)


def live_offer(challenger: Any, control: TimeControl = BLITZ_5, **options: Any) -> Challenge:
    return open_challenge_create(challenger=challenger, variant="BP", time_limit=DAY, time_control=control,
                                 **options)


# Auto-Match


def test_two_live_requests_of_players_here_start_a_live_match_at_once(alice: Any, bob: Any) -> None:
    first = live_ask(alice)
    assert first.is_live and first.live_presets == ["blitz"] and not Game.objects.exists()
    live_ask(bob, ("standard", "blitz"))
    game = Game.objects.get()
    assert (game.black, game.white, game.variant, game.match_length) == (alice, bob, "BP", 5)
    assert game.time_control() == LIVE_PRESETS["blitz"].control(5) == BLITZ_5
    assert game.clock is not None  # the match clock runs from the opening
    assert set(AutoMatchRequest.objects.values_list("status", flat=True)) == {"filled"}


def test_the_pairings_plain_sql_for_who_is_free_agrees_with_presence_and_live_games(make_user: Any) -> None:
    """``_free_for_live`` (plain SQL, asked while a player waits on a live pairing) is one query
    for two definitions kept elsewhere: here for live (``here_for_live``) and not in a live match
    (``_live_games_in_play``). Each kind of player, asked both ways, gets the same answer."""
    from django.db.models import Q as Either

    from backgammon.services.auto_match import _free_for_live, _live_games_in_play
    from backgammon.services.challenges import game_create

    people = {name: make_user(name) for name in (
        "free", "in_live", "in_correspondence", "after_live", "absent", "inactive", "never_seen",
        "opponent1", "opponent2", "opponent3")}
    for name, player in people.items():
        if name != "never_seen":
            mark_seen(player.pk)
    Profile.objects.filter(user=people["never_seen"]).update(last_seen=None)
    leave(people["absent"])
    type(people["inactive"]).objects.filter(pk=people["inactive"].pk).update(is_active=False)
    game_create(black=people["in_live"], white=people["opponent1"], variant="BP", match_length=5,
                time_limit=DAY, rated=False, time_control=BLITZ_5)
    game_create(black=people["opponent2"], white=people["in_correspondence"], variant="BP", match_length=5,
                time_limit=DAY, rated=False)
    ended = game_create(black=people["after_live"], white=people["opponent3"], variant="BP", match_length=5,
                        time_limit=DAY, rated=False, time_control=BLITZ_5)
    Game.objects.filter(pk=ended.pk).update(status=Game.Status.FINISHED)
    ids = sorted(player.pk for player in people.values())
    playing = _live_games_in_play().filter(Either(black_id__in=ids) | Either(white_id__in=ids))
    in_live = {seat for game in playing for seat in (game.black_id, game.white_id)}
    by_the_orm = set(here_for_live().filter(user_id__in=ids).values_list("user_id", flat=True)) - in_live
    assert _free_for_live(ids) == by_the_orm
    names = {player.pk: name for name, player in people.items()}
    assert {names[pk] for pk in by_the_orm} == {"free", "in_correspondence", "after_live", "opponent2", "opponent3"}


def test_a_live_request_never_pairs_with_a_correspondence_one(alice: Any, bob: Any) -> None:
    live_ask(alice)
    auto_match_set(player=bob, variants=["BP"], time_limits=[DAY], rated="either", max_games=1)
    worker_tick.send(sender=None)
    assert not Game.objects.exists()
    assert set(AutoMatchRequest.objects.values_list("status", flat=True)) == {"open"}


def test_a_live_request_of_a_player_who_left_waits_until_they_are_back(alice: Any, bob: Any, charlie: Any) -> None:
    live_ask(alice)
    leave(alice)
    live_ask(bob)
    assert not Game.objects.exists()  # alice is not here: nothing starts
    worker_tick.send(sender=None)
    assert not Game.objects.exists()
    mark_seen(alice.pk)
    worker_tick.send(sender=None)  # the tick pairs her as soon as she is back
    game = Game.objects.get()
    assert {game.black, game.white} == {alice, bob} and game.time_control().is_live
    # Correspondence requests do not ask who is here.
    leave(charlie)
    AutoMatchRequest.objects.create(player=charlie, variants=["BX"], time_limits=[86400])
    auto_match_set(player=alice, variants=["BX"], time_limits=[DAY], rated="either", max_games=1)
    assert Game.objects.filter(variant="BX", time_limit=DAY, live_reserve_s=None).count() == 1


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        ({"live_presets": ["blitz", "rapid"]}, {"live_presets": ["rapid", "standard"]}, TimeControl.live(12, 300)),
        ({"live_any": True}, {"live_presets": ["blitz"]}, BLITZ_5),
        ({"live_any": True}, {"live_any": True}, TimeControl.live(12, 300)),  # Rapid
        ({"live_clocks": [TimeControl.live(10, 600)]}, {"live_any": True}, TimeControl.live(10, 600)),
        ({"live_clocks": [TimeControl.live(10, 600), TimeControl.live(5, 60)]},
         {"live_clocks": [TimeControl.live(5, 60)], "live_presets": ["standard"]}, TimeControl.live(5, 60)),
        # the gentlest shared clock: the largest reserve
        ({"live_clocks": [TimeControl.live(10, 600)], "live_presets": ["blitz"]},
         {"live_clocks": [TimeControl.live(10, 600)], "live_presets": ["blitz"]}, TimeControl.live(10, 600)),
    ],
)
def test_a_live_pair_plays_the_gentlest_clock_both_accept(
    alice: Any, bob: Any, mine: dict[str, Any], theirs: dict[str, Any], expected: TimeControl
) -> None:
    for player, wish in ((alice, mine), (bob, theirs)):
        rest = {key: value for key, value in wish.items() if key != "live_presets"}
        live_ask(player, tuple(wish.get("live_presets", ())), **rest)
    assert Game.objects.get().time_control() == expected


def test_live_requests_without_a_shared_clock_stay_open(alice: Any, bob: Any) -> None:
    live_ask(alice, ("blitz",))
    live_ask(bob, (), live_clocks=[TimeControl.live(12, 300)])  # Rapid's numbers, but exact: not Blitz
    assert not Game.objects.exists()


def test_a_preset_scales_with_the_variant_paired(alice: Any, bob: Any) -> None:
    live_ask(alice, ("rapid",), variants=("B9",))
    live_ask(bob, ("rapid",), variants=("B9", "BP"))
    game = Game.objects.get()
    assert (game.variant, game.match_length, game.time_control()) == ("B9", 9, TimeControl.live(12, 540))


def test_making_a_live_request_marks_its_player_here(alice: Any, bob: Any) -> None:
    leave(alice)
    leave(bob)
    live_ask(alice)
    live_ask(bob)  # both just asked, from the API or a page: both are here
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"time_limits": [DAY], "live_presets": ["blitz"]}, "correspondence or for live play, not both"),
        ({"live_presets": ["bullet"]}, "There is no live preset 'bullet'"),
        ({"live_presets": []}, "Choose at least one time limit per move, or a live clock"),
        ({"live_clocks": [TimeControl.correspondence(86400)]}, "A live clock has a delay and a reserve"),
        ({"live_clocks": [TimeControl.live(2, 30 + n) for n in range(11)]}, "10 live clocks at most"),
    ],
)
def test_bad_live_requests_are_refused_and_change_nothing(alice: Any, options: dict[str, Any], words: str) -> None:
    arguments: dict[str, Any] = {"variants": ["BP"], "time_limits": [], "rated": "either", "max_games": 1}
    with pytest.raises(ChallengeRejected, match=words):
        auto_match_set(player=alice, **(arguments | options))
    assert not AutoMatchRequest.objects.exists()


def test_the_auto_match_page_asks_for_live_clocks_and_opens_the_paired_match(
    alice: Any, bob: Any, alice_client: Client, bob_client: Client
) -> None:
    page = alice_client.get(AUTO).content.decode()
    assert 'name="live_clocks" value="blitz"' in page and "Any live clock" in page
    answer = alice_client.post(AUTO, {"variants": ["BP"], "live_clocks": ["rapid"], "rated": "either",
                                      "max_games": "1"})
    assert answer.status_code == 302 and answer["Location"] == AUTO
    waiting = alice_client.get(AUTO).content.decode()
    assert "Waiting for a live opponent who is here" in waiting and f"{AUTO}?known=0" in waiting
    assert alice_client.get(AUTO, {"known": "0"}, headers={"HX-Request": "true"}).status_code == 204
    # bob's request pairs at once and his answer opens the match; alice's page is sent there
    paired = bob_client.post(AUTO, {"variants": ["BP", "BX"], "live_clocks": ["any"], "rated": "either",
                                    "max_games": "1"})
    game = Game.objects.get()
    assert paired.status_code == 302 and paired["Location"] == reverse("backgammon:game", args=[game.pk])
    with CaptureQueriesContext(connection) as asked:
        poll = alice_client.get(AUTO, {"known": "0"}, headers={"HX-Request": "true"})
    assert poll.status_code == 200 and poll["HX-Redirect"] == reverse("backgammon:game", args=[game.pk])
    # The poll counts the request's games and names the newest in one query: no game is read.
    read = [query["sql"].split(" FROM ")[1].split()[0] for query in asked.captured_queries if " FROM " in query["sql"]]
    assert read == ['"django_session"', '"backgammon_automatchrequest"'], read
    assert alice_client.get(AUTO, {"known": "1"}, headers={"HX-Request": "true"}).status_code == 286  # stop
    assert alice_client.get(AUTO, {"known": "x"}, headers={"HX-Request": "true"}).status_code == 400
    assert game.time_control() == TimeControl.live(12, 300)
    assert "live, 12 s + 5 min" in alice_client.get(AUTO).content.decode()


def test_a_waiting_poll_without_a_waiting_live_request_stops(alice: Any, alice_client: Client) -> None:
    """No request, a correspondence one, a live one cancelled: the page has nothing to wait for."""
    poll = {"known": "0"}
    htmx = {"HX-Request": "true"}
    assert alice_client.get(AUTO, poll, headers=htmx).status_code == 286
    auto_match_set(player=alice, variants=["BP"], time_limits=[timedelta(days=1)], rated="either", max_games=1)
    assert alice_client.get(AUTO, poll, headers=htmx).status_code == 286
    live_ask(alice)
    assert alice_client.get(AUTO, poll, headers=htmx).status_code == 204
    auto_match_cancel(player=alice)
    assert alice_client.get(AUTO, poll, headers=htmx).status_code == 286


def test_the_post_that_pairs_a_live_request_opens_the_match_from_the_pairing_itself(
    alice: Any, bob: Any, bob_client: Client
) -> None:
    """The games the pairing started are the answer's: it reads neither the request again nor its
    games, before or after (each query is a round trip while the players wait to start)."""
    live_ask(alice)
    with CaptureQueriesContext(connection) as asked:
        paired = bob_client.post(AUTO, {"variants": ["BP"], "live_clocks": ["blitz"], "rated": "either",
                                        "max_games": "1"})
    game = Game.objects.get()
    assert paired.status_code == 302 and paired["Location"] == reverse("backgammon:game", args=[game.pk])
    links = AutoMatchRequest.games.through._meta.db_table
    reads = [query["sql"] for query in asked.captured_queries if query["sql"].startswith("SELECT")]
    assert sum(f'FROM "{links}"' in sql for sql in reads) == 1  # the pass's own: games so far
    assert set(AutoMatchRequest.objects.values_list("status", flat=True)) == {"filled"}


def test_the_auto_match_page_refuses_a_request_for_both_kinds(alice: Any, alice_client: Client) -> None:
    for data in ({"variants": ["BP"], "rated": "either", "max_games": "1"},
                 {"variants": ["BP"], "time_limits": ["86400"], "live_clocks": ["blitz"], "rated": "either",
                  "max_games": "1"},
                 {"variants": ["BP"], "live_clocks": ["bullet"], "rated": "either", "max_games": "1"}):
        answer = alice_client.post(AUTO, data)
        assert answer.status_code == 400 and 'class="errorlist' in answer.content.decode()
    assert not AutoMatchRequest.objects.exists()


# Waiting Room


def test_the_live_tab_lists_live_offers_of_players_here_only(alice: Any, bob: Any, charlie: Any) -> None:
    live = live_offer(alice)
    correspondence = open_challenge_create(challenger=alice, variant="BX", time_limit=DAY)
    live_only = OpenChallengeFilters(live=True)
    assert [row.challenge for row in open_challenges_for(bob, live_only)] == [live]
    assert [row.challenge for row in open_challenges_for(bob, OpenChallengeFilters(live=False))] == [correspondence]
    leave(alice)
    # Gone from the Live tab and from every list; the correspondence offer stays.
    assert open_challenges_for(bob, live_only) == []
    assert [row.challenge for row in open_challenges_for(bob)] == [correspondence]
    mark_seen(alice.pk)
    assert [row.challenge for row in open_challenges_for(charlie, live_only)] == [live]


def test_live_play_counts_only_the_players_seen_in_the_last_two_minutes(
    alice: Any, bob: Any, settings: Any
) -> None:
    """"Who is here?" counts ten minutes, which a live match cannot wait: an offer whose player
    closed their last page three minutes ago is gone, and their live request waits."""
    assert settings.LIVE_PRESENCE_SECONDS == 120
    live = live_offer(alice)
    live_ask(bob)  # nothing to pair with yet: alice asks below
    Profile.objects.filter(user=alice).update(last_seen=timezone.now() - timedelta(minutes=3))
    assert here_now().filter(user=alice).exists()  # still on "Who is here?"
    assert open_challenges_for(bob, OpenChallengeFilters(live=True)) == []
    with pytest.raises(ChallengeRejected, match="has left the waiting room"):
        open_challenge_join(challenge_id=live.pk, actor=bob)
    AutoMatchRequest.objects.create(player=alice, variants=["BP"], time_limits=[], live_presets=["blitz"])
    worker_tick.send(sender=None)
    assert not Game.objects.exists()
    # Seen 100 s ago (an open page marks its player at least every 90 s): here.
    Profile.objects.filter(user=alice).update(last_seen=timezone.now() - timedelta(seconds=100))
    assert [row.challenge for row in open_challenges_for(bob, OpenChallengeFilters(live=True))] == [live]
    worker_tick.send(sender=None)
    assert Game.objects.get().time_control().is_live


def test_joining_a_live_offer_rechecks_that_its_player_is_here(alice: Any, bob: Any) -> None:
    live = live_offer(alice)
    leave(alice)  # between bob's reading of the list and his join
    with pytest.raises(ChallengeRejected, match="has left the waiting room"):
        open_challenge_join(challenge_id=live.pk, actor=bob)
    live.refresh_from_db()
    assert live.status == "pending" and not Game.objects.exists()
    mark_seen(alice.pk)
    game = open_challenge_join(challenge_id=live.pk, actor=bob)
    assert game.time_control() == BLITZ_5 and game.clock is not None


def test_the_live_tab_page_and_the_form_with_its_clock_choice(
    alice: Any, bob: Any, alice_client: Client, bob_client: Client
) -> None:
    correspondence = open_challenge_create(challenger=alice, variant="BX", time_limit=DAY)
    page = alice_client.get(LIVE_ROOM).content.decode()
    assert 'aria-current="page">Live</a>' in page and "No live challenge" in page
    assert 'name="clock" value="rapid"' in page and 'value="rapid" id="id_clock_2" checked' in page
    assert f"open-challenge-{correspondence.pk}" not in page
    posted = alice_client.post(LIVE_ROOM, {"variant": "BP", "match_length": "3", "time_limit": "86400",
                                           "clock": "standard"})
    assert posted.status_code == 302 and posted["Location"] == LIVE_ROOM
    live = Challenge.objects.get(live_reserve_s__isnull=False)
    assert live.time_control() == TimeControl.live(12, 360)
    listed = bob_client.get(LIVE_ROOM).content.decode()
    assert f"open-challenge-{live.pk}" in listed and "12 s + 6 min" in listed
    assert f"open-challenge-{correspondence.pk}" not in listed
    # The correspondence tab lists its own kind only.
    room = bob_client.get(ROOM).content.decode()
    assert f"open-challenge-{correspondence.pk}" in room and f"open-challenge-{live.pk}" not in room
    joined = bob_client.post(reverse("backgammon:waiting_room_join", args=[live.pk]), {"tab": "live"})
    game = Game.objects.get()
    assert joined.status_code == 302 and joined["Location"] == reverse("backgammon:game", args=[game.pk])


def test_a_refused_live_join_goes_back_to_the_live_tab(alice: Any, bob: Any, bob_client: Client) -> None:
    live = live_offer(alice)
    leave(alice)
    answer = bob_client.post(reverse("backgammon:waiting_room_join", args=[live.pk]), {"tab": "live"})
    assert answer.status_code == 302 and answer["Location"] == LIVE_ROOM
    assert not Game.objects.exists()


def test_a_bad_custom_clock_in_the_room_form_changes_nothing(alice: Any, alice_client: Client) -> None:
    answer = alice_client.post(LIVE_ROOM, {"variant": "BP", "time_limit": "86400", "clock": "custom",
                                           "live_delay_s": "1", "live_reserve_min": "5"})
    assert answer.status_code == 400 and "Delay each turn" in answer.content.decode()
    assert not Challenge.objects.exists()


def test_the_creators_live_tab_goes_to_the_match_when_their_offer_is_joined(
    alice: Any, bob: Any, alice_client: Client
) -> None:
    live = live_offer(alice)
    page = alice_client.get(LIVE_ROOM, {"variant": "BP"}).content.decode()
    region = f'hx-get="{LIVE_ROOM}?variant=BP&amp;waiting={live.pk}"'
    assert region in page
    htmx = {"HX-Request": "true"}
    still = alice_client.get(LIVE_ROOM, {"variant": "BP", "waiting": str(live.pk)}, headers=htmx)
    assert still.status_code == 200 and "HX-Redirect" not in still and region in still.content.decode()
    game = open_challenge_join(challenge_id=live.pk, actor=bob)
    joined = alice_client.get(LIVE_ROOM, {"waiting": str(live.pk)}, headers=htmx)
    assert joined["HX-Redirect"] == reverse("backgammon:game", args=[game.pk])
    # Someone else's offer, or nonsense, sends nobody anywhere.
    for waiting in (str(live.pk), "x,,-1", ",".join(["1"] * 500)):
        answer = Client()
        answer.force_login(bob)
        assert "HX-Redirect" not in answer.get(LIVE_ROOM, {"waiting": waiting}, headers=htmx)


def test_a_live_challenge_to_anyone_from_new_game_goes_to_the_live_tab(alice: Any, alice_client: Client) -> None:
    answer = alice_client.post(reverse("backgammon:new_game"), {
        "opponent": "anyone", "variant": "BP", "time_limit": "86400", "clock": "blitz", "rated": "on"})
    assert answer.status_code == 302 and answer["Location"] == LIVE_ROOM
    made = Challenge.objects.get()
    assert made.challenged is None and made.time_control() == BLITZ_5
    assert f"open-challenge-{made.pk}" in alice_client.get(LIVE_ROOM).content.decode()


def test_a_live_request_for_several_games_plays_them_one_after_another(
    alice: Any, bob: Any, charlie: Any, make_user: Any
) -> None:
    from backgammon.services.staff import game_abort

    staff = make_user("referee")
    staff.is_staff = True
    staff.save()
    live_ask(alice, max_games=2)
    live_ask(bob)
    first = Game.objects.get()
    live_ask(charlie)  # alice is in her live match with bob: not paired again yet
    worker_tick.send(sender=None)
    assert Game.objects.count() == 1
    game_abort(game_id=first.pk, staff=staff, reason="the first match is over")
    worker_tick.send(sender=None)
    second = Game.objects.exclude(pk=first.pk).get()
    assert {second.black, second.white} == {alice, charlie}
    assert AutoMatchRequest.objects.get(player=alice).status == "filled"


def test_a_live_request_waiting_for_its_players_match_to_end_says_so_and_cancels_first(
    alice: Any, bob: Any, charlie: Any, alice_client: Client, charlie_client: Client
) -> None:
    """The page says why the request waits (the match the player is in, linked) rather than
    'waiting for an opponent who is here' while one is; its way out comes before its facts, so a
    phone held sideways shows both on its first screen."""
    live_ask(alice, max_games=2)
    live_ask(bob)
    match = Game.objects.get()
    live_ask(charlie)
    page = alice_client.get(AUTO).content.decode()
    assert "You are playing a live match now" in page and "Waiting for a live opponent" not in page
    assert f'href="{reverse("backgammon:game", args=[match.pk])}"' in page
    assert page.index("Cancel request") < page.index("Live clocks")
    waiting = charlie_client.get(AUTO).content.decode()
    assert "Waiting for a live opponent who is here" in waiting and "You are playing" not in waiting
    assert "Say what you will play" not in waiting  # the page's lead gives way to the request
    alice_client.post(reverse("backgammon:auto_match_cancel"))
    assert "Say what you will play" in alice_client.get(AUTO).content.decode()


def test_who_is_free_for_live_play_is_one_question_and_counts_either_colour(
    alice: Any, bob: Any, charlie: Any
) -> None:
    """A pass asks who of the live requests' players is here and not in a live match in one query
    (a round trip fewer while a new arrival waits to be paired), and a player in a match as White is
    as busy as one playing Black."""
    live_ask(alice, max_games=2)
    live_ask(bob, max_games=2)
    match = Game.objects.get()
    assert (match.black, match.white) == (alice, bob)  # both requests stay open for a second game
    live_ask(charlie)
    with CaptureQueriesContext(connection) as asked:
        assert auto_match_pair() == []
    assert Game.objects.count() == 1
    reads = [query["sql"] for query in asked.captured_queries if query["sql"].startswith("SELECT")]
    assert sum('FROM "accounts_profile"' in sql for sql in reads) == 1
    assert not any(sql.split(" FROM ")[1].startswith('"backgammon_game"') for sql in reads), reads


def test_a_live_request_marks_its_player_here_as_any_request_does_at_most_once_a_minute(
    alice: Any, bob: Any
) -> None:
    """A player back after ten minutes away is written here by their live request, and pairs; one
    seen this minute (their page's request, its stream) is not written again while they wait."""
    leave(alice)
    live_ask(alice)
    seen = Profile.objects.get(user=alice).last_seen
    assert seen is not None and seen > timezone.now() - timedelta(seconds=5)
    note_seen(bob.pk)  # bob's Auto-Match page, a moment ago
    with CaptureQueriesContext(connection) as asked:
        live_ask(bob)
    game = Game.objects.get()
    assert {game.black, game.white} == {alice, bob}
    written = [query["sql"] for query in asked.captured_queries if query["sql"].startswith("UPDATE")]
    assert not any('"accounts_profile"' in sql for sql in written), written


def test_a_returning_players_page_reads_its_requests_games_with_their_players_at_once(
    alice: Any, bob: Any, alice_client: Client
) -> None:
    live_ask(alice)
    live_ask(bob)
    game = Game.objects.get()
    with CaptureQueriesContext(connection) as asked:
        page = alice_client.get(AUTO).content.decode()
    assert f"#{game.pk}" in page and "alice" in page and "bob" in page
    links = AutoMatchRequest.games.through._meta.db_table
    reads = [query["sql"] for query in asked.captured_queries if query["sql"].startswith("SELECT")]
    games = [sql for sql in reads if f'"{links}"' in sql]
    assert len(games) == 1 and games[0].count('"auth_user"') >= 2, games  # Black and White joined
    assert not any(' FROM "auth_user" WHERE "auth_user"."id" IN ' in sql for sql in reads), reads

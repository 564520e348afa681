"""Edit game boards: themes whose checkers always stand out, the mirrored home board, point numbers
and pip counts on or off, confirm before Submit, the live preview, and every board drawn that way.

Alice (Black) and Bob (White) play; Charlie watches.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import CheckerColours, Profile
from backgammon.board_svg import WIDTH, BoardStyle, MoveLink, layout_board, mirrored
from backgammon.board_themes import HALO, THEMES, contrast
from backgammon.engine import Position, Side
from backgammon.game_page import scheme_colours
from backgammon.models import Game
from tests.site.gamebuilder import scripted_dice, start_game

# WCAG 2.1 (1.4.11, non-text contrast): a graphical object needs 3:1 against what is next to it.
MIN_CONTRAST = 3.0
SETTINGS_URL = reverse("accounts:board_settings")
PREVIEW_URL = reverse("accounts:board_preview")
SAVED_DEFAULTS = {"board_theme": "classic", "checker_colours": "black-white", "home_board_left": False,
                  "show_point_numbers": True, "show_pip_counts": True, "confirm_submit": False}


def _every_checker() -> list[tuple[str, str, str, str]]:
    """(scheme, viewer, fill, rim) of every checker any viewer can be shown."""
    found = []
    for scheme in CheckerColours:
        for viewer in Side:
            colours = scheme_colours(scheme, viewer)
            found += [(scheme, viewer.name, colours.mine, colours.mine_rim),
                      (scheme, viewer.name, colours.theirs, colours.theirs_rim)]
    return found


def test_the_contrast_formula_gives_wcags_known_values() -> None:
    assert contrast("#000", "#fff") == pytest.approx(21.0)
    assert contrast("#777", "#777") == pytest.approx(1.0)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # WCAG's classic AA grey


@pytest.mark.parametrize("theme", list(THEMES.values()), ids=list(THEMES))
def test_every_checker_stands_out_on_every_surface_of_every_theme(theme: Any) -> None:
    for scheme, viewer, fill, rim in _every_checker():
        for surface in theme.surfaces():
            # The checker's edge is its rim inside a light halo: one of them must stand out.
            best = max(contrast(rim, surface), contrast(HALO, surface), contrast(fill, surface))
            assert best >= MIN_CONTRAST, (theme.key, scheme, viewer, fill, surface)
        # Its own rim marks its edge against its fill too, so stacked checkers stay countable.
        assert max(contrast(rim, fill), contrast(HALO, fill)) >= MIN_CONTRAST, (scheme, fill, rim)


def test_the_colour_blind_choices_differ_in_lightness_not_only_in_hue() -> None:
    theme = THEMES["colourblind"]
    assert contrast(theme.point_dark, theme.point_light) >= MIN_CONTRAST
    colours = scheme_colours(CheckerColours.ORANGE_BLUE, Side.BLACK)
    assert contrast(colours.mine, colours.theirs) >= MIN_CONTRAST


def test_a_mirrored_board_moves_every_coordinate_and_keeps_every_click() -> None:
    start = Position.initial()
    links = [MoveLink(13, 10, 3, "/games/1/?steps=13-10"), MoveLink(25, 22, 3, "/games/1/?steps=bar-22")]
    right = layout_board(start, viewer=Side.BLACK, my_dice=((3, False), (1, False)), cube=(2, "mine"), moves=links)
    left = layout_board(start, viewer=Side.BLACK, my_dice=((3, False), (1, False)), cube=(2, "mine"), moves=links,
                        style=BoardStyle(home_left=True))
    assert left == mirrored(right) and mirrored(left) == right
    one = {t.number: t for t in left.triangles}
    assert one[1].label_x < WIDTH // 2 < one[12].label_x  # point 1 lower left, 12 lower right
    assert left.trays[1].x < left.fields[0].x  # the viewer's tray is beside their home board, on the left
    assert left.cube is not None and right.cube is not None and left.cube.x < right.cube.x  # in the viewer's tray
    assert all(die.x < WIDTH // 2 for die in left.dice)  # the viewer's dice on their own half
    for before, after in zip(right.moves, left.moves, strict=True):
        assert after.href == before.href
        assert after.area.x == WIDTH - before.area.x - before.area.width
        assert after.ring_x == WIDTH - before.ring_x
    pips = [text for text in left.texts if text.kind == "pips"]
    assert pips and all(text.anchor == "start" for text in pips)


def test_numbers_and_pip_counts_can_be_left_off() -> None:
    board = layout_board(Position.initial(), viewer=Side.BLACK,
                         style=BoardStyle(point_numbers=False, pip_counts=False))
    assert not board.point_numbers
    assert not [text for text in board.texts if text.kind == "pips"]


# The pages.

def saved(user: Any) -> dict[str, Any]:
    return Profile.objects.filter(user=user).values(*SAVED_DEFAULTS).get()


def board_of(response: Any) -> str:
    found = re.search(r'<svg class="board".*?</svg>', html.unescape(response.content.decode()), re.DOTALL)
    assert found is not None, "no board on the page"
    return found.group(0)


def point_fills(board: str) -> set[str]:
    return set(re.findall(r'<polygon class="point[^"]*" points="[^"]*" fill="([^"]+)"', board))


@pytest.mark.django_db
def test_the_settings_page_needs_a_login(client: Client) -> None:
    for url in (SETTINGS_URL, PREVIEW_URL):
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.django_db
def test_it_offers_every_theme_and_previews_the_saved_settings(alice: Any, alice_client: Client) -> None:
    response = alice_client.get(SETTINGS_URL)
    assert response.status_code == 200
    body = response.content.decode()
    for theme in THEMES.values():
        assert f'value="{theme.key}"' in body and html.escape(theme.label) in body
    assert f'hx-get="{PREVIEW_URL}"' in body and 'hx-trigger="change"' in body
    assert point_fills(board_of(response)) == {THEMES["classic"].point_dark, THEMES["classic"].point_light}
    assert 'href="/accounts/boards/">Edit game boards</a>' in body  # in the ACCOUNT menu


@pytest.mark.django_db
def test_saving_keeps_the_settings_and_the_preview_shows_them(alice: Any, alice_client: Client) -> None:
    choice = {"board_theme": "ocean", "checker_colours": "orange-blue", "home_board_left": "on",
              "confirm_submit": "on"}
    response = alice_client.post(SETTINGS_URL, choice)
    assert response.status_code == 302
    assert saved(alice) == {"board_theme": "ocean", "checker_colours": "orange-blue", "home_board_left": True,
                            "show_point_numbers": False, "show_pip_counts": False, "confirm_submit": True}
    board = board_of(alice_client.get(SETTINGS_URL))
    assert point_fills(board) == {THEMES["ocean"].point_dark, THEMES["ocean"].point_light}
    assert 'data-home="left"' in board and 'class="point-number"' not in board and 'class="label-pips"' not in board
    assert 'fill="#e69f00"' in board


@pytest.mark.django_db
@pytest.mark.parametrize("bad", [
    {"board_theme": "purple", "checker_colours": "black-white"},
    {"board_theme": "ocean", "checker_colours": "gold-silver"},
    {"board_theme": "", "checker_colours": "black-white"},
    {"board_theme": "ocean\x00", "checker_colours": "black-white"},
    {"board_theme": "x" * 5000, "checker_colours": "black-white", "home_board_left": "on"},
])
def test_a_setting_the_page_does_not_offer_is_refused_and_nothing_changes(
    alice: Any, alice_client: Client, bad: dict[str, str]
) -> None:
    response = alice_client.post(SETTINGS_URL, bad)
    assert response.status_code == 400
    assert saved(alice) == SAVED_DEFAULTS
    if "\x00" in bad["board_theme"]:
        return  # refused before any view sees it (gamesite's NUL guard), with its own error page
    assert 'class="errorlist' in response.content.decode()
    # The preview beside the refused form still shows what is saved.
    assert point_fills(board_of(response)) == {THEMES["classic"].point_dark, THEMES["classic"].point_light}


@pytest.mark.django_db
def test_the_live_preview_draws_the_unsaved_choices_and_saves_nothing(alice: Any, alice_client: Client) -> None:
    response = alice_client.get(PREVIEW_URL, {"board_theme": "contrast", "checker_colours": "red-blue",
                                              "home_board_left": "on", "show_pip_counts": "on"},
                                HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    board = board_of(response)
    assert point_fills(board) == {"#000000", "#a6a6a6"}
    assert 'data-home="left"' in board and 'class="point-number"' not in board and 'class="label-pips"' in board
    assert "<html" not in response.content.decode()  # a fragment for htmx to swap in
    assert saved(alice) == SAVED_DEFAULTS


@pytest.mark.django_db
def test_a_tampered_preview_is_refused_with_the_saved_board(alice: Any, alice_client: Client) -> None:
    response = alice_client.get(PREVIEW_URL, {"board_theme": "<script>", "checker_colours": "black-white"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "<script>" not in body and "not settings this page offers" in body
    assert point_fills(board_of(response)) == {THEMES["classic"].point_dark, THEMES["classic"].point_light}


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Alice (Black) won the opening roll 3-1 and must move."""
    scripted_dice(monkeypatch).then((3, 1))
    return start_game(alice, bob, variant="BX", match_length=0)


def _set(user: Any, **prefs: Any) -> None:
    Profile.objects.filter(user=user).update(**prefs)


def _game_page(client: Client, game: Game, **query: str) -> Any:
    return client.get(reverse("backgammon:game", args=[game.pk]), query)


@pytest.mark.django_db
def test_every_board_a_player_sees_uses_their_own_settings(
    alice: Any, charlie: Any, alice_client: Client, bob_client: Client, charlie_client: Client, game: Game
) -> None:
    _set(alice, board_theme="ocean", home_board_left=True, show_point_numbers=False, show_pip_counts=False)
    _set(charlie, board_theme="colourblind", checker_colours="orange-blue")
    mine = board_of(_game_page(alice_client, game))
    assert point_fills(mine) == {THEMES["ocean"].point_dark, THEMES["ocean"].point_light}
    assert 'data-home="left"' in mine and 'class="point-number"' not in mine and 'class="label-pips"' not in mine
    # Bob keeps the classic board; his settings are his own.
    theirs = board_of(_game_page(bob_client, game))
    assert point_fills(theirs) == {THEMES["classic"].point_dark, THEMES["classic"].point_light}
    assert 'data-home="right"' in theirs and 'class="point-number"' in theirs
    # A watcher sees the game in their own theme and colours.
    watched = board_of(_game_page(charlie_client, game))
    assert point_fills(watched) == {THEMES["colourblind"].point_dark, THEMES["colourblind"].point_light}
    assert 'fill="#e69f00"' in watched
    # And the replay page too.
    replay = board_of(alice_client.get(reverse("analysis:replay", args=[game.pk])))
    assert 'data-home="left"' in replay and point_fills(replay) == {THEMES["ocean"].point_dark,
                                                                    THEMES["ocean"].point_light}


def _links(response: Any) -> dict[str, str]:
    found = re.findall(r'<a class="move" href="([^"]*)" aria-label="([^"]*)"', response.content.decode())
    return {label: html.unescape(href) for href, label in found}


@pytest.mark.django_db
def test_click_to_move_works_on_the_mirrored_board(alice: Any, alice_client: Client, game: Game) -> None:
    _set(alice, home_board_left=True)
    first = _game_page(alice_client, game)
    hit = re.search(r'aria-label="move the checker on 6 by 3 to 3"[^>]*>\s*<title>[^<]*</title>\s*<rect class="hit" x="(\d+)"',
                    first.content.decode())
    assert hit is not None and int(hit.group(1)) < WIDTH // 2  # the home board's 6 point is on the left half
    second = alice_client.get(_links(first)["move the checker on 8 by 3 to 5"])
    done = alice_client.get(_links(second)["move the checker on 6 by 1 to 5"])
    assert "Your move is complete" in html.unescape(done.content.decode())
    posted = alice_client.post(reverse("backgammon:game_act", args=[game.pk]),
                               {"kind": "play", "expected_number": game.action_count, "steps": "8-5,6-5"})
    assert posted.status_code == 302
    assert game.actions.filter(kind="play", notation="8/5 6/5").exists()


@pytest.mark.django_db
def test_confirm_before_submit_is_a_second_step(alice: Any, alice_client: Client, game: Game) -> None:
    _set(alice, confirm_submit=True)
    done = html.unescape(_game_page(alice_client, game, steps="8-5,6-5").content.decode())
    controls = done.split("Type the move instead")[0]
    assert "Submit…" in controls and 'value="play"' not in controls  # no submitting form yet, only the link
    link = re.search(r'<a class="button" href="([^"]+)"[^>]*>Submit…</a>', done)
    assert link is not None and "confirm=submit" in link.group(1)
    review = html.unescape(alice_client.get(link.group(1)).content.decode())
    assert "Submit 8/5 6/5?" in review
    assert 'name="steps" value="8-5,6-5"' in review and ">Cancel</a>" in review
    # Asking to confirm an unfinished move shows no Submit at all.
    early = html.unescape(_game_page(alice_client, game, steps="8-5", confirm="submit").content.decode())
    assert 'value="play"' not in early.split("Type the move instead")[0]


@pytest.mark.django_db
def test_without_the_setting_submit_is_one_step(alice_client: Client, game: Game) -> None:
    done = html.unescape(_game_page(alice_client, game, steps="8-5,6-5").content.decode())
    assert "Submit…" not in done and 'name="steps" value="8-5,6-5"' in done

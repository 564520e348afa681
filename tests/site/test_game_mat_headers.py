"""The .mat download carries gnubg's ``; [Key "Value"]`` headers (site, event, players, date,
variation), and GNU Backgammon still reads it to the same moves and score."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from backgammon.engine.actions import Action
from backgammon.models import Game
from tests.site.gamebuilder import act, scripted_dice, start_game

pytestmark = pytest.mark.django_db
pytest.importorskip("gnubg")

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def download(client: Client, game: Game) -> str:
    response = client.get(reverse("backgammon:game_mat", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def gnubg_reads(text: str, tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "download.mat"
    path.write_text(text)
    answer = subprocess.run([sys.executable, str(TOOLS / "gnubg_import.py"), str(path)],
                            capture_output=True, check=True, text=True)
    read = json.loads(answer.stdout.splitlines()[-1])
    assert "invalid" not in read["said"].lower(), read["said"]
    match: dict[str, Any] = read["match"]
    return match


def test_a_nackgammon_match_says_so_and_gnubg_reads_it_back(alice: Any, bob: Any, alice_client: Client,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    scripted_dice(monkeypatch).then((3, 1), (6, 4))
    game = start_game(alice, bob, variant="BO", match_length=3)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    text = download(alice_client, game)
    header = text.split("\n\n")[0].splitlines()
    day = game.created_at.date()
    assert header[:5] == [
        '; [Site "testserver"]',
        f'; [Event "Gammon Turn game {game.pk}: Pro Nackgammon"]',
        '; [Player 1 "alice"]',
        '; [Player 2 "bob"]',
        f'; [EventDate "{day.year:04d}.{day.month:02d}.{day.day:02d}"]',
    ]
    assert '; [Variation "NackGammon"]' in header
    match = gnubg_reads(text, tmp_path)
    info = match["match-info"]
    assert (info["X"]["name"], info["O"]["name"], info["match-length"]) == ("alice", "bob", 3)
    assert info["variation"] == "Nackgammon"  # so gnubg sets up Nackgammon's starting position
    assert info["event"] == f"Gammon Turn game {game.pk}: Pro Nackgammon"
    assert (info["place"], info["date"]) == ("testserver", [day.day, day.month, day.year])
    moves = [record for record in match["games"][0]["game"] if record["action"] == "move"]
    assert [(tuple(record["dice"]), [tuple(m) for m in record["move"]]) for record in moves] == [
        ((3, 1), [(8, 5), (6, 5)]),
    ]

"""A live challenge that lapses unanswered leaves both players' open pages by a pushed "status"
event, as a declined one does (streams read as in tests/site/test_live_push.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from backgammon.engine import TimeControl
from backgammon.models import Challenge
from backgammon.services import challenge_create
from backgammon.services.challenges import challenge_expire
from tests.site.test_live_push import async_client_for, next_message, open_stream, run

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_app_server_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    from backgammon import live

    monkeypatch.setattr(live, "_server_loop", None)


def test_both_players_hear_that_a_live_challenge_expired(alice: Any, bob: Any) -> None:
    challenge = challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=timedelta(days=3),
                                 time_control=TimeControl.live(12, 300))
    Challenge.objects.filter(pk=challenge.pk).update(created_at=timezone.now() - timedelta(minutes=2))
    alices_page, bobs_page = async_client_for(alice), async_client_for(bob)

    async def scenario() -> None:
        alices_screen, bobs_screen = await open_stream(alices_page), await open_stream(bobs_page)
        assert await sync_to_async(challenge_expire)(challenge_id=challenge.pk)
        for screen in (alices_screen, bobs_screen):
            assert (await next_message(screen))[0] == "status"

    run(scenario)
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.EXPIRED

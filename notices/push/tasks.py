"""The push notices' tasks: queued on commit by notices/receivers.py or by the worker's tick
(notices/periodic.py), run by the worker only. Each decides again and claims its notice when it
runs (notices/push/notify.py), so a late, repeated or concurrent run pushes nothing twice."""

from __future__ import annotations

from django_tasks import task

from notices.push import notify

__all__ = [
    "push_game_finished_notice",
    "push_message_notice",
    "push_new_challenge_notice",
    "push_test_notice",
    "push_time_warning",
    "push_your_turn_notice",
]


@task()
def push_your_turn_notice(game_id: int, action_number: int) -> int:
    return notify.push_your_turn(game_id, action_number)


@task()
def push_new_challenge_notice(challenge_id: int) -> int:
    return notify.push_new_challenge(challenge_id)


@task()
def push_message_notice(message_id: int, recipient_id: int, sender_id: int, subject: str, body: str,
                        message_url: str) -> int:
    return notify.push_new_message(message_id=message_id, recipient_id=recipient_id, sender_id=sender_id,
                                   subject=subject, body=body, message_url=message_url)


@task()
def push_time_warning(game_id: int, action_number: int) -> int:
    return notify.push_time_warning(game_id, action_number)


@task()
def push_game_finished_notice(game_id: int, user_id: int) -> int:
    return notify.push_game_finished(game_id, user_id)


@task()
def push_test_notice(subscription_id: int, user_id: int, token: str) -> int:
    return notify.push_test(subscription_id, user_id, token)

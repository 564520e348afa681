"""The notices' background work: each mail is a task the worker runs, queued on commit by the
receivers (notices/receivers.py) or by the worker's tick (notices/periodic.py). Each task decides
again from the database when it runs and claims its notice (notices/sending.py), so a late,
repeated or concurrent run sends nothing twice.
"""

from __future__ import annotations

from datetime import date, datetime

from django_tasks import task

from notices import membership_reminder, outbox, sending

__all__ = [
    "deliver_held_notice",
    "push_membership_reminder",
    "send_daily_digest",
    "send_membership_reminder",
    "send_message_notice",
    "send_new_challenge_notice",
    "send_time_warning",
    "send_your_turn_notice",
]


@task()
def send_your_turn_notice(game_id: int, action_number: int) -> bool:
    return sending.notify_your_turn(game_id, action_number)


@task()
def send_new_challenge_notice(challenge_id: int) -> bool:
    return sending.notify_new_challenge(challenge_id)


@task()
def send_message_notice(
    message_id: int, recipient_id: int, sender_id: int, subject: str, body: str, inbox_url: str
) -> bool:
    return sending.notify_new_message(
        message_id=message_id, recipient_id=recipient_id, sender_id=sender_id,
        subject=subject, body=body, inbox_url=inbox_url,
    )


@task()
def send_time_warning(game_id: int, action_number: int) -> bool:
    return sending.notify_time_warning(game_id, action_number)


@task()
def send_daily_digest(user_id: int, day: str) -> bool:
    return sending.send_digest(user_id, date.fromisoformat(day))


@task()
def deliver_held_notice(notice_id: int) -> bool:
    """Send again a mail whose first attempt did not finish (notices/outbox.py)."""
    return outbox.redeliver(notice_id)


@task()
def send_membership_reminder(user_id: int, until: str) -> bool:
    return membership_reminder.send_membership_reminder(user_id, datetime.fromisoformat(until))


@task()
def push_membership_reminder(user_id: int, until: str) -> int:
    return membership_reminder.push_membership_reminder(user_id, datetime.fromisoformat(until))

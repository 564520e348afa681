"""In the browser: Alice sends Bob a message, Bob sees the unread count in the header, opens his
inbox, reads it (the count goes), and replies; Alice reads the reply, quoted and threaded."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from django.core import mail
from playwright.sync_api import Page, expect

from tests.e2e.conftest import TabMaker, open_menu
from tests.e2e.scenes import cast

Shot = Callable[[Page, str], Path]


def open_talk(tab: Page) -> None:
    open_menu(tab, "Talk")


def test_alice_messages_bob_who_reads_and_replies(tab_for: TabMaker, transactional_db: None,
                                                  screenshot: Shot) -> None:
    who = cast()
    alice, bob = tab_for(1280, who.alice), tab_for(390, who.bob)

    alice.goto("/")
    open_talk(alice)
    alice.get_by_role("link", name="Send message").click()
    alice.get_by_label("To (userid)").fill("bob")
    alice.get_by_label("Subject").fill("Rematch?")
    alice.get_by_role("textbox", name="Message").fill("Good game!\n<script>alert('x')</script> Another one?")
    screenshot(alice, "messages-1-send")
    alice.get_by_role("button", name="Send").click()
    expect(alice.locator(".messages")).to_contain_text("Your message to bob is sent.")
    expect(alice.locator(".mail-list")).to_contain_text("Rematch?")
    screenshot(alice, "messages-2-sent-box")

    bob.goto("/")
    badge = bob.locator("summary .talk-badge .badge")
    expect(badge).to_have_text("1 unread message")
    screenshot(bob, "messages-3-bob-unread-badge")
    open_talk(bob)
    bob.locator(".menu__items").get_by_role("link", name="My messages").click()
    unread = bob.locator(".mail-item--unread")
    expect(unread).to_have_count(1)
    expect(unread).to_contain_text("alice")
    screenshot(bob, "messages-4-bob-inbox")
    unread.get_by_role("link", name="Rematch?").click()

    expect(bob.get_by_role("heading", level=1)).to_have_text("Rematch?")
    body = bob.locator(".mail-read__body")
    expect(body).to_contain_text("<script>alert('x')</script> Another one?")  # shown as text, not run
    expect(bob.locator("summary .talk-badge .badge")).to_have_count(0)
    screenshot(bob, "messages-5-bob-reads")

    bob.get_by_role("link", name="Reply").click()
    expect(bob.get_by_label("To (userid)")).to_have_value("alice")
    expect(bob.get_by_label("Subject")).to_have_value("Re: Rematch?")
    reply = bob.get_by_role("textbox", name="Message")
    expect(reply).to_have_value("alice wrote:\n> Good game!\n> <script>alert('x')</script> Another one?\n\n")
    reply.press("Control+End")
    reply.type("Yes, gladly.")
    screenshot(bob, "messages-6-bob-replies")
    bob.get_by_role("button", name="Send").click()
    expect(bob.locator(".messages")).to_contain_text("Your message to alice is sent.")

    alice.goto("/messages/")
    expect(alice.locator("summary .talk-badge .badge")).to_have_text("1 unread message")
    alice.get_by_role("link", name="Re: Rematch?").click()
    expect(alice.locator(".mail-read__body")).to_contain_text("Yes, gladly.")
    expect(alice.locator(".mail-read__facts")).to_contain_text("In reply to")
    screenshot(alice, "messages-7-alice-reads-reply")


def test_tell_a_friend_on_a_phone(tab_for: TabMaker, transactional_db: None, screenshot: Shot) -> None:
    who = cast()
    alice = tab_for(390, who.alice)
    alice.goto("/messages/tell-a-friend/")
    # Invitations go out from a confirmed address: the page offers the link, the mail brings it.
    alice.get_by_role("button", name="Send me a confirmation link").click()
    expect(alice.locator(".messages")).to_contain_text("alice@")
    link = re.search(r"https?://\S+/accounts/email/confirm/\S+/", mail.outbox[-1].body)
    assert link is not None, mail.outbox[-1].body
    alice.goto(urlsplit(link.group(0)).path)
    alice.get_by_role("button", name="Confirm").click()
    expect(alice.locator(".messages")).to_contain_text("is confirmed")
    alice.goto("/messages/tell-a-friend/")
    alice.get_by_label("Your friend's e-mail address").fill("sam@example.org")
    alice.get_by_label("A short note").fill("Come and play!")
    alice.get_by_role("button", name="Send invitation").click()
    expect(alice.locator(".messages")).to_contain_text("Your invitation is on its way to sam@example.org")
    screenshot(alice, "messages-8-tell-a-friend")

"""The API's Swagger UI renders under the Content-Security-Policy, and a token made on the
profile page is copied and works."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.e2e.test_csp_e2e import PASSWORD, log_in


def test_the_api_docs_render_with_no_policy_violation(
    watched_tab: tuple[Page, list[str]], transactional_db: None
) -> None:
    tab, problems = watched_tab
    tab.goto("/api/v1/docs")
    expect(tab.locator(".swagger-ui .info .title")).to_contain_text("Gammon Turn API")
    expect(tab.locator(".opblock-summary-path", has_text="/api/v1/games/{game_id}/actions")).to_have_count(1)
    tab.locator(".opblock-summary", has_text="/api/v1/token").first.click()
    expect(tab.locator(".opblock-body").first).to_be_visible()
    assert problems == []


def test_a_token_from_the_profile_page_is_shown_once_and_copied(
    watched_tab: tuple[Page, list[str]], transactional_db: None
) -> None:
    get_user_model().objects.create_user("alice", "alice@example.com", PASSWORD)
    tab, problems = watched_tab
    tab.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(tab, "/accounts/login/", "alice")
    tab.goto("/accounts/profile/")
    tab.get_by_label("Name of a new token").fill("my bot")
    tab.get_by_role("button", name="Create token").click()
    secret = tab.get_by_label("Token").input_value()
    assert re.fullmatch(r"gt_[\w-]{40,}", secret)
    tab.get_by_role("button", name="Copy").click()
    expect(tab.get_by_role("button", name="Copied")).to_be_visible()
    answer = tab.request.get("/api/v1/me", headers={"Authorization": f"Bearer {secret}"})
    assert answer.json() == {"username": "alice", "membership": {"member": False, "until": None}}
    tab.get_by_role("link", name="Back to your profile").click()
    expect(tab.get_by_role("cell", name="my bot")).to_be_visible()
    assert problems == []

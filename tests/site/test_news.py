"""News: staff post it in the admin; everyone reads it on /news/, newest first, escaped."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from notices.models import NewsItem

pytestmark = pytest.mark.django_db


def post_news(title: str, *, days_ago: float = 0, **fields: Any) -> NewsItem:
    fields.setdefault("body", f"About {title}.")
    return NewsItem.objects.create(
        title=title, published_at=timezone.now() - timedelta(days=days_ago), **fields
    )


def test_visitors_read_the_published_news_newest_first(client: Client) -> None:
    post_news("Older", days_ago=3)
    post_news("Newer", days_ago=1)
    post_news("Draft", is_published=False)
    post_news("Tomorrow's", days_ago=-1)

    page = client.get(reverse("notices:news")).content.decode()

    assert page.index("Newer") < page.index("Older")
    assert "Draft" not in page and "Tomorrow" not in page


def test_the_body_is_plain_text_escaped_with_its_line_breaks(client: Client) -> None:
    post_news("Hello <em>world</em>", body="First line\nsecond line\n\n<script>alert(1)</script>")

    page = client.get(reverse("notices:news")).content.decode()

    assert "Hello &lt;em&gt;world&lt;/em&gt;" in page
    assert "<p>First line<br>second line</p>" in page
    assert "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>" in page


def test_the_bodys_addresses_are_links_and_nothing_else_is(client: Client, alice_client: Client) -> None:
    """Issue 29, item 20: a web address in the body is a link (on /news/ and the main screen);
    the rest stays escaped text, a link's own text included, and no other scheme becomes one."""
    post_news("Links", body='See https://example.org/rules?a=1&b=2 and www.example.net.\n\n'
                            '"><script>alert(1)</script> javascript:alert(2) <a href="https://evil.example">x</a>')

    for page in (client.get(reverse("notices:news")).content.decode(), alice_client.get("/").content.decode()):
        assert '<a href="https://example.org/rules?a=1&amp;b=2" rel="nofollow">https://example.org/rules?a=1&amp;b=2</a>' in page
        assert '.example.net" rel="nofollow">www.example.net</a>.' in page  # http or https: Django's choice
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
        assert 'href="javascript:' not in page and '<a href="https://evil.example">' not in page


def test_the_news_comes_ten_to_a_page(client: Client) -> None:
    for number in range(12):
        post_news(f"Item {number:02d}", days_ago=number)

    first = client.get(reverse("notices:news")).content.decode()
    second = client.get(reverse("notices:news"), {"page": "2"}).content.decode()
    wild = client.get(reverse("notices:news"), {"page": "x" * 300})

    assert "Item 00" in first and "Item 09" in first and "Item 10" not in first
    assert "Item 10" in second and "Item 11" in second and "Item 00" not in second
    assert 'rel="next"' in first and 'rel="prev"' in second
    assert wild.status_code == 200 and "Item 00" in wild.content.decode()  # a bad number: page 1


def test_the_news_page_makes_a_fixed_number_of_queries(
    client: Client, make_user: Any, django_assert_max_num_queries: Any
) -> None:
    author = make_user("editor")
    for number in range(30):
        post_news(f"Item {number}", author=author)
    with django_assert_max_num_queries(4):
        assert client.get(reverse("notices:news")).status_code == 200


def test_staff_post_news_in_the_admin_and_are_its_author(client: Client) -> None:
    staff = get_user_model().objects.create_superuser("editor", "editor@example.com", "x-long-password-1")
    client.force_login(staff)

    response = client.post(
        reverse("admin:notices_newsitem_add"),
        {
            "title": "Tournament season",
            "body": "It starts Monday.",
            "published_at_0": "2026-01-05",
            "published_at_1": "09:00:00",
            "is_published": "on",
        },
    )

    assert response.status_code == 302
    item = NewsItem.objects.get()
    assert (item.title, item.author) == ("Tournament season", staff)


def test_players_cannot_reach_the_news_admin(alice_client: Client) -> None:
    response = alice_client.get(reverse("admin:notices_newsitem_add"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]

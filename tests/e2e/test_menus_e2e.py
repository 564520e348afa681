"""Every header menu opens inside the screen, on a phone, a middling screen and a wide one: the
bar of menu names wraps on narrow screens, and a menu that opens past an edge is cut off."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import TabMaker


@pytest.mark.parametrize("width", [390, 700, 1280])
def test_each_menu_opens_inside_the_screen(tab_for: TabMaker, alice: Any, transactional_db: None,
                                           width: int) -> None:
    tab = tab_for(width, alice)
    tab.goto("/")
    for menu in tab.locator("details.menu").all():
        menu.locator("summary").click()
        items = menu.locator(".menu__items")
        expect(items).to_be_visible()
        box = items.bounding_box()
        assert box is not None
        name = menu.locator("summary").inner_text()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, name, box)
        assert tab.evaluate("document.documentElement.scrollWidth") <= width, (width, name)
        menu.locator("summary").click()

"""Browser tests: a real Chromium (Debian's /usr/bin/chromium) driven by Playwright against a
live server: the site's ASGI application under uvicorn (tests/e2e/asgi_server.py), in place of
pytest-django's WSGI one, so pages get their live updates pushed as in production.

Every test in tests/e2e is marked ``e2e`` and runs with a fresh browser context (no cookies
from an earlier test). ``screenshot(page, "name")`` saves a PNG: into $E2E_SCREENSHOTS when
set, so a person can look at the pages, else into the test's temporary directory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop in this thread; Django refuses database calls
# from a thread with a running loop unless told that it is safe, which it is here: the
# test and the live server never share a connection.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, sync_playwright

from tests.e2e.asgi_server import AsgiLiveServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEFAULT_TIMEOUT_MS = 15_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def live_server() -> Iterator[AsgiLiveServer]:
    """Replaces pytest-django's fixture of this name (its helper still gives every test using it
    the transactional database and the server's ALLOWED_HOSTS)."""
    server = AsgiLiveServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the session; Playwright gives it a fresh profile directory."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium (`apt-get install -y chromium`, "
            "or run `make test` as root, which installs it)."
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, live_server: Any, transactional_db: None) -> Iterator[Page]:
    """A new tab in a new context (clean cookies), with base_url set to the live server."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1200, "height": 800})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    tab = context.new_page()
    yield tab
    context.close()
    live_server.wait_until_idle()


@pytest.fixture
def screenshot(tmp_path: Path) -> Callable[[Page, str], Path]:
    """screenshot(page, "signup") -> the saved PNG's path (full page)."""
    folder = Path(os.environ.get("E2E_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)

    def take(tab: Page, name: str) -> Path:
        path = folder / f"{name}.png"
        tab.screenshot(path=str(path), full_page=True)
        return path

    return take


TabMaker = Callable[..., Page]


@pytest.fixture
def tab_for(browser: Browser, live_server: Any) -> Iterator[TabMaker]:
    """tab_for(width, user=None, height=900, init_script=None) -> a page in its own browser context,
    logged in as ``user``, with ``init_script`` (a file) loaded into every page it opens.

    Every context is closed after the test, so no page keeps polling the server as it stops.
    """
    from tests.e2e.scenes import session_cookie

    contexts: list[BrowserContext] = []

    def make(width: int, user: Any = None, height: int = 900, init_script: Path | None = None) -> Page:
        context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": height})
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        if init_script is not None:  # run in every page before its own scripts, whatever its CSP
            context.add_init_script(path=str(init_script))
        contexts.append(context)
        if user is not None:
            name, value = session_cookie(user)
            context.add_cookies([{"name": name, "value": value, "url": live_server.url}])
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    live_server.wait_until_idle()


@pytest.fixture
def watched_tab(browser: Browser, live_server: Any) -> Iterator[tuple[Page, list[str]]]:
    """A tab that records every policy violation and page error; closed after the test, so its
    polling (the PLAY count) does not hold database connections past the test database."""
    problems: list[str] = []
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    tab = context.new_page()

    def on_console(message: ConsoleMessage) -> None:
        # (The admin asks for /favicon.ico, which the site does not serve: not a policy matter.)
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            problems.append(f"{tab.url}: {message.text}")

    tab.on("console", on_console)
    tab.on("pageerror", lambda error: problems.append(f"{tab.url}: {error}"))
    yield tab, problems
    context.close()
    live_server.wait_until_idle()


def open_menu(tab: Page, name: str) -> None:
    """Open the header's menu ``name`` (PLAY, TALK, …) as a player would: on a wide screen its
    name in the bar; up to 900 px wide the bar's Menu button, which opens every menu as one sheet."""
    toggle = tab.locator(".nav-toggle")
    if toggle.is_visible():
        if toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
    else:
        tab.locator("summary", has_text=name).click()

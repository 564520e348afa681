"""Small HTTP clients for tests that drive a real server: an API player and a page visitor,
each recording every answer (status, content type, Retry-After, the start of the body)."""

from __future__ import annotations

import http.cookiejar
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Answer", "ApiPlayer", "PageVisitor", "Recorder"]


@dataclass(frozen=True)
class Answer:
    at: float
    method: str
    path: str
    status: int
    content_type: str
    retry_after: str | None
    body: str


@dataclass
class Recorder:
    answers: list[Answer] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, answer: Answer) -> None:
        with self.lock:
            self.answers.append(answer)

    def since(self, moment: float) -> list[Answer]:
        with self.lock:
            return [answer for answer in self.answers if answer.at >= moment]


class _Http:
    def __init__(self, base: str, recorder: Recorder) -> None:
        self.base = base
        self.recorder = recorder
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect()
        )

    def request(self, method: str, path: str, data: bytes | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers=headers or {})
        try:
            with self.opener.open(request, timeout=30) as response:
                status, got, body = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, got, body = error.code, error.headers, error.read()
        answer = Answer(time.monotonic(), method, path, status, got.get("Content-Type", ""),
                        got.get("Retry-After"), body.decode("utf-8", "replace"))
        self.recorder.add(answer)
        return answer


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a redirect is an answer to record, not to follow


class ApiPlayer(_Http):
    """Plays every game where it is this player's turn through /api/v1/: rolls, takes the first
    legal play, takes doubles, accepts nothing else."""

    def __init__(self, base: str, recorder: Recorder, username: str, password: str) -> None:
        super().__init__(base, recorder)
        self.username = username
        body = json.dumps({"username": username, "password": password}).encode()
        answer = self.request("POST", "/api/v1/token", body, {"Content-Type": "application/json"})
        assert answer.status == 200, answer
        self.token = json.loads(answer.body)["token"]
        self.actions_applied = 0

    def _call(self, method: str, path: str, body: Any = None) -> Answer:
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        data = None if body is None else json.dumps(body).encode()
        return self.request(method, f"/api/v1{path}", data, headers)

    def game_ids(self) -> list[int]:
        answer = self._call("GET", "/games?status=active")
        return [game["id"] for game in json.loads(answer.body)["games"]] if answer.status == 200 else []

    def play_once(self, game_id: int) -> None:
        answer = self._call("GET", f"/games/{game_id}")
        if answer.status != 200:
            return
        game = json.loads(answer.body)
        if game["turn"] != self.username:
            return
        awaiting = game["awaiting"]
        body: dict[str, Any] = {"expected_action_number": game["action_number"]}
        if awaiting in ("roll", "roll_or_double"):
            body["action"] = "roll"
        elif awaiting == "play":
            body.update(action="play", move=(game["legal_plays"] or [""])[0])
        elif awaiting == "take_or_drop":
            body["action"] = "take"
        elif awaiting == "resignation":
            body["action"] = "reject"
        else:
            return
        if self._call("POST", f"/games/{game_id}/actions", body).status == 200:
            self.actions_applied += 1


class PageVisitor(_Http):
    """Logs in through the page's form and then reads the status page and its games' pages."""

    def __init__(self, base: str, recorder: Recorder, username: str, password: str) -> None:
        super().__init__(base, recorder)
        form = self.request("GET", "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.body)
        assert token, form
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), "username": username,
                                       "password": password}).encode()
        answer = self.request("POST", "/accounts/login/", data,
                              {"Content-Type": "application/x-www-form-urlencoded"})
        assert answer.status == 302, answer

    def visit_once(self) -> None:
        status = self.request("GET", "/games/")
        for game_id in sorted(set(re.findall(r'href="/games/(\d+)/"', status.body)))[:3]:
            self.request("GET", f"/games/{game_id}/")

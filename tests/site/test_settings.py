"""Settings come from the environment, and bad or missing values stop the start-up loudly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from gamesite.env import email_settings_from_url, env_bool, env_int, env_list, key_bytes

ROOT = Path(__file__).resolve().parents[2]
KEY_HEX = "00ff" * 8  # 16 bytes, the shortest dice key accepted


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter with exactly this environment."""
    code = (
        "import gamesite.settings as s; "
        "print(s.DEBUG, s.DICE_KEY.hex(), s.SECURE_SSL_REDIRECT, s.EMAIL_BACKEND, "
        "s.CACHES['default']['BACKEND'], s.ALLOWED_HOSTS)"
    )
    clean = {"PATH": os.environ.get("PATH", ""), **env}
    return subprocess.run(
        [sys.executable, "-c", code], check=False, cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_development_needs_nothing_but_debug(tmp_path: Path) -> None:
    result = load_settings(DEBUG="1", DEV_SECRETS_FILE=str(tmp_path / ".dev-secrets"))

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("True ")
    assert "console.EmailBackend" in result.stdout
    assert "db.DatabaseCache" in result.stdout
    assert "'localhost'" in result.stdout


def dev_keys(secrets_file: Path, **env: str) -> tuple[str, str]:
    """(SECRET_KEY, DICE_KEY as hex) of a development process with this environment."""
    code = "import gamesite.settings as s; print(s.SECRET_KEY, s.DICE_KEY.hex())"
    clean = {"PATH": os.environ.get("PATH", ""), "DEBUG": "1", "DEV_SECRETS_FILE": str(secrets_file), **env}
    result = subprocess.run(
        [sys.executable, "-c", code], check=True, cwd=ROOT, env=clean, capture_output=True, text=True
    )
    secret_key, dice_hex = result.stdout.split()
    return secret_key, dice_hex


def test_development_makes_its_own_random_keys_on_first_run_and_keeps_them(tmp_path: Path) -> None:
    first_site, second_site = tmp_path / "one" / ".dev-secrets", tmp_path / "two" / ".dev-secrets"
    first_site.parent.mkdir()
    second_site.parent.mkdir()

    keys = dev_keys(first_site)

    assert first_site.stat().st_mode & 0o777 == 0o600
    assert dev_keys(first_site) == keys  # the next run, and the worker beside the server
    assert dev_keys(second_site) != keys  # another checkout: keys nobody else has
    secret_key, dice_hex = keys
    assert len(secret_key) == 64 and len(bytes.fromhex(dice_hex)) == 32
    # No key written in the repository is ever used.
    assert b"dev-only" not in bytes.fromhex(dice_hex)
    assert secret_key not in (ROOT / "gamesite" / "settings.py").read_text()


def test_keys_in_the_environment_win_over_the_file_and_create_none(tmp_path: Path) -> None:
    secrets_file = tmp_path / ".dev-secrets"
    assert dev_keys(secrets_file, SECRET_KEY="s" * 50, DICE_KEY=KEY_HEX) == ("s" * 50, KEY_HEX)
    assert not secrets_file.exists()


def test_the_development_keys_file_is_ignored_by_git() -> None:
    result = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", ".dev-secrets"], cwd=ROOT, check=False
    )
    assert result.returncode == 0


@pytest.mark.parametrize("missing", ["SECRET_KEY", "DICE_KEY", "EMAIL_URL"])
def test_production_refuses_to_start_without_its_secrets(missing: str) -> None:
    env = {"SECRET_KEY": "s" * 50, "DICE_KEY": KEY_HEX, "EMAIL_URL": "console:"}
    del env[missing]

    result = load_settings(**env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert missing.split("_")[0] in result.stderr


def test_production_is_secure_by_default() -> None:
    result = load_settings(
        SECRET_KEY="s" * 50, DICE_KEY=KEY_HEX, EMAIL_URL="console:", REDIS_URL="redis://127.0.0.1:6379/0"
    )

    assert result.returncode == 0, result.stderr
    debug, dice_key, ssl_redirect, _email, cache, *_hosts = result.stdout.split(" ", 5)
    assert (debug, dice_key, ssl_redirect) == ("False", KEY_HEX, "True")
    assert cache == "gamesite.redis_cache.GuardedRedisCache"  # django-redis's, with a breaker


def test_production_refuses_a_dice_key_shorter_than_16_bytes() -> None:
    result = load_settings(SECRET_KEY="s" * 50, DICE_KEY="00ff" * 7, EMAIL_URL="console:")

    assert result.returncode != 0
    assert "DICE_KEY must be at least 16 bytes" in result.stderr


def test_a_misspelt_boolean_stops_the_start() -> None:
    result = load_settings(DEBUG="ture")

    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr


def test_the_running_suite_has_dice_key_bytes() -> None:
    assert isinstance(settings.DICE_KEY, bytes) and settings.DICE_KEY
    assert settings.DATABASES["default"]["ENGINE"] == "gamesite.postgres"


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("YES", True), ("off", False), ("", False)]
)
def test_env_bool_accepts_the_usual_spellings(raw: str, expected: bool) -> None:
    assert env_bool("X", not expected, environ={"X": raw}) is expected


def test_env_int_and_list() -> None:
    assert env_int("N", 7, environ={}) == 7
    with pytest.raises(ImproperlyConfigured, match="N must be a whole number"):
        env_int("N", 7, environ={"N": "seven"})
    assert env_list("L", ["x"], environ={}) == ["x"]
    assert env_list("L", environ={"L": " a ,b,, "}) == ["a", "b"]


def test_key_bytes_reads_hex_or_text() -> None:
    assert key_bytes("0a0B") == b"\x0a\x0b"
    assert key_bytes("abc") == b"abc"  # odd length: text
    assert key_bytes("zz") == b"zz"
    with pytest.raises(ImproperlyConfigured):
        key_bytes("   ")


def test_email_url_parses_smtp_with_tls() -> None:
    parsed = email_settings_from_url("smtp://mailer:pa%2Fss@smtp.example:2525?tls=yes")

    assert parsed == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example",
        "EMAIL_PORT": 2525,
        "EMAIL_HOST_USER": "mailer",
        "EMAIL_HOST_PASSWORD": "pa/ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }
    with pytest.raises(ImproperlyConfigured, match="both tls and ssl"):
        email_settings_from_url("smtp://h?tls=1&ssl=1")


def push_settings(**env: str) -> subprocess.CompletedProcess[str]:
    code = ("import gamesite.settings as s; "
            "print(s.VAPID_PRIVATE_KEY or '-', s.VAPID_PUBLIC_KEY or '-', s.VAPID_SUBJECT, ','.join(s.PUSH_SERVICE_HOSTS))")
    clean = {"PATH": os.environ.get("PATH", ""), **env}
    return subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT, env=clean,
                          capture_output=True, text=True)


def test_development_makes_a_vapid_key_and_adds_one_to_a_file_written_before_push(tmp_path: Path) -> None:
    from gamesite.vapid import public_key_for

    secrets_file = tmp_path / ".dev-secrets"
    secrets_file.write_text(f"SECRET_KEY={'s' * 64}\nDICE_KEY={KEY_HEX}\n")
    secrets_file.chmod(0o600)

    first = push_settings(DEBUG="1", DEV_SECRETS_FILE=str(secrets_file))
    assert first.returncode == 0, first.stderr
    private, public, subject, hosts = first.stdout.split()
    assert public_key_for(private) == public and len(public) == 87
    assert f"VAPID_PRIVATE_KEY={private}\n" in secrets_file.read_text()
    assert secrets_file.read_text().startswith(f"SECRET_KEY={'s' * 64}\nDICE_KEY={KEY_HEX}\n")  # kept
    assert push_settings(DEBUG="1", DEV_SECRETS_FILE=str(secrets_file)).stdout == first.stdout
    assert subject == "mailto:noreply@localhost"
    assert "fcm.googleapis.com" in hosts.split(",") and "*.notify.windows.com" in hosts.split(",")


def test_production_takes_its_vapid_key_from_the_environment_or_has_push_off() -> None:
    from gamesite.vapid import generate_private_key, public_key_for

    base = {"SECRET_KEY": "s" * 50, "DICE_KEY": KEY_HEX, "EMAIL_URL": "console:"}
    off = push_settings(**base)
    assert off.returncode == 0, off.stderr
    assert off.stdout.split()[:2] == ["-", "-"]

    key = generate_private_key()
    on = push_settings(**base, VAPID_PRIVATE_KEY=key, VAPID_PUBLIC_KEY=public_key_for(key),
                       SITE_URL="https://gammon.example", PUSH_SERVICE_HOSTS="push.example, *.push.example")
    assert on.returncode == 0, on.stderr
    assert on.stdout.split() == [key, public_key_for(key), "https://gammon.example", "push.example,*.push.example"]


@pytest.mark.parametrize(("env", "words"), [
    ({"VAPID_PRIVATE_KEY": "not-a-key"}, "VAPID_PRIVATE_KEY is not a VAPID private key"),
    ({"VAPID_PRIVATE_KEY": "A" * 43}, "VAPID_PRIVATE_KEY is not a VAPID private key"),  # zero: no key
    ({"VAPID_SUBJECT": "gammon.example"}, "VAPID_SUBJECT must be"),
])
def test_a_bad_push_setting_stops_the_start(env: dict[str, str], words: str) -> None:
    result = push_settings(SECRET_KEY="s" * 50, DICE_KEY=KEY_HEX, EMAIL_URL="console:", **env)
    assert result.returncode != 0
    assert words in result.stderr


def test_a_public_key_that_is_not_the_private_keys_half_stops_the_start() -> None:
    from gamesite.vapid import generate_private_key, public_key_for

    result = push_settings(SECRET_KEY="s" * 50, DICE_KEY=KEY_HEX, EMAIL_URL="console:",
                           VAPID_PRIVATE_KEY=generate_private_key(),
                           VAPID_PUBLIC_KEY=public_key_for(generate_private_key()))
    assert result.returncode != 0
    assert "VAPID_PUBLIC_KEY is not the public half" in result.stderr


def test_redis_replies_are_parsed_and_commands_packed_in_c() -> None:
    """hiredis (pinned beside redis): every cache read, session and live publication goes
    through redis-py, whose pure-Python RESP3 parser and packer were an eighth of the app
    servers' interpreter time under `make bench-web`'s live scenario."""
    from redis._parsers import _AsyncHiredisParser, _HiredisParser
    from redis.asyncio.connection import DefaultParser as AsyncDefaultParser
    from redis.connection import Connection, DefaultParser, HiredisRespSerializer

    assert DefaultParser is _HiredisParser
    assert AsyncDefaultParser is _AsyncHiredisParser
    assert isinstance(Connection()._command_packer, HiredisRespSerializer)


def test_live_presence_must_outlast_an_open_pages_marks(tmp_path: Path) -> None:
    """An open page marks its player at least every 90 s: a shorter window would drop players
    who are reading a page."""
    common = {"DEBUG": "1", "DEV_SECRETS_FILE": str(tmp_path / ".dev-secrets")}
    refused = load_settings(**common, LIVE_PRESENCE_SECONDS="60")
    assert refused.returncode != 0 and "LIVE_PRESENCE_SECONDS must be at least 90" in refused.stderr
    assert load_settings(**common, LIVE_PRESENCE_SECONDS="90").returncode == 0

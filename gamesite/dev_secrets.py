"""Development keys made on first run and kept in an ignored local file (``.dev-secrets``).

A key written in the repository would let anyone compute a development site's dice and forge
its sessions, so a development process (DEBUG=1) without SECRET_KEY or DICE_KEY in its
environment reads them from this file, which the first such process creates with fresh random
keys, readable by its owner only. The same file holds the development VAPID key pair's private
half (Web Push): a file written before push existed gets one added on the next run. Production
never reads it: there SECRET_KEY and DICE_KEY are required, and push needs VAPID_PRIVATE_KEY.
"""

from __future__ import annotations

import fcntl
import os
import secrets
from collections.abc import Callable
from pathlib import Path

from gamesite.vapid import generate_private_key

__all__ = ["DEV_SECRET_NAMES", "load_or_create"]

_MAKERS: dict[str, Callable[[], str]] = {
    "SECRET_KEY": lambda: secrets.token_hex(32),
    "DICE_KEY": lambda: secrets.token_hex(32),
    "VAPID_PRIVATE_KEY": generate_private_key,
}
DEV_SECRET_NAMES = tuple(_MAKERS)


def _parse(text: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep and name.strip() in DEV_SECRET_NAMES:
            values[name.strip()] = value.strip()
    return values


def load_or_create(path: Path) -> dict[str, str]:
    """The NAME=value lines of ``path``, after writing fresh keys there if it does not exist
    (or adding those it lacks).

    The web server and the worker of ``make run`` may start together: O_EXCL lets one of them
    create the file, and a lock on it lets one of them add a missing key while the other waits
    and then reads it, so both use the same keys.
    """
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        descriptor = os.open(path, os.O_RDWR)
    with os.fdopen(descriptor, "r+") as keys_file:
        fcntl.flock(keys_file, fcntl.LOCK_EX)
        text = keys_file.read()
        values = _parse(text)
        missing = {name: make() for name, make in _MAKERS.items() if name not in values}
        if missing:
            keys_file.seek(0, os.SEEK_END)
            if text and not text.endswith("\n"):
                keys_file.write("\n")
            keys_file.write("".join(f"{name}={value}\n" for name, value in missing.items()))
            values.update(missing)
    return values

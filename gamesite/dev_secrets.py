"""Development keys made on first run and kept in an ignored local file (``.dev-secrets``).

A key written in the repository would let anyone compute a development site's dice and forge
its sessions, so a development process (DEBUG=1) without SECRET_KEY or DICE_KEY in its
environment reads them from this file, which the first such process creates with fresh random
keys, readable by its owner only. Production never reads it: there both keys are required.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["DEV_SECRET_NAMES", "load_or_create"]

DEV_SECRET_NAMES = ("SECRET_KEY", "DICE_KEY")


def _fresh() -> str:
    return "".join(f"{name}={secrets.token_hex(32)}\n" for name in DEV_SECRET_NAMES)


def load_or_create(path: Path) -> dict[str, str]:
    """The NAME=value lines of ``path``, after writing fresh keys there if it does not exist.

    The web server and the worker of ``make run`` may start together: O_EXCL lets one of them
    create the file and the other read it.
    """
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(descriptor, "w") as created:
            created.write(_fresh())
    values: dict[str, str] = {}
    for line in path.read_text().splitlines():
        name, sep, value = line.partition("=")
        if sep and name.strip() in DEV_SECRET_NAMES:
            values[name.strip()] = value.strip()
    return values

"""Import a .mat file into a fresh GNU Backgammon and print what it read, as JSON.

Run as a separate process (``python tools/gnubg_import.py FILE [--jacoby]``) so that every
import starts from a clean gnubg: after importing a game that ended in a dropped beaver, gnubg
1.1.0a16 keeps a pending state that makes the next import lose its first move (and makes
``new match`` wait for an answer on standard input).
"""

from __future__ import annotations

import json
import sys

from gnubg_text import gnubg_command

from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file


def main() -> None:
    path, jacoby = sys.argv[1], "--jacoby" in sys.argv[2:]
    gnubg_command("set display off")
    gnubg_command(f"set jacoby {'on' if jacoby else 'off'}")
    said = gnubg_command(f"import mat {path}")
    print(json.dumps({"said": said, "match": gnubg.match()}))


if __name__ == "__main__":
    main()

"""What messaging tells other apps (the e-mail notices), so it knows nothing of them.

* ``message_sent`` is sent after a message is committed: ``message`` (a ``Message``; its
  ``kind`` says whether it was written on the Send page, "message", or came with a move or a
  challenge, "move" / "challenge", which the "your turn" and challenge notices already cover).
"""

from __future__ import annotations

from django.dispatch import Signal

__all__ = ["message_sent"]

message_sent = Signal()

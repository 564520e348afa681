"""A mail server on the loopback for the tests: it speaks enough SMTP for Django's backend, keeps
every message it accepts, and while ``hold`` is set it takes a message's data and never answers
it, as a slow server does, until the client goes away."""

from __future__ import annotations

import socket
import threading
from typing import BinaryIO

__all__ = ["SmtpStandIn"]


class SmtpStandIn:
    def __init__(self) -> None:
        self.hold = False
        self.accepted: list[bytes] = []
        self.held: list[bytes] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def close(self) -> None:
        self._listener.close()

    def _accept_forever(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        with connection, connection.makefile("rb") as reader:
            connection.sendall(b"220 stand-in ESMTP\r\n")
            while line := reader.readline():
                verb = line[:4].upper()
                if verb == b"DATA":
                    connection.sendall(b"354 go on\r\n")
                    if not self._take_data(connection, reader):
                        return
                elif verb == b"QUIT":
                    connection.sendall(b"221 bye\r\n")
                    return
                else:  # EHLO, HELO, MAIL, RCPT, RSET, NOOP
                    connection.sendall(b"250 OK\r\n")

    def _take_data(self, connection: socket.socket, reader: BinaryIO) -> bool:
        data = b""
        while (line := reader.readline()) not in (b".\r\n", b""):
            data += line
        if self.hold:
            self.held.append(data)
            while reader.readline():  # no answer: wait until the client is gone
                pass
            return False
        self.accepted.append(data)
        connection.sendall(b"250 queued\r\n")
        return True

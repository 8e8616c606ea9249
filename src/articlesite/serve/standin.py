"""While no server process runs (it stopped, and the supervisor waits for a fix of the
package's code), the supervisor answers every request itself: 503 and a page saying why,
rather than a request waiting in the socket's queue for ever."""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from html import escape

WAIT = 0.2        # s between looks at whether to stop
READ_WITHIN = 2.0  # s a client has to send its request


class StandIn:
    """Answers the requests on `listener` with 503 and `message` until stopped."""

    def __init__(self, listener: socket.socket, message: str):
        self.listener, self.message = listener, message
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="stand-in", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop answering (before a server process is started on the socket again)."""
        self._stop.set()
        self._thread.join()

    def _serve(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.listener], [], [], WAIT)
            if not ready or self._stop.is_set():
                continue
            with contextlib.suppress(OSError):
                connection, _ = self.listener.accept()
                with connection:
                    self._answer(connection)

    def _answer(self, connection: socket.socket) -> None:
        connection.settimeout(READ_WITHIN)
        with contextlib.suppress(OSError):
            connection.recv(1 << 16)   # the request, whatever it is
        text = escape(self.message)
        body = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>'
                f"{text}</title></head><body><p>{text}</p></body></html>").encode()
        connection.sendall(b"HTTP/1.1 503 Service Unavailable\r\n"
                           b"Content-Type: text/html; charset=utf-8\r\nRetry-After: 2\r\n"
                           b"Cache-Control: no-store\r\nConnection: close\r\n"
                           + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)

"""The web port: HTTP for the page's files, and WebSocket as one more byte stream.

The only module that imports ``websockets``, and only when the server opens its web port
(``server.app`` imports this module then), so no ``--help`` pays for it. Its sans-IO
``ServerProtocol`` parses the HTTP request and the WebSocket frames; the I/O is Trio's,
here.

One connection to the web port asks for one thing:

- a file of the page (``server.web_files``): answered, then closed (no keep-alive, so an
  idle HTTP connection holds nothing);
- ``/ws``: the WebSocket handshake, accepted only from the server's own page
  (``server.web_names``). The result is a ``WebSocketStream``: a ``trio.abc.Stream``
  whose bytes are those of the binary messages, the same stream of length-prefixed frames
  a TCP client sees. The server hands it to a ``Session`` like a TCP connection.

The request has caps of its own: ``REQUEST_SECONDS`` to arrive whole, ``MAX_REQUEST_BYTES``
of request line and headers.
"""

from __future__ import annotations

import contextlib
import email.utils
import logging

import trio
from websockets.datastructures import Headers
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

from server.limits import MAX_FRAME
from server.socket_writer import SocketWriter
from server.web_files import ShippedFiles, WebDoor, content_security_policy

__all__ = [
    "MAX_REQUEST_BYTES",
    "REQUEST_SECONDS",
    "WebSocketStream",
    "answer_web_request",
    "refuse_web_request",
]

log = logging.getLogger("uno.server.web")

REQUEST_SECONDS = 10.0
"""How long a request (line and headers) may take to arrive whole."""

MAX_REQUEST_BYTES = 16 * 1024
"""Bytes of request line and headers a request may have."""

WEBSOCKET_PATH = "/ws"
"""Where the page opens its WebSocket."""

_READ_SIZE = 16 * 1024
_CLOSE_SECONDS = 0.5
_REFUSAL_SECONDS = 1.0

# A binary message may carry any part of the stream; a well-behaved page sends one frame
# per message. Twice the largest frame leaves room for either.
_MAX_MESSAGE = 2 * MAX_FRAME


class WebSocketStream(trio.abc.Stream):
    """An open WebSocket as a byte stream: binary messages' bytes in and out.

    ``send_all`` sends its bytes as one binary message. ``receive_some`` returns bytes of
    the binary messages received, in order, and ``b""`` once the peer closed (a close
    frame, the socket ending, or a frame the WebSocket protocol refuses; a text message
    is refused too). Pings are answered here; the protocol's own keepalive runs above.
    """

    def __init__(self, tcp: trio.SocketStream, protocol: ServerProtocol) -> None:
        self._tcp = tcp
        self._ws = protocol
        self._received = bytearray()
        self._ended = False
        self._send_lock = trio.Lock()
        # The TCP socket's write that never waits: the one place of that trick
        # (``server.socket_writer``), for TCP sessions and this stream alike.
        self._direct = SocketWriter.for_stream(tcp)
        # What a direct write left of its frame (the socket took only part of it), to be
        # written before anything else; and how many bytes of the next ``send_all`` that
        # frame already carries (see ``write``).
        self._unsent = b""
        self._owed = 0

    def direct_writer(self) -> WebSocketStream | None:
        """This stream as the session's write that never waits (``server.writer``'s
        ``DirectWrite``), or None where the TCP socket has none (not POSIX)."""
        return self if self._direct is not None else None

    def write(self, data: bytes) -> int:
        """Send ``data`` as one binary message now, as far as the socket takes it; return
        how many bytes of ``data`` the caller need not send again: all or nothing.

        The frame goes to the TCP socket's ``SocketWriter``, so a table's move reaches a
        browser in the table's step as it reaches a TCP client. A frame the socket takes
        whole returns ``len(data)``; one it takes none of returns 0. One it takes part of
        cannot be taken back: its rest is kept here, and the call returns 0, so the caller
        queues ``data`` for the writer task as if nothing had left. That task's
        ``send_all`` then writes the frame's rest in place of those ``len(data)`` bytes.
        """
        direct = self._direct
        if direct is None or self._unsent or self._owed or self._send_lock.locked():
            return 0
        if self._ws.state is not State.OPEN or not data:
            return 0
        frame = _binary_frame(data)
        written = direct.write(frame)
        if written == len(frame):
            return len(data)
        if written:
            self._unsent = frame[written:]
            self._owed = len(data)
        return 0

    def detach(self) -> None:
        """Write nothing more directly (call before the socket closes)."""
        if self._direct is not None:
            self._direct.detach()

    @property
    def socket(self) -> trio.socket.SocketType:
        """The TCP socket under the WebSocket (for the peer's address)."""
        return self._tcp.socket

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self._ws.state is not State.OPEN:
            raise trio.ClosedResourceError("the WebSocket is closed")
        data = bytes(data)
        if self._owed:
            skipped = min(self._owed, len(data))
            data, self._owed = data[skipped:], self._owed - skipped
        if data:
            self._ws.send_binary(data)
        await self._flush()

    async def wait_send_all_might_not_block(self) -> None:
        await self._tcp.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        limit = max_bytes or _READ_SIZE
        while not self._received and not self._ended:
            data = await self._tcp.receive_some(_READ_SIZE)
            if data:
                self._ws.receive_data(data)
            else:
                self._ws.receive_eof()
            self._take_events()
            await self._flush()
            if not data or self._ws.state in (State.CLOSING, State.CLOSED):
                self._ended = True
        taken = bytes(self._received[:limit])
        del self._received[:limit]
        return taken

    async def aclose(self) -> None:
        """Say a close frame if there is time (not when closed forcefully), then close."""
        try:
            if self._ws.state is State.OPEN:
                self._ws.send_close(CloseCode.GOING_AWAY)
                with trio.move_on_after(_CLOSE_SECONDS):
                    await self._flush()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            await self._tcp.aclose()

    def take_frames(self, frames: list[Frame]) -> None:
        """Frames parsed along with the handshake (a client that did not wait for it)."""
        self._accept_frames(frames)

    def _take_events(self) -> None:
        self._accept_frames([e for e in self._ws.events_received() if isinstance(e, Frame)])

    def _accept_frames(self, frames: list[Frame]) -> None:
        for frame in frames:
            if frame.opcode in (Opcode.BINARY, Opcode.CONT):
                self._received += frame.data
            elif frame.opcode is Opcode.TEXT:
                self._ws.fail(CloseCode.UNSUPPORTED_DATA, "binary messages only")
                self._ended = True
            elif frame.opcode is Opcode.CLOSE:
                self._ended = True

    async def _flush(self) -> None:
        async with self._send_lock:
            if self._unsent:
                unsent, self._unsent = self._unsent, b""
                await self._tcp.send_all(unsent)
            for chunk in self._ws.data_to_send():
                if chunk:
                    await self._tcp.send_all(chunk)
                else:
                    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                        await self._tcp.send_eof()


def _binary_frame(data: bytes) -> bytes:
    """One final, unmasked binary frame holding ``data``: what ``send_binary`` makes on a
    connection without extensions (this server negotiates none)."""
    length = len(data)
    if length < 126:
        header = bytes((0x82, length))
    elif length < 1 << 16:
        header = bytes((0x82, 126)) + length.to_bytes(2, "big")
    else:
        header = bytes((0x82, 127)) + length.to_bytes(8, "big")
    return header + data


async def answer_web_request(tcp: trio.SocketStream, door: WebDoor) -> WebSocketStream | None:
    """Read one request from ``tcp`` and answer it: a file (None: the caller closes), a
    refusal (None), or an accepted WebSocket (the stream to serve)."""
    # No extensions: frames are then exactly what ``_binary_frame`` writes.
    protocol = ServerProtocol(origins=None, extensions=[], max_size=_MAX_MESSAGE)
    request, early = await _read_request(tcp, protocol)
    if request is None:
        await _send_pending(tcp, protocol)
        return None
    path = request.path.split("?", 1)[0]
    hosts = request.headers.get_all("Host")
    host = hosts[0] if len(hosts) == 1 else None
    if len(hosts) != 1:
        _respond(protocol, _plain(400, "Bad Request", "one Host header, please\n"))
    elif not door.names.accepts_host(host):
        log.info("refused a request for %r: Host %r is not this server", path, host)
        _respond(protocol, _plain(421, "Misdirected Request", "not a name of this server\n"))
    elif path == WEBSOCKET_PATH:
        origins = request.headers.get_all("Origin")
        origin = origins[0] if len(origins) == 1 else None
        if not door.names.accepts_origin(origin, host):
            log.info("refused a WebSocket from Origin %r (Host %r)", origin, host)
            _respond(protocol, _plain(403, "Forbidden", "only this server's page may connect\n"))
        else:
            response = protocol.accept(request)
            protocol.send_response(response)
            if response.status_code == 101:
                await _send_pending(tcp, protocol)
                stream = WebSocketStream(tcp, protocol)
                stream.take_frames(early + _frames(protocol))
                return stream
    else:
        _respond(protocol, _file_response(request, door.files, str(host)))
    await _send_pending(tcp, protocol)
    return None


async def refuse_web_request(tcp: trio.SocketStream, reason: str) -> None:
    """Answer a connection the gate refused with 503 and ``reason``, then close it.

    What the client has sent by then is read first (within ``_REFUSAL_SECONDS``), so the
    answer is not lost to a reset for unread bytes; the request itself goes unheard.
    """
    with trio.move_on_after(_REFUSAL_SECONDS):
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await tcp.receive_some(MAX_REQUEST_BYTES)
            response = _plain(503, "Service Unavailable", f"{reason}\n")
            await tcp.send_all(response.serialize())
    await trio.aclose_forcefully(tcp)


async def _read_request(
    tcp: trio.SocketStream, protocol: ServerProtocol
) -> tuple[Request | None, list[Frame]]:
    """The request, or None when it is malformed, too big, too slow or never came (an
    answer is then pending in ``protocol`` where one is due); with any frames after it."""
    received = 0
    with trio.move_on_after(REQUEST_SECONDS):
        while True:
            try:
                data = await tcp.receive_some(_READ_SIZE)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                return None, []  # reset by the client: nobody to answer
            received += len(data)
            if not data:
                protocol.receive_eof()
                return None, []
            protocol.receive_data(data)
            events = protocol.events_received()
            requests = [e for e in events if isinstance(e, Request)]
            if requests:
                return requests[0], [e for e in events if isinstance(e, Frame)]
            if protocol.eof_sent:
                return None, []  # the protocol refused it and has its answer ready
            if received > MAX_REQUEST_BYTES:
                _respond(protocol, _plain(431, "Request Header Fields Too Large", "too big\n"))
                return None, []
    _respond(protocol, _plain(408, "Request Timeout", "the request took too long\n"))
    return None, []


def _frames(protocol: ServerProtocol) -> list[Frame]:
    return [e for e in protocol.events_received() if isinstance(e, Frame)]


def _file_response(request: Request, files: ShippedFiles, host: str) -> Response:
    if request.method not in ("GET", "HEAD"):
        response = _plain(405, "Method Not Allowed", "only GET\n")
        response.headers["Allow"] = "GET, HEAD"
        return response
    shipped = files.get(request.path)
    if shipped is None:
        return _plain(404, "Not Found", "no such file\n")
    headers = _headers(shipped.content_type, len(shipped.body), host)
    headers["Cache-Control"] = "no-cache"
    body = b"" if request.method == "HEAD" else shipped.body
    return Response(200, "OK", headers, body)


def _plain(status: int, phrase: str, text: str) -> Response:
    body = text.encode()
    return Response(status, phrase, _headers("text/plain; charset=utf-8", len(body), None), body)


def _headers(content_type: str, length: int, host: str | None) -> Headers:
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Type", content_type),
            ("Content-Length", str(length)),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
        ]
    )
    policy = content_security_policy(host) if host else "default-src 'none'"
    headers["Content-Security-Policy"] = policy
    return headers


def _respond(protocol: ServerProtocol, response: Response) -> None:
    if protocol.state is State.CONNECTING and not protocol.eof_sent:
        protocol.send_response(response)


async def _send_pending(tcp: trio.SocketStream, protocol: ServerProtocol) -> None:
    with trio.move_on_after(REQUEST_SECONDS):
        for chunk in protocol.data_to_send():
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                if chunk:
                    await tcp.send_all(chunk)
                else:
                    await tcp.send_eof()

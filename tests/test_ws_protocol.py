"""The live channel's direct frames (api/ws_protocol.py): the bytes of a shared frame are
a valid server text frame at every length boundary, the protocol writes them only while the
connection takes them, and a channel never lets a direct frame overtake what it has
queued for its writer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from skald.api.channel import Channel
from skald.api.channel import Frame as UpdateFrame
from skald.api.ws_protocol import DIRECT_SEND, SkaldWebSocketProtocol, direct_sender, text_frame


def parsed(data: bytes) -> Frame:
    """`data` read back by websockets' own parser, as a client reads a server's frame."""
    reader = StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    raise AssertionError("the frame was not read whole")


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536, 70000])
def test_a_text_frame_reads_back_whole_at_every_length(size: int) -> None:
    payload = ("é" * size).encode()[:size]
    payload = payload.decode(errors="ignore").encode()  # whole characters only
    frame = parsed(text_frame(payload))
    assert frame.opcode == Opcode.TEXT
    assert frame.fin
    assert frame.data == payload


class FakeTransport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing


def bare_protocol() -> SkaldWebSocketProtocol:
    """The protocol's state without a server around it (send_frame reads only these)."""
    protocol = SkaldWebSocketProtocol.__new__(SkaldWebSocketProtocol)
    protocol.transport = FakeTransport()  # type: ignore[assignment]
    protocol.handshake_complete = True
    protocol.close_sent = protocol.disconnected = False
    protocol.initial_response = None
    protocol.writable = asyncio.Event()
    protocol.writable.set()
    return protocol


@pytest.mark.parametrize(
    "state",
    ["handshake_complete", "close_sent", "disconnected", "initial_response", "paused", "closing"],
)
def test_a_frame_goes_directly_only_while_the_connection_takes_it(state: str) -> None:
    protocol = bare_protocol()
    transport: Any = protocol.transport
    assert protocol.send_frame(b"one") is True
    if state == "handshake_complete":
        protocol.handshake_complete = False
    elif state == "initial_response":
        protocol.initial_response = (403, [], b"")
    elif state == "paused":
        protocol.writable.clear()
    elif state == "closing":
        transport.closing = True
    else:
        setattr(protocol, state, True)
    assert protocol.send_frame(b"two") is False
    assert transport.written == [b"one"]


class FakeWebSocket:
    """A starlette WebSocket's send, recording texts; its scope offers `direct`."""

    def __init__(self, direct: list[bytes] | None, refuse: bool = False) -> None:
        self.sent: list[str] = []
        self.scope: dict[str, Any] = {"extensions": {}}
        if direct is not None:
            self.scope["extensions"][DIRECT_SEND] = {"send": self._direct}
        self.direct, self.refuse = direct, refuse
        self.release = asyncio.Event()

    def _direct(self, data: bytes) -> bool:
        if self.refuse:
            return False
        assert self.direct is not None
        self.direct.append(data)
        return True

    async def send_text(self, text: str) -> None:
        await self.release.wait()
        self.sent.append(text)

    async def close(self, *args: Any) -> None:
        pass


def update(seq: int) -> UpdateFrame:
    return UpdateFrame(seq, b'{"type":"update","seq":%d}' % seq, False)


def test_no_extension_means_every_frame_goes_through_asgi() -> None:
    assert direct_sender({"extensions": {}}) is None

    async def run() -> list[str]:
        websocket = FakeWebSocket(None)
        websocket.release.set()
        channel = Channel(websocket, None, None)  # type: ignore[arg-type]
        writer = asyncio.create_task(channel.write())
        channel.push_frame(update(1))
        channel.push_frame(update(2), (1000, "the game is over"))
        await asyncio.wait_for(writer, 5)
        return websocket.sent

    assert asyncio.run(run()) == [update(1).text, update(2).text]


def test_a_direct_frame_never_overtakes_what_the_writer_still_sends() -> None:
    """An error frame is queued and its send blocks (a slow client); the updates after it
    wait behind it instead of going straight to the socket; once the queue is empty the
    next update goes directly again."""

    async def run() -> tuple[list[bytes], list[str]]:
        direct: list[bytes] = []
        websocket = FakeWebSocket(direct)
        channel = Channel(websocket, None, None)  # type: ignore[arg-type]
        writer = asyncio.create_task(channel.write())
        channel.push_frame(update(1))  # nothing queued: straight out
        channel.push('{"type":"error"}')
        await asyncio.sleep(0)  # the writer takes it and blocks in send_text
        channel.push_frame(update(2))
        channel.push_frame(update(3))
        assert direct == [update(1).wire]
        websocket.release.set()
        for _ in range(10):
            await asyncio.sleep(0)
        channel.push_frame(update(4))
        writer.cancel()
        return direct, websocket.sent

    direct, sent = asyncio.run(run())
    assert sent == ['{"type":"error"}', update(2).text, update(3).text]
    assert direct == [update(1).wire, update(4).wire]


def test_a_refused_direct_frame_goes_through_asgi() -> None:
    async def run() -> list[str]:
        websocket = FakeWebSocket([], refuse=True)
        websocket.release.set()
        channel = Channel(websocket, None, None)  # type: ignore[arg-type]
        writer = asyncio.create_task(channel.write())
        channel.push_frame(update(5))
        for _ in range(5):
            await asyncio.sleep(0)
        writer.cancel()
        return websocket.sent

    assert asyncio.run(run()) == [update(5).text]

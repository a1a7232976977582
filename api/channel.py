"""The live channel of a seat: one WebSocket (`/games/ID/play`) to act and to follow a game.

Protocol (JSON text frames; the how-to guide "Drive a game over HTTP" walks through it):

- The client's first message is `{"type": "hello", "token"?, "after"?, "notes"?}`. The
  token may come instead in the upgrade's `Authorization: Bearer TOKEN` header; never in the URL (a
  `?token=` is refused). No token: a spectator; the referee's: the referee (both listen
  only). `after`: the last seq the client has (a reconnecting client resumes after it);
  without it the first update carries no events, only the game as it is now. `notes`:
  true to be told when the game's annotations and variations change (below).
- The server answers `{"type": "welcome", "game", "viewer", "seat"}`, then an update.
- A seat's decisions: `{"type": "move", "move", "expected_seq"?}`, `{"type": "undo"}`,
  `{"type": "redo"}`, `{"type": "entropy", "entropy"}` (each with an optional
  `expected_seq`, the compare-and-set of the REST routes, an optional `signed`, the seat's
  own signature (core/identity.py), and an optional `bot`, the name of a bot the seat's
  player runs). One message per decision.
- After every decision by anyone (through this channel, REST, the CLI, another server),
  every channel gets one frame `{"type": "update", "seq", "events", "to_act", "outcome",
  "legal", "view", "receipt", "head", "keys"}`: the events since its last seq redacted for
  its viewer, whose turn it is, the outcome, its seat's legal moves (empty when it is not to act;
  null for a viewer without a seat), its view, and the signed receipt for the head.
- A message that cannot be done gets `{"type": "error", "error", "message"}` (the REST
  error codes; `current_seq` on a conflict; `bad_message` for one that does not parse),
  and nothing is written. A decision the store fails under gets the REST answer's body:
  `store_read_only` / `store_full` with `"retry": false`, `store_unavailable` with
  `"retry": true`; the channel stays open and takes decisions again once the store does.
  A failed hello is answered so, then the channel closes (4400 bad hello, 4401 bad token,
  4404 no such game; 1011 when the store fails it).
- When the store fails under the game's updates, every channel of the game gets one
  `store_unavailable` error frame (`"retry": true`) and stays open: updates follow once the
  store is back (from the seq each channel had: nothing lost or repeated). After
  `OUTAGE_SECONDS` of failing the channels close with 1011 (reconnect with `after`).
- A channel whose hello said `"notes": true` gets `{"type": "notes"}` whenever what its
  viewer may read of the game's annotations and variations (`GET .../annotations`,
  `GET .../variations`) is no longer what it was at the welcome or at its last notes
  frame: read them again then (and once after the welcome). A note or a variation its
  viewer may not see sends it nothing (`api/channel_notes.py`).
- After the update that carries the outcome the server closes the channel (1000); one that
  follows the notes stays open for them (annotating goes on after the end).

Cost per decision: a decision of this process goes out at once from the deciding channel's
task (`Watch.decided`): no store read (its seq is the engine's copy, its events are kept),
no wake-up of another task; every channel of the game is handed its frame, built and
encoded once per viewer and seq had, whatever the number of channels sharing them (a
hundred spectators cost one frame), and written to each connection at once, as the same
bytes (`api.ws_protocol`: no writer task woken, no framing per channel; a channel with
frames still queued, or whose client reads slowly, goes through its writer instead).
The process follows each game with open channels once (`Watch`: one task per game) for
what comes from elsewhere: PostgreSQL notifications of any
process's decisions, REST and the CLI, and a poll. An idle channel costs nothing but its
game's poll: one version query per watched game per poll interval (0.2 s on SQLite, 2 s on
PostgreSQL), not per channel. Keep-alive is uvicorn's WebSocket ping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Annotated, Any

import msgspec
from sqlalchemy.exc import DBAPIError
from starlette.websockets import WebSocket, WebSocketDisconnect

from skald.api.channel_notes import AlsoWakes, NotesWatch
from skald.api.deps import Caller, Services, admitted, caller_of
from skald.api.errors import STATUS, STORE_UNAVAILABLE, store_failure
from skald.api.offload import offload, on_table, reading
from skald.api.schemas import MAX_SEQ
from skald.api.ws_protocol import direct_sender, text_frame
from skald.core.errors import SkaldError, StoreError, Unauthorized, VersionConflict
from skald.core.history.streams import notes_id
from skald.core.identity import Signing
from skald.core.secrecy import ENTROPY_PREFIX
from skald.core.store import describe_db_error
from skald.events.common import Author
from skald.events.viewer import Viewer
from skald.projections.table import NotHeld, Table, Update

log = logging.getLogger(__name__)
HELLO_SECONDS = 10.0  # a channel that says nothing is closed after this long
OUTAGE_SECONDS = 30.0  # a game's channels stay open this long while the store fails
BAD_HELLO, BAD_TOKEN, SEALED, NO_GAME, STORE_FAILED = 4400, 4401, 4403, 4404, 1011
CLOSE_CODES = {
    BAD_HELLO: "a bad hello: not a hello, none within the time allowed, or `after` past the"
    " game's seq",
    BAD_TOKEN: "the token is not one of this game's",
    SEALED: "a table of a duplicate round not yet over: only its seats and its referee may"
    " follow it",
    NO_GAME: "no such game",
    STORE_FAILED: f"the store failed the hello, or has failed for {OUTAGE_SECONDS:g} s"
    " (reconnect with `after`)",
}
"""The codes a channel closes with (the documentation's table is made from this)."""
Seq = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]
Text = Annotated[str, msgspec.Meta(max_length=4096)]
Bot = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
"""A bot's name, sent by a bot the seat's player runs: the record says the decision is its."""


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    """Who the client is and what it has."""

    token: Annotated[str, msgspec.Meta(min_length=1, max_length=200)] | None = None
    after: Seq | None = None
    notes: bool = False


class MoveMessage(msgspec.Struct, tag="move", forbid_unknown_fields=True):
    """Play a move."""

    move: Text
    expected_seq: Seq | None = None
    signed: Signing | None = None
    bot: Bot | None = None


class UndoMessage(msgspec.Struct, tag="undo", forbid_unknown_fields=True):
    """Take back the last decision."""

    expected_seq: Seq | None = None
    signed: Signing | None = None
    bot: Bot | None = None


class RedoMessage(msgspec.Struct, tag="redo", forbid_unknown_fields=True):
    """Re-apply the decision just undone."""

    expected_seq: Seq | None = None
    signed: Signing | None = None
    bot: Bot | None = None


class EntropyMessage(msgspec.Struct, tag="entropy", forbid_unknown_fields=True):
    """A seat's entropy (its words, or its commitment or reveal), as `entropy ...`."""

    entropy: Text
    expected_seq: Seq | None = None
    signed: Signing | None = None
    bot: Bot | None = None


Decision = MoveMessage | UndoMessage | RedoMessage | EntropyMessage
_HELLO = msgspec.json.Decoder(Hello)
_DECISION: msgspec.json.Decoder[Decision] = msgspec.json.Decoder(Decision)


class Refused(Exception):
    """A hello the channel cannot take: the error frame's code and message, the close code."""

    def __init__(self, error: str, message: str, close: int) -> None:
        super().__init__(message)
        self.error, self.message, self.close = error, message, close


def error_frame(error: str, message: str, **extra: Any) -> str:
    """An error frame's text."""
    return msgspec.json.encode(
        {"type": "error", "error": error, "message": message, **extra}
    ).decode()


def skald_error_frame(error: SkaldError) -> str:
    """The error frame for a refused decision: the REST error code and message."""
    code = next(c for kind, _s, c in STATUS if isinstance(error, kind))
    if isinstance(error, VersionConflict):
        return error_frame(code, str(error), current_seq=error.current)
    return error_frame(code, str(error))


def store_failure_frame(game_id: str, error: Exception) -> str:
    """The error frame for a decision the store failed under: the REST answer's code,
    message and retry hint (`store_read_only`, `store_full`: retry false; else
    `store_unavailable`, retry true). Nothing was written; the channel stays open."""
    if isinstance(error, DBAPIError):
        log.warning("a decision on %s failed: %s", game_id, describe_db_error(error))
        _status, body = store_failure(error)
    else:
        log.warning("a decision on %s failed: %s", game_id, error)
        body = {"error": "store_unavailable", "message": str(error), "retry": True}
    return msgspec.json.encode({"type": "error", **body}).decode()


def decision_args(message: Decision) -> tuple[str, str | None]:
    """The Table's action and notation for a decision message."""
    if isinstance(message, MoveMessage):
        return "move", message.move
    if isinstance(message, EntropyMessage):
        words = message.entropy.strip()
        return "move", words if words.startswith(ENTROPY_PREFIX) else ENTROPY_PREFIX + words
    return ("undo" if isinstance(message, UndoMessage) else "redo"), None


_ENCODER = msgspec.json.Encoder()


def encode_update(update: Update) -> bytes:
    """An update frame's JSON, as every channel is sent it (`Update` is tagged: `"type":
    "update"` comes first)."""
    return _ENCODER.encode(update)


class Frames:
    """The update frames of a process: each built and encoded once per viewer and seq had,
    whatever the number of channels that share them (see `Watch`)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def frame(
        self, game_id: str, viewer: Viewer, after: int | None, held: bool = False
    ) -> Frame | None:
        """The frame taking `viewer` from seq `after` to the engine's copy of the game
        (read from the store just before; at `after` itself, a frame with no events), or
        None when that copy is behind `after` (`held`: from what the process holds alone,
        else NotHeld; see `Table.update`)."""
        update = self.table.update(game_id, viewer, after, held)
        if update is None:
            return None
        return Frame(update.seq, encode_update(update), update.outcome is not None)

    def frames(
        self, game_id: str, wanted: list[tuple[Viewer, int | None]], held: bool = False
    ) -> list[Frame | None]:
        """`frame` for each (viewer, seq had): one call for every group of a game's channels."""
        return [self.frame(game_id, viewer, after, held) for viewer, after in wanted]


class Frame:
    """One update frame: the seq it takes its channel to, its JSON, whether the game is
    over; and its bytes on the wire (`wire`: built once, sent as they are to every channel
    that shares the frame, see `api.ws_protocol`)."""

    __slots__ = ("data", "over", "seq", "wire")

    def __init__(self, seq: int, data: bytes, over: bool) -> None:
        self.seq, self.data, self.over = seq, data, over
        self.wire = text_frame(data)

    @property
    def text(self) -> str:
        """The frame's text, for a channel that sends it through ASGI."""
        return self.data.decode()


class Channel:
    """One open channel: its viewer, the seq it has been sent, and what is still to send."""

    def __init__(
        self, websocket: WebSocket, caller: Caller, after: int | None, notes: str | None = None
    ) -> None:
        self.websocket = websocket
        self.caller = caller
        self.after = after
        self.due = True  # its first update is due, even at the seq it resumes after
        self.notes = notes  # the digest of the notes its viewer was told of; None: not followed
        self._direct = direct_sender(websocket.scope)
        self._writing = False  # the writer is sending what was pushed
        self._outbox: list[str] = []
        self._ready = asyncio.Event()
        self._close: tuple[int, str] | None = None

    @property
    def viewer(self) -> Viewer:
        """Whom its frames are for."""
        return self.caller.viewer

    def push(self, text: str, close: tuple[int, str] | None = None) -> None:
        """Send `text` (then close with `close`: code and reason)."""
        self._outbox.append(text)
        self._close = self._close or close
        self._ready.set()

    def push_frame(self, frame: Frame, close: tuple[int, str] | None = None) -> None:
        """Send an update frame: written at once when nothing is waiting before it and the
        connection takes it now (`api.ws_protocol`), else pushed for the writer."""
        idle = not (self._outbox or self._writing or close or self._close)
        if not (idle and self._direct is not None and self._direct(frame.wire)):
            self.push(frame.text, close)

    async def write(self) -> None:
        """Send what is pushed, in order, until the channel closes."""
        while True:
            await self._ready.wait()
            self._ready.clear()
            self._writing = True
            try:
                while self._outbox:
                    texts, self._outbox = self._outbox, []
                    for text in texts:
                        await self.websocket.send_text(text)
            finally:
                self._writing = False
            if self._close is not None:
                await self.websocket.close(*self._close)
                return


Groups = dict[tuple[Viewer, int | None], list[Channel]]


class Watch:
    """This process following one game for its open channels: one task that hears of new
    events (a notification of another process's decision, a poll, a channel joining),
    learns the head once, builds every channel's frame in one go and hands each its own.

    The channels are grouped by viewer and seq had: one frame per group, whatever the
    number of channels in it (a hundred spectators cost one frame). A decision of this
    process goes out at once, from what the process holds (`decided`: its seq is the
    engine's copy, its events are kept), with no store read and no wake-up of the task;
    the task reads the head from the store at the start, when a channel joins, at every
    poll, and when a notification names a seq the engine's copy has not reached. A frame
    goes to a channel only if it starts at the seq the channel has: one built in a thread
    while a decision's frame went out is dropped (the next round sends what follows), so
    no frame is repeated or skipped."""

    def __init__(self, services: Services, frames: Frames, game_id: str, done: Any) -> None:
        self.services, self.frames, self.game_id = services, frames, game_id
        self.channels: set[Channel] = set()
        self.seen = -1  # the highest head frames were built for
        self._done = done
        self._read = True  # the next round reads the head from the store
        self._woken: asyncio.Event | None = None
        self.notes = NotesWatch(services.table, game_id)
        self._notes_heard: asyncio.Event | None = None
        self.task = asyncio.get_running_loop().create_task(self._run())

    def add(self, channel: Channel) -> None:
        """Follow the game for one more channel (its first frame is due)."""
        self.channels.add(channel)
        if channel.notes is not None:
            self.notes.look()
        self._tick()

    def _tick(self) -> None:
        self._read = True
        if self._woken is not None:
            self._woken.set()

    def decided(self, seq: int) -> asyncio.Event | None:
        """A decision of this process took the game to `seq`: every channel's frame now,
        from what the process holds; when it does not hold enough (another decision came
        in between), the task's next round reads the store. The task's wake-up event when
        all is sent (the decision's publication need not wake it), else None."""
        if seq <= self.seen:
            return self._woken
        cached = self.services.table.cached_head(self.game_id)
        if cached is None or cached < seq:
            self._tick()
            return None
        self.seen = cached
        groups = self._behind()
        try:
            built = self.frames.frames(self.game_id, list(groups), held=True)
        except NotHeld:
            self._tick()
            return None
        self._hand_out(groups, built)
        if self.notes.due and self._woken is not None:
            self._woken.set()  # the game ended: the notes' round is the task's
        return self._woken

    def _behind(self) -> Groups:
        """The channels behind the head seen, by viewer and seq had."""
        groups: Groups = {}
        for channel in self.channels:
            if channel.due or channel.after is None or channel.after < self.seen:
                groups.setdefault((channel.caller.viewer, channel.after), []).append(channel)
        return groups

    def _hand_out(self, groups: Groups, built: list[Frame | None]) -> None:
        for ((_viewer, after), members), frame in zip(groups.items(), built, strict=True):
            if frame is None:
                continue
            if frame.over:  # its end may open variations to everyone
                self.notes.look()
            for channel in members:
                if channel.after != after or channel not in self.channels:
                    continue  # it moved on (or left) while this frame was built
                channel.after, channel.due = frame.seq, False
                if frame.over and channel.notes is None:  # done; one following notes stays
                    channel.push_frame(frame, (1000, "the game is over"))
                    self.channels.discard(channel)
                else:
                    channel.push_frame(frame)

    def _head_known(self) -> int | None:
        """The head without asking the store, or None when it must be read."""
        if self._read:
            self._read = False
            return None
        said = self.services.feed.head(self.game_id)
        if said is None or said <= self.seen:
            return self.seen
        cached = self.services.table.cached_head(self.game_id)
        return cached if cached is not None and cached >= said else None

    async def _run(self) -> None:
        feed = self.services.feed
        loop = asyncio.get_running_loop()
        failing_since: float | None = None
        try:
            with (
                feed.subscription(self.game_id) as woken,
                feed.subscription(notes_id(self.game_id), AlsoWakes(woken)) as heard,
            ):
                self._woken, self._notes_heard = woken, heard
                while self.channels:
                    woken.clear()
                    try:
                        await self._round()
                        failing_since = None
                    except (DBAPIError, StoreError) as error:
                        failing_since = self._failed(error, failing_since, loop.time())
                        if failing_since is None:
                            return
                    if woken.is_set() or not self.channels:
                        continue
                    timer = loop.call_later(feed.poll_interval, self._tick)
                    try:
                        await woken.wait()
                    finally:
                        timer.cancel()
        finally:
            self._done(self)

    async def _round(self) -> None:
        """Learn the head and send every channel behind it its frame; then the notes
        frames due (the history streams' seqs are read when the head is, and when an
        append to them was heard of)."""
        table = self.services.table
        head = self._head_known()
        polled = head is None
        if head is None:
            head = await reading(table, table.head, self.game_id)
        self.seen = max(self.seen, head)
        groups = self._behind()
        if groups:
            wanted = list(groups)
            try:  # all in memory, on the loop at once
                built = self.frames.frames(self.game_id, wanted, held=True)
            except NotHeld:
                built = await reading(table, self.frames.frames, self.game_id, wanted)
            self._hand_out(groups, built)
        heard = self._notes_heard
        if heard is not None and heard.is_set():
            heard.clear()
            polled = True
        await self.notes.round(self.channels, polled)

    def _failed(self, error: Exception, since: float | None, now: float) -> float | None:
        """A round the store failed: the channels are told once (an error frame; they stay
        open and the next polls try again), and closed (1011) once it has failed for
        `OUTAGE_SECONDS`. When the failing started, or None once they are closed."""
        self._read = True
        if since is None:
            text = describe_db_error(error) if isinstance(error, DBAPIError) else str(error)
            log.warning("live channels of %s: the store failed: %s", self.game_id, text)
            told = error_frame(
                "store_unavailable",
                "the event store is unavailable; updates follow once it is back",
                retry=True,
            )
            for channel in self.channels:
                channel.push(told)
            return now
        if now - since < OUTAGE_SECONDS:
            return since
        log.warning("live channels of %s closed: the store is still failing", self.game_id)
        gone = error_frame(
            "store_unavailable",
            "the event store is unavailable; reconnect with after to resume",
            retry=True,
        )
        for channel in self.channels:
            channel.push(gone, (STORE_FAILED, "store_unavailable"))
        self.channels.clear()
        return None


class Watches:
    """The games this process follows for its channels."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.frames = Frames(services.table)
        self._games: dict[str, Watch] = {}

    def join(self, channel: Channel) -> None:
        """Follow the channel's game for it."""
        game_id = channel.caller.game_id
        watch = self._games.get(game_id)
        if watch is None or watch.task.done():
            watch = self._games[game_id] = Watch(self.services, self.frames, game_id, self._ended)
        watch.add(channel)

    def leave(self, channel: Channel) -> None:
        """Stop following for it (the game's watch ends with its last channel)."""
        watch = self._games.get(channel.caller.game_id)
        if watch is not None:
            watch.channels.discard(channel)

    def decided(self, game_id: str, seq: int) -> asyncio.Event | None:
        """A decision of this process took `game_id` to `seq` (see `Watch.decided`): the
        game's watch, if it heard of it already (its task need not be woken), else None."""
        watch = self._games.get(game_id)
        if watch is None or watch.task.done():
            return None
        return watch.decided(seq)

    def _ended(self, watch: Watch) -> None:
        if self._games.get(watch.game_id) is watch:
            del self._games[watch.game_id]


def header_token(websocket: WebSocket) -> str | None:
    """The upgrade's bearer token, if any (Unauthorized for a malformed header)."""
    header = websocket.headers.get("authorization")
    if header is None:
        return None
    scheme, _, given = header.partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        raise Unauthorized("the Authorization header must be 'Bearer TOKEN'")
    return given.strip()


async def _hello(
    websocket: WebSocket, services: Services, game_id: str
) -> tuple[Caller, int | None, str | None]:
    if "token" in websocket.query_params:
        raise Refused(
            "bad_message",
            "the token goes in the first message or the Authorization header, never the URL",
            BAD_HELLO,
        )
    try:
        message = await asyncio.wait_for(websocket.receive(), HELLO_SECONDS)
    except TimeoutError:
        raise Refused("bad_message", f"no hello within {HELLO_SECONDS:g} s", BAD_HELLO) from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    try:
        hello = _HELLO.decode(message.get("text") or message.get("bytes") or b"")
    except (msgspec.DecodeError, UnicodeDecodeError) as error:
        raise Refused(
            "bad_message", f'the first message must be {{"type": "hello"}}: {error}', BAD_HELLO
        ) from None
    try:
        token = header_token(websocket)
        if token is not None and hello.token is not None and token != hello.token:
            raise Unauthorized("the hello's token and the Authorization header's differ")
        # the one access decision of every read beyond a game's summary (a duplicate
        # round's table is followed by its seats and its referee only, until it is over)
        identified = offload(caller_of, services, game_id, token or hello.token)
        caller = await admitted(services, game_id, identified)
        if hello.after is not None:
            head = await on_table(services.table, services.table.head, game_id)
            if hello.after > head:
                raise Refused(
                    "bad_message", f"after={hello.after}: the game is at seq {head}", BAD_HELLO
                )
        notes = None
        if hello.notes:  # taken before the welcome: the client reads its notes after it
            notes = await offload(services.table.notes_digest, game_id, caller.viewer)
    except SkaldError as error:
        code = next(c for kind, _s, c in STATUS if isinstance(error, kind))
        close = {"not_found": NO_GAME, "unauthorized": BAD_TOKEN, "forbidden": SEALED}.get(
            code, STORE_FAILED
        )
        raise Refused(code, str(error), close) from None
    except DBAPIError as error:
        log.warning("a live channel of %s: the store failed: %s", game_id, describe_db_error(error))
        raise Refused(*STORE_UNAVAILABLE[1:], STORE_FAILED) from None
    return caller, hello.after, notes


async def serve_channel(websocket: WebSocket, game_id: str, watches: Watches) -> None:
    """Run one channel until the client leaves or the game ends."""
    services = watches.services
    await websocket.accept()
    try:
        caller, after, notes = await _hello(websocket, services, game_id)
    except Refused as refused:
        await websocket.send_text(error_frame(refused.error, refused.message))
        await websocket.close(refused.close, refused.error)
        return
    except WebSocketDisconnect:
        return
    welcome = {
        "type": "welcome",
        "game": game_id,
        "viewer": caller.viewer.name,
        "seat": caller.seat,
    }
    await websocket.send_text(msgspec.json.encode(welcome).decode())
    channel = Channel(websocket, caller, after, notes)
    watches.join(channel)
    loop = asyncio.get_running_loop()
    writer = loop.create_task(channel.write())
    reader = loop.create_task(_read(channel, watches))
    try:
        done, _ = await asyncio.wait((writer, reader), return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            error = task.exception()
            if isinstance(error, DBAPIError | StoreError):
                text = describe_db_error(error) if isinstance(error, DBAPIError) else str(error)
                log.warning("a live channel of %s ended: the store failed: %s", game_id, text)
                with contextlib.suppress(Exception):
                    await websocket.send_text(
                        error_frame(
                            "store_unavailable",
                            "the event store is unavailable; reconnect with after to resume",
                        )
                    )
                    await websocket.close(STORE_FAILED, "store_unavailable")
            elif error is not None and not isinstance(error, WebSocketDisconnect | OSError):
                raise error  # a client gone mid-send is an OSError (uvicorn's ClientDisconnected)
    finally:
        watches.leave(channel)
        for task in (writer, reader):
            task.cancel()


async def _read(channel: Channel, watches: Watches) -> None:
    """The client's messages: each decision made (the game's channels get their frames at
    once; its seq is published for SSE streams and the watch), or answered with an error
    frame."""
    websocket, caller = channel.websocket, channel.caller
    table, feed = watches.services.table, watches.services.feed
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        try:
            decision = _DECISION.decode(message.get("text") or message.get("bytes") or b"")
        except (msgspec.DecodeError, UnicodeDecodeError) as error:
            await websocket.send_text(error_frame("bad_message", f"not a decision: {error}"))
            continue
        if caller.seat is None:
            who = "the referee" if caller.viewer.referee else "a spectator"
            await websocket.send_text(
                error_frame("forbidden", f"{who} listens only; decisions need a seat's token")
            )
            continue
        action, notation = decision_args(decision)
        by = None
        if decision.bot:
            player = table.players(caller.game_id)[caller.seat]
            by = Author(kind="bot", name=decision.bot, started_by=player)
        try:
            seq = await on_table(
                table,
                table.act,
                caller.game_id,
                caller.seat,
                action,
                notation,
                decision.expected_seq,
                by,
                decision.signed,
            )
        except (DBAPIError, StoreError) as error:
            await websocket.send_text(store_failure_frame(caller.game_id, error))
            continue
        except SkaldError as error:
            await websocket.send_text(skald_error_frame(error))
            continue
        heard = watches.decided(caller.game_id, seq)
        feed.publish(caller.game_id, seq, heard)

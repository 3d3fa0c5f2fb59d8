"""A table of phones with no laptop (#54): the host's phone holds the game, the guests' follow it.

The phones are linked by WebRTC data channels (views/hosts/phone_link.py, web/link.js), paired by
two QR codes (views/table/pairing.py). On them, JSON messages of protocol 1:

  guest -> host   {"t": "hello", "v": 1, "phone": id}   id: the guest phone's own (kept on it), so
                                                         a phone that joins again keeps its number
                  {"t": "save", "ask": k, "id": game, "from": revision, "record": {...}}
                  {"t": "undo" | "redo", "ask": k, "id": game, "from": revision}
                  {"t": "delete", "ask": k, "id": game}
                  {"t": "forget", "ask": k}           the guest stopped waiting for edit k
  host -> guest   {"t": "game", "rev": n, "undo": bool, "redo": bool, "record": {...}}  the latest
                  {"t": "saved", "ask": k, ...as game}        the guest's edit is stored (with
                                                              the edits it was rebased on, and
                                                              the rest of its burst: below)
                  {"t": "stale", "ask": k, ...as game}        another edit came first and it
                                                              could not be rebased: the latest
                  {"t": "refused", "ask": k, "why": template, "params": {...}}   in words
                  {"t": "spare", "code": invitation}          kept for this phone's return (below)
                  {"t": "bye"}                                the host ended the table

The host's store is the truth: a guest's edit is taken only if a guest's pad could have made it
in one tap from the record of the revision it started from, with no new error by the rules
(scoring/guest_edit.py, after views/table/roles.py: a guest plays; it does not rename, change the
game's settings, delete a game nor edit a finished one). Made on the latest revision, it is stored
as it came. Made on an older one (guests tapping at once all start from one revision), it is
rebased when the host still keeps that revision's record (the last KEPT): if the guest's change
and the changes since touch different parts of the game (scoring/rebase.py: another player's hand,
another count), the merged record, checked again as one tap from the latest with no new error, is
stored on the latest, in the same round trip (#69); otherwise the guest is answered "stale" with
the latest and makes its tap again on it. An undo or redo is taken on the latest revision only.
Every edit is stored (durable) before any phone is told. `ask` is the edit's id on its link: an
edit the guest stopped waiting for (it said "not saved") is dropped, never stored, so what the
guest said stays true. A message that is not JSON, too big, of another game or of an unknown kind
is refused and logged, and never reaches the store.
A guest keeps the game as last seen in memory only, never in its own store.

A phone that sleeps (#69): a locked screen or a browser put away stops the page, and the link
with it; the other phone gives up on it after about 30 s (WebRTC's consent checks). So once a
guest has said hello, the host makes one more invitation for that phone's return and sends it over
the link (a spare); the guest keeps it (views/table/phones.py: also on the phone, for a browser the
system killed meanwhile). When the link is lost the guest answers the spare at once and shows that
one code; the host's camera reads it as it reads any guest's answer, and the phone is back under
its number. Only the host's half of a link can wait for the other's code, so this is the one code
WebRTC needs with no server; a spare the host no longer holds (its page started again) is refused
in words, and the two codes of a first joining work as before.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import logging
from typing import Callable

from pydantic import ValidationError

from scoring import RecordBase, parse_record, rules_for
from scoring.common import N_, Words
from scoring.guest_edit import refusal as guest_refusal, step_refusal
from scoring.rebase import rebase
from storage import StaleSave, StoreError
from storage.api import Saved
from views.table import pairing
from views.words import lang
from views.games import SAVE_TRIES, Games, SaveFailed
from views.words.lang import _, n_
from views.table.roles import HOST_ONLY

log = logging.getLogger(__name__)

PROTOCOL = 1
_PEERS = itertools.count(1)  # the page's link names, never used twice by one page
MOST_BYTES = 256_000     # a 10-player game's record is about 25 kB as JSON
OPEN_WITHIN = 15         # seconds from the answer read to the link open, before the reasons are said
ANSWER_WITHIN = 10       # seconds a guest waits for the host's answer to an edit
# The host starts storing an edit only within this share of the guest's wait after it arrived:
# the rest is for the store's write and the answer's way back, so a guest never says "not saved"
# of an edit the host then stored, even when its "forget" is lost with a dropping link.
TAKE_WITHIN = 0.6
# Revisions whose records the host keeps to rebase a guest's edit on: a burst of taps of every
# guest of the biggest table (9 guests of a 10-player Panda Royale) starts from one of them.
KEPT = 16
# Seconds the phones may wait for the rest of a burst (#69): while other guests' edits are heard
# and not yet taken, the host's pad and the guests are told only of the burst's last save, so
# each phone draws it in one frame, not one per tap (3 guests: a guest's frames a burst from
# 2.3-2.9 to 1.4-2.0 in bench_phone_table).
HOLD_PAD = 0.25
# Seconds a guest's save waits for the rest of its burst when none of it is heard yet, while the
# table is busy (another guest's edit within BUSY seconds), or until every guest here has a tap in
# it: the guests' taps of one moment reach the host up to tens of ms apart (each phone's Python and
# page first), and a burst told as it came was 1.7-2.1 frames on every phone, 1.0-1.3 with this
# (bench_phone_table, 3 guests). A lone tap on a quiet table is told at once.
GATHER = 0.04
BUSY = 3.0


class LinkFailed(Exception):
    """The page could not do what was asked of a link (views/hosts/phone_link.py); args[0] says
    why in one word (refused, busy, none, insecure, reader, gone) or in the browser's words."""


def game_message(kind: str, saved: Saved, record: dict | None = None, **more) -> dict:
    """`record`: saved.record as JSON already (one save told to many phones is dumped once)."""
    return {"t": kind, **more, "rev": saved.revision, "undo": saved.can_undo, "redo": saved.can_redo,
            "record": record if record is not None else saved.record.model_dump(mode="json", exclude_none=True)}


class HostsStep(Exception):
    """A guest's Undo or Redo would step over a change only the host makes."""

    def __init__(self, words: Words):
        super().__init__(str(words))
        self.words = words


def _guest_step(now, then) -> None:
    """The store's check of a guest's Undo or Redo, before anything is stored."""
    why = step_refusal(now, then)
    if why is not None:
        raise HostsStep(why)


def refused(ask, words: Words) -> dict:
    return {"t": "refused", "ask": ask, "why": words.template, "params": dict(words.params)}


class Guest:
    """A guest's phone as the host sees it."""

    def __init__(self, peer: str, invitation: bytes, number: int, spare_for: str | None = None):
        self.peer = peer
        self.invitation = invitation
        self.spare_for = spare_for  # an invitation kept for that phone's return (its id), not a new guest
        self.state = "invited"   # invited -> here -> gone
        self.number = number     # "Phone 2" on the host's screens
        self.phone: str | None = None  # the phone's own id, from its hello
        self.greeted = False  # its hello heard: its number is the one it keeps (a phone back keeps its old)
        self.waiting: set[int] = set()   # its edits (asks) heard, not yet answered
        self.told: Saved | None = None  # the last save sent to it, as its edit's answer or the latest
        self.unanswered: list = []  # its edits (asks) stored, their answer held for the burst's last save
        self.given_up: set[int] = set()  # of those, the ones it stopped waiting for
        self.edited_at = float("-inf")  # when its last edit was heard (the table is busy: GATHER)


class TableHost:
    """The host's phone: the one store, the guests linked to it, for one game."""

    def __init__(self, games: Games, link, game_id: str, told: Callable[[], None] = lambda: None):
        self.games, self.link, self.game_id = games, link, game_id
        self.guests: dict[str, Guest] = {}
        self.told = told         # the host's screens redraw who is here (set by the screen showing it)
        self.tell_pad: Callable[[Saved], None] = lambda saved: None  # the host's own pad takes it
        self._stop = link.listen(self._heard)
        self._lock = asyncio.Lock()  # one guest's edit checked and stored at a time, in the order they came
        # The game as this phone last stored or read it: a guest's edit on that revision is checked
        # against it with no read of the store first (on the phone each store call waits for a sync
        # with IndexedDB, #69). The store's own revision check still refuses a save on an old one.
        self._latest: Saved | None = None
        # The records of the last KEPT revisions this phone stored, read or sent: the one a guest's
        # edit started from, to put its tap on the latest (scoring/rebase.py).
        self.kept: dict[int, RecordBase] = {}
        self._heard_edits = 0           # guests' edits heard and not yet answered
        self._untold: Saved | None = None  # the latest save the pad and the other guests were not told of
        self._held_since = 0.0
        self._gather_until = 0.0        # a held save is told no sooner (GATHER), unless HOLD_PAD passed
        self._gathering: asyncio.TimerHandle | None = None
        games.after_save.append(self._saved_here)
        games.tables[game_id] = self
        self.ended = False

    @property
    def latest(self) -> Saved | None:
        return self._latest

    @latest.setter
    def latest(self, saved: Saved) -> None:
        self._latest = saved
        # A revision the store numbers again (a game deleted and put back) is another record.
        for revision in [r for r in self.kept if r >= saved.revision]:
            del self.kept[revision]
        self.kept[saved.revision] = saved.record
        while len(self.kept) > KEPT:
            del self.kept[min(self.kept)]

    # ---------------------------------------------------------------- pairing
    async def invite(self, spare_for: Guest | None = None) -> tuple[Guest, str]:
        """A new guest's invitation: its code, for the guest's camera. With `spare_for`, one kept
        for that guest's return instead, under its number (sent over its link)."""
        # A new guest is numbered when its link opens (an invitation never answered takes none).
        number = spare_for.number if spare_for else 0
        guest = Guest(f"g{next(_PEERS)}", pairing.new_invitation(), number, spare_for and spare_for.phone)
        self.guests[guest.peer] = guest
        said = await self.link.ask("invite", peer=guest.peer)
        return guest, pairing.code_of(pairing.from_sdp(pairing.INVITATION, said["sdp"], guest.invitation))

    async def accept(self, text: str) -> Guest:
        """A guest's answer read by this phone's camera, to any invitation still open (a new
        guest's, or one kept for a guest's return): its link opens (open -> here)."""
        answer = pairing.read_code(text, pairing.ANSWER)
        guest = next((g for g in self.guests.values()
                      if g.state == "invited" and g.invitation == answer.invitation), None)
        if guest is None:
            raise pairing.Refused(Words(pairing.OTHER_INVITATION))
        await self.link.ask("accept", peer=guest.peer, sdp=pairing.sdp_of(answer))
        return guest

    async def joined(self, guest: Guest, within: float = OPEN_WITHIN) -> bool:
        """Whether the guest's link opened and its hello was heard within `within` s of its answer
        read: only then is its number the one it keeps (#69: "Phone 3 is at the table." was said
        of a phone coming back as phone 2, read between the link's opening and its hello). A link
        that did not open by then is closed: nothing half made stays in the page."""
        loop = asyncio.get_running_loop()
        end = loop.time() + within
        while not guest.greeted and guest.state in ("invited", "here") and loop.time() < end:
            await asyncio.sleep(0.05)
        if guest.greeted and guest.state == "here":
            return True
        if guest.state == "invited":
            self.guests.pop(guest.peer, None)
            self.link.close(guest.peer)
        return False

    def status(self) -> tuple[str, bool] | None:
        """What the host's pad says of its table: the phones linked, and those that dropped."""
        here, gone = self.here(), self.gone()
        if not here and not gone:
            return None
        line = n_("{n} other phone at this table", "{n} other phones at this table", len(here), n=len(here))
        if gone:
            # TRANSLATORS: a phone of a table of phones, in "…; the link to phone 2 and phone 3 dropped"
            dropped = [_("phone {n}", n=g.number) for g in gone]
            line = _("{linked}; the link to {phones} dropped", linked=line, phones=lang.names(dropped))
        return line, bool(gone)

    def here(self) -> list[Guest]:
        return [g for g in self.guests.values() if g.state == "here"]

    def gone(self) -> list[Guest]:
        """The guests whose link dropped (or that stopped answering, and may come back)."""
        return [g for g in self.guests.values() if g.state in ("gone", "quiet")]

    # ---------------------------------------------------------------- the link's events
    def _heard(self, event: dict) -> None:
        guest = self.guests.get(event.get("peer"))
        if guest is None or self.ended:
            return
        op = event.get("op")
        if op == "open":
            guest.state = "here"
            if guest.spare_for is None:  # a new phone: the first number no other phone holds
                taken = {g.number for g in self.guests.values() if g is not guest and g.state != "invited"}
                guest.number = next(n for n in itertools.count(1) if n not in taken)
            self.told()
        elif op == "closed":
            if guest.state in ("here", "quiet"):
                guest.state = "gone"
            else:  # never joined: no one to list, and the screen waiting for it stops
                guest.state = "gone"
                self.guests.pop(guest.peer, None)
            self.told()
        elif op == "quiet" and guest.state == "here":  # not answering (killed, locked, out of the Wi-Fi)
            guest.state = "quiet"
            self.told()
        elif op == "back" and guest.state == "quiet":
            guest.state = "here"
            self.told()
            asyncio.ensure_future(self._catch_up(guest))  # what it missed while quiet
        elif op == "message" and guest.state in ("here", "quiet"):
            asyncio.ensure_future(self.take(guest, event.get("data")))

    async def _catch_up(self, guest: Guest) -> None:
        try:
            self._send(guest, game_message("game", await self._load()))
        except Exception:  # noqa: BLE001 - its next edit gets the latest as a stale answer
            log.exception("catching a guest up")

    def _send(self, guest: Guest, message: dict) -> None:
        self.link.send(guest.peer, json.dumps(message, ensure_ascii=False))

    async def take(self, guest: Guest, data) -> None:
        """One message of a guest's."""
        arrived = asyncio.get_running_loop().time()
        try:
            answer = await self._answer(guest, data, arrived)
        except Exception as exc:  # noqa: BLE001 - a guest's message never breaks the host
            # (the host's storage full or lost, the game deleted here, nothing to undo): said in
            # words, to the edit that asked, so its phone does not wait and blame the link.
            log.exception("a guest's message")
            ask = _ask_of(data)
            if isinstance(exc, StoreError):
                answer = {"t": "refused", "ask": ask, "why": str(exc), "params": {}}
            else:
                answer = refused(ask, Words(N_("The host's phone could not take that change.")))
        if answer is not None:
            self._send(guest, answer)

    async def _answer(self, guest: Guest, data, arrived: float) -> dict | None:
        if not isinstance(data, str) or len(data.encode("utf-8")) > MOST_BYTES:
            log.warning("a guest's message refused: %s", "too big" if isinstance(data, str) else "not text")
            return refused(None, Words(N_("That change is too big for the table.")))
        try:
            message = json.loads(data)
        except ValueError:
            log.warning("a guest's message refused: not JSON")
            return refused(None, Words(N_("The host's phone could not read that change.")))
        if not isinstance(message, dict):
            log.warning("a guest's message refused: not an object")
            return refused(None, Words(N_("The host's phone could not read that change.")))
        kind, ask = message.get("t"), message.get("ask")
        if kind == "hello":
            self._known(guest, message.get("phone"))
            answer = game_message("game", await self._load(), v=PROTOCOL)
            if guest.phone is not None and not guest.greeted:  # one spare per link: a hello said
                asyncio.ensure_future(self._keep_spare(guest))  # again makes no more links
            guest.greeted = True
            return answer
        if kind == "forget":  # no answer: the guest is not waiting any more
            if type(ask) is int and ask in guest.waiting:
                guest.given_up.add(ask)
            return None
        if message.get("id") != self.game_id:
            log.warning("a guest's message for another game refused: %r", message.get("id"))
            return refused(ask, Words(N_("That change is for another game than the table's.")))
        if kind == "delete":
            return refused(ask, Words(HOST_ONLY["delete"]))
        if kind not in ("save", "undo", "redo") or type(message.get("from")) is not int:
            log.warning("a guest's message refused: %r", kind)
            return refused(ask, Words(N_("The host's phone could not read that change.")))
        if type(ask) is not int:  # an edit's id: its answer is matched by it
            ask = None
        guest.waiting.add(ask)
        guest.edited_at = arrived
        self._heard_edits += 1
        try:
            return await self._edit(guest, kind, ask, message, arrived)
        finally:
            guest.waiting.discard(ask)
            guest.given_up.discard(ask)
            self._heard_edits -= 1
            self._tell_when_due()

    def _tell_when_due(self) -> None:
        """Tell what is held at the burst's end (no edit heard and not yet taken, and GATHER passed
        or every guest's tap in), or once HOLD_PAD has passed: edits that store nothing (refused,
        stale) never keep a stored tap's answer waiting longer, however many come."""
        if self._untold is None:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        if now - self._held_since > HOLD_PAD:
            self._tell_all()
        elif not self._heard_edits:
            # The burst is whole once every guest here has a tap in it: no one else to wait for.
            if now >= self._gather_until or all(guest.unanswered for guest in self.here()):
                self._tell_all()
            elif self._gathering is None:
                # Not call_at: Pyodide's loop refuses a time already past ("Can't schedule in the
                # past"), and a phone's clock moves on between these lines.
                self._gathering = loop.call_later(max(0.0, self._gather_until - loop.time()), self._gathered)

    def _gathered(self) -> None:
        self._gathering = None
        if not self.ended:
            self._tell_when_due()

    async def _edit(self, guest: Guest, kind: str, ask, message: dict, arrived: float) -> dict | None:
        async with self._lock:
            if ask in guest.given_up:
                log.warning("a guest's edit dropped: the guest stopped waiting for it")
                return None
            if asyncio.get_running_loop().time() - arrived > ANSWER_WITHIN * TAKE_WITHIN:
                log.warning("a guest's edit dropped: it waited too long for its turn")
                # TRANSLATORS: why a tap on a guest's phone was not saved, after "Not saved: "
                return refused(ask, Words(N_("the host's phone was too busy to take this change in time; try again")))
            stored = self.latest
            # A save made on an older revision this phone keeps is put on the latest, below; any
            # other edit not on the latest gets the store's latest, to make it again on.
            rebasing = (kind == "save" and stored is not None and message["from"] != stored.revision
                        and message["from"] in self.kept)
            if stored is None or (message["from"] != stored.revision and not rebasing):
                stored = await self._load()
            if stored.record.finished:  # reopening or changing a finished game is the host's
                return refused(ask, Words(HOST_ONLY["edit"]))
            if message["from"] != stored.revision and not rebasing:
                return game_message("stale", stored, ask=ask)
            try:
                if kind == "save":
                    record = self._record(message.get("record"), stored.record)
                    base = self.kept[message["from"]] if rebasing else stored.record
                    why = guest_refusal(base, record)  # one tap of its pad from where it started
                    if why is not None:  # said to the guest in words, never stored
                        log.warning("a guest's change refused: %s", why)
                        return refused(ask, why)
                    if rebasing:
                        # Taken on the latest when it touches other parts than what changed since
                        # (scoring/rebase.py) and is one tap from the latest with no new error.
                        record = rebase(base, record, stored.record)
                        if record is None or guest_refusal(stored.record, record) is not None:
                            return game_message("stale", stored, ask=ask)
                    saved, kept = await self.games.call(self.games.store.save, record, stored.revision)
                else:  # not past what only the host changes (a rename, the settings)
                    step = self.games.store.undo if kind == "undo" else self.games.store.redo
                    saved, kept = await self.games.call(step, self.game_id, message["from"], _guest_step)
            except StaleSave:
                return game_message("stale", await self._load(), ask=ask)
            except HostsStep as exc:
                log.warning("a guest's %s refused: %s", kind, exc.words)
                return refused(ask, exc.words)
            except (ValidationError, ValueError) as exc:
                log.warning("a guest's record refused: %s", exc)
                return refused(ask, Words(N_("The host's phone could not read that change.")))
            self.latest = saved
            if saved.record.finished:
                self.games.tonight.add(self.game_id)
        # Kept (synced to IndexedDB on the phone) out of turn: the next guest's edit is checked and
        # stored meanwhile, and one sync keeps the two. Its answer and every copy wait for it.
        try:
            await kept
        except StoreError:  # storage full (the folder put back) or gone: this save may be undone
            self._latest = None  # read again at the next edit
            raise
        # Each save is a frame on every phone told of it, and on an ordinary phone a frame costs
        # more than the host's taking an edit: while more edits of a burst are heard and not yet
        # taken, every phone waits for the burst's last save (at most HOLD_PAD) and draws it once,
        # the guests whose taps it holds answered "saved" with it.
        # The first save of a burst may wait GATHER for the others' edits on a busy table (told, or
        # held, as this edit ends: _tell_when_due).
        guest.unanswered.append(ask)
        if self._untold is None:
            self._held_since = asyncio.get_running_loop().time()
            busy = any(other is not guest and self._held_since - other.edited_at < BUSY
                       for other in self.guests.values())
            self._gather_until = self._held_since + (GATHER if busy else 0.0)
        # A later save of the burst, kept first by the same sync, may be held already.
        if self._untold is None or saved.revision > self._untold.revision:
            self._untold = saved
        return None

    def _tell_all(self) -> None:
        """The save held back: to every guest not told of it yet, then to the host's own pad (the
        phones first: no guest waits on the host's own screen, drawn by the page that sends their
        messages)."""
        saved, self._untold = self._untold, None
        if self._gathering is not None:
            self._gathering.cancel()
            self._gathering = None
        if saved is not None:
            self.broadcast(saved)
            self.tell_pad(saved)

    async def _load(self) -> Saved:
        self.latest = await self.games.load(self.game_id)
        return self.latest

    def _record(self, data, stored: RecordBase) -> RecordBase:
        if not isinstance(data, dict):
            raise ValueError("no record")
        # As an import reads one: its shape, its bounds, its players and their ids.
        record = parse_record(data)
        if record.id != stored.id or record.game != stored.game or record.created != stored.created:
            raise ValueError("another game's record")
        return record

    def _known(self, guest: Guest, phone) -> None:
        """A phone that was here before and dropped (its browser killed, its screen locked) joins
        again: it keeps its number, and is no longer listed as dropped. Its old link (one this
        phone had not yet seen drop) and the spare kept for its return go: one link per phone."""
        if not isinstance(phone, str) or not 0 < len(phone) <= 64 or guest.phone is not None:
            return
        guest.phone = phone
        for old in list(self.guests.values()):
            if old is guest or phone not in (old.phone, old.spare_for):
                continue
            if old.phone == phone:
                guest.number = old.number
            self.forget(old)
        self.told()

    def forget(self, guest: Guest) -> None:
        """A guest (or an invitation) no longer kept: its link closed."""
        self.guests.pop(guest.peer, None)
        if guest.state != "gone":
            self.link.close(guest.peer)

    async def _keep_spare(self, guest: Guest) -> None:
        """An invitation kept for this guest's return, sent over its link (the module's "A phone
        that sleeps"): with it the guest comes back by one code read, not two."""
        try:
            spare, code = await self.invite(spare_for=guest)
        except Exception as exc:  # noqa: BLE001 - without one the guest joins again by two codes
            log.info("no invitation kept for phone %s: %s", guest.number, exc)
            return
        if self.ended or guest.state not in ("here", "quiet") or self.guests.get(guest.peer) is not guest:
            self.forget(spare)
            return
        self._send(guest, {"t": "spare", "code": code})

    def broadcast(self, saved: Saved) -> None:
        """The latest record to every guest here that has not had it: as the answer to its edits
        stored meanwhile ("saved", each with its ask), else as the latest ("game")."""
        to = [guest for guest in self.guests.values() if guest.told is not saved and (
            guest.state == "here" or guest.unanswered and guest.state == "quiet")]  # a quiet one's edit came
        record = saved.record.model_dump(mode="json", exclude_none=True) if to else None
        for guest in to:
            asks, guest.unanswered = guest.unanswered, []
            for ask in asks:
                self._send(guest, game_message("saved", saved, record, ask=ask))
            if not asks:
                self._send(guest, game_message("game", saved, record))
            guest.told = saved

    def _saved_here(self, game_id: str, saved: Saved) -> None:
        """The host's own pad saved: the guests see it."""
        if game_id == self.game_id and not self.ended:
            self.latest = saved
            self._untold = None  # a burst's save held back is in this one
            self.broadcast(saved)

    def end(self) -> None:
        """The host leaves: every guest is told, then the links close."""
        if self.ended:
            return
        self._tell_all()  # a burst's taps held back were stored: their guests hear so
        for guest in self.here():
            self._send(guest, {"t": "bye"})
        for guest in self.guests.values():
            self.link.close(guest.peer)
        self.ended = True
        self.games.tables.pop(self.game_id, None)
        self._stop()
        if self._saved_here in self.games.after_save:
            self.games.after_save.remove(self._saved_here)


class TableGuest:
    """A guest's phone: the host's game as last heard, and edits sent to the host."""

    PEER = "host"  # the name of its link in the page, with a number: each joining a link of its own

    def __init__(self, link, phone: str = "", peer: str | None = None):
        self.link = link
        # Its own name in the page: a guest that joins again never closes its new link by the old one's.
        self.peer = peer or f"{self.PEER}{next(_PEERS)}"
        self.phone = phone  # this phone's own id (views/table/phones.py keeps it on the phone)
        self.saved: Saved | None = None
        self.state = "joining"   # joining -> here -> dropped | ended
        self.heard_game: Callable[[Saved], None] = lambda saved: None  # set by the shell
        self.told_finished = False  # the shell offered to keep the finished game
        self.told_down = False      # the shell said the link dropped
        self.changed: Callable[[], None] = lambda: None                 # the state changed
        # The host's invitation kept for this phone's return (a code's text), and who keeps it on
        # the phone too (set by the shell): None when the host ended the table.
        self.spare: str | None = None
        self.kept_spare: Callable[[str | None], None] = lambda code: None
        self._asks: dict[int, asyncio.Future] = {}
        self._numbers = itertools.count(1)
        self._stop = link.listen(self._heard)

    async def join(self, text: str) -> str:
        """The host's invitation read: this phone's answer, as a code for the host's camera."""
        invitation = pairing.read_code(text, pairing.INVITATION)
        said = await self.link.ask("join", peer=self.peer, sdp=pairing.sdp_of(invitation))
        return pairing.code_of(pairing.from_sdp(pairing.ANSWER, said["sdp"], invitation.invitation, invitation.format))

    def _heard(self, event: dict) -> None:
        if event.get("peer") != self.peer:
            return
        op = event.get("op")
        if op == "open":
            self.state = "here"
            self.link.send(self.peer, json.dumps({"t": "hello", "v": PROTOCOL, "phone": self.phone}))
            self.changed()
        elif op == "quiet" and self.state == "here":  # the host's phone does not answer
            self.state = "quiet"
            self.changed()
        elif op == "back" and self.state == "quiet":
            self.state = "here"
            self.changed()
        elif op == "closed":
            if self.state != "ended":
                self.state = "dropped"
            for answer in self._asks.values():
                if not answer.done():
                    answer.set_result(None)
            self.changed()
        elif op == "message":
            self._message(event.get("data"))

    def _message(self, data) -> None:
        try:
            message = json.loads(data)
            kind = message["t"]
        except (ValueError, TypeError, KeyError):
            log.warning("the host's message could not be read")
            return
        if kind == "bye":
            self.state = "ended"
            self.spare = None
            self.kept_spare(None)
            self.changed()
            return
        if kind == "spare":
            code = message.get("code")
            if isinstance(code, str) and code.startswith(pairing.PREFIX) and len(code) <= pairing.MAX_CHARS:
                self.spare = code
                self.kept_spare(code)
            return
        if kind in ("game", "saved", "stale"):
            try:
                record = rules_for(message["record"]["game"]).Record.model_validate(message["record"])
                saved = Saved(record, int(message["rev"]), bool(message["undo"]), bool(message["redo"]))
            except (ValidationError, KeyError, TypeError, ValueError) as exc:
                log.warning("the host's record could not be read: %s", exc)
                saved = None
                message = {"t": "refused", "ask": message.get("ask"), "params": {},
                           "why": N_("This phone cannot show the host's game: update Pandapad on both phones.")}
            if saved is not None and (self.saved is None or saved.revision >= self.saved.revision
                                      or saved.record.id != self.saved.record.id):
                self.saved = saved
                self.heard_game(saved)
        answer = self._asks.get(message.get("ask"))
        if answer is not None and not answer.done():
            answer.set_result(message)

    async def request(self, message: dict) -> dict:
        """Send one edit to the host; its answer (saved, stale, refused). SaveFailed in words when
        the link is down or the host did not answer."""
        if self.state != "here":
            raise SaveFailed(self.down_words())
        number = next(self._numbers)
        answer = asyncio.get_running_loop().create_future()
        self._asks[number] = answer
        self.link.send(self.peer, json.dumps({**message, "ask": number}, ensure_ascii=False))
        try:
            said = await asyncio.wait_for(answer, ANSWER_WITHIN)
        except asyncio.TimeoutError:
            said = None
            if self.state in ("here", "quiet"):  # it says "not saved": the host must not store it later
                self.link.send(self.peer, json.dumps({"t": "forget", "ask": number}))
        finally:
            self._asks.pop(number, None)
        if said is None:
            raise SaveFailed(self.down_words())
        return said

    def down_words(self) -> str:
        if self.state == "ended":
            return _("the host ended the table.")
        return _("the link to the host's phone is down, so this change was not saved.")

    def leave(self) -> None:
        self.state = "ended"
        self._stop()
        self.link.close(self.peer)


class TableGames(Games):
    """A guest's games: the table's game from the host's phone, everything else from its own store."""

    following = True

    def __init__(self, local: Games, guest: TableGuest):
        self.__dict__.update(local.__dict__)  # its store, host, settings, tonight
        self.local, self.guest = local, guest

    def _is_table(self, game_id: str) -> bool:
        return self.guest.saved is not None and game_id == self.guest.saved.record.id

    # This phone's settings are its own Games' (a copy of them here would go stale).
    settings = property(lambda self: self.local.settings, lambda self, value: None)

    async def save_settings(self, **changes):
        return await self.local.save_settings(**changes)

    def table_status(self, game_id: str) -> tuple[str, bool] | None:
        if not self._is_table(game_id):
            return self.local.table_status(game_id)
        if self.guest.state == "here":
            return _("Following the host's phone"), False
        return _("Not linked to the host's phone: nothing entered here is saved"), True

    async def load(self, game_id: str):
        if self._is_table(game_id):
            return self.guest.saved
        return await self.local.load(game_id)

    async def edit(self, game_id: str, saved, change: Callable):
        if not self._is_table(game_id):
            return await self.local.edit(game_id, saved, change)
        for _try in range(SAVE_TRIES):
            said = await self.guest.request({"t": "save", "id": game_id, "from": saved.revision,
                                             "record": change(saved.record).model_dump(mode="json", exclude_none=True)})
            if said["t"] == "refused":
                raise SaveFailed(said_in_words(said))
            saved = self.guest.saved if said["t"] == "stale" else self._saved_of(said)
            if said["t"] == "saved":
                return saved
        # TRANSLATORS: why a tap was not saved, after "Not saved: "
        raise SaveFailed(_("another phone keeps changing this game; try again"))

    def _saved_of(self, said: dict) -> Saved:
        return self.guest.saved if self.guest.saved and self.guest.saved.revision == said["rev"] else Saved(
            rules_for(said["record"]["game"]).Record.model_validate(said["record"]), said["rev"], said["undo"], said["redo"])

    async def _step(self, kind: str, game_id: str, saved):
        said = await self.guest.request({"t": kind, "id": game_id, "from": saved.revision})
        if said["t"] == "stale":
            raise StaleSave(game_id, said["rev"], "another phone changed this game")
        if said["t"] == "refused":
            raise SaveFailed(said_in_words(said))
        return self._saved_of(said)

    async def undo(self, game_id: str, saved):
        if not self._is_table(game_id):
            return await self.local.undo(game_id, saved)
        return await self._step("undo", game_id, saved)

    async def redo(self, game_id: str, saved):
        if not self._is_table(game_id):
            return await self.local.redo(game_id, saved)
        return await self._step("redo", game_id, saved)

    async def delete(self, game_id: str):
        if not self._is_table(game_id):
            return await self.local.delete(game_id)
        said = await self.guest.request({"t": "delete", "id": game_id})
        raise SaveFailed(said_in_words(said))


def _ask_of(data) -> int | None:
    """The number a guest's message asks under, if it can be read at all."""
    try:
        ask = json.loads(data).get("ask")
    except (ValueError, TypeError, AttributeError):
        return None
    return ask if type(ask) is int else None


def said_in_words(said: dict) -> str:
    """A host's refusal in this phone's language."""
    try:
        return lang.problem(Words(str(said["why"]), **dict(said.get("params") or {})))
    except Exception:  # noqa: BLE001 - a template this phone does not know: as the host wrote it
        return str(said.get("why"))

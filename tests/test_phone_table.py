"""A table of phones with no laptop (#54), without a browser: the host's phone (TableHost) holding
the game in its real store, the guests' phones (TableGuest, TableGames) following it, over an
in-process link; what each phone's player sees of an edit, a clash, a refusal, the host leaving
and a link dropping. The pairing codes are tested in test_pairing; the real links in the browser."""
from __future__ import annotations

import asyncio
import itertools
import json
import uuid
from types import SimpleNamespace

import pytest

from scoring import nokosu_dice as nk
from scoring import panda_royale as pr
from scoring import pandoria as pa
from scoring import pass_the_pandas as pp
from scoring import royal_ur as ur
from storage import Store, StoreError
from tests.loops import run_apart
from tests.test_pairing import CHROMIUM_ANSWER, CHROMIUM_OFFER
from views.table import pairing, phone_table
from views.games import Games, SaveFailed, new_record, now_iso
from views.hosts.host import ServerThreads
from views.table.phone_table import MOST_BYTES, TableGames, TableGuest, TableHost, said_in_words

GAME = "panda-royale"


# ---------------------------------------------------------------- the link
# In the app the phones' messages go over WebRTC data channels held by the page (web/link.js,
# views/hosts/phone_link.PageLink), which run only in a browser: the browser tests with real
# phones cover them. The protocol is Python's on both ends, so here one wire in the same loop
# stands in for those channels, with PageLink's API (send, close, listen) and its events
# ({"op": "open" | "message" | "closed", "peer", "data"}), each delivered later on the loop
# (call_soon), never inside the call that sent it, as a real channel does.
class Wire:
    """One host's phone and its guests' phones, each guest's channel open or not."""

    def __init__(self):
        self.host = WireLink(self, None)
        self.guests: dict[str, WireLink] = {}  # the guest's peer id at the host -> its phone's link
        self.up: set[str] = set()

    def guest(self, peer: str) -> "WireLink":
        self.guests[peer] = WireLink(self, peer)
        return self.guests[peer]

    def open(self, peer: str) -> None:
        self.up.add(peer)
        self.host.hear({"op": "open", "peer": peer})
        self.guests[peer].hear({"op": "open", "peer": TableGuest.PEER})

    def drop(self, peer: str) -> None:
        """The channel closed (a phone walked off the Wi-Fi): both ends are told."""
        if peer in self.up:
            self.up.discard(peer)
            self.host.hear({"op": "closed", "peer": peer})
            self.guests[peer].hear({"op": "closed", "peer": TableGuest.PEER})


class WireLink:
    """One phone's end: the host's (peer None) or a guest's (its peer id at the host)."""

    def __init__(self, wire: Wire, peer: str | None):
        self.wire, self.peer = wire, peer
        self.listeners: list = []
        self.heard: list[dict] = []  # every event delivered to this phone, in order
        self.sent: list[str] = []    # every message this phone sent, in order
        self.invited: list[str] = []   # the host's: the links it made invitations for
        self.accepted: list[str] = []  # the host's: the links whose answer it read

    def listen(self, hear):
        self.listeners.append(hear)
        return lambda: self.listeners.remove(hear) if hear in self.listeners else None

    def hear(self, event: dict) -> None:
        asyncio.get_running_loop().call_soon(self._deliver, event)

    def _deliver(self, event: dict) -> None:
        self.heard.append(event)
        for hear in list(self.listeners):
            hear(event)

    def send(self, peer: str, text: str) -> None:
        assert isinstance(text, str)
        self.sent.append(text)
        guest = peer if self.peer is None else self.peer
        if guest not in self.wire.up:
            return  # a closed channel carries nothing
        if self.peer is None:
            self.wire.guests[peer].hear({"op": "message", "peer": TableGuest.PEER, "data": text})
        else:
            assert peer == TableGuest.PEER
            self.wire.host.hear({"op": "message", "peer": self.peer, "data": text})

    def close(self, peer: str) -> None:
        self.wire.drop(peer if self.peer is None else self.peer)

    async def ask(self, op: str, **fields):
        """The page's pairing as a browser answers it, with the offer and answer this machine's
        Chromium made (tests/test_pairing.py): the codes' text is real; the channel opens when a
        test says (Wire.open), as the page's does once the other phone is reached."""
        if op == "invite" and self.peer is None:
            self.invited.append(fields["peer"])
            return {"sdp": CHROMIUM_OFFER}
        if op == "accept" and self.peer is None:
            self.accepted.append(fields["peer"])
            return {}
        if op == "join" and self.peer is not None:
            return {"sdp": CHROMIUM_ANSWER}
        raise AssertionError(f"{op} asked of the {'host' if self.peer is None else 'guest'}'s page")

    def messages(self) -> list[dict]:
        """The messages this phone heard, read."""
        return [json.loads(e["data"]) for e in self.heard if e["op"] == "message"]


# ---------------------------------------------------------------- a table
class Phone:
    """A guest's phone: its link, its TableGuest, its games (its own store beside the table's)."""

    def __init__(self, peer: str, link: WireLink, guest: TableGuest, games: TableGames):
        self.peer, self.link, self.guest, self.games = peer, link, guest, games
        self.heard_games: list = []
        guest.heard_game = self.heard_games.append


class Table:
    def __init__(self, store, games: Games, wire: Wire, host: TableHost, phones: list[Phone], game_id: str):
        self.store, self.games, self.wire, self.host, self.phones, self.game_id = store, games, wire, host, phones, game_id

    async def stored(self):
        return await self.games.load(self.game_id)


@pytest.fixture
def stores(tmp_path, monkeypatch):
    # In one process an answer comes within milliseconds: a guest that waits 2 s (not the app's
    # 10) for one that never comes fails the test sooner.
    monkeypatch.setattr(phone_table, "ANSWER_WITHIN", 2)
    # The links table_of names g1, g2 ... by hand: the host's own invitations count from further on.
    monkeypatch.setattr(phone_table, "_PEERS", itertools.count(100))
    opened = []

    def open_store(name: str):
        opened.append(Store.open(tmp_path / name))
        return opened[-1]
    open_store.path = tmp_path
    yield open_store
    for store in opened:
        store.close()


async def until(check, within: float = 5.0, what: str = "") -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while not check():
        if loop.time() > end:
            raise AssertionError(f"not within {within} s: {what or check}")
        await asyncio.sleep(0.005)


async def table_of(stores, guests: int = 2, game: str = GAME, names=("Ann", "Ben", "Cat"), ids: bool = False) -> Table:
    """The host's phone with a game of Ann, Ben and Cat, and `guests` phones linked and said hello
    (with `ids`, each with its own id, "phone-k", as views/table/phones.this_phone keeps it)."""
    store = stores("store")
    games = Games(store)
    saved = await games.create(new_record(game, list(names)))
    wire = Wire()
    host = TableHost(games, wire.host, saved.record.id)
    phones = []
    for k in range(1, guests + 1):
        peer = f"g{k}"
        host.guests[peer] = phone_table.Guest(peer, b"invitation", k)  # as invite() makes it
        link = wire.guest(peer)
        guest = TableGuest(link, f"phone-{k}" if ids else "", peer=TableGuest.PEER)
        phones.append(Phone(peer, link, guest, TableGames(Games(stores(f"phone{k}")), guest)))
        wire.open(peer)
    await until(lambda: all(p.guest.saved is not None for p in phones), what="every guest has the game")
    return Table(store, games, wire, host, phones, saved.record.id)


def ann_rolls(record):
    return pr.add_die(record, 0, "p1", "yellow", 4)


def ben_rolls(record):
    return pr.add_die(record, 0, "p2", "yellow", 5)


def save_message(ask, game_id, revision, record) -> str:
    return json.dumps({"t": "save", "ask": ask, "id": game_id, "from": revision,
                       "record": record.model_dump(mode="json", exclude_none=True)})


def answer_to(phone: Phone, ask):
    said = [m for m in phone.link.messages() if m.get("ask") == ask]
    return said[-1] if said else None


# ---------------------------------------------------------------- joining
def test_a_guest_that_says_hello_gets_the_game_as_the_hosts_store_holds_it(stores):
    async def play():
        table = await table_of(stores)
        stored = await table.stored()
        for phone in table.phones:
            assert phone.guest.state == "here"
            assert phone.guest.saved == stored  # the record, its revision, undo and redo
            assert phone.heard_games == [stored]
            assert await phone.games.load(table.game_id) == stored
            hello = phone.link.messages()[0]
            assert hello["t"] == "game" and hello["v"] == phone_table.PROTOCOL and hello["rev"] == stored.revision
            assert phone.games.local.store.rows() == []  # kept in memory, never in the guest's own store
        assert [g.peer for g in table.host.here()] == ["g1", "g2"] and table.host.gone() == []
    run_apart(play())


# ---------------------------------------------------------------- edits
def test_a_guests_edit_on_the_latest_revision_is_stored_and_every_phone_hears_it(stores):
    # The message a guest's pad sends, as TableGames.edit makes it, straight on the link.
    async def play():
        table = await table_of(stores)
        one, two = table.phones
        before = await table.stored()
        one.link.send("host", save_message(1, table.game_id, before.revision, ann_rolls(before.record)))
        await until(lambda: all(p.guest.saved.revision == before.revision + 1 for p in table.phones),
                    what="both guests hear the new record")
        stored = await table.stored()
        assert stored.revision == before.revision + 1 and stored.record == ann_rolls(before.record)
        assert pr.hand_of(stored.record, 0, "p1").yellow == (4,)
        for phone in table.phones:
            assert phone.guest.saved == stored and phone.heard_games[-1] == stored
        assert answer_to(two, 1) is None  # the other guest hears the game, not an answer of its own
        return table.store, table.game_id, stored
    store, game_id, stored = run_apart(play())
    store.close()
    with Store.open(stores.path / "store") as again:  # durable: read back from the folder
        assert again.load(game_id) == stored


def test_a_guests_edit_returns_what_the_host_stored_and_the_other_guest_hears_it(stores):
    async def play():
        table = await table_of(stores)
        one, two = table.phones
        before = one.guest.saved
        saved = await one.games.edit(table.game_id, before, ann_rolls)
        stored = await table.stored()
        assert stored.revision == before.revision + 1 and pr.hand_of(stored.record, 0, "p1").yellow == (4,)
        assert saved == stored
        await until(lambda: two.guest.saved == stored, what="the other guest hears it")
        assert two.heard_games[-1] == stored
    run_apart(play())


def test_the_hosts_own_save_reaches_every_guest(stores):
    async def play():
        table = await table_of(stores)
        saved = await table.games.edit(table.game_id, await table.stored(), ben_rolls)
        await until(lambda: all(p.guest.saved == saved for p in table.phones), what="every guest hears it")
        for phone in table.phones:
            assert phone.heard_games[-1] == saved
            assert pr.hand_of(phone.guest.saved.record, 0, "p2").yellow == (5,)
    run_apart(play())


def cat_rolls(record):
    return pr.add_die(record, 0, "p3", "yellow", 3)


def test_two_guests_editing_the_same_revision_at_once_both_end_in_the_store(stores):
    # On the wire: the first save is stored; the second, on the same revision, touches another
    # part of the game (Ben's hand, not Ann's), so the host puts it on the first (scoring/rebase.py)
    # and answers "saved" with both: no second round trip (#69). The first's answer waited for the
    # second's (heard meanwhile): both guests are answered with both taps.
    async def play():
        table = await table_of(stores)
        one, two = table.phones
        await table.games.edit(table.game_id, await table.stored(), cat_rolls)  # round 1 begun
        await until(lambda: all(p.guest.saved.revision == 2 for p in table.phones), what="the guests hear it")
        before = await table.stored()
        one.link.send("host", save_message(1, table.game_id, before.revision, ann_rolls(before.record)))
        two.link.send("host", save_message(1, table.game_id, before.revision, ben_rolls(before.record)))
        await until(lambda: answer_to(two, 1) is not None, what="the second guest's answer")
        saved = answer_to(two, 1)
        assert saved["t"] == "saved" and saved["rev"] == before.revision + 2
        assert answer_to(one, 1) == {**saved, "ask": 1}
        both = ben_rolls(ann_rolls(before.record))
        assert saved["record"] == both.model_dump(mode="json", exclude_none=True)
        stored = await table.stored()
        assert stored.revision == before.revision + 2 and stored.record == both
        await until(lambda: all(p.guest.saved == stored for p in table.phones), what="both guests hear both edits")
    run_apart(play())


# What each guest hears of a burst of the three guests' taps (revisions counted from the burst's
# start): held, one message each, its tap's answer with the whole burst in it; with no hold, every
# save as it is stored.
HEARD_HELD = [[("saved", 3)], [("saved", 3)], [("saved", 3)]]
HEARD_AT_ONCE = [[("saved", 1), ("game", 2), ("game", 3)], [("game", 1), ("saved", 2), ("game", 3)],
                 [("game", 1), ("game", 2), ("saved", 3)]]


@pytest.mark.parametrize("hold,told_at,heard", [(phone_table.HOLD_PAD, [3], HEARD_HELD), (-1, [1, 2, 3], HEARD_AT_ONCE)])
def test_the_hosts_pad_and_the_guests_show_a_burst_once_at_its_last_save_and_a_lone_tap_at_once(
        stores, monkeypatch, hold, told_at, heard):
    # On a slow phone a frame costs more than the host's taking an edit, and the host's page also
    # carries the guests' messages (#69): while more edits of a burst are heard and not yet taken,
    # the host's pad and the other guests wait, up to HOLD_PAD (-1: no hold).
    monkeypatch.setattr(phone_table, "HOLD_PAD", hold)

    async def play():
        table = await table_of(stores, guests=3)
        told = []
        table.host.tell_pad = told.append
        await table.games.edit(table.game_id, await table.stored(), cat_rolls)  # round 1 begun
        await until(lambda: all(p.guest.saved.revision == 2 for p in table.phones), what="the guests hear it")
        before = await table.stored()
        already = [len(p.link.messages()) for p in table.phones]
        for phone, rolls in zip(table.phones, (ann_rolls, ben_rolls, cat_rolls)):  # all on the wire at once
            phone.link.send("host", save_message(1, table.game_id, before.revision, rolls(before.record)))
        await until(lambda: all(answer_to(p, 1) is not None for p in table.phones), what="every guest's answer")
        stored = await table.stored()
        assert stored.revision == before.revision + 3
        assert [saved.revision - before.revision for saved in told] == told_at
        assert told[-1] == stored  # the pad ends on the store's latest, every tap of the burst in it
        await until(lambda: all(p.guest.saved == stored for p in table.phones), what="every guest shows the burst")
        assert [[(m["t"], m["rev"] - before.revision) for m in p.link.messages()[n:]]
                for p, n in zip(table.phones, already)] == heard
        told.clear()
        one = table.phones[0]
        await until(lambda: one.guest.saved == stored, what="the guest hears the burst")
        one.link.send("host", save_message(2, table.game_id, stored.revision, ann_rolls(stored.record)))
        await until(lambda: answer_to(one, 2) is not None, what="the lone tap's answer")
        assert answer_to(one, 2)["t"] == "saved"
        assert told == [await table.stored()]  # told once: nothing else was heard
    run_apart(play())


def test_on_a_busy_table_a_tap_waits_for_the_rest_of_its_burst_and_on_a_quiet_one_is_told_at_once(stores, monkeypatch):
    # The guests' taps of one moment reach the host tens of ms apart (#69). While the table is busy
    # (another guest's edit within BUSY) a save heard alone waits up to GATHER for the rest of its
    # burst, and the burst is told once, as soon as every guest has a tap in it; the first tap on a
    # quiet table is told as it is stored.
    monkeypatch.setattr(phone_table, "GATHER", 5.0)
    monkeypatch.setattr(phone_table, "HOLD_PAD", 10.0)

    async def play():
        table = await table_of(stores)
        one, two = table.phones
        told = []
        table.host.tell_pad = told.append
        before = await table.stored()
        one.link.send("host", save_message(1, table.game_id, before.revision, ann_rolls(before.record)))
        await until(lambda: answer_to(one, 1) is not None, within=2.5, what="the quiet table's tap, not after GATHER")
        assert [saved.revision - before.revision for saved in told] == [1]
        first = await table.stored()
        await until(lambda: two.guest.saved == first, what="the other guest hears it")
        heard = [len(p.link.messages()) for p in table.phones]
        two.link.send("host", save_message(1, table.game_id, first.revision, ben_rolls(first.record)))
        loop = asyncio.get_running_loop()
        end = loop.time() + 5
        while (await table.stored()).revision == first.revision:  # stored, and held for the rest
            assert loop.time() < end, "the second guest's tap was not stored within 5 s"
            await asyncio.sleep(0.005)
        assert answer_to(two, 1) is None  # held for the rest of its burst
        one.link.send("host", save_message(2, table.game_id, first.revision, cat_rolls(first.record)))
        await until(lambda: answer_to(one, 2) is not None and answer_to(two, 1) is not None, within=2.5,
                    what="the burst's answers, both guests' taps in it: no longer GATHER")
        last = await table.stored()
        assert last.revision == first.revision + 2
        assert told[1:] == [last]
        assert [[(m["t"], m["rev"]) for m in p.link.messages()[n:]] for p, n in zip(table.phones, heard)] == \
            [[("saved", last.revision)], [("saved", last.revision)]]
    run_apart(play())


class KeptLater(ServerThreads):
    """A host that keeps a write after the store call, as the phone by itself does with its sync to
    IndexedDB: here each keeping ends when the test says (done, or the browser's refusal)."""

    def __init__(self):
        self.keeping: list[asyncio.Future] = []

    async def call(self, fn, *args, **kwargs):
        answer = await self.run(fn, *args, **kwargs)
        self.keeping.append(asyncio.get_running_loop().create_future())
        return answer, self.keeping[-1]


def test_a_guests_tap_is_stored_while_the_last_one_is_kept_and_answered_only_once_both_are(stores):
    # On the phone a save is kept by a sync to IndexedDB after the store call (#69): the next
    # guest's tap is checked and stored meanwhile (one sync then keeps the two), and no phone is
    # told of either before both are kept. A keeping the browser refuses (storage full) is said to
    # its guest as "not saved", and the host reads the store again before the next tap.
    async def play():
        table = await table_of(stores)
        one, two = table.phones
        await table.games.edit(table.game_id, await table.stored(), cat_rolls)  # the round begun
        await until(lambda: all(p.guest.saved.revision == 2 for p in table.phones), what="the guests hear it")
        table.games.host = host = KeptLater()
        before = await table.stored()
        one.link.send("host", save_message(1, table.game_id, before.revision, ann_rolls(before.record)))
        await until(lambda: len(host.keeping) == 1, what="the first tap stored")
        two.link.send("host", save_message(1, table.game_id, before.revision, ben_rolls(before.record)))
        await until(lambda: len(host.keeping) == 2, what="the second tap stored while the first is kept")
        both = await table.stored()
        assert both.revision == before.revision + 2 and both.record == ben_rolls(ann_rolls(before.record))
        host.keeping[0].set_result(None)
        await asyncio.sleep(0.05)
        assert answer_to(one, 1) is None and answer_to(two, 1) is None  # the second is not kept yet
        host.keeping[1].set_result(None)
        await until(lambda: answer_to(one, 1) is not None and answer_to(two, 1) is not None, what="both answers")
        assert [(answer_to(p, 1)["t"], answer_to(p, 1)["rev"]) for p in table.phones] == [("saved", both.revision)] * 2
        one.link.send("host", save_message(2, table.game_id, both.revision, ann_rolls(both.record)))
        await until(lambda: len(host.keeping) == 3, what="the third tap stored")
        host.keeping[2].set_exception(StoreError("this phone's storage is full"))
        await until(lambda: answer_to(one, 2) is not None, what="the refusal")
        assert answer_to(one, 2)["t"] == "refused" and answer_to(one, 2)["why"] == "this phone's storage is full"
        assert table.host.latest is None  # read again at the next tap: what was stored may be undone
        assert two.guest.saved.revision == both.revision  # never told of it
    run_apart(play())


def test_one_sync_keeps_every_write_made_before_it_began_and_a_put_back_undoes_every_one_not_kept():
    # The phone's numbering of its store's writes (views/hosts/standalone.Writes), step by step as
    # PhoneHost.sync takes them: the writes that waited for a sync share the next one (#69), and
    # when the storage is full no write undone by the put-back is answered as kept.
    from views.hosts.standalone import Writes
    writes = Writes()
    one, two = writes.wrote(), writes.wrote()
    began = writes.made          # a sync begins: IndexedDB gets one and two
    three = writes.wrote()       # a guest's tap stored while it runs
    writes.kept_upto = began
    assert [writes.kept(w) for w in (one, two, three)] == [True, True, False]
    began = writes.made          # three's own sync: the browser says the storage is full
    four = writes.wrote()        # stored while it ran
    writes.undone_upto = writes.made  # the folder put back as IndexedDB holds it
    assert [writes.kept(w) for w in (one, two, three, four)] == [True, True, False, False]
    assert [writes.undone(w) for w in (one, two, three, four)] == [False, False, True, True]
    assert not writes.undone(writes.wrote())  # a write after the put-back is synced as any other


def test_a_held_answer_waits_no_longer_than_the_hold_for_edits_that_store_nothing(stores, monkeypatch):
    # A guest's stored tap is held while more edits are heard (#69); another guest's stream of
    # edits the host refuses must not hold it past HOLD_PAD, or its guest would give up and say
    # "not saved" of a stored tap. With a hold of 0 it is answered by the first edit's end.
    monkeypatch.setattr(phone_table, "HOLD_PAD", 0)

    async def play():
        table = await table_of(stores)
        one, two = table.phones
        before = await table.stored()
        sent = len(table.wire.host.sent)
        one.link.send("host", save_message(1, table.game_id, before.revision, ann_rolls(before.record)))
        renamed = before.record.model_copy(update={"players": (before.record.players[0].model_copy(
            update={"name": "Zed"}), *before.record.players[1:])})
        for ask in range(1, 6):  # a rename: no guest's pad makes one
            two.link.send("host", save_message(ask, table.game_id, before.revision, renamed))
        await until(lambda: answer_to(two, 5) is not None, what="the last refusal")
        answers = [json.loads(m) for m in table.wire.host.sent[sent:]]
        order = [(m["t"], m.get("ask")) for m in answers if m["t"] in ("saved", "refused")]
        assert order.index(("saved", 1)) <= 1, order  # not after the fifth refusal
        assert [t for t, _ in order].count("refused") == 5
    run_apart(play())


def test_in_a_burst_an_edit_on_the_same_part_is_still_stale_and_ends_in_the_store_after_its_resend(stores):
    # Three guests from one revision: Ann's die, Ben's die, and another die of Ann's. Ben's is put
    # on Ann's; the third changed what the first changed (Ann's yellow dice), so it is answered
    # "stale" with the latest and the guest sends its tap again on that one, as before #69.
    async def play():
        table = await table_of(stores, guests=3)
        one, two, three = table.phones
        await table.games.edit(table.game_id, await table.stored(), cat_rolls)
        await until(lambda: all(p.guest.saved.revision == 2 for p in table.phones), what="the guests hear it")
        before = await table.stored()
        ann_again = lambda r: pr.add_die(r, 0, "p1", "yellow", 6)  # noqa: E731
        for phone, tap in ((one, ann_rolls), (two, ben_rolls), (three, ann_again)):
            phone.link.send("host", save_message(1, table.game_id, before.revision, tap(before.record)))
        await until(lambda: all(answer_to(p, 1) is not None for p in table.phones), what="the three answers")
        assert [answer_to(p, 1)["t"] for p in table.phones] == ["saved", "saved", "stale"]
        stale = answer_to(three, 1)
        assert stale["rev"] == before.revision + 2
        assert stale["record"] == ben_rolls(ann_rolls(before.record)).model_dump(mode="json", exclude_none=True)
        assert (await table.stored()).revision == before.revision + 2  # the third not stored, not merged
        await until(lambda: three.guest.saved.revision == stale["rev"], what="the third guest follows the latest")
        three.link.send("host", save_message(2, table.game_id, stale["rev"], ann_again(three.guest.saved.record)))
        await until(lambda: answer_to(three, 2) is not None, what="the resend's answer")
        assert answer_to(three, 2)["t"] == "saved"
        stored = await table.stored()
        assert stored.revision == before.revision + 3
        assert pr.hand_of(stored.record, 0, "p1").yellow == (4, 6) and pr.hand_of(stored.record, 0, "p2").yellow == (5,)
        await until(lambda: all(p.guest.saved == stored for p in table.phones), what="every guest hears every edit")
    run_apart(play())


def test_a_merge_no_pad_makes_in_one_tap_is_answered_stale_and_the_pad_says_why_on_its_resend(stores):
    # Nokosu Dice has two zero-trick dice; Ann holds one. Ben and Cat take the other at once, and
    # Ann's tricks are tapped: each apart from the others, but Ben's and Cat's zeros together are
    # three, which no pad makes in one tap. Cat's guest gets the latest, and its pad says why.
    async def play():
        table = await table_of(stores, guests=3, game="nokosu-dice")
        one, two, three = table.phones
        await table.games.edit(table.game_id, await table.stored(), lambda r: nk.declare(r, "p1", 0))
        await until(lambda: all(p.guest.saved.revision == 2 for p in table.phones), what="the guests hear it")
        before = await table.stored()
        taps = (lambda r: nk.declare(r, "p2", 0), lambda r: nk.set_tricks(r, "p1", 1), lambda r: nk.declare(r, "p3", 0))
        for phone, tap in zip(table.phones, taps):
            phone.link.send("host", save_message(1, table.game_id, before.revision, tap(before.record)))
        await until(lambda: all(answer_to(p, 1) is not None for p in table.phones), what="the three answers")
        assert [answer_to(p, 1)["t"] for p in table.phones] == ["saved", "saved", "stale"]
        stored = await table.stored()
        assert stored.record == taps[1](taps[0](before.record))
        await until(lambda: three.guest.saved == stored, what="Cat's guest follows the latest")
        with pytest.raises(ValueError, match="both zero-trick dice are taken"):
            await three.games.edit(table.game_id, three.guest.saved, taps[2])
        assert await table.stored() == stored
    run_apart(play())


def test_an_edit_from_a_revision_no_longer_kept_and_an_undo_not_on_the_latest_are_stale(stores, monkeypatch):
    # The host keeps the records of its last KEPT revisions: an edit from one of them is put on the
    # latest; from an older one, or an undo or redo not on the latest, the guest gets the latest.
    monkeypatch.setattr(phone_table, "KEPT", 2, raising=False)

    async def play():
        table = await table_of(stores, guests=1)
        phone = table.phones[0]
        two = await table.games.edit(table.game_id, await table.stored(), cat_rolls)
        three = await table.games.edit(table.game_id, two, ann_rolls)
        await until(lambda: phone.guest.saved == three, what="the guest hears the host's taps")
        answer = await _send(table, save_message(1, table.game_id, two.revision, ben_rolls(two.record)))
        assert answer["t"] == "saved" and answer["rev"] == three.revision + 1
        four = await table.stored()
        assert four.record == ben_rolls(three.record)
        assert sorted(table.host.kept) == [three.revision, four.revision]
        purple = pr.add_die(two.record, 0, "p2", "purple", 3)
        answer = await _send(table, save_message(2, table.game_id, two.revision, purple))
        assert answer["t"] == "stale" and answer["rev"] == four.revision
        undo = json.dumps({"t": "undo", "ask": 3, "id": table.game_id, "from": three.revision})
        answer = await _send(table, undo)
        assert answer["t"] == "stale" and answer["rev"] == four.revision
        assert await table.stored() == four
        assert phone.guest.saved == four
    run_apart(play())


def test_two_guests_tapping_at_once_both_see_their_edit_saved_nothing_lost(stores):
    async def play():
        table = await table_of(stores)
        one, two = table.phones
        before = await table.stored()
        try:
            await asyncio.gather(one.games.edit(table.game_id, one.guest.saved, ann_rolls),
                                 two.games.edit(table.game_id, two.guest.saved, ben_rolls))
        finally:
            stored = await table.stored()
            # Both edits are in the store whatever the guests were told.
            assert stored.revision == before.revision + 2
            assert pr.hand_of(stored.record, 0, "p1").yellow == (4,)
            assert pr.hand_of(stored.record, 0, "p2").yellow == (5,)
    run_apart(play())


# ---------------------------------------------------------------- refusals
def test_a_guest_cannot_delete_the_game_it_is_told_so_and_the_game_stays(stores):
    async def play():
        table = await table_of(stores)
        before = await table.stored()
        with pytest.raises(SaveFailed) as refused:
            await table.phones[0].games.delete(table.game_id)
        assert str(refused.value) == "Only the host can delete a game"
        assert await table.stored() == before
    run_apart(play())


def test_a_guest_cannot_edit_or_undo_a_finished_game_and_the_store_is_unchanged(stores):
    async def play():
        table = await table_of(stores)
        one = table.phones[0]
        finished = await table.games.edit(table.game_id, await table.stored(),
                                          lambda r: r.model_copy(update={"finished": now_iso()}))
        await until(lambda: one.guest.saved == finished, what="the guest hears the game finished")
        with pytest.raises(SaveFailed) as refused:
            await one.games.edit(table.game_id, one.guest.saved, ann_rolls)
        assert str(refused.value) == "Only the host can edit a finished game"
        with pytest.raises(SaveFailed) as refused:
            await one.games.undo(table.game_id, one.guest.saved)  # reopening it is the host's too
        assert str(refused.value) == "Only the host can edit a finished game"
        assert await table.stored() == finished
    run_apart(play())


def test_a_guests_undo_or_redo_never_steps_over_what_only_the_host_changes(stores):
    # Undo on a guest's pad takes back the table's last change, as on paper; but not the host's
    # rename of a player, nor a change of the game's settings: refused in words, nothing stored.
    async def play():
        table = await table_of(stores, game="nokosu-dice")
        one = table.phones[0]

        def renamed(record):
            return record.model_copy(update={"players": (record.players[0].model_copy(update={"name": "Zoë"}),)
                                            + record.players[1:]})
        for host_edit, words in ((renamed, "Only the host can rename a player"),
                                 (lambda r: r.model_copy(update={"settings": nk.Settings(zero_bonus=0)}),
                                  "Only the host can change these settings")):
            hosts = await table.games.edit(table.game_id, await table.stored(), host_edit)
            await until(lambda: one.guest.saved == hosts, what="the guest hears the host's change")
            with pytest.raises(SaveFailed) as refused:
                await one.games.undo(table.game_id, one.guest.saved)
            assert str(refused.value) == words
            assert await table.stored() == hosts
            undone = await table.games.undo(table.game_id, hosts)  # the host may take it back
            await until(lambda: one.guest.saved == undone, what="the guest hears the host's undo")
            with pytest.raises(SaveFailed) as refused:
                await one.games.redo(table.game_id, one.guest.saved)
            assert str(refused.value) == words
            assert await table.stored() == undone
        # The guest's own tap, and any other player's, it takes back and makes again.
        tapped = await one.games.edit(table.game_id, one.guest.saved, lambda r: nk.declare(r, "p2", 3))
        back = await one.games.undo(table.game_id, tapped)
        assert back.record == undone.record and await table.stored() == back
        again = await one.games.redo(table.game_id, back)
        assert again.record == tapped.record and await table.stored() == again
    run_apart(play())


def _malformed(game_id: str, other_id: str, saved, other) -> dict[str, str]:
    record = saved.record.model_dump(mode="json", exclude_none=True)
    edited = ann_rolls(saved.record).model_dump(mode="json", exclude_none=True)
    rev = saved.revision

    def save(**changes):
        return json.dumps({"t": "save", "ask": 7, "id": game_id, "from": rev, "record": edited, **changes})
    no_from = json.loads(save())
    del no_from["from"]
    stranger = {**edited, "rounds": [{"hands": {"p9": {"yellow": [3]}}}]}
    return {
        "not JSON": '{"t": "save", "ask": 7,',
        "a JSON list": json.dumps([{"t": "save", "id": game_id, "from": rev, "record": edited}]),
        "too big": save(record={**edited, "notes": "x" * MOST_BYTES}),
        "an unknown t": save(t="shuffle"),
        "no t": json.dumps({"ask": 7, "id": game_id, "from": rev, "record": edited}),
        "no from": json.dumps(no_from),
        "a str from": save(**{"from": str(rev)}),
        "no record": save(record=None),
        "a record that is a text": save(record=json.dumps(edited)),
        "a record of another game id": save(record={**edited, "id": str(uuid.uuid4())}),
        "another kind of game's record": save(record={**edited, "game": "pandoria"}),
        "a player id not in the game": save(record=stranger),
        "a record with a bad die": save(record={**record, "rounds": [{"hands": {"p1": {"yellow": ["four"]}}}]}),
        "for another game's id": save(id=other_id, **{"from": other.revision},
                                      record=ann_rolls(other.record).model_dump(mode="json", exclude_none=True)),
        "an undo for another game's id": json.dumps({"t": "undo", "ask": 7, "id": other_id, "from": other.revision}),
    }


_ANY = SimpleNamespace(record=new_record(GAME, ["A", "B"]), revision=1)
MALFORMED = list(_malformed("a", "b", _ANY, _ANY))  # the kinds, for the tests' names


@pytest.mark.parametrize("kind", MALFORMED)
def test_a_malformed_message_is_refused_and_never_reaches_the_store(stores, kind):
    async def play():
        table = await table_of(stores, guests=1)
        phone = table.phones[0]
        other = await table.games.create(new_record(GAME, ["Dee", "Eve"]))
        # Something on the table's game to undo, so an undo would change it.
        before = await table.games.edit(table.game_id, await table.stored(), ben_rolls)
        await until(lambda: phone.guest.saved == before, what="the guest has the latest")
        text = _malformed(table.game_id, other.record.id, before, other)[kind]
        heard = len(phone.link.messages())
        phone.link.send("host", text)
        await until(lambda: len(phone.link.messages()) > heard, what="the host's answer")
        answer = phone.link.messages()[heard:]
        assert [m["t"] for m in answer] == ["refused"], answer
        assert answer[0]["why"] and answer[0]["ask"] in (7, None)
        await asyncio.sleep(0.05)  # nothing more comes
        assert len(phone.link.messages()) == heard + 1
        assert await table.stored() == before  # the same revision, the same record
        assert await table.games.load(other.record.id) == other
        assert phone.guest.saved == before and phone.guest.state == "here"
    run_apart(play())


def test_a_from_that_is_true_is_not_a_revision_and_never_reaches_the_store(stores):
    async def play():
        table = await table_of(stores, guests=1)
        phone = table.phones[0]
        before = await table.stored()
        assert before.revision == 1  # True == 1: the store's revision check takes it
        heard = len(phone.link.messages())
        phone.link.send("host", json.dumps({"t": "save", "ask": 7, "id": table.game_id, "from": True,
                                            "record": ann_rolls(before.record).model_dump(mode="json", exclude_none=True)}))
        await until(lambda: len(phone.link.messages()) > heard, what="the host's answer")
        assert [m["t"] for m in phone.link.messages()[heard:]] == ["refused"]
        assert await table.stored() == before
    run_apart(play())


# ---------------------------------------------------------------- what a guest's pad can make (#69)
# A guest's phone sends a whole record; the host takes it only when the guest's pad could have made
# it from the revision it started from. Each game is set up by the host's own taps (a round, a
# game of the match, a hand already played), then sent, straight down the guest's link, one change
# of each kind no pad makes, and one the pad makes.
def _rename(record):
    players = (record.players[0].model_copy(update={"name": "Zed"}),) + record.players[1:]
    return record.model_copy(update={"players": players})


def _settings(record, **changes):
    return record.model_copy(update={"settings": record.settings.model_copy(update=changes)})


def _pr_setup(r):
    for pid, face in (("p1", 4), ("p2", 5), ("p3", 3)):
        r = pr.add_die(r, 0, pid, "yellow", face)
    return pr.add_die(r, 1, "p1", "yellow", 2)


def _ur_setup(r):  # UR-2: 2 not entered, 1 on S, 1 on a Rosette, 3 home, kept as game 1
    r = ur.step(ur.step(ur.step(ur.set_winner(r, "p1"), "unentered", 2), "start", 1), "home", 3)
    return ur.keep_entry(ur.add_counter(r, 4))


def _nk_setup(r):  # NK-2: all made, A 4/4, B 5/5, C 3/3
    for pid, n in (("p1", 4), ("p2", 5), ("p3", 3)):
        r = nk.set_tricks(nk.declare(r, pid, n), pid, n)
    return nk.close_round(r)


def _pa_setup(r):
    return pa.add_entry(pa.add_entry(r, "p1", 4), "p2", 3)


def _pp_setup(r):  # hand 1: Ann out, then Ben; the table moves on to hand 2
    return pp.next_hand(pp.go_out(pp.go_out(r, "p1"), "p2"))


def _ur_game_one_rewritten(r):
    rounds = (r.rounds[0].model_copy(update={"winner": "p2"}),)
    return r.model_copy(update={"rounds": rounds})


def _nk_round_one_rewritten(r):
    rounds = (r.rounds[0].model_copy(update={"tricks": {"p1": 12, "p2": 0, "p3": 0}}),)
    return r.model_copy(update={"rounds": rounds})


def _pp_hand_one_rewritten(r):
    out = r.rounds[0].out
    return r.model_copy(update={"rounds": (r.rounds[0].model_copy(update={"out": (out[1], out[0])}),)})


def _pp_points_not_held(r):  # Ann "scored" 40 going out, with the dice held left as they were
    out = r.rounds[0].out
    return r.model_copy(update={"rounds": (r.rounds[0].model_copy(
        update={"out": (out[0].model_copy(update={"points": 40}),) + out[1:]}),)})


NO_KEY = "the score pad has no key for that change, so the host's phone did not take it"
SETTINGS = "Only the host can change these settings"
RENAME = "Only the host can rename a player"
# game: (players, the host's taps first, {kind: (the guest's change, the words it is refused in)}, a pad's tap)
GUEST_CASES = {
    "panda-royale": (["Ann", "Ben", "Cat"], _pr_setup, {
        "an impossible value": (lambda r: pr.with_hand(r, 1, "p2", pr.Hand(yellow=(-3,))),
                                "Ben: a yellow die shows -3; yellow faces are 1–8"),
        "a renamed player": (_rename, RENAME),
        "a past round rewritten": (lambda r: pr.with_hand(r, 0, "p1", pr.Hand(yellow=(6,))), NO_KEY),
        # Panda Royale has no settings: the note is the game's own field the host writes
        "a changed note": (lambda r: r.model_copy(update={"notes": "Ann forgot her pink die"}), NO_KEY),
    }, lambda r: pr.add_die(r, 1, "p2", "purple", 5)),
    "royal-ur": (["Ann", "Ben"], _ur_setup, {
        "an impossible value": (lambda r: r.model_copy(update={"entry": ur.Entry(winner="p2", unentered=9)}), NO_KEY),
        "a renamed player": (_rename, RENAME),
        "a past round rewritten": (_ur_game_one_rewritten, NO_KEY),
        "a changed setting": (lambda r: _settings(r, board=(4, 5, 4, 5, 4, 5, 2, 1, 5, 2, 4, 5, 3, 1)), SETTINGS),
    }, lambda r: ur.set_winner(r, "p2")),
    "nokosu-dice": (["Ann", "Ben", "Cat"], _nk_setup, {
        "an impossible value": (lambda r: r.model_copy(update={"entry": nk.Entry(tricks={"p1": -2})}), NO_KEY),
        "a renamed player": (_rename, RENAME),
        "a past round rewritten": (_nk_round_one_rewritten, NO_KEY),
        "a changed setting": (lambda r: _settings(r, zero_bonus=20), SETTINGS),
    }, lambda r: nk.declare(r, "p1", 2)),
    "pandoria": (["Ann", "Ben", "Cat"], _pa_setup, {
        # the measured one: a crown step of -5 took 5 points off Ann on every phone
        "an impossible value": (lambda r: pa._with_entry(r, 0, points=-5),
                                "Ann: a crown-track entry moves the marker at least 1, not -5"),
        "a renamed player": (_rename, RENAME),
        "a past round rewritten": (lambda r: pa._with_entry(pa._with_entry(r, 0, points=9), 1, player="p3"), NO_KEY),
        "a changed setting": (lambda r: _settings(r, mode="family"), SETTINGS),
    }, lambda r: pa.add_entry(r, "p3", 5)),
    "pass-the-pandas": (["Ann", "Ben", "Cat"], _pp_setup, {
        "an impossible value": (_pp_points_not_held, NO_KEY),
        "a renamed player": (_rename, RENAME),
        "a past round rewritten": (_pp_hand_one_rewritten, NO_KEY),
        "a changed setting": (lambda r: _settings(r, target=10), SETTINGS),
    }, lambda r: pp.go_out(r, "p3")),
}
REFUSED_KINDS = [(game, kind) for game, (_n, _s, kinds, _t) in GUEST_CASES.items() for kind in kinds]


async def _game_table(stores, game):
    names, setup, _kinds, _tap = GUEST_CASES[game]
    table = await table_of(stores, guests=1, game=game, names=names)
    before = await table.games.edit(table.game_id, await table.stored(), setup)
    await until(lambda: table.phones[0].guest.saved == before, what="the guest has the latest")
    return table, before


async def _send(table, message: str) -> dict:
    phone = table.phones[0]
    heard = len(phone.link.messages())
    phone.link.send("host", message)
    await until(lambda: len(phone.link.messages()) > heard, what="the host's answer")
    await asyncio.sleep(0.05)  # nothing more comes
    assert len(phone.link.messages()) == heard + 1
    return phone.link.messages()[-1]


@pytest.mark.parametrize("game,kind", REFUSED_KINDS)
def test_a_change_no_guests_pad_can_make_is_refused_in_words_and_never_stored(stores, game, kind, caplog):
    async def play():
        table, before = await _game_table(stores, game)
        change, words = GUEST_CASES[game][2][kind]
        edited = change(before.record)
        assert edited != before.record
        answer = await _send(table, save_message(7, table.game_id, before.revision, edited))
        assert answer["t"] == "refused" and answer["ask"] == 7
        assert said_in_words(answer) == words  # what the guest's phone shows after "Not saved: "
        assert await table.stored() == before  # the same revision, the same record
        assert table.phones[0].guest.saved == before
        assert "a guest's change refused" in caplog.text  # logged on the host
    run_apart(play())


@pytest.mark.parametrize("game", list(GUEST_CASES))
def test_a_change_the_guests_pad_makes_is_still_taken(stores, game):
    async def play():
        table, before = await _game_table(stores, game)
        tap = GUEST_CASES[game][3]
        saved = await table.phones[0].games.edit(table.game_id, table.phones[0].guest.saved, tap)
        stored = await table.stored()
        assert saved == stored and stored.revision == before.revision + 1
        assert stored.record == tap(before.record)
    run_apart(play())


def test_a_guests_pad_refusal_reaches_its_pad_in_words(stores):
    # Through TableGames, as the guest's pad saves: the refusal is the SaveFailed the pad shows.
    async def play():
        table, before = await _game_table(stores, "pandoria")
        phone = table.phones[0]
        with pytest.raises(SaveFailed) as refused:
            await phone.games.edit(table.game_id, phone.guest.saved, lambda r: pa._with_entry(r, 0, points=-5))
        assert str(refused.value) == "Ann: a crown-track entry moves the marker at least 1, not -5"
        assert await table.stored() == before
    run_apart(play())


def test_a_guests_edit_on_an_older_revision_is_answered_with_the_latest_not_compared(stores):
    # Another phone's edit since is not the guest's change: the guest makes its tap again on the latest.
    async def play():
        table, before = await _game_table(stores, "pandoria")
        later = await table.games.edit(table.game_id, before, lambda r: pa.add_entry(r, "p3", 2))
        await until(lambda: table.phones[0].guest.saved == later, what="the guest hears the host's tap")
        answer = await _send(table, save_message(7, table.game_id, before.revision,
                                                 pa.add_entry(before.record, "p1", 1)))
        assert answer["t"] == "stale" and answer["rev"] == later.revision
        assert await table.stored() == later
    run_apart(play())


def test_a_game_changed_in_the_store_behind_the_table_is_not_saved_over_by_a_guest(stores):
    # The host checks a guest's edit against the game as it last stored or read it, without
    # reading the store first (#69); a change that came another way (a backup restored, a file
    # imported) is still never lost: the guest gets the stored game and makes its tap again on it.
    async def play():
        table = await table_of(stores, guests=1)
        phone = table.phones[0]
        before = phone.guest.saved
        behind = await table.games.run(table.store.save, ben_rolls(before.record), before.revision)
        answer = await _send(table, save_message(7, table.game_id, before.revision, ann_rolls(before.record)))
        assert answer["t"] == "stale" and answer["rev"] == behind.revision
        assert await table.stored() == behind
        saved = await phone.games.edit(table.game_id, phone.guest.saved, ann_rolls)
        stored = await table.stored()
        assert saved == stored and stored.record == ann_rolls(behind.record)
    run_apart(play())


# ---------------------------------------------------------------- an edit the guest gave up on
def test_an_edit_the_guest_stopped_waiting_for_is_never_stored(stores):
    # The host's phone is busy (its lock held, as a slow store holds it) past the guest's wait:
    # the guest says "not saved" and tells the host, which drops the edit when its turn comes.
    async def play():
        table = await table_of(stores, guests=1)
        phone = table.phones[0]
        before = await table.stored()
        await table.host._lock.acquire()
        try:
            with pytest.raises(SaveFailed) as failed:
                await phone.games.edit(table.game_id, phone.guest.saved, ann_rolls)
            assert "not saved" in str(failed.value)
            sent = [json.loads(m) for m in _sent_by(phone)]
            assert sent[-1] == {"t": "forget", "ask": sent[-2]["ask"]}
            await asyncio.sleep(0.05)  # the forget heard before the edit's turn
        finally:
            table.host._lock.release()
        await asyncio.sleep(0.2)
        assert await table.stored() == before
        assert phone.guest.saved == before
    run_apart(play())


def test_an_edit_that_waited_past_the_hosts_share_of_the_wait_is_dropped_even_unforgotten(stores):
    # The guest's "forget" may be lost with a dropping link: the host does not start an edit that
    # waited longer than its share of the guest's wait (the rest is for the write and the answer).
    async def play():
        table = await table_of(stores, guests=1)
        before = await table.stored()
        await table.host._lock.acquire()
        try:
            table.phones[0].link.send("host", save_message(7, table.game_id, before.revision, ann_rolls(before.record)))
            await asyncio.sleep(phone_table.ANSWER_WITHIN * phone_table.TAKE_WITHIN + 0.1)
        finally:
            table.host._lock.release()
        await until(lambda: answer_to(table.phones[0], 7) is not None, what="the host's answer")
        assert answer_to(table.phones[0], 7)["t"] == "refused"
        assert await table.stored() == before
    run_apart(play())


def _sent_by(phone: Phone) -> list[str]:
    return phone.link.sent


# ---------------------------------------------------------------- the end of a table
def test_after_the_host_ends_the_table_every_guest_keeps_its_last_copy_and_cannot_save(stores):
    async def play():
        table = await table_of(stores)
        last = await table.games.edit(table.game_id, await table.stored(), ann_rolls)
        await until(lambda: all(p.guest.saved == last for p in table.phones), what="the guests have the latest")
        changes = {p.peer: [] for p in table.phones}
        for phone in table.phones:
            phone.guest.changed = lambda peer=phone.peer: changes[peer].append(1)
        table.host.end()
        await until(lambda: all(p.guest.state == "ended" for p in table.phones), what="every guest hears bye")
        later = await table.games.edit(table.game_id, last, ben_rolls)  # the host plays on alone
        await asyncio.sleep(0.05)
        for phone in table.phones:
            assert phone.link.messages()[-1] == {"t": "bye"}
            assert changes[phone.peer]  # its screen was told
            assert phone.guest.saved == last  # its last copy: the host's later save does not reach it
            assert await phone.games.load(table.game_id) == last
            with pytest.raises(SaveFailed) as failed:
                await phone.games.edit(table.game_id, phone.guest.saved, ben_rolls)
            assert str(failed.value) == "the host ended the table."
        assert await table.stored() == later
    run_apart(play())


def test_after_the_host_ends_the_table_its_links_close(stores):
    async def play():
        table = await table_of(stores)
        table.host.end()
        await until(lambda: all(p.guest.state == "ended" for p in table.phones), what="every guest hears bye")
        await asyncio.sleep(0.05)
        assert table.wire.up == set()  # each guest's channel closed by the host
    run_apart(play())


def test_a_guest_whose_link_closed_cannot_save_and_the_host_lists_it_as_gone(stores):
    async def play():
        table = await table_of(stores)
        one, two = table.phones
        told = []
        table.host.told = lambda: told.append(1)
        table.wire.drop("g1")
        await until(lambda: one.guest.state == "dropped" and told, what="both ends hear the link closed")
        assert [g.peer for g in table.host.gone()] == ["g1"] and [g.peer for g in table.host.here()] == ["g2"]
        before = await table.stored()
        with pytest.raises(SaveFailed) as failed:
            await one.games.edit(table.game_id, one.guest.saved, ann_rolls)
        assert str(failed.value) == "the link to the host's phone is down, so this change was not saved."
        assert await table.stored() == before
        # The host's next save reaches the guest still here only.
        saved = await table.games.edit(table.game_id, before, ben_rolls)
        await until(lambda: two.guest.saved == saved, what="the other guest hears it")
        assert one.guest.saved == before
    run_apart(play())


def test_a_phone_that_joins_again_keeps_its_number_and_is_no_longer_listed_as_dropped(stores):
    async def play():
        table = await table_of(stores, guests=1)
        (one,) = table.phones
        one.guest.phone = "phone-of-ben"  # as views/table/phones.this_phone keeps it on the phone
        table.host.guests["g1"].phone = "phone-of-ben"
        table.wire.drop("g1")
        await until(lambda: table.host.gone(), what="the host lists it as dropped")
        assert table.host.status() == ("0 other phones at this table; the link to phone 1 dropped", True)
        # Its browser started again: a new link, the same phone.
        table.host.guests["g7"] = phone_table.Guest("g7", b"invitation", 2)
        link = table.wire.guest("g7")
        again = TableGuest(link, "phone-of-ben", peer=TableGuest.PEER)
        table.wire.open("g7")
        await until(lambda: again.saved is not None, what="it gets the game again")
        assert again.saved == await table.stored()
        assert [(g.peer, g.number) for g in table.host.here()] == [("g7", 1)] and table.host.gone() == []
        assert table.host.status() == ("1 other phone at this table", False)
    run_apart(play())


def test_a_phone_that_joins_again_is_announced_by_the_number_it_keeps_not_the_one_it_was_invited_as(stores):
    """#69: the invitation screen said "Phone 3 is at the table." of a phone that came back as
    phone 2: it read the number when the link opened, before the phone's hello renumbered it.
    `joined` (what the screen waits on) returns once the hello is heard."""
    async def play():
        table = await table_of(stores, guests=1)
        table.host.guests["g1"].phone = "phone-of-ben"
        table.wire.drop("g1")
        await until(lambda: table.host.gone(), what="the host lists it as dropped")
        back = table.host.guests["g7"] = phone_table.Guest("g7", b"invitation", 2)
        TableGuest(table.wire.guest("g7"), "phone-of-ben", peer=TableGuest.PEER)
        numbers_when_open = []
        table.host.told = lambda: numbers_when_open.append((back.state, back.number))
        waiting = asyncio.ensure_future(table.host.joined(back, within=2))
        table.wire.open("g7")
        assert await waiting is True
        assert numbers_when_open[0] == ("here", 2)  # open, hello not yet heard: the number was not its own
        assert back.number == 1 and [g.number for g in table.host.here()] == [1]
    run_apart(play())


def test_a_link_that_does_not_open_in_time_is_said_and_closed(stores):
    async def play():
        table = await table_of(stores, guests=1)
        table.host.guests["g2"] = guest = phone_table.Guest("g2", b"invitation", 2)
        table.wire.guest("g2")
        closed = []
        table.host.link.close = closed.append
        assert await table.host.joined(guest, within=0.2) is False
        assert closed == ["g2"] and "g2" not in table.host.guests
    run_apart(play())


def test_a_guest_that_stops_answering_is_listed_as_dropped_and_catches_up_when_it_answers_again(stores):
    async def play():
        table = await table_of(stores)
        one, two = table.phones
        table.host.link.hear({"op": "quiet", "peer": "g1"})  # the page: its connection "disconnected"
        await until(lambda: table.host.gone(), what="listed as dropped")
        assert table.host.status()[1] is True
        saved = await table.games.edit(table.game_id, await table.stored(), ann_rolls)
        await until(lambda: two.guest.saved == saved, what="the guest still here hears it")
        assert one.guest.saved != saved  # not sent to a phone that does not answer
        table.host.link.hear({"op": "back", "peer": "g1"})
        await until(lambda: one.guest.saved == saved, what="caught up when it answers again")
        assert table.host.gone() == []
    run_apart(play())


# ---------------------------------------------------------------- a phone that sleeps (#69)
def spares(table) -> list:
    """The invitations the host keeps for guests' returns."""
    return [g for g in table.host.guests.values() if g.spare_for is not None and g.state == "invited"]


async def back_by_one_code(table, code: str, phone: str) -> tuple[TableGuest, phone_table.Guest]:
    """A guest's phone answers the invitation kept for it (its link lost); the host's camera
    reads that one code; the link opens. Returns the guest's new TableGuest and the host's Guest."""
    peer = pairing.read_code(code, pairing.INVITATION).invitation
    kept = next(g for g in table.host.guests.values() if g.invitation == peer)
    back = TableGuest(table.wire.guest(kept.peer), phone, peer=TableGuest.PEER)
    answer = await back.join(code)
    assert answer.startswith(f"{pairing.PREFIX}{pairing.FORMAT}/{pairing.ANSWER}/")
    guest = await table.host.accept(answer)
    table.wire.open(guest.peer)
    assert await table.host.joined(guest, within=2)
    return back, guest


def test_a_guest_at_the_table_is_sent_an_invitation_kept_for_its_return(stores):
    async def play():
        table = await table_of(stores, guests=2, ids=True)
        one, two = table.phones
        await until(lambda: one.guest.spare and two.guest.spare, what="each guest has a spare invitation")
        kept = {g.spare_for: g for g in spares(table)}
        assert sorted(kept) == ["phone-1", "phone-2"]
        for phone, k in ((one, 1), (two, 2)):
            guest = kept[f"phone-{k}"]
            assert guest.state == "invited" and guest.number == k  # under the guest's own number
            assert pairing.read_code(phone.guest.spare, pairing.INVITATION).invitation == guest.invitation
        # Kept invitations are not phones: the host's pad counts the two guests only.
        assert table.host.status() == ("2 other phones at this table", False)
    run_apart(play())


def test_a_guest_whose_link_was_lost_comes_back_by_one_code_under_its_number(stores):
    async def play():
        table = await table_of(stores, guests=2, ids=True)
        one, two = table.phones
        await until(lambda: one.guest.spare and two.guest.spare, what="spares sent")
        table.wire.drop("g1")  # its screen locked past the link's life
        await until(lambda: one.guest.state == "dropped" and table.host.gone(), what="both ends hear it")
        played = await table.games.edit(table.game_id, await table.stored(), ben_rolls)  # the game goes on
        back, guest = await back_by_one_code(table, one.guest.spare, "phone-1")
        assert back.saved == played  # the game as it is now, not as it was when the phone slept
        assert sorted(g.number for g in table.host.here()) == [1, 2] and table.host.gone() == []
        assert table.host.status() == ("2 other phones at this table", False)
        # A spare of its own again for its next return; the one used is its link now.
        await until(lambda: back.spare is not None and back.spare != one.guest.spare, what="a new spare")
        assert sorted(g.spare_for for g in spares(table)) == ["phone-1", "phone-2"]
        assert guest.spare_for == "phone-1" and guest.state == "here"
        # And its taps are the host's again.
        games = TableGames(Games(stores("phone1-again")), back)
        saved = await games.edit(table.game_id, back.saved, ann_rolls)
        assert await table.stored() == saved
        await until(lambda: two.guest.saved == saved, what="the other guest hears it")
    run_apart(play())


def test_a_phone_back_while_the_host_still_holds_its_old_link_has_one_link(stores):
    """The guest's side gave up first (it slept; the host's side had not yet): the host closes
    the old link when the phone's hello comes over the new one."""
    async def play():
        table = await table_of(stores, guests=1, ids=True)
        (one,) = table.phones
        await until(lambda: one.guest.spare, what="a spare sent")
        closed = []
        close = table.host.link.close
        table.host.link.close = lambda peer: (closed.append(peer), close(peer))
        back, guest = await back_by_one_code(table, one.guest.spare, "phone-1")
        assert "g1" in closed and "g1" not in table.host.guests
        assert [(g.peer, g.number) for g in table.host.here()] == [(guest.peer, 1)]
    run_apart(play())


def test_a_kept_invitation_the_host_no_longer_holds_is_refused_in_words(stores):
    async def play():
        table = await table_of(stores, guests=1, ids=True)
        (one,) = table.phones
        await until(lambda: one.guest.spare, what="a spare sent")
        code = one.guest.spare
        back, _guest = await back_by_one_code(table, code, "phone-1")
        # The same answer read again: that invitation is a link now, not an open one.
        again = TableGuest(table.wire.guest("g99"), "phone-1", peer=TableGuest.PEER)
        answer = await again.join(code)
        with pytest.raises(pairing.Refused) as refused:
            await table.host.accept(answer)
        assert "answers another invitation" in str(refused.value)
        # The host's page started again: a new TableHost holds none of the old invitations.
        table.host.end()
        fresh = TableHost(table.games, table.wire.host, table.game_id)
        with pytest.raises(pairing.Refused):
            await fresh.accept(answer)
        fresh.end()
    run_apart(play())


def test_when_the_host_ends_the_table_the_guest_forgets_its_kept_invitation(stores):
    async def play():
        table = await table_of(stores, guests=1, ids=True)
        (one,) = table.phones
        await until(lambda: one.guest.spare, what="a spare sent")
        kept = []
        one.guest.kept_spare = kept.append  # the shell keeps it on the phone (views/table/phones.keep_spare)
        table.host.end()
        await until(lambda: one.guest.state == "ended", what="the guest hears the host leave")
        assert one.guest.spare is None and kept == [None]
    run_apart(play())


def test_an_invitation_never_answered_takes_no_number_from_the_next_phone(stores):
    """The host opened Invite a phone and a guest came back by its kept invitation instead: the
    next new phone is still numbered next to the phones at the table (it was "Phone 4" of three)."""
    async def play():
        table = await table_of(stores, guests=2, ids=True)
        unanswered, _code = await table.host.invite()
        guest, code = await table.host.invite()
        newcomer = TableGuest(table.wire.guest(guest.peer), "phone-3", peer=TableGuest.PEER)
        assert await table.host.accept(await newcomer.join(code)) is guest
        table.wire.open(guest.peer)
        assert await table.host.joined(guest, within=2)
        assert guest.number == 3 and unanswered.state == "invited"
        assert table.host.status() == ("3 other phones at this table", False)
    run_apart(play())


def test_a_guest_that_says_hello_again_and_again_gets_one_kept_invitation(stores):
    """Each kept invitation is a connection the host's page holds: a guest's hello said over and
    over (a hostile or broken phone) must not make the host open one per hello."""
    async def play():
        table = await table_of(stores, guests=1, ids=True)
        (one,) = table.phones
        await until(lambda: one.guest.spare, what="a spare sent")
        for _k in range(5):
            one.link.send(TableGuest.PEER, json.dumps({"t": "hello", "v": phone_table.PROTOCOL, "phone": "phone-1"}))
        # Each answer is sent after the spare its hello would ask for is asked of the page.
        await until(lambda: len([m for m in one.link.messages() if m["t"] == "game"]) >= 6, what="each hello answered")
        assert len(table.wire.host.invited) == 1 and len(spares(table)) == 1
    run_apart(play())

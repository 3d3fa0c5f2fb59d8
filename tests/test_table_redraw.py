"""What a guest's save redraws at a table of phones (#69), without a browser: the host's pad and
another guest's pad, each on Flet's own session and page (tests/flet_wire.py), wired as the shell
wires them, take a guest's tap in each of the five games. A whole-view update makes Flet diff
every control of the pad in the phone's Python (a 4-player Panda Royale: 5 ms a save against 1 ms
in CPython here, about ten times that in Pyodide on a mid-range phone); the pads redraw only what
changed (views/pads/pad/changes.py). bench/bench_phone_table.py times it between real phones."""
from __future__ import annotations

import asyncio

import pytest

from tests.flet_wire import phone_page, shown
from tests.loops import run_apart
from tests.test_phone_table import GUEST_CASES, stores, table_of, until  # noqa: F401 - stores: the phones' stores
from views.app import Shell
from views.pads.registry import PADS
from views.pads.panda_royale.state import Cursor


class PadOnPage:
    """A phone's pad on show in its shell, on a page of its own."""

    def __init__(self, games, saved):
        self.session, self.wire = phone_page(asyncio.get_running_loop())
        page = self.session.page
        self.pad = PADS[saved.record.game](page, games, saved)
        page.views.append(self.pad.view)
        shown(self.session)
        self.shell = Shell(page, games, [])
        self.shell.screen = self.pad
        self.since = len(self.wire.sent)

    def mark(self) -> None:
        """What the phone was sent so far is on its screen; the checks look at what comes next."""
        self.since = len(self.wire.sent)

    def whole_view_targets(self) -> list[int]:
        """The patches sent since the mark that were addressed to the whole view or the page."""
        whole = {self.pad.view._i, self.session.page._i}
        return [p.id for p in self.wire.patches(self.since) if p.id in whole]

    def unsent(self) -> list:
        """What a whole-view diff finds that the pad has not sent: [] when the phone's screen shows
        the pad's controls as they are. Left out: the style Flet's buttons recompute into their
        `_internals` at every diff of them, changed or not (flet/controls/material/icon_button.py)."""
        before = len(self.wire.sent)
        self.session.patch_control(self.pad.view)
        left = []
        for patch in self.wire.patches(before):
            under = _keys_of(patch.patch[0])
            left += [op for op in patch.patch[1:] if under.get(op[1]) != "_internals"]
        return left


def _keys_of(tree, key=None, out=None) -> dict:
    """A patch's path tree ([node, {key or index: subtree}]) as node -> the key it hangs under."""
    out = {} if out is None else out
    out[tree[0]] = key
    for k, sub in (tree[1] if len(tree) > 1 else {}).items():
        _keys_of(sub, k, out)
    return out


async def _sheet(pad) -> None:
    await pad.on_toggle(None)


async def _summary(pad) -> None:
    await pad.move_to(Cursor(1, None))


# Where the host's pad is when the guest taps: its own first place, and for Panda Royale (the pad
# that fills most in one view) the score sheet and the summary of the round the guest taps into.
PLACES = [(game, "its first place", None) for game in GUEST_CASES] + [
    ("panda-royale", "the sheet", _sheet), ("panda-royale", "the round's summary", _summary)]


@pytest.mark.parametrize("game,place,go", PLACES, ids=[f"{g}-{p}" for g, p, _go in PLACES])
def test_a_guests_save_redraws_only_what_changed_on_the_host_and_the_other_guest(stores, game, place, go):
    names, setup, _kinds, tap = GUEST_CASES[game]

    async def play():
        table = await table_of(stores, guests=2, game=game, names=names)
        before = await table.games.edit(table.game_id, await table.stored(), setup)
        one, two = table.phones
        await until(lambda: two.guest.saved == before, what="the other guest has the latest")
        host = PadOnPage(table.games, before)
        other = PadOnPage(two.games, two.guest.saved)
        # As the shell wires them (views/app.py invite_phone_screen, joined_table).
        table.host.tell_pad = lambda saved: host.shell.reload_pad(table.game_id, saved.revision, saved)
        two.guest.heard_game = lambda saved: other.shell.heard_table_game(two.guest, saved)
        if go is not None:
            await go(host.pad)
            assert host.unsent() == []
            host.mark()

        await one.games.edit(table.game_id, one.guest.saved, tap)
        stored = await table.stored()
        await until(lambda: host.pad.saved == stored and other.pad.saved == stored,
                    what="both pads take the guest's save")
        await asyncio.sleep(0.05)  # anything more they would send
        for phone in (host, other):
            assert phone.wire.patches(phone.since), "the pad sent nothing"
            assert phone.whole_view_targets() == []  # only the controls that changed were sent
            assert phone.unsent() == []               # and all of them: the screen shows the new record
    run_apart(play())


def test_a_guests_pad_shows_another_phones_tap_while_its_own_tap_is_still_on_its_way(stores):
    """Three phones tap at once: a guest's pad shows the others' taps as the host stores them, not
    only once its own tap's round trip ends (#69: the other guest's p95 was its own wait)."""
    from tests.test_phone_table import ben_rolls

    async def play():
        table = await table_of(stores, guests=2)  # Panda Royale: Ann, Ben, Cat
        one, two = table.phones
        other = PadOnPage(two.games, two.guest.saved)
        two.guest.heard_game = lambda saved: other.shell.heard_table_game(two.guest, saved)
        send, held = two.link.send, []
        two.link.send = lambda peer, text: held.append((peer, text))  # its tap not yet at the host
        tap = asyncio.ensure_future(other.pad.on_face("yellow", 4, None))  # a yellow 4 for Ann
        await until(lambda: held, what="the guest's tap sent")

        await one.games.edit(table.game_id, one.guest.saved, ben_rolls)  # the other guest's yellow 5
        bens = await table.stored()
        await until(lambda: other.pad.saved == bens, within=1,  # less than its wait for its answer
                    what="the waiting guest's pad shows Ben's tap")
        assert not tap.done()
        assert {s.name: s.total for s in other.pad.result.players} == {"Ann": 0, "Ben": 5, "Cat": 0}
        assert other.unsent() == []  # and its screen shows it

        two.link.send = send
        for peer, text in held:
            send(peer, text)
        await tap
        both = await table.stored()
        assert {s.name: s.total for s in other.pad.result.players} == {"Ann": 4, "Ben": 5, "Cat": 0}
        assert other.pad.saved == both and other.unsent() == []
    run_apart(play())

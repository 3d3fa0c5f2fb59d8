"""Host and guests (#24) without a browser: the two tokens, the rules of who may do what, and
each host-only screen and handler refusing a guest on a real store while the host goes on."""
from __future__ import annotations

import asyncio
import random
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import flet as ft
import pytest

from storage import Store, samples
from views import theme
from views.table import roles, table
from views.app import Shell
from views.screens.data import DataScreen
from views.screens.finished import FinishedScreen
from views.games import Games
from views.hosts.host import ServerThreads
from views.pads.registry import PADS
from views.table.roles import GUEST, HOST, HOST_ONLY, Who, may, may_open_finished, refusal, route_action
from views.screens.settings import SettingsScreen
from views.screens.statistics import PlayerScreen
from views.table.table import Access
from tests.loops import run_apart

GUEST_TOKEN = "table-token-0123456789abcdef"
HOST_TOKEN = "host-token-fedcba9876543210"


# ---------------------------------------------------------------- the two tokens
def test_each_link_gives_its_own_role_and_nothing_else_gets_in():
    access = Access(GUEST_TOKEN, HOST_TOKEN)
    assert access.role(HOST_TOKEN) == "host"
    assert access.role(GUEST_TOKEN) == "guest"
    for wrong in (None, "", HOST_TOKEN[:-1], GUEST_TOKEN + "x", HOST_TOKEN.upper(), "é" * 28):
        assert access.role(wrong) is None and not access.admits(wrong)
    assert Access(None).role(None) == "host"  # without --lan: the one user, as before


def test_both_tokens_are_compared_in_constant_time_every_time(monkeypatch):
    calls = []

    def compare(a, b):
        calls.append((a, b))
        return a == b
    monkeypatch.setattr(table.hmac, "compare_digest", compare)
    access = Access(GUEST_TOKEN, HOST_TOKEN)
    for presented in (HOST_TOKEN, GUEST_TOKEN, "nope-nope-nope-nope"):
        calls.clear()
        access.role(presented)
        # Both, whichever matched: which token a guess is nearer to takes no longer to say.
        assert sorted(b for _a, b in calls) == sorted([GUEST_TOKEN.encode(), HOST_TOKEN.encode()])


# ---------------------------------------------------------------- the rules
@pytest.mark.parametrize("action", sorted(HOST_ONLY))
def test_every_host_only_action_is_the_hosts(action):
    assert may(HOST, action) and may(HOST, action, guests_see_history=True)
    assert not may(GUEST, action) or action == "history"
    assert not may(None, action)
    assert refusal(action).startswith("Only the host can ")
    # The history setting opens reading, never changing.
    assert may(GUEST, action, guests_see_history=True) == (action == "history")


def test_a_guest_plays():
    for action in ("play", "finish", "invite", "big screen", "new game"):
        assert may(GUEST, action) and not may(None, action)


def test_the_words_of_the_refusals():
    assert refusal("import") == "Only the host can import games"
    assert refusal("settings") == "Only the host can change these settings"
    assert refusal("delete") == "Only the host can delete a game"


@pytest.mark.parametrize("route, action", [("/data", "data"), ("/history", "history"), ("/stats/royal-ur", "history"),
                                           ("/player/Ann", "history"), ("/", None), ("/settings", None),
                                           ("/invite", None), ("/game/x", None), ("/new/royal-ur", None),
                                           ("/database", None), ("/receive", "import"),
                                           ("/send/x,y", None)])
def test_host_only_addresses(route, action):
    assert route_action(route) == action


def test_finished_games_a_guest_may_open():
    tonight = {"a"}
    assert may_open_finished(GUEST, "a", tonight, False)
    assert not may_open_finished(GUEST, "b", tonight, False)
    assert may_open_finished(GUEST, "b", tonight, True)
    assert may_open_finished(HOST, "b", tonight, False)
    assert not may_open_finished(None, "a", tonight, True)


# ---------------------------------------------------------------- screens on a real store
class FakePage:
    """What the screens use of a page: the views, dialogs shown, updates, tasks."""
    web = True
    width, height = 412, 915
    platform = ft.PagePlatform.ANDROID

    def __init__(self, route: str = "/"):
        self.views: list = []
        self.dialogs: list = []
        self.route = route
        self.tasks: list = []

    def show_dialog(self, d):
        self.dialogs.append(d)

    def pop_dialog(self):
        pass

    def update(self, *controls):
        pass

    def run_task(self, fn, *args):
        self.tasks.append((fn, args))

    def navigate(self, route):
        self.route = route

    async def push_route(self, route):
        self.route = route

    def said(self) -> list[str]:
        out = []
        for d in self.dialogs:
            content = getattr(d, "content", None)
            out.append(getattr(content, "value", "") or "")
        return out


def texts(control) -> list[str]:
    """Every text and button label under a control (what a person could read or tap)."""
    out = []
    stack = [control]
    while stack:
        c = stack.pop()
        if c is None:
            continue
        for attr in ("value", "label", "content", "text", "tooltip"):
            v = getattr(c, attr, None)
            if isinstance(v, str):
                out.append(v)
        for attr in ("controls", "actions"):
            stack.extend(getattr(c, attr, None) or [])
        for attr in ("content", "appbar", "title", "subtitle", "leading", "label"):
            v = getattr(c, attr, None)
            if v is not None and not isinstance(v, str):
                stack.append(v)
    return out


@pytest.fixture
def store(tmp_path):
    with Store.open(Path(tmp_path)) as store:
        for r in samples.history(24, 6):
            store.save(r, None)
        store.save(samples.new_game(random.Random(1), "live", "2026-11-24T19:00:00Z", players=3), None)
    with Store.open(Path(tmp_path)) as store:  # opened again: with a backup to restore
        yield store


def finished_ids(store) -> list[str]:
    return [r["id"] for r in store.rows() if r["finished"]]


def snapshot(store) -> tuple:
    return tuple((r["id"], r["revision"], tuple(p[1] for p in r["players"])) for r in store.rows())


def run(coro):
    return run_apart(coro)


def test_a_guest_cannot_edit_or_delete_a_finished_game_even_by_replaying_the_event(store):
    games = Games(store)
    game_id = finished_ids(store)[0]
    saved = store.load(game_id)
    before = snapshot(store)
    page = FakePage()
    guest = FinishedScreen(page, games, saved, PADS.get(saved.record.game), page.navigate, Who(GUEST, games))
    shown = texts(guest.view)
    assert "Edit" not in shown and "Delete" not in shown and "Rematch" in shown
    run(guest.on_edit(None))
    run(guest.on_delete(None))
    assert snapshot(store) == before
    assert page.said() == ["Only the host can edit a finished game.", "Only the host can delete a game."]
    host = FinishedScreen(page, games, saved, PADS.get(saved.record.game), page.navigate, Who(HOST, games))
    assert {"Edit", "Delete"} <= set(texts(host.view))
    run(host.on_delete(None))
    assert game_id not in {r["id"] for r in store.rows()}


def test_a_guest_cannot_rename_or_merge_players(store):
    games = Games(store)
    rows = store.rows()
    name = rows[-1]["players"][0][1]
    other = next(p[1] for r in rows for p in r["players"] if p[1] != name)
    before = snapshot(store)
    page = FakePage()
    guest = PlayerScreen(page, games, rows, name, page.navigate, Who(GUEST, games))
    assert "Rename" not in texts(guest.view) and "Merge with…" not in texts(guest.view)
    guest.on_rename(None)
    guest.on_merge(None)
    guest.preview_merge(other)
    run(guest.change(other))
    assert snapshot(store) == before
    assert page.said() == ["Only the host can rename a player.", "Only the host can merge players.",
                           "Only the host can merge players.", "Only the host can rename a player."]
    host = PlayerScreen(page, games, rows, name, page.navigate, Who(HOST, games))
    assert {"Rename", "Merge with…"} <= set(texts(host.view))
    run(host.change("Zed Renamed"))
    assert any(p[1] == "Zed Renamed" for r in store.rows() for p in r["players"])


def test_a_guest_cannot_export_import_or_restore(store):
    games = Games(store)
    before = snapshot(store)
    page = FakePage()
    guest = DataScreen(page, games, [], Who(GUEST, games))
    run(guest.export("json"))
    run(guest.choose())
    run(guest.show_preview(b'{"format": "pandapad/export", "version": 1, "games": []}', "x.json"))
    guest.pending = ([], "x.json")  # as if a preview had been accepted: the confirm asks again
    run(guest.confirm())
    backup = store.backups()[0]
    run(guest.ask_restore(backup))
    run(guest.restore(backup))
    assert snapshot(store) == before
    assert page.said() == ["Only the host can export every game.", "Only the host can import games.",
                           "Only the host can import games.", "Only the host can import games.",
                           "Only the host can restore a backup.", "Only the host can restore a backup."]
    assert guest.status.value == ""  # no export was prepared


def test_a_guests_settings_are_its_phones_own(store, monkeypatch):
    games = Games(store)
    chosen = {}

    async def choose(page, games, **changes):
        chosen.update(changes)
    monkeypatch.setattr("views.screens.settings.preferences.choose", choose)
    page = FakePage()
    guest = SettingsScreen(page, games, Who(GUEST, games))
    shown = texts(guest.view)
    assert "Guests may see the history" not in shown and "Dot map" not in shown
    assert any(t.startswith("Only the host can change these settings") for t in shown)
    run(guest.save(text_size="extra-large"))
    assert chosen == {"text_size": "extra-large"} and games.settings.text_size == "normal"
    for host_only in ({"pass_the_pandas_target": 50}, {"nokosu_zero_bonus": 20}, {"guests_see_history": True},
                      {"ur_board": [1] * 14}):
        run(guest.save(**host_only))  # a replayed event of the host's part
    assert chosen == {"text_size": "extra-large"}
    assert games.settings == type(games.settings)()  # settings.json untouched
    run(guest.on_dot_map(None))
    assert page.said()[-1] == "Only the host can change these settings."
    host = SettingsScreen(page, games, Who(HOST, games))
    assert "Guests may see the history" in texts(host.view)
    run(host.save(guests_see_history=True))
    assert games.settings.guests_see_history


def shell(store, role, route="/"):
    games = Games(store) if not isinstance(store, Games) else store
    page = FakePage(route)
    s = Shell(page, games, [], Access(GUEST_TOKEN, HOST_TOKEN))
    s.who = Who(role, games)
    s.keep_awake = lambda on: None
    return s, page


@pytest.mark.parametrize("route", ["/data", "/history", "/stats/panda-royale", "/player/Ann"])
def test_a_guest_typing_a_host_only_address_gets_the_home_and_the_refusal(store, route):
    s, page = shell(store, GUEST)
    run(s.show(route))
    assert [v.route for v in page.views] == ["/"]
    assert page.said()[-1].startswith("Only the host can ")
    h, hpage = shell(store, HOST)
    run(h.show(route))
    assert [v.route for v in hpage.views][-1] == route and not hpage.said()


def test_the_history_setting_opens_reading_to_guests(store):
    games = Games(store)
    s, page = shell(games, GUEST)
    old = finished_ids(store)[0]
    run(s.show(f"/game/{old}"))
    assert [v.route for v in page.views] == ["/"] and page.said()[-1].startswith("Only the host can browse")
    home_words = texts(page.views[0])
    assert "History" not in home_words and "Statistics" not in home_words
    run(games.save_settings(guests_see_history=True))
    for route in ("/history", "/stats/panda-royale", f"/game/{old}"):
        run(s.show(route))
        assert page.views[-1].route == route
    assert "Edit" not in texts(page.views[-1]) and "Delete" not in texts(page.views[-1])
    run(s.show("/"))
    assert {"History", "Statistics"} <= set(texts(page.views[0]))
    run(s.show("/data"))  # reading only: Your data stays the host's
    assert [v.route for v in page.views] == ["/"]


def test_a_guest_sees_tonights_finished_games_only(store):
    games = Games(store)
    rng = random.Random(5)
    tonight = samples.finished_game(rng, "tonight", datetime(2026, 11, 24, 20, 0, tzinfo=timezone.utc))
    run(games.create(tonight))
    s, page = shell(games, GUEST)
    run(s.show("/"))
    shown = " ".join(texts(page.views[0]))
    assert "Finished at this table tonight" in shown and "Your data" not in shown
    assert len([t for t in texts(page.views[0]) if " won" in t]) == 1  # tonight's, not the six older
    run(s.show("/game/tonight"))
    assert page.views[-1].route == "/game/tonight"


def test_text_size_is_per_phone():
    a, b = FakePage(), FakePage()
    theme.set_text_size("extra-large", a)
    theme.bind(a)
    assert theme.BODY == round(18 * 1.3)
    theme.bind(b)
    assert theme.BODY == 18  # the host's default
    theme.set_text_size("large")  # the host's change moves the default, not a phone's own choice
    assert theme.BODY == round(18 * 1.15)
    theme.bind(a)
    assert theme.BODY == round(18 * 1.3)
    theme.set_text_size("normal")


def test_roles_module_has_no_flet():
    import ast
    tree = ast.parse(Path(roles.__file__).read_text())
    imported = {n.names[0].name for n in ast.walk(tree) if isinstance(n, ast.Import)} | \
               {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(m and m.startswith("flet") for m in imported)


def test_a_phones_settings_are_kept_in_its_own_browser(store, monkeypatch):
    """Two phones, each its own browser storage: what one chooses is in its storage and its
    session only; a phone that chose nothing goes by the host's settings."""
    from views.device import preferences
    storages = {"a": {}, "b": {}}
    current = {"browser": "a"}

    class Prefs:  # Flet's SharedPreferences: the storage of the browser the session runs in
        def __init__(self):
            self.kept = storages[current["browser"]]

        async def get(self, key):
            return self.kept.get(key)

        async def set(self, key, value):
            self.kept[key] = value
            return True
    monkeypatch.setattr(preferences.ft, "SharedPreferences", Prefs)
    games = Games(store)
    a, b = FakePage(), FakePage()
    run(preferences.choose(a, games, text_size="extra-large", haptics=False, theme="dark"))
    assert storages["a"] == {"pandapad.text_size": "extra-large", "pandapad.haptics": False, "pandapad.theme": "dark"}
    assert storages["b"] == {}
    assert preferences.settings_of(a, games).haptics is False and preferences.settings_of(b, games).haptics is True
    assert theme.text_size(a) == "extra-large" and theme.text_size(b) == "normal"
    with pytest.raises(ValueError):
        run(preferences.choose(a, games, ur_board=[1] * 14))  # a game's setting is not a phone's
    # Phone a comes back tomorrow (a new session): its choices are read from its browser.
    again = FakePage()
    storages["a"]["pandapad.keep_awake"] = "not a bool"  # a value it cannot use is left out
    run(preferences.load(again, games))
    chosen = preferences.settings_of(again, games)
    assert (chosen.text_size, chosen.theme, chosen.haptics, chosen.keep_awake) == ("extra-large", "dark", False, True)
    assert theme.text_size(again) == "extra-large"
    assert games.settings == type(games.settings)()  # the host's settings.json untouched


def test_without_lan_the_one_user_is_the_host(store):
    """The shell's own default (no --lan, no token): the host, with every button (a name clash
    with the shell's HOST address once made this a guest)."""
    games = Games(store)
    page = FakePage()
    s = Shell(page, games, [], Access(None))
    assert s.who.role == "host" and s.who.may("data") and s.who.may("delete")
    s.keep_awake = lambda on: None
    run(s.show("/"))
    assert {"Your data", "History", "Statistics"} <= set(texts(page.views[0]))
    assert Shell(FakePage(), games, [], Access(GUEST_TOKEN, HOST_TOKEN)).who.role == "guest"  # until its link says


class IndexedDBPace(ServerThreads):
    """The phone by itself answers each store call after a copy to IndexedDB: a wait of its own."""

    async def run(self, fn, *args, **kwargs):
        out = fn(*args, **kwargs)
        await asyncio.sleep(0.05)
        return out


def test_back_then_your_data_at_once_shows_your_data(store):
    """A phone's Back, then Your data tapped before the home was drawn again: both route changes
    reach the shell in that order, and the screen the person asked for last is the one shown.
    (The home's draw reads the store; the data screen's does not, so it finished first and the
    home was drawn over it: a fresh-clone run of test_web_phone waited 30 s for Export JSON.)"""
    games = Games(store, host=IndexedDBPace())
    page = FakePage()
    s = Shell(page, games, [], Access(None))
    s.keep_awake = lambda on: None

    async def back_then_your_data():
        await s.show("/history")
        asked = [asyncio.create_task(s.on_route_change(SimpleNamespace(route=r))) for r in ("/", "/data")]
        await asyncio.gather(*asked)

    run(back_then_your_data())
    assert [v.route for v in page.views] == ["/", "/data"]
    assert "Export JSON" in texts(page.views[-1])

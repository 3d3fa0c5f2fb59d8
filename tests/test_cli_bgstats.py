"""`python main.py export --bgstats GAME_ID`: the BG Stats link of one finished game, for scripts."""
from __future__ import annotations

import pytest

from scoring import parse_record, share
from storage import Store
from tests import finished_examples as fx
from tests.records_for_tests import record
from tests.test_cli_store import run, snapshot
from tests.test_share import decoded


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bgstats")
    with Store.open(folder) as store:
        for make in fx.ALL.values():
            store.save(make(), None)
        store.save(parse_record({**record("royal-ur", ["Ann", "Ben"], rounds=[]), "id": "live",
                                 "created": fx.CREATED}), None)
    return folder


@pytest.mark.parametrize("game", sorted(fx.ALL))
def test_prints_the_same_link_as_the_app(data, game):
    stored = fx.ALL[game]()
    out = run("export", "--bgstats", stored.id, "--data-dir", str(data))
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    link = out.stdout.strip()
    assert out.stdout.count("\n") == 1
    assert link == share.bgstats_link(share.play(stored))  # this machine's time zone, as the app's
    assert [p["name"] for p in decoded(link)["players"]] == [p.name for p in stored.players]


def games(folder) -> dict[str, bytes]:
    """The stored games (opening a store may add a backup of them and writes its lock: not a change to them)."""
    return {k: v for k, v in snapshot(folder).items() if not k.startswith("backups/") and k != "store.lock"}


def test_unknown_id_in_progress_and_wrong_options_are_one_line_exit_2(data):
    before = games(data)
    unknown = run("export", "--bgstats", "nope", "--data-dir", str(data))
    assert (unknown.returncode, unknown.stdout) == (2, "")
    assert unknown.stderr == f"nope: no game with this id in {data} (`main.py list` shows the ids)\n"
    live = run("export", "--bgstats", "live", "--data-dir", str(data))
    assert (live.returncode, live.stdout) == (2, "")
    assert live.stderr == "live: this game is still in progress; BG Stats logs finished plays\n"
    both = run("export", "--bgstats", "share-pr", "--format", "csv", "--data-dir", str(data))
    assert both.returncode == 2 and both.stderr.count("\n") == 1 and "--bgstats" in both.stderr
    assert games(data) == before


def test_no_such_folder_is_said_and_not_made(tmp_path):
    missing = tmp_path / "none"
    out = run("export", "--bgstats", "share-pr", "--data-dir", str(missing))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and str(missing) in out.stderr
    assert not missing.exists()

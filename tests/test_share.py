"""A finished game handed to BG Stats and to a chat (scoring/share.py): the createPlay link of a
game of each pad decodes to BG Stats' JSON field by field, the text line, stable ids."""
from __future__ import annotations

import json
import re
import urllib.parse
from datetime import timedelta, timezone

import pytest

from scoring import parse_record, share
from tests import finished_examples as fx
from tests.records_for_tests import record

UTC = timezone.utc


def decoded(link: str) -> dict:
    """The JSON a link carries, read the way BG Stats reads it: the one `data` parameter."""
    parts = urllib.parse.urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    query = urllib.parse.parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    return json.loads(query["data"][0])


def players(data: dict) -> list[tuple]:
    return [(p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"]) for p in data["players"]]


def test_link_is_a_valid_url_of_unreserved_characters_and_escapes():
    link = share.bgstats_link(share.play(fx.pandoria(), UTC))
    value = link.removeprefix(share.BGSTATS_LINK)
    # Nothing a browser, a chat app or a QR reader could cut or change: only RFC 3986's
    # unreserved characters and %XX escapes after "data=".
    assert re.fullmatch(r"(?:[A-Za-z0-9._~-]|%[0-9A-F]{2})+", value)
    assert "%22" in value and "%7B" in value  # the JSON's quotes and braces are escaped


def test_bgstats_scheme_carries_the_same_play():
    data = share.play(fx.royal_ur(), UTC)
    link = share.bgstats_link(data, scheme="bgstats")
    assert link.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    assert link.split("?data=")[1] == share.bgstats_link(data).split("?data=")[1]


def test_panda_royale_shared_places_and_the_token_holder_starts():
    data = decoded(share.bgstats_link(share.play(fx.panda_royale(), UTC)))
    assert data["game"] == {"name": "Panda Royale", "highestWins": True, "noPoints": False,
                            "sourceGameId": "pandapad-panda-royale"}
    # PD-1: C 40, A 30, F 25, then B, D and E share fourth on 12; C took the token in round 1.
    assert players(data) == [("A", 30, 2, False, False), ("B", 12, 4, False, False), ("C", 40, 1, True, True),
                             ("D", 12, 4, False, False), ("E", 12, 4, False, False), ("F", 25, 3, False, False)]
    assert data["playDate"] == "2026-11-24 19:04:00"
    assert data["durationMin"] == 96
    assert data["sourceName"] == "Pandapad" and data["sourcePlayId"] == "share-pr"
    assert [p["sourcePlayerId"] for p in data["players"]] == [f"pandapad-player-{c}" for c in "abcdef"]
    assert all(p["role"] == "" for p in data["players"])
    assert "comments" not in data and "location" not in data and "bggId" not in data["game"]


def test_royal_ur_match_totals():
    data = decoded(share.bgstats_link(share.play(fx.royal_ur(), UTC)))
    assert data["game"]["name"] == "Royal Game of Ur"
    assert data["game"]["sourceGameId"] == "pandapad-royal-ur"
    # UR-2 scores 61 for A, UR-4 52 for B; the record does not say who threw first.
    assert players(data) == [("A", 61, 1, True, False), ("B", 52, 2, False, False)]
    assert (data["playDate"], data["durationMin"]) == ("2026-11-24 19:04:00", 96)


def test_nokosu_dice_the_leader_of_round_one_starts():
    data = decoded(share.bgstats_link(share.play(fx.nokosu_dice(), UTC)))
    assert data["game"]["name"] == "Nokosu Dice"
    # NK-1: A 23, B 4, C 30, D 7; A deals the first round (no dealer chosen), B on A's left leads.
    assert players(data) == [("A", 23, 2, False, False), ("B", 4, 4, False, True),
                             ("C", 30, 1, True, False), ("D", 7, 3, False, False)]


def test_pandoria_tie_on_points_ranked_by_leftover_with_realms_and_the_words():
    words = "A and B tie on 58; A wins with 2 resources left over against 0"
    data = decoded(share.bgstats_link(share.play(fx.pandoria(), UTC, outcome=words)))
    # Equal scores, different ranks: BG Stats is told the places, not left to guess them.
    assert players(data) == [("A", 58, 1, True, False), ("B", 58, 2, False, False)]
    assert [p["role"] for p in data["players"]] == ["Humans", "Mages"]
    assert data["comments"] == words
    assert data["board"] == ""


def test_pass_the_pandas_places():
    data = decoded(share.bgstats_link(share.play(fx.pass_the_pandas(), UTC)))
    assert data["game"]["name"] == "Pass the Pandas"
    assert players(data) == [("John", 13, 1, True, False), ("Susan", 7, 2, False, False),
                             ("Bill", 0, 4, False, False), ("Allison", 4, 3, False, False)]


def test_shared_win_makes_two_winners():
    data = share.play(parse_record(record("royal-ur", ["Ann", "Ben"], rounds=[
        {"winner": "ann", "loser": {"unentered": 7}}, {"winner": "ben", "loser": {"unentered": 7}}])), UTC)
    assert [(p["rank"], p["winner"]) for p in data["players"]] == [(1, True), (1, True)]


def test_date_in_the_tables_time_zone_and_notes_as_comments():
    r = fx.pass_the_pandas().model_copy(update={"notes": "At Mei's"})
    data = share.play(r, timezone(timedelta(hours=-5)))
    assert data["playDate"] == "2026-11-24 14:04:00"
    assert data["comments"] == "At Mei's"


def test_variant_as_board_and_no_times_no_date():
    data = share.play(parse_record(record("pass-the-pandas", ["Ann", "Ben"], settings={"variant": "basic"},
                                          rounds=[{"out": [{"player": "ann"}]}])), UTC)
    assert data["board"] == "Basic game"
    assert "playDate" not in data and "durationMin" not in data and "sourcePlayId" not in data


def test_same_player_same_id_across_games():
    first = share.play(fx.pass_the_pandas(), UTC)
    again = share.play(parse_record(record("nokosu-dice", ["Bill", "Zoe", "John"], rounds=[])), UTC)
    ids = {p["name"]: p["sourcePlayerId"] for p in first["players"]}
    assert {p["name"]: p["sourcePlayerId"] for p in again["players"] if p["name"] in ids} == \
        {"Bill": ids["Bill"], "John": ids["John"]}
    assert share.source_player_id("  Mei  Lin ") == share.source_player_id("mei lin") == "pandapad-player-mei-lin"
    assert share.source_player_id("Mei") != share.source_player_id("Meike")
    assert share.source_game_id("pandoria") == "pandapad-pandoria"


def test_ten_player_panda_royale_link_fits_a_phones_browser():
    r = fx.ten_players()
    link = share.bgstats_link(share.play(r, UTC))
    data = decoded(link)
    assert [p["name"] for p in data["players"]] == [p.name for p in r.players]
    assert len(link) < share.LINK_LIMIT, len(link)


def test_text_line():
    assert share.result_line(fx.panda_royale(), UTC) == \
        "Panda Royale, 24 Nov: 1. C 40, 2. A 30, 3. F 25, 4. B 12, 4. D 12, 4. E 12"
    assert share.result_line(fx.pass_the_pandas(), UTC) == \
        "Pass the Pandas, 24 Nov: 1. John 13, 2. Susan 7, 3. Allison 4, 4. Bill 0"
    assert share.result_line(fx.pandoria(), UTC, outcome="A wins on leftover") == \
        "Pandoria, 24 Nov: 1. A 58, 2. B 58 (A wins on leftover)"


def test_text_line_negative_total_and_late_evening_date():
    r = parse_record(record("panda-royale", ["Ann", "Ben"], created="2026-11-24T23:30:00Z",
                            rounds=[{"hands": {"ann": {"yellow": [2], "red": [-3]}, "ben": {"yellow": [5]}}}]))
    assert share.result_line(r, timezone(timedelta(hours=1))) == "Panda Royale, 25 Nov: 1. Ben 5, 2. Ann \u22121"


@pytest.mark.parametrize("game", sorted(fx.ALL))
def test_tie_on_top_only_when_the_best_total_is_shared(game):
    from scoring import score
    assert share.tie_on_top(score(fx.ALL[game]())) == (game == "pandoria")


def test_the_pads_words_for_a_tie_go_with_the_play_only_when_there_is_one():
    from views.pads.pad.share import file_name, outcome_of
    from views.pads.registry import PADS
    words = outcome_of(fx.pandoria(), PADS["pandoria"].outcome_words)
    assert words == "A and B tie on 58; A wins with 2 resources left over against 0"
    untied = fx.pandoria().model_copy(update={"final": fx.pandoria().final | {
        "b": fx.pandoria().final["b"].model_copy(update={"cards": 0})}})
    assert outcome_of(untied, PADS["pandoria"].outcome_words) == ""
    assert outcome_of(fx.panda_royale(), PADS["panda-royale"].outcome_words) == ""
    assert file_name(fx.nokosu_dice()).startswith("pandapad-nokosu-dice-2026-11-2")

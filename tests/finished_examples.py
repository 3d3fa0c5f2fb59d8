"""A finished game of each of the five pads, from rules.md's worked examples, as stored records
(ids and times set): shared by the share tests and the browser tests of the finished screen."""
from __future__ import annotations

import scoring
from tests.records_for_tests import record

CREATED = "2026-11-24T19:04:00Z"
FINISHED = "2026-11-24T20:40:00Z"  # 96 minutes later


def _finished(data: dict, gid: str) -> scoring.RecordBase:
    return scoring.parse_record({**data, "id": gid, "created": CREATED, "finished": FINISHED})


def panda_royale():
    """PD-1: A 30, B 12, C 40, D 12, E 12, F 25; C rolled the highest yellow and took the token."""
    hands = {"a": {"yellow": [5], "green": [20, 5]}, "b": {"yellow": [2], "green": [10]},
             "c": {"yellow": [8], "green": [20, 12]}, "d": {"yellow": [3], "green": [9]},
             "e": {"yellow": [4], "green": [8]}, "f": {"yellow": [6], "green": [19]}}
    return _finished(record("panda-royale", list("ABCDEF"), rounds=[{"hands": hands}]), "share-pr")


def royal_ur():
    """A match of two games: UR-2 (A wins, 61) then UR-4 (B wins, 52)."""
    return _finished(record("royal-ur", ["A", "B"], rounds=[
        {"winner": "a", "loser": {"unentered": 2, "start": 1, "home": 3, "board": [1]}},
        {"winner": "b", "loser": {"unentered": 1, "start": 2, "home": 1, "board": [5, 1, 1]}}]), "share-ur")


def nokosu_dice():
    """NK-1: A 23, B 4, C 30, D 7; A deals round 1 (the first seat), so B leads."""
    return _finished(record("nokosu-dice", list("ABCD"), rounds=[
        {"declared": {"a": 3, "b": 2, "c": 0, "d": 5}, "tricks": {"a": 3, "b": 4, "c": 0, "d": 7}}]), "share-nk")


def pandoria():
    """PA-5's wood (8 with a 2:1 and a 3:2 building: 4 points, 2 left over) puts A level with B
    on 58; A keeps more left over and wins the tie."""
    return _finished(record("pandoria", ["A", "B"], settings={"realms": {"a": "humans", "b": "mages"}},
                            final={"a": {"points": 54, "wood": 8, "rates": {"wood": ["2:1", "3:2"]}},
                                   "b": {"points": 55, "cards": 3}}), "share-pa")


def pass_the_pandas():
    """PP-1…PP-3: John 13, Susan 7, Bill 0, Allison 4."""
    return _finished(record("pass-the-pandas", ["John", "Susan", "Bill", "Allison"],
                            settings={"variant": "panda-monium", "target": 10},
                            rounds=[{"out": [{"player": "john", "points": 13}, {"player": "susan", "points": 7},
                                             {"player": "allison", "points": 4}]}]), "share-pp")


def ten_players(name_length: int = 40):
    """The longest play a link carries: a 10-player Panda Royale game, every name 40 characters,
    all ten rounds."""
    names = [(f"Player {k} " + "Ä" * name_length)[:name_length] for k in range(1, 11)]
    ids = [n.lower() for n in names]
    rounds = [{"hands": {pid: {"yellow": [1 + (k + r) % 6] * (r + 1), "green": [7]} for k, pid in enumerate(ids)},
               "panda": None} for r in range(10)]
    for r, rnd in enumerate(rounds):  # the token: the highest yellow (ties re-rolled by the first of them)
        tops = {pid: sum(h["yellow"]) for pid, h in rnd["hands"].items()}
        rnd["panda"] = max(ids, key=lambda pid: tops[pid])
    data = record("panda-royale", names, rounds=rounds)
    data["players"] = [{"id": pid, "name": n} for pid, n in zip(ids, names)]
    return _finished(data, "share-ten")


ALL = {"panda-royale": panda_royale, "royal-ur": royal_ur, "nokosu-dice": nokosu_dice,
       "pandoria": pandoria, "pass-the-pandas": pass_the_pandas}

"""Deterministic, realistic Panda Royale games for tests, benchmarks and demo data.

Everything here takes a random.Random, so the same seed gives the same games.
"""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from scoring import Player
from scoring.panda_royale import DIE_LISTS, FACES, Hand, Record, Round

NAMES = ["Ann", "Ben", "Chloé", "Dev", "Emma", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
         "Mo", "Noor", "Olu", "Pia", "Quinn", "Ravi", "Sara", "Tomás", "Uma", "Vic", "Wen", "Yara"]
START = datetime(2021, 3, 1, 18, 0, tzinfo=timezone.utc)


def iso(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def face(rng: random.Random, colour: str) -> int:
    value = rng.randint(1, FACES[colour])
    return -value if colour == "red" and rng.random() < 0.3 else value


def hand(rng: random.Random, dice: int, pink: bool) -> Hand:
    lists: dict[str, list[int]] = {c: [] for c in DIE_LISTS}
    lists["yellow"].append(face(rng, "yellow"))
    for _ in range(dice - 1):
        colour = rng.choice(DIE_LISTS)
        lists[colour].append(face(rng, colour))
    return Hand(**lists, pink=face(rng, "pink") if pink else None)


def new_game(rng: random.Random, game_id: str, created: str, players: int | None = None) -> Record:
    count = players or rng.choice([2, 3, 3, 4, 4, 4, 5, 5, 6, 7, 8, 10])
    names = rng.sample(NAMES, count)
    return Record(id=game_id, created=created,
                  players=[Player(id=f"p{i + 1}", name=n) for i, n in enumerate(names)])


def finished_game(rng: random.Random, game_id: str, when: datetime, players: int | None = None) -> Record:
    """A complete ten-round game, finished 40-90 minutes after `when`."""
    game = new_game(rng, game_id, iso(when), players)
    rounds = []
    for r in range(10):
        hands = {p.id: hand(rng, 1 if r == 0 else r + 1, r > 0 and rng.random() < 0.25)
                 for p in game.players}
        rounds.append(Round(hands=hands))
    done = when + timedelta(minutes=rng.randint(40, 90))
    return game.model_copy(update={"rounds": tuple(rounds), "finished": iso(done)})


def history(seed: int, count: int) -> list[Record]:
    """`count` finished games, a few evenings a week from March 2021, newest last."""
    rng = random.Random(seed)
    when, games = START, []
    for i in range(count):
        when += timedelta(hours=rng.choice([1, 2, 2, 3, 26, 50, 74]))
        games.append(finished_game(rng, f"g{seed}-{i:05d}", when))
    return games


def taps(record: Record) -> int:
    """How many taps of tap() built this record: one per die, one for finishing."""
    return sum(h.dice() for rnd in record.rounds for h in rnd.hands.values()) + (record.finished is not None)


def tap(record: Record, rng: random.Random, finished_at: str = "2026-11-22T21:00:00Z") -> Record:
    """The record after one more tap of the live form: one die for the next player whose
    hand is short, a new round when the current one is full, the finish after round 10."""
    rounds = list(record.rounds)
    if not rounds or all(rounds[-1].hands.get(p.id, Hand()).dice() >= len(rounds) for p in record.players):
        if len(rounds) == 10:
            return record.model_copy(update={"finished": finished_at})
        rounds.append(Round())
    current = rounds[-1]
    need = len(rounds)
    player = next(p.id for p in record.players if current.hands.get(p.id, Hand()).dice() < need)
    old = current.hands.get(player, Hand())
    colour = "yellow" if need == 1 or not old.yellow else rng.choice(DIE_LISTS)
    changed = old.model_copy(update={colour: getattr(old, colour) + (face(rng, colour),)})
    rounds[-1] = current.model_copy(update={"hands": {**current.hands, player: changed}})
    return record.model_copy(update={"rounds": tuple(rounds)})


def correct(record: Record, rng: random.Random) -> Record:
    """A correction tap: one die of an earlier hand re-entered with another face."""
    filled = [(i, pid, c) for i, rnd in enumerate(record.rounds) for pid, h in rnd.hands.items()
              for c in DIE_LISTS if getattr(h, c)]
    i, pid, colour = rng.choice(filled)
    rounds = list(record.rounds)
    old = rounds[i].hands[pid]
    faces = list(getattr(old, colour))
    k = rng.randrange(len(faces))
    was = faces[k]
    while faces[k] == was:  # a correction changes the face
        faces[k] = face(rng, colour)
    hands = {**rounds[i].hands, pid: old.model_copy(update={colour: tuple(faces)})}
    rounds[i] = rounds[i].model_copy(update={"hands": hands})
    return record.model_copy(update={"rounds": tuple(rounds)})

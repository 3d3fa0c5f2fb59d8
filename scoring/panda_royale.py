"""Panda Royale: seven colours of dice, ten rounds, pity dice for the lowest."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from .common import (N_, Checks, Frozen, PlayerId, RecordBase, RecordError, Result,
                     require_known_ids, standings)

GAME = "panda-royale"
TITLE = "Panda Royale"
PLAYERS = (2, 10)
ROUNDS = 10

# Colours in the order of the paper sheet; pink is one die or none.
COLOURS = ("yellow", "purple", "blue", "red", "green", "clear", "pink")
DIE_LISTS = ("yellow", "purple", "blue", "glitter", "red", "green", "clear")
FACES = {"yellow": 8, "purple": 12, "blue": 12, "glitter": 6, "red": 8,
         "green": 20, "clear": 6, "pink": 12}
START_FACES = 6  # the starter yellow die is a d6


def pink_dice_in_play(players: int) -> int:
    return 1 if players <= 3 else 2 if players <= 6 else 3 if players <= 9 else 4


class Hand(Frozen):
    yellow: tuple[StrictInt, ...] = ()
    purple: tuple[StrictInt, ...] = ()
    blue: tuple[StrictInt, ...] = ()
    glitter: tuple[StrictInt, ...] = ()
    red: tuple[StrictInt, ...] = ()
    green: tuple[StrictInt, ...] = ()
    clear: tuple[StrictInt, ...] = ()
    pink: StrictInt | None = None

    def dice(self) -> int:
        """Non-pink dice rolled: the count that grows by one each round."""
        return sum(len(getattr(self, c)) for c in DIE_LISTS)


class Round(Frozen):
    hands: dict[PlayerId, Hand] = Field(default_factory=dict)
    panda: PlayerId | None = None


class Settings(Frozen):
    pass


class Record(RecordBase):
    game: Literal["panda-royale"] = GAME
    settings: Settings = Field(default_factory=Settings)
    rounds: tuple[Round, ...] = ()


def check_ids(record: Record) -> None:
    for i, rnd in enumerate(record.rounds):
        require_known_ids(record, rnd.hands, f"rounds[{i}].hands")
        if rnd.panda is not None:
            require_known_ids(record, [rnd.panda], f"rounds[{i}].panda")


# --- the maths of one hand -------------------------------------------------

def column_scores(hand: Hand) -> dict[str, int]:
    blue = sum(hand.blue) + sum(hand.glitter)
    return {
        "yellow": sum(hand.yellow),
        "purple": 2 * sum(hand.purple),
        "blue": 2 * blue if hand.glitter else blue,  # doubled once, however many glitter dice
        "red": sum(hand.red) * len(hand.red),
        "green": sum(hand.green),
        "clear": sum(hand.clear),
        "pink": hand.pink or 0,
    }


def hand_total(hand: Hand) -> int:
    return sum(column_scores(hand).values())


def formula(hand: Hand, colour: str) -> str:
    """The sum as a player writes it on the paper sheet, e.g. '(8+1)×2 = 18'."""
    def terms(faces) -> str:
        text = "".join(f"+{f}" if f > 0 else f"−{-f}" for f in faces)
        return text[1:] if text.startswith("+") else text
    score = {c: str(v).replace("-", "−") for c, v in column_scores(hand).items()}  # a real minus sign
    if colour == "pink":
        return str(hand.pink) if hand.pink else ""
    if colour == "blue":
        faces = hand.blue + hand.glitter
        if not faces:
            return ""
        return f"({terms(faces)})×2 = {score['blue']}" if hand.glitter else f"{terms(faces)} = {score['blue']}"
    faces = getattr(hand, colour)
    if not faces:
        return ""
    if colour == "purple":
        return f"({terms(faces)})×2 = {score['purple']}"
    if colour == "red":
        return f"({terms(faces)})×{len(faces)} = {score['red']}"
    return f"{terms(faces)} = {score[colour]}"


# --- rounds: token and pity -------------------------------------------------

def is_complete(record: Record, index: int) -> bool:
    rnd = record.rounds[index]
    return all(pid in rnd.hands for pid in record.player_ids())


def yellow_leaders(record: Record, index: int) -> list[str]:
    """Players (seat order) sharing the highest yellow score of a complete round."""
    rnd = record.rounds[index]
    return _leaders({pid: sum(rnd.hands[pid].yellow) for pid in record.player_ids() if pid in rnd.hands})


def _leaders(yellows: dict[str, int]) -> list[str]:
    if not yellows:
        return []
    best = max(yellows.values())
    return [pid for pid, y in yellows.items() if y == best]


def panda_holder(record: Record, index: int) -> str | None:
    """Who takes the Panda token after this round's roll, or None while unknown.

    The highest yellow takes it; the recorded `panda` only decides among tied players
    (the re-roll winner), since the sheet keeps the yellow as entered.
    """
    if not is_complete(record, index):
        return None
    return _holder(record.rounds[index], yellow_leaders(record, index))


def _holder(rnd: Round, leaders: list[str]) -> str | None:
    if len(leaders) == 1:
        return leaders[0]
    return rnd.panda if rnd.panda in leaders else None


def pity_order(record: Record, token: str | None) -> list[str]:
    """Hand-out order among tied players: right of the token holder, counter-clockwise, holder last."""
    ids = record.player_ids()
    if token not in ids:
        return ids  # only used when every tied group gets its dice, so the order does not matter
    start = ids.index(token)
    return [ids[(start - k) % len(ids)] for k in range(1, len(ids) + 1)]


def pity_recipients(record: Record, index: int) -> list[str] | None:
    """Who receives a pink die for the round after `index` (a complete round).

    None when a tie for the last dice must be broken from the Panda token holder and the
    yellow re-roll that decides the token has not been recorded: the app does not guess.
    """
    rnd = record.rounds[index]
    totals = {pid: hand_total(rnd.hands[pid]) for pid in record.player_ids()}
    return _pity(record, totals, panda_holder(record, index))


def _pity(record: Record, totals: dict[str, int], token: str | None) -> list[str] | None:
    """pity_recipients from a complete round's totals (seat order) and its token holder."""
    left = min(pink_dice_in_play(len(record.players)), len(totals))
    order = pity_order(record, token)
    given: list[str] = []
    for total in sorted(set(totals.values())):
        if left == 0:
            break
        tied = [pid for pid in order if totals[pid] == total]
        if len(tied) > left and token is None:
            return None
        given += tied[:left]
        left -= len(tied[:left])
    return given


def complete_prefix(record: Record) -> int:
    """How many rounds from the first are complete."""
    n = 0
    while n < len(record.rounds) and is_complete(record, n):
        n += 1
    return n


# --- scoring and checks ---------------------------------------------------
# The problems' words, one whole sentence per die colour (a translator sees each colour in its
# sentence; the colours' names are Panda Royale's own).
WRONG_FACE = {
    "yellow": N_("{name}: a yellow die shows {face}; yellow faces are 1–{top}"),
    "purple": N_("{name}: a purple die shows {face}; purple faces are 1–{top}"),
    "blue": N_("{name}: a blue die shows {face}; blue faces are 1–{top}"),
    # TRANSLATORS: Panda Royale's glitter die (a d6 that doubles the blue dice)
    "glitter": N_("{name}: a glitter die shows {face}; glitter faces are 1–{top}"),
    "green": N_("{name}: a green die shows {face}; green faces are 1–{top}"),
    "clear": N_("{name}: a clear die shows {face}; clear faces are 1–{top}"),
}
FIRST_ROUND_COLOUR = {
    "purple": N_("round 1 should be one yellow die; found a purple die"),
    "blue": N_("round 1 should be one yellow die; found a blue die"),
    "glitter": N_("round 1 should be one yellow die; found a glitter die"),
    "red": N_("round 1 should be one yellow die; found a red die"),
    "green": N_("round 1 should be one yellow die; found a green die"),
    "clear": N_("round 1 should be one yellow die; found a clear die"),
}


def _check_faces(checks: Checks, record: Record, index: int, pid: str, hand: Hand) -> None:
    where = f"rounds[{index}].hands.{pid}"
    for colour in DIE_LISTS:
        top = FACES[colour]
        for k, face in enumerate(getattr(hand, colour)):
            if colour == "red":
                if face == 0 or abs(face) > top:
                    checks.error(f"{where}.red[{k}]",
                                 # TRANSLATORS: a red die's face is a number on a white (+) or black (−) ground
                                 N_("{name}: a red die shows {face}; red faces are 1–{top}, white (+) or black (−)"),
                                 name=record.name_of(pid), face=face, top=top)
            elif not 1 <= face <= top:
                checks.error(f"{where}.{colour}[{k}]", WRONG_FACE[colour],
                             name=record.name_of(pid), face=face, top=top)
    if hand.pink is not None and not 1 <= hand.pink <= FACES["pink"]:
        checks.error(f"{where}.pink", N_("{name}: the pink die shows {face}; pink faces are 1–12"),
                     name=record.name_of(pid), face=hand.pink)


def _check_dice_count(checks: Checks, record: Record, index: int, pid: str, hand: Hand) -> None:
    where = f"rounds[{index}].hands.{pid}"
    expected = index + 1
    found = hand.dice()
    if index == 0:
        if found != 1:
            # TRANSLATORS: {found} is never 1 (0, 2, 3 …)
            checks.warning(where, N_("round 1 should be one yellow die; found {found} dice"), found=found)
        elif not hand.yellow:
            colour = next(c for c in DIE_LISTS if getattr(hand, c))
            checks.warning(where, FIRST_ROUND_COLOUR[colour])
        elif hand.yellow[0] > START_FACES:
            checks.warning(f"{where}.yellow[0]",
                           # TRANSLATORS: d6: a six-sided die
                           N_("{name}: round 1 is rolled with the yellow d6, which has no {face}"),
                           name=record.name_of(pid), face=hand.yellow[0])
        if hand.pink is not None:
            checks.warning(f"{where}.pink", N_("{name}: nobody holds a pink die in round 1"),
                           name=record.name_of(pid))
    elif found != expected:
        checks.warning(where, N_("{name}: round {round} should be {dice} dice besides a pink one; found {found}"),
                       name=record.name_of(pid), round=expected, dice=expected, found=found)


def score(record: Record) -> Result:
    checks = Checks()
    ids = record.player_ids()
    pinks = pink_dice_in_play(len(ids))
    if len(record.rounds) > ROUNDS:
        checks.error("rounds", N_("Panda Royale has {rounds} rounds; this game has {found}"),
                     rounds=ROUNDS, found=len(record.rounds))

    totals = {pid: 0 for pid in ids}
    rounds_out: list[dict[str, int]] = []
    columns: list[dict[str, dict[str, int]]] = []
    pandas: list[str | None] = []
    pity: list[list[str] | None] = []
    complete = complete_prefix(record)

    for i, rnd in enumerate(record.rounds):
        row, cols = {}, {}
        for pid in ids:
            if pid not in rnd.hands:
                continue
            hand = rnd.hands[pid]
            _check_faces(checks, record, i, pid, hand)
            _check_dice_count(checks, record, i, pid, hand)
            cols[pid] = column_scores(hand)
            row[pid] = sum(cols[pid].values())
            totals[pid] += row[pid]
        rounds_out.append(row)
        columns.append(cols)
        # Each round's facts once (not again through panda_holder and pity_recipients): an
        # import scores thousands of games.
        leaders = _leaders({pid: cols[pid]["yellow"] for pid in row}) if len(row) == len(ids) else None
        holder = None if leaders is None else _holder(rnd, leaders)
        pandas.append(holder)
        if leaders is not None:
            _check_panda(checks, record, i, leaders)

        if i > 0:
            holders = [pid for pid in ids if pid in rnd.hands and rnd.hands[pid].pink is not None]
            if len(holders) > pinks:
                checks.warning(f"rounds[{i}]", N_("round {round}: {holders} players hold a pink die, "
                                                  "but only {pinks} are in play with {players} players"),
                               round=i + 1, holders=len(holders), pinks=pinks, players=len(ids))
            given = pity[i - 1] if i - 1 < min(complete, ROUNDS - 1) else None
            if given is not None:  # the previous round's pity is known
                for pid in holders:
                    if pid not in given:
                        checks.warning(f"rounds[{i}].hands.{pid}.pink",
                                       # TRANSLATORS: {given} is a list of players ("Ann and Ben")
                                       N_("{name} holds a pink die in round {round}, but the pity dice "
                                          "of round {previous} went to {given}"),
                                       name=record.name_of(pid), round=i + 1, previous=i,
                                       given=tuple(record.name_of(g) for g in given))
        if i < complete and i < ROUNDS - 1:
            pity.append(_pity(record, row, holder))

    table, winners = standings(record, totals)
    detail = {"columns": columns, "panda": pandas, "pity": pity}
    return Result(GAME, table, winners, rounds_out, checks.problems, detail)


def _check_panda(checks: Checks, record: Record, i: int, leaders: list[str]) -> None:
    """Warnings on the token of a complete round whose highest yellows are `leaders`."""
    rnd = record.rounds[i]
    names = [record.name_of(pid) for pid in leaders]
    if rnd.panda is not None and rnd.panda not in leaders:
        checks.warning(f"rounds[{i}].panda",
                       # TRANSLATORS: {leaders} is a list of players ("Ann and Ben")
                       N_("round {round}: the Panda token is recorded for {name}, "
                          "but the highest yellow was {leaders}'s"),
                       round=i + 1, name=record.name_of(rnd.panda), leaders=tuple(names))
    elif len(leaders) > 1 and rnd.panda is None and i < ROUNDS - 1:
        checks.warning(f"rounds[{i}].panda",
                       # TRANSLATORS: {leaders} is a list of players ("Ann and Ben")
                       N_("round {round}: {leaders} tie on yellow; record who won the re-roll"),
                       round=i + 1, leaders=tuple(names))


# --- edits the score pad makes: each returns a new record ---------------------

def hand_of(record: Record, index: int, pid: str) -> Hand | None:
    if index >= len(record.rounds):
        return None
    return record.rounds[index].hands.get(pid)


def valid_face(colour: str, face: int) -> bool:
    if colour not in FACES:
        return False
    top = FACES[colour]
    return (face != 0 and abs(face) <= top) if colour == "red" else 1 <= face <= top


def with_hand(record: Record, index: int, pid: str, hand: Hand | None) -> Record:
    """The record with one hand replaced (None: not entered), adding empty rounds up to `index`."""
    if index >= ROUNDS:
        # no key of the pad sends this (a programming error): English only
        raise ValueError(f"Panda Royale has {ROUNDS} rounds")
    rounds = list(record.rounds) + [Round() for _ in range(index + 1 - len(record.rounds))]
    hands = dict(rounds[index].hands)
    if hand is None or (hand.dice() == 0 and hand.pink is None):
        hands.pop(pid, None)
    else:
        hands[pid] = hand
    # Keep seat order in the stored map so the file reads like the sheet.
    ordered = {p: hands[p] for p in record.player_ids() if p in hands}
    rounds[index] = rounds[index].model_copy(update={"hands": ordered})
    return record.model_copy(update={"rounds": tuple(rounds)})


def add_die(record: Record, index: int, pid: str, colour: str, face: int) -> Record:
    """One more die of `colour` showing `face`; for pink, the pink die's face."""
    if not valid_face(colour, face):
        # no key of the pad sends this (a programming error): English only
        raise ValueError(f"a {colour} die has no face {face}")
    hand = hand_of(record, index, pid) or Hand()
    if colour == "pink":
        hand = hand.model_copy(update={"pink": face})
    else:
        hand = hand.model_copy(update={colour: getattr(hand, colour) + (face,)})
    return with_hand(record, index, pid, hand)


def remove_die(record: Record, index: int, pid: str, colour: str, position: int = -1) -> Record:
    hand = hand_of(record, index, pid)
    if hand is None:
        return record
    if colour == "pink":
        hand = hand.model_copy(update={"pink": None})
    else:
        faces = list(getattr(hand, colour))
        if not faces:
            return record
        faces.pop(position)
        hand = hand.model_copy(update={colour: tuple(faces)})
    return with_hand(record, index, pid, hand)


def set_panda(record: Record, index: int, pid: str | None) -> Record:
    rounds = list(record.rounds)
    rounds[index] = rounds[index].model_copy(update={"panda": pid})
    return record.model_copy(update={"rounds": tuple(rounds)})


def last_dice_colours(record: Record, index: int, pid: str) -> list[str]:
    """The colours of the player's dice last round: this round's dice are those plus one new die."""
    previous = hand_of(record, index - 1, pid) if index > 0 else None
    if previous is None:
        return ["yellow"] if index == 0 else []
    return [c for c in DIE_LISTS for _ in getattr(previous, c)]


def pity_for(record: Record, index: int) -> list[str] | None:
    """Who holds a pink die in round `index` by the pity rule of the round before, if known."""
    if index == 0:
        return []
    if index - 1 < len(record.rounds) and index - 1 < ROUNDS - 1 and is_complete(record, index - 1):
        return pity_recipients(record, index - 1)
    return None


def current_round(record: Record) -> int:
    """The round the table is playing: the first one not complete (ROUNDS when all are)."""
    return min(complete_prefix(record), ROUNDS)


def is_over(record: Record) -> bool:
    return complete_prefix(record) >= ROUNDS


def needs_panda_choice(record: Record, index: int) -> list[str]:
    """Tied yellow leaders of a complete round 1–9 with no re-roll winner recorded yet."""
    if index >= ROUNDS - 1 or not is_complete(record, index):
        return []
    leaders = yellow_leaders(record, index)
    return leaders if len(leaders) > 1 and record.rounds[index].panda not in leaders else []

"""Pure rules of the five games: records in, scores and problems out. No UI, no files, no clock."""
from .common import (EXPORT_FORMAT, FORMAT, VERSION, Player, Problem, RecordBase, RecordError,
                     Result, Standing)
from .registry import GAMES, parse_record, rules_for, score, score_data

__all__ = ["EXPORT_FORMAT", "FORMAT", "VERSION", "GAMES", "Player", "Problem", "RecordBase",
           "RecordError", "Result", "Standing", "parse_record", "rules_for", "score", "score_data"]

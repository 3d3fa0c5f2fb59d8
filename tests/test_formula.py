"""The formula under each colour reads like the paper sheet, with real minus signs."""
from scoring import panda_royale as pr


def test_formulas_as_on_the_paper_sheet():
    hand = pr.Hand(yellow=(2, 4), purple=(8, 1), blue=(3,), glitter=(2,), red=(2, -5, -6),
                   green=(14,), clear=(4,), pink=12)
    assert [pr.formula(hand, c) for c in pr.COLOURS] == [
        "2+4 = 6", "(8+1)×2 = 18", "(3+2)×2 = 10", "(2−5−6)×3 = −27", "14 = 14", "4 = 4", "12"]


def test_no_formula_for_a_colour_not_rolled():
    assert pr.formula(pr.Hand(yellow=(3,)), "red") == "" and pr.formula(pr.Hand(), "pink") == ""
    assert pr.formula(pr.Hand(blue=(3, 5)), "blue") == "3+5 = 8"

"""The Panda Royale pad: tap-to-enter dice, the paper sheet, pity dice and the round's close."""

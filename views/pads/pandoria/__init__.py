"""The Pandoria pad: the crown-track log during play, then the end-of-game step (hand cards, resources left, the tie-break)."""

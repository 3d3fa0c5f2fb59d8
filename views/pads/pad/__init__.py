"""What every game's pad shares: the screen machinery (save on every tap, undo/redo, sync
between phones, problems badge, finishing) and the small parts pads are drawn from."""

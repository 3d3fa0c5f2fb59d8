"""Flet views of Pandapad: the shell, the score pads and their widgets."""

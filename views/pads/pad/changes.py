"""Send only what changed: a tap must not make Flet diff, send and redraw the whole screen."""
from __future__ import annotations

import flet as ft


class Changes:
    """Sets control properties and remembers the controls whose properties really changed."""

    def __init__(self) -> None:
        self.controls: list[ft.Control] = []

    def add(self, *controls: ft.Control) -> None:
        for control in controls:
            if not any(control is c for c in self.controls):
                self.controls.append(control)

    def set(self, control: ft.Control, **props) -> bool:
        changed = False
        for name, value in props.items():
            if getattr(control, name) != value:
                setattr(control, name, value)
                changed = True
        if changed:
            self.add(control)
        return changed

    def roots(self) -> list[ft.Control]:
        """The changed controls less those inside another changed one: Flet sends a patch per
        control given to update(), and a parent's patch already covers its children."""
        changed = {id(c) for c in self.controls}

        def inside_another(control) -> bool:
            parent = control.parent
            while parent is not None:
                if id(parent) in changed:
                    return True
                parent = parent.parent
            return False
        return [c for c in self.controls if not inside_another(c)]

    def set_children(self, control, children: list[ft.Control]) -> bool:
        """Replace a Row's or Column's children unless they are the same controls already."""
        old = control.controls
        if len(old) == len(children) and all(a is b for a, b in zip(old, children)):
            return False
        control.controls = children
        self.add(control)
        return True

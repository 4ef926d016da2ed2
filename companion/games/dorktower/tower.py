"""The tower motor following the game (the plug-in's ``tower_motor`` actuator).

After every accepted action, a new game and on start, the table asks the motor to follow: it turns
clockwise until the tower stands at the public view's ``tower.step`` (modulo 8). The step it was
last turned to is remembered by the table across restarts (a restart with the tower behind catches
up); the motor never turns backwards: an undo of a turn of the tower turns it 7 steps on.
"""

from __future__ import annotations

from typing import Any

TOWER_STEPS = 8  # the tower turns in eighths


class TowerFollower:
    """Turns a motor with ``advance(steps)`` to the view's tower step."""

    def follow(self, view: dict[str, Any], device: Any, remembered: str | None) -> str | None:
        """Turn ``device`` from the step it was last turned to (``remembered``; the set-up
        position when None) to the view's; the step to remember (None: no tower in the view).
        A motor fault raises: nothing is remembered, and the next change retries."""
        if not isinstance(view, dict) or not isinstance(view.get("tower"), dict):
            return None
        step = view["tower"]["step"]
        shown = int(remembered) if remembered is not None else 0
        turns = (step - shown) % TOWER_STEPS
        if turns:
            device.advance(turns)
        return str(step)

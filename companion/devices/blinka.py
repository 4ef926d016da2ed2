"""Adafruit Blinka's ``board``, for the drivers that need it (the LEDs, an I2C NFC reader).

Imported only inside the real drivers. Blinka's ``import board`` otherwise offers, in a terminal,
to pip-install packages and waits for an answer; the ``pi`` extra installs what is needed.
"""

from __future__ import annotations

import os
from typing import Any


def import_board() -> Any:
    """``board``, without Blinka's run-time offer to install packages."""
    os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")
    import board

    return board

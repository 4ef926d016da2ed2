"""companion: a Raspberry Pi companion for physical board games."""

__version__ = "0.1.0"

"""Race to Ten: a toy game that exists only for the tests. It is written as a game package would
be, outside the companion, and registered by the test suite (``companion.games.register``), to
prove that a game needs nothing changed outside its own package.

2 to 4 players take turns: the active player rolls the die (the dice reader, or a virtual roll)
and moves that many spaces; then ends the turn (a seat button or the phone), or first taps the
bonus card (a sticker, once per game: two more spaces). Whoever reaches the goal wins."""

from companion.plugin import GamePlugin

PLUGIN = GamePlugin(
    id="toy",
    title="Race to Ten",
    package=__name__,
    rules="rules:RaceToTen",
    inputs="inputs:ToyInputs",
    sim="sim:ToyHands",
)

"""Die profiles: which label each face of a die shows.

The reader does not know what is printed on a die; it knows which sensor axis points up. A
profile turns that into a label.

Slots
    ``SLOTS[i]`` names the sensor axis that points UP when the die rests in slot ``i``:
    ``("+x", "-x", "+y", "-y", "+z", "-z")``. ``sensing`` reports slots.

Positions
    A profile lists its six labels by *position*: position ``k`` is where a standard die shows
    ``k + 1`` pips. So a profile reads like a die's faces in pip order, and ``d6`` is simply
    ``1,2,3,4,5,6``.

Mounting convention
    The accelerometer board is mounted inside the die with sensor +Z toward the 1, +X toward
    the 2 and +Y toward the 3; so -Y is toward the 4, -X toward the 5 and -Z toward the 6.
    Opposite faces sum to seven, and seen from outside the corner where 1, 2 and 3 meet, they
    run in the order of a right-handed frame's Z, X, Y (counter-clockwise, as on most Western
    dice). ``POSITION_SLOTS[k]`` is the slot that is up when position ``k`` faces up.

Labels are 1 to 12 characters from ``A-Z a-z 0-9 . _ -``: they travel in the serial protocol
(``Profile.describe`` joins them with ","), so they never hold ",", "=", "*" or spaces.

Plain Python for MicroPython and CPython alike (see the package docstring).
"""

SLOTS = ("+x", "-x", "+y", "-y", "+z", "-z")

# position k (the face showing k+1 pips on a standard die) is up when slot POSITION_SLOTS[k] is up
POSITION_SLOTS = (4, 0, 2, 3, 1, 5)

# the inverse: SLOT_POSITIONS[slot] is the position that is up in that slot
SLOT_POSITIONS = (1, 4, 2, 3, 0, 5)

MAX_LABEL = 12
LABEL_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"

_DERIVE = object()  # Face's default value: derived from the label


def label_problem(label):
    """Why ``label`` is not a valid face label, or None if it is."""
    if not isinstance(label, str):
        return "a face label must be a string, not %r" % (label,)
    if not label:
        return "a face label must not be empty"
    if len(label) > MAX_LABEL:
        return "face label %r is longer than %d characters" % (label, MAX_LABEL)
    for ch in label:
        if ch not in LABEL_CHARS:
            return "face label %r holds %r; use only A-Z a-z 0-9 . _ -" % (label, ch)
    return None


class Face:
    """One face of a die: its ``label``, its numeric ``value`` and whether it means "roll again".

    ``value`` is an int or None. Left out, it is the label's integer value when the label is all
    digits ("4" is worth 4) and None otherwise ("CLOAK", "ice"). ``again`` is True for a face
    that makes the player roll again and add (Realm of Wonder's purple 2).
    """

    __slots__ = ("label", "value", "again")

    def __init__(self, label, value=_DERIVE, again=False):
        problem = label_problem(label)
        if problem:
            raise ValueError(problem)
        if value is _DERIVE:
            value = int(label) if label.isdigit() else None
        elif value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError("face %r: value must be an int or None, not %r" % (label, value))
        self.label = label
        self.value = value
        self.again = bool(again)

    def __eq__(self, other):
        if not isinstance(other, Face):
            return NotImplemented
        return self.label == other.label and self.value == other.value and self.again == other.again

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        return hash((self.label, self.value, self.again))

    def __repr__(self):
        text = "Face(%r" % (self.label,)
        derived = int(self.label) if self.label.isdigit() else None
        if self.value != derived:
            text += ", value=%r" % (self.value,)
        if self.again:
            text += ", again=True"
        return text + ")"


class Profile:
    """A die profile: ``name``, six ``faces`` by position, ``example`` and ``note``.

    ``faces`` is a tuple of six ``Face`` (a plain string is turned into ``Face(label)``), in
    position order: ``faces[k]`` is printed where a standard die shows ``k + 1`` pips. A label
    may repeat (a die with two 2s); the same label always means the same face. ``example`` is
    True when the faces are our proposal rather than printed in the game's rulebook; ``note``
    says where they come from.
    """

    __slots__ = ("name", "faces", "example", "note")

    def __init__(self, name, faces, example=False, note=""):
        if not isinstance(name, str) or not name:
            raise ValueError("a profile needs a name")
        faces = tuple(face if isinstance(face, Face) else Face(face) for face in faces)
        if len(faces) != 6:
            raise ValueError("a die has 6 faces; profile %r lists %d" % (name, len(faces)))
        seen = {}
        for face in faces:
            other = seen.get(face.label)
            if other is not None and other != face:
                raise ValueError(
                    "face label %r means two different faces in profile %r" % (face.label, name)
                )
            seen[face.label] = face
        self.name = name
        self.faces = faces
        self.example = bool(example)
        self.note = note

    def face_for_slot(self, slot):
        """The face that is up when the die rests in ``slot`` (0..5, see ``SLOTS``)."""
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < 6:
            raise ValueError("slot must be 0..5, not %r" % (slot,))
        return self.faces[SLOT_POSITIONS[slot]]

    def slot_for(self, label):
        """A slot (0..5) in which the face labelled ``label`` is up (the first one, for a label
        that repeats); ValueError if none is."""
        for position in range(6):
            if self.faces[position].label == label:
                return POSITION_SLOTS[position]
        raise ValueError("profile %r has no face %r" % (self.name, label))

    def labels(self):
        """The six labels by position."""
        return tuple(face.label for face in self.faces)

    def describe(self):
        """The labels by position joined with "," (as sent over the serial protocol)."""
        return ",".join(self.labels())

    def __eq__(self, other):
        if not isinstance(other, Profile):
            return NotImplemented
        return (
            self.name == other.name
            and self.faces == other.faces
            and self.example == other.example
            and self.note == other.note
        )

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        return hash((self.name, self.faces))

    def __repr__(self):
        return "Profile(%r, %r)" % (self.name, self.describe())


def _numbers(labels):
    return tuple(Face(label) for label in labels)


PROFILES = {
    "d6": Profile(
        "d6",
        _numbers(("1", "2", "3", "4", "5", "6")),
        note="A standard six-sided die with 1 to 6 pips.",
    ),
    "triwizard": Profile(
        "triwizard",
        (Face("CLOAK", value=0),) + _numbers(("1", "2", "3", "4", "5")),
        example=True,
        note=(
            "Triwizard Maze die. The rulebook lists no faces, only that one shows the "
            "Invisibility Cloak (TW-AMB-2); these are the proposed example faces. CLOAK is "
            "worth 0 in battle (TW-BATTLE-4)."
        ),
    ),
    "battle": Profile(
        "battle",
        _numbers(("1", "2")) + (Face("2P", value=2, again=True),) + _numbers(("3", "4", "5")),
        example=True,
        note=(
            "Realm of Wonder battle die. The rulebook names only the purple 2 (RW-AMB-2); these "
            "are the proposed example faces. 2P is the purple 2: worth 2, roll again and add "
            "(RW-BATTLE-4)."
        ),
    ),
    "rotation": Profile(
        "rotation",
        tuple(
            Face(region, value=None)
            for region in ("ice", "forest", "desert", "lake", "mountain", "meadow")
        ),
        example=True,
        note=(
            "Realm of Wonder rotation die: it rolls a region. The rulebook lists no faces "
            "(RW-AMB-2); these example region ids must match the board's regions."
        ),
    ),
}


def custom(labels):
    """A profile named "custom" with the six ``labels`` by position.

    Raises ValueError, with a message fit for the person who typed them, unless there are
    exactly six valid labels (a label may repeat: a die with two 2s). All-digit labels get
    their integer value.
    """
    if isinstance(labels, str):
        raise ValueError("custom faces must be a list of 6 labels, not one string")
    labels = tuple(labels)
    if len(labels) != 6:
        raise ValueError("a custom die needs exactly 6 faces, got %d" % len(labels))
    for number in range(6):
        problem = label_problem(labels[number])
        if problem:
            raise ValueError("face %d: %s" % (number + 1, problem))
    return Profile("custom", labels, note="Faces given by the user.")


def get(name, faces=None):
    """The profile called ``name``.

    ``name`` is a key of ``PROFILES``, or "custom" with ``faces`` given as six labels
    separated by "," (surrounding spaces are ignored), e.g. ``"A,B,C,D,E,F"``. Raises
    ValueError with a clear message for an unknown name, for faces given to a built-in
    profile and for bad or missing custom faces.
    """
    if name == "custom":
        if faces is None:
            raise ValueError("the custom profile needs faces, e.g. faces=A,B,C,D,E,F")
        if isinstance(faces, str):
            faces = [label.strip() for label in faces.split(",")]
        return custom(faces)
    profile = PROFILES.get(name)
    if profile is None:
        known = ", ".join(sorted(PROFILES)) + ", custom"
        raise ValueError("unknown die profile %r (known: %s)" % (name, known))
    if faces is not None:
        raise ValueError(
            "profile %r has fixed faces; faces can only be given with profile custom" % (name,)
        )
    return profile

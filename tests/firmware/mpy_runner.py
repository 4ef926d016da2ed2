"""Feed a script of inputs to a companion_dice Reader and print everything it does.

Run by ``test_micropython_run.py`` under MicroPython and under CPython, with the ``firmware``
folder on the module path; the two transcripts must be byte-identical. It is itself written in
the MicroPython subset (only ``sys`` and ``companion_dice``).

Usage: ``mpy_runner.py SCRIPT``. SCRIPT is text, one command a line, words separated by spaces:

    READER <dice> <board> <uid or -> <leds, e.g. 11> <boot or ->   make the reader (first line)
    BOOT <t>                        reader.boot(t)
    S <die> <t> <x> <y> <z>         reader.sample(...), milli-g
    F <die> <t> <why>               reader.sensor_failed(...)
    H <t> <hex>                     reader.host_bytes(bytes.fromhex(hex), t)
    P <mv> <source>                 reader.power(mv, source)
    T <t>                           reader.tick(t)
    L <t>                           print the LEDs at t

After every command the runner prints what ``take_output()`` returned, if anything, as
``OUT <t> <hex>``; ``L`` prints ``LED <t> <die LEDs as 0/1> <status LED as 0/1>``. It ends with
``END <commands run>``.
"""

import sys

from companion_dice.reader import Reader


def _bit(value):
    return "1" if value else "0"


def _optional(word):
    return "" if word == "-" else word


def run(lines, write):
    reader = None
    dice = 0
    t = 0
    count = 0
    for text in lines:
        words = text.split()
        if not words or words[0].startswith("#"):
            continue
        kind = words[0]
        if kind == "READER":
            dice = int(words[1])
            leds = tuple(char == "1" for char in words[4])
            if words[5] == "-":
                reader = Reader(dice, words[2], _optional(words[3]), leds)
            else:
                reader = Reader(dice, words[2], _optional(words[3]), leds, boot=words[5])
        elif kind == "BOOT":
            t = int(words[1])
            reader.boot(t)
        elif kind == "S":
            t = int(words[2])
            reader.sample(int(words[1]), t, int(words[3]), int(words[4]), int(words[5]))
        elif kind == "F":
            t = int(words[2])
            reader.sensor_failed(int(words[1]), t, words[3])
        elif kind == "H":
            t = int(words[1])
            reader.host_bytes(bytes.fromhex(words[2]), t)
        elif kind == "P":
            reader.power(int(words[1]), words[2])
        elif kind == "T":
            t = int(words[1])
            reader.tick(t)
        elif kind == "L":
            t = int(words[1])
            lit = "".join(_bit(reader.die_led(die, t)) for die in range(dice))
            write("LED %d %s %s\n" % (t, lit, _bit(reader.status_led(t))))
        else:
            raise ValueError("unknown command %r" % (kind,))
        count += 1
        out = reader.take_output()
        if out:
            write("OUT %d %s\n" % (t, out.hex()))
    write("END %d\n" % count)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: mpy_runner.py SCRIPT\n")
        return 2
    with open(argv[1]) as script:
        lines = script.read().split("\n")
    run(lines, sys.stdout.write)
    return 0


sys.exit(main(sys.argv))

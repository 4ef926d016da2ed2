"""Configuration: the defaults, a TOML file, command-line overrides and the errors they cause."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from companion.config import Config, ConfigError, default_data_dir, load
from companion.pinmap import load as load_pinmap

EVERY_KEY = """\
[server]
host = "127.0.0.1"
port = 9000
threads = 20
host_pin = "97531"

[devices]
mode = "real"
seats = 4
button_pins = [17, 27, 22, 23]
button_hold = 2
dice_port = "dice0"
dice_speed = 0
nfc = "pn532"
nfc_port = "/dev/ttyUSB0"
nfc_readers = { seat2 = "/dev/ttyUSB2", seat1 = "/dev/ttyUSB1" }
leds = "none"
led_chain = ["tower", "table"]
led_max_brightness = 0.4
led_supply_amps = 3
led_over_budget = "cap"
led_pixel_order = "RGB"
button_factory = "rpigpio"
brightness = 0.25
seed = 7
tower_pixels = 24
tower_motor_pins = [12, 16, 20, 21]
tower_motor_steps = 8192

[games.dorktower]
data_set = "sets/mine"
"""


def toml(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text, encoding="utf-8")
    return path


def config_error(path: Path | None, data_dir: Path, **overrides) -> str:
    with pytest.raises(ConfigError) as info:
        load(path, data_dir=data_dir, **overrides)
    return str(info.value)


def test_the_defaults_run_a_simulated_table(tmp_path):
    config = load(None, data_dir=tmp_path)
    assert config == Config(data_dir=tmp_path)
    assert (config.host, config.port, config.threads) == ("0.0.0.0", 8080, 8)
    assert config.simulated and config.mode == "simulated" and config.seats == 5
    assert config.button_pins == load_pinmap().button_pins and config.dice_port is None
    assert (config.button_hold, config.brightness, config.seed) == (1.0, 0.5, 2014)
    assert config.database == tmp_path / "companion.db"


def test_the_default_data_directory_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "companion"
    assert load(None).data_dir == tmp_path / "xdg" / "companion"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / ".local" / "share" / "companion"


def test_a_file_may_set_every_key(tmp_path):
    """Every setting of Config can be written in the file and is read with its type."""
    config = load(toml(tmp_path, EVERY_KEY), data_dir=tmp_path)
    assert config == Config(
        data_dir=tmp_path,
        host="127.0.0.1",
        port=9000,
        threads=20,
        host_pin="97531",
        mode="real",
        seats=4,
        button_pins=(17, 27, 22, 23),
        button_hold=2.0,
        dice_port="dice0",
        dice_speed=0.0,
        nfc="pn532",
        nfc_port="/dev/ttyUSB0",
        leds="none",
        nfc_readers=(("seat1", "/dev/ttyUSB1"), ("seat2", "/dev/ttyUSB2")),
        led_chain=("tower", "table"),
        led_max_brightness=0.4,
        led_supply_amps=3.0,
        led_over_budget="cap",
        led_pixel_order="RGB",
        button_factory="rpigpio",
        brightness=0.25,
        seed=7,
        tower_pixels=24,
        tower_motor_pins=(12, 16, 20, 21),
        tower_motor_steps=8192,
        data_sets=(("dorktower", str(tmp_path / "sets" / "mine")),),
    )
    assert isinstance(config.button_hold, float) and not config.simulated
    written = {line.split(" = ")[0] for line in EVERY_KEY.splitlines() if " = " in line}
    assert written == {f.name for f in fields(Config)} - {"data_dir", "data_sets"} | {"data_set"}


def test_an_empty_file_gives_the_defaults(tmp_path):
    assert load(toml(tmp_path, "# nothing\n"), data_dir=tmp_path) == Config(data_dir=tmp_path)


@pytest.mark.parametrize(
    "text, key",
    [
        ("[sound]\nvolume = 3\n", "sound"),
        ("port = 8080\n", "port"),
        ("[server]\nportt = 8080\n", "portt"),
        ('[devices]\nhost = "x"\n', "host"),
        ('[server]\nport = "8080"\n', "port"),
        ("[server]\nport = 8080.0\n", "port"),
        ("[server]\nthreads = true\n", "threads"),
        ("[devices]\nbrightness = true\n", "brightness"),
        ('[devices]\nbrightness = "dim"\n', "brightness"),
        ("[devices]\nmode = 1\n", "mode"),
        ("[devices]\nbutton_pins = 5\n", "button_pins"),
        ('[devices]\nbutton_pins = [5, "6", 13, 19, 26]\n', "button_pins"),
        ("[devices]\nbutton_pins = [5, 6, 13, 19, true]\n", "button_pins"),
        ('[devices]\nnfc_readers = "/dev/ttyUSB0"\n', "nfc_readers"),
        ("[devices]\nnfc_readers = { seat1 = 3 }\n", "nfc_readers"),
        ('[devices]\nled_chain = "table"\n', "led_chain"),
        ('[devices]\nled_chain = ["table", 2]\n', "led_chain"),
    ],
    ids=[
        "unknown section",
        "key outside a section",
        "unknown key",
        "key in the wrong section",
        "string for int",
        "float for int",
        "bool for int",
        "bool for float",
        "string for float",
        "int for string",
        "int for list",
        "string in pin list",
        "bool in pin list",
        "string for reader table",
        "number for a reader's port",
        "string for chain",
        "number in chain",
    ],
)
def test_unknown_or_mistyped_keys_are_errors_naming_file_and_key(tmp_path, text, key):
    path = toml(tmp_path, text)
    message = config_error(path, tmp_path)
    assert message.startswith(f"{path}: ") and key in message


@pytest.mark.parametrize(
    "text, key",
    [
        ('[devices]\nmode = "fake"\n', "devices.mode"),
        ("[devices]\nseats = 9\n", "devices.seats"),
        ("[devices]\nseats = 1\n", "devices.seats"),
        ("[devices]\nseats = 6\n", "devices.button_pins"),
        ("[devices]\nbrightness = 0\n", "devices.brightness"),
        ("[devices]\nbrightness = 1.5\n", "devices.brightness"),
        ("[server]\nport = 70000\n", "server.port"),
        ("[server]\nport = -1\n", "server.port"),
        ("[server]\nthreads = 1\n", "server.threads"),
        ("[server]\nthreads = 65\n", "server.threads"),
        ('[server]\nhost_pin = "12a4"\n', "server.host_pin"),
        ('[server]\nhost_pin = "123"\n', "server.host_pin"),
    ],
)
def test_bad_values_are_errors_naming_file_and_key(tmp_path, text, key):
    path = toml(tmp_path, text)
    message = config_error(path, tmp_path)
    assert message.startswith(f"{path}: ") and key in message


@pytest.mark.parametrize(
    "text, problem", [("[server\n", "not valid TOML"), ("port = = 1\n", "not valid TOML")]
)
def test_a_file_that_is_not_toml_is_an_error_naming_it(tmp_path, text, problem):
    path = toml(tmp_path, text)
    message = config_error(path, tmp_path)
    assert message.startswith(f"{path}: ") and problem in message


def test_a_missing_file_is_an_error_naming_it(tmp_path):
    path = tmp_path / "absent.toml"
    message = config_error(path, tmp_path)
    assert message.startswith(f"{path}: cannot read")


def test_overrides_win_over_the_file(tmp_path):
    """Command-line values replace the file's; an override of None leaves the file's value."""
    path = toml(tmp_path, EVERY_KEY)
    config = load(path, data_dir=tmp_path, port=9100, host="::1", mode=None)
    assert (config.port, config.host, config.mode) == (9100, "::1", "real")
    assert config.threads == 20


def test_port_0_asks_for_any_free_port(tmp_path):
    """``companion run --port 0`` is documented to pick a free port, so 0 is a valid port."""
    assert load(None, data_dir=tmp_path, port=0).port == 0
    assert load(toml(tmp_path, "[server]\nport = 0\n"), data_dir=tmp_path).port == 0


def test_a_bad_override_is_an_error_that_does_not_blame_the_file(tmp_path):
    path = toml(tmp_path, EVERY_KEY)
    message = config_error(path, tmp_path, port=70000)
    assert "server.port" in message and str(path) not in message


def test_an_unknown_override_is_an_error(tmp_path):
    assert "volume" in config_error(None, tmp_path, volume=3)


def test_a_broken_dork_tower_data_set_stops_the_start_with_file_place_and_problem(tmp_path, capsys):
    """A data set with a mistake is refused at start-up, naming the file, the place and the
    problem (the issue's check), before any device or server starts."""
    import shutil

    from companion.cli import main
    from companion.games.dorktower.rules.data import example_directory

    broken = tmp_path / "mine"
    shutil.copytree(example_directory(), broken)
    tower = broken / "tower.json"
    text = tower.read_text(encoding="utf-8")
    tower.write_text(text.replace('"mf"', '"zz"', 1), encoding="utf-8")
    config = toml(tmp_path, '[games]\ndorktower_data = "mine"\n')
    code = main(["run", "--config", str(config), "--data", str(tmp_path / "db"), "--port", "0"])
    err = capsys.readouterr().err
    assert code == 2
    assert (
        "the Dork Tower data set is refused: mine/tower.json: wedges[5]: unknown wedge 'zz'" in err
    )
    assert not (tmp_path / "db" / "companion.db").exists()


def test_a_broken_bundled_example_stops_the_start_too(tmp_path, capsys, monkeypatch):
    """Without a configured data set the bundled example is validated before the start, and a
    mistake in it is reported the same way (not as a crash at import)."""
    from companion.cli import main
    from companion.games import get_game
    from companion.games.dorktower.rules import data

    def broken():
        raise data.DataError(
            "example/combat_table.json",
            "rows",
            "no row covers differences -4 to -3 (between rows[2] and rows[3])",
        )

    game = get_game("dorktower")
    monkeypatch.setattr(data, "example_dataset", broken)
    monkeypatch.setattr(game, "_datasets", None)
    monkeypatch.setattr(game, "_default", None)
    code = main(["run", "--data", str(tmp_path / "db"), "--port", "0"])
    assert code == 2
    assert (
        "companion: the Dork Tower data set is refused: example/combat_table.json: rows: no "
        "row covers differences -4 to -3"
    ) in capsys.readouterr().err
    assert not (tmp_path / "db" / "companion.db").exists()


@pytest.mark.parametrize(
    "readers, problem",
    [
        ('{ seat6 = "/dev/ttyUSB1" }', "named seat1 to seat5"),
        ('{ seat0 = "/dev/ttyUSB1" }', "not 'seat0'"),
        ('{ board = "/dev/ttyUSB1" }', "not 'board'"),
        ('{ seat01 = "/dev/ttyUSB1" }', "not 'seat01'"),
        ('{ seat1 = "" }', "seat1 has no port"),
        ('{ seat1 = "/dev/serial0" }', "connect a seat's reader by USB"),
        ('{ seat1 = "/dev/i2c-1" }', "connect a seat's reader by USB"),
        ('{ seat1 = "/dev/ttyUSB0" }', "seat1 and the board reader (devices.nfc_port) both use"),
        ('{ seat1 = "/dev/ttyUSB1", seat2 = "/dev/ttyUSB1" }', "another seat's reader both use"),
    ],
)
def test_seat_readers_are_named_by_seat_and_have_ports_of_their_own(tmp_path, readers, problem):
    """A seat's own NFC reader is named after its seat and sits on a USB port no other reader
    uses; the header's UART and I2C are the board reader's."""
    path = toml(tmp_path, f'[devices]\nnfc_port = "/dev/ttyUSB0"\nnfc_readers = {readers}\n')
    message = config_error(path, tmp_path)
    assert message.startswith(f"{path}: devices.nfc_readers") and problem in message


def test_seat_readers_need_the_readers_on(tmp_path):
    path = toml(tmp_path, '[devices]\nnfc = "none"\nnfc_readers = { seat1 = "/dev/ttyUSB1" }\n')
    assert 'devices.nfc_readers needs devices.nfc = "pn532"' in config_error(path, tmp_path)


def test_seat_readers_are_kept_in_seat_order(tmp_path):
    path = toml(
        tmp_path, '[devices]\nnfc_readers = { seat3 = "/dev/ttyUSB3", seat1 = "/dev/ttyUSB1" }\n'
    )
    assert load(path, data_dir=tmp_path).nfc_readers == (
        ("seat1", "/dev/ttyUSB1"),
        ("seat3", "/dev/ttyUSB3"),
    )


def test_the_led_chain_defaults_to_the_pin_maps(tmp_path):
    """The strips' order on the data line is the pin map's ``[leds] chain``."""
    assert load(None, data_dir=tmp_path).led_chain == load_pinmap().led_chain


@pytest.mark.parametrize("chain", ["[]", '["table", "table"]', '["table", "lamp"]'])
def test_a_led_chain_lists_known_strips_once(tmp_path, chain):
    path = toml(tmp_path, f"[devices]\nled_chain = {chain}\n")
    assert "devices.led_chain must list the strips" in config_error(path, tmp_path)


# -- data sets per game -------------------------------------------------------------------------


def broken_set(tmp_path: Path) -> Path:
    """A copy of Dork Tower's example set with a mistake in its tower."""
    import shutil

    from companion.games.dorktower.rules.data import example_directory

    broken = tmp_path / "mine"
    shutil.copytree(example_directory(), broken)
    tower = broken / "tower.json"
    tower.write_text(tower.read_text(encoding="utf-8").replace('"mf"', '"zz"', 1), "utf-8")
    return broken


REFUSED = "the Dork Tower data set is refused: mine/tower.json: wedges[5]: unknown wedge 'zz'"


@pytest.mark.parametrize(
    "arguments",
    [["--data-set", "dorktower={set}"], ["--dorktower-data", "{set}"]],
    ids=["--data-set GAME=DIR", "the old --dorktower-data"],
)
def test_a_data_set_given_on_the_command_line(tmp_path, capsys, arguments):
    from companion.cli import main

    folder = str(broken_set(tmp_path))
    given = [argument.format(set=folder) for argument in arguments]
    code = main(["run", "--data", str(tmp_path / "db"), "--port", "0", *given])
    assert code == 2 and REFUSED in capsys.readouterr().err
    assert not (tmp_path / "db" / "companion.db").exists()


def test_the_section_of_a_game_names_its_data_set(tmp_path):
    path = toml(tmp_path, '[games.dorktower]\ndata_set = "sets/mine"\n')
    config = load(path, data_dir=tmp_path)
    assert config.data_sets == (("dorktower", str(tmp_path / "sets" / "mine")),)
    legacy = load(toml(tmp_path, '[games]\ndorktower_data = "sets/mine"\n'), data_dir=tmp_path)
    assert legacy.data_sets == config.data_sets


@pytest.mark.parametrize(
    "text, problem",
    [
        ('[games.chess]\ndata_set = "x"\n', "no game called 'chess'"),
        ('[games]\nchess_data = "x"\n', "no game called 'chess'"),
        ('[games.dorktower]\ncolour = "x"\n', "[games.dorktower] has no key 'colour'"),
        ("[games.dorktower]\ndata_set = 3\n", "data_set must be a str"),
        ('[games]\nvolume = "x"\n', "[games] has no key 'volume'"),
    ],
)
def test_a_games_section_that_cannot_be_used(tmp_path, text, problem):
    path = toml(tmp_path, text)
    message = config_error(path, tmp_path)
    assert message.startswith(f"{path}: ") and problem in message


@pytest.mark.parametrize("given", ["chess=somewhere", "dorktower", "=x", "dorktower="])
def test_a_malformed_data_set_argument(tmp_path, capsys, given):
    from companion.cli import main

    code = main(["run", "--data", str(tmp_path / "db"), "--port", "0", "--data-set", given])
    assert code == 2 and "--data-set takes GAME=DIR" in capsys.readouterr().err


def test_an_override_naming_an_unknown_game(tmp_path):
    assert "no game called 'chess'" in config_error(
        None, tmp_path, data_sets=(("chess", "somewhere"),)
    )

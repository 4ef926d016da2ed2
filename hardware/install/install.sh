#!/bin/sh
# Install the companion on a Raspberry Pi (Raspberry Pi OS Bookworm, 64-bit) as a service that
# starts when the Pi boots, or remove it again.
#
#   sudo hardware/install/install.sh              install (or update) and start the service
#   sudo hardware/install/install.sh --uninstall  stop and remove it; the game data stays
#   sudo hardware/install/install.sh --uninstall --purge   ... and the data and settings too
#   hardware/install/install.sh --dry-run [...]   print every step instead of doing it
#
# What it does: a system user "companion" in the groups that own the serial port, SPI, I2C and
# GPIO; a virtual environment in /opt/companion with the project and its "pi" extra; the settings
# in /etc/companion/companion.toml (kept if present); the game data in /var/lib/companion; the
# systemd unit companion.service (restarted on failure), enabled and started. With raspi-config
# present it also turns on SPI, I2C and the UART and turns off the serial console (--no-interfaces
# leaves them alone). Run it again after `git pull` to update.
set -eu

SRC=$(cd "$(dirname "$0")/../.." && pwd)
PREFIX=/opt/companion
DATA=/var/lib/companion
CONF_DIR=/etc/companion
UNIT=/etc/systemd/system/companion.service
SERVICE_USER=companion
GROUPS_WANTED="dialout spi i2c gpio"

DRY=0
MODE=install
PURGE=0
INTERFACES=1

say() { printf '%s\n' "$*"; }
fail() { printf 'install: %s\n' "$*" >&2; exit 1; }

# run CMD...: do it, or print it in a dry run
run() {
    if [ "$DRY" -eq 1 ]; then
        say "+ $*"
    else
        "$@"
    fi
}

# put FILE MODE: write standard input to FILE, or show it in a dry run
put() {
    if [ "$DRY" -eq 1 ]; then
        say "+ write $1 (mode $2):"
        sed 's/^/|   /'
    else
        cat > "$1"
        chmod "$2" "$1"
    fi
}

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --uninstall) MODE=uninstall ;;
        --purge) PURGE=1 ;;
        --no-interfaces) INTERFACES=0 ;;
        -h|--help) usage; exit 0 ;;
        *) fail "unknown option $1 (see --help)" ;;
    esac
    shift
done

if [ "$DRY" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    fail "run it as root: sudo $0 $*"
fi

uninstall() {
    say "Removing the companion service."
    if [ -f "$UNIT" ] || [ "$DRY" -eq 1 ]; then
        run systemctl disable --now companion.service
        run rm -f "$UNIT"
        run systemctl daemon-reload
    fi
    run rm -rf "$PREFIX"
    if [ "$PURGE" -eq 1 ]; then
        run rm -rf "$DATA" "$CONF_DIR"
        if id "$SERVICE_USER" >/dev/null 2>&1 || [ "$DRY" -eq 1 ]; then
            run userdel "$SERVICE_USER"
        fi
        say "Removed, with the game data and the settings."
    else
        say "Removed. The game data ($DATA) and settings ($CONF_DIR) are kept;"
        say "--uninstall --purge removes them too."
    fi
}

check_system() {
    if [ -r /etc/os-release ]; then
        # shellcheck disable=SC1091
        . /etc/os-release
        if [ "${VERSION_CODENAME:-}" != "bookworm" ]; then
            say "Note: this is ${PRETTY_NAME:-an unknown system}; the companion is tested on Raspberry Pi OS Bookworm."
        fi
    fi
    command -v python3 >/dev/null 2>&1 || fail "python3 is missing: sudo apt install python3"
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || fail "the companion needs Python 3.11 or newer (Bookworm has 3.11)"
    [ -f "$SRC/pyproject.toml" ] || fail "run it from a checkout of the companion ($SRC has no pyproject.toml)"
}

# The groups that exist here, of those the service needs (a plain Debian has no spi or gpio).
service_groups() {
    found=""
    for g in $GROUPS_WANTED; do
        if getent group "$g" >/dev/null 2>&1; then
            found="$found $g"
        fi
    done
    say "${found# }"
}

install() {
    check_system
    say "Installing the companion from $SRC."
    run apt-get install -y python3-venv
    if ! id "$SERVICE_USER" >/dev/null 2>&1; then
        run useradd --system --home-dir "$DATA" --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    groups=$(service_groups)
    for g in $groups; do
        run usermod -aG "$g" "$SERVICE_USER"
    done
    run mkdir -p "$PREFIX" "$DATA" "$CONF_DIR"
    run chown "$SERVICE_USER:$SERVICE_USER" "$DATA"
    run python3 -m venv "$PREFIX/venv"
    run "$PREFIX/venv/bin/pip" install --upgrade pip
    run "$PREFIX/venv/bin/pip" install "${SRC}[pi]"
    if [ -f "$CONF_DIR/companion.toml" ] && [ "$DRY" -eq 0 ]; then
        say "Keeping the settings in $CONF_DIR/companion.toml."
    else
        put "$CONF_DIR/companion.toml" 644 < "$SRC/hardware/install/companion.toml"
    fi
    sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@DATA@|$DATA|g" -e "s|@CONF@|$CONF_DIR|g" \
        -e "s|@USER@|$SERVICE_USER|g" -e "s|@GROUPS@|$groups|g" \
        "$SRC/hardware/install/companion.service" | put "$UNIT" 644
    if [ "$INTERFACES" -eq 1 ] && command -v raspi-config >/dev/null 2>&1; then
        run raspi-config nonint do_spi 0
        run raspi-config nonint do_i2c 0
        run raspi-config nonint do_serial_hw 0
        run raspi-config nonint do_serial_cons 1
        say "SPI, I2C and the UART are on and the serial console is off (a reboot applies them)."
    fi
    run systemctl daemon-reload
    run systemctl enable --now companion.service
    say "Installed. The companion starts at every boot; 'journalctl -u companion' shows its log,"
    say "and '$PREFIX/venv/bin/companion doctor --config $CONF_DIR/companion.toml' checks the devices."
}

if [ "$MODE" = uninstall ]; then
    uninstall
else
    install
fi

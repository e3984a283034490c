#!/usr/bin/env bash
# Runs a command with a real, unlocked Secret Service (gnome-keyring) in a throw-away HOME, so
# that keytar talks to a real keychain without touching the user's own.
#
#   dbus-run-session -- bash scripts/with-keyring.sh vitest run
#
# Must run inside a D-Bus session (dbus-run-session gives a private one). The keyring, its
# password and the temporary HOME exist only for the duration of the command.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: dbus-run-session -- bash scripts/with-keyring.sh <command> [args...]" >&2
  exit 2
fi
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  echo "with-keyring.sh: no D-Bus session (DBUS_SESSION_BUS_ADDRESS is unset); run it under dbus-run-session --" >&2
  exit 2
fi
if ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
  echo "with-keyring.sh: gnome-keyring-daemon not found (apt-get install gnome-keyring dbus dbus-x11 libsecret-1-0)" >&2
  exit 2
fi

# The project's tools resolve from node_modules/.bin, as they do under `npm run`.
PATH="$(pwd)/node_modules/.bin:${PATH}"

temp_home="$(mktemp -d "${TMPDIR:-/tmp}/order-desk-keyring.XXXXXX")"
daemon_pid=""

cleanup() {
  if [ -n "${daemon_pid}" ]; then
    kill "${daemon_pid}" 2>/dev/null || true
    for _ in $(seq 20); do
      kill -0 "${daemon_pid}" 2>/dev/null || break
      sleep 0.1
    done
  fi
  rm -rf "${temp_home}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export HOME="${temp_home}"
export XDG_DATA_HOME="${temp_home}/.local/share"
export XDG_CONFIG_HOME="${temp_home}/.config"
export XDG_CACHE_HOME="${temp_home}/.cache"
export XDG_RUNTIME_DIR="${temp_home}/runtime"
mkdir -p "${XDG_DATA_HOME}" "${XDG_CONFIG_HOME}" "${XDG_CACHE_HOME}" "${XDG_RUNTIME_DIR}"
chmod 700 "${temp_home}" "${XDG_RUNTIME_DIR}"

# --unlock creates and unlocks the login keyring with this password; the daemon forks itself.
password="$(head -c 24 /dev/urandom | base64)"
daemon_env="$(printf '%s' "${password}" | gnome-keyring-daemon --unlock --components=secrets)"
unset password
while IFS= read -r line; do
  case "${line}" in
    *=*) export "${line?}" ;;
  esac
done <<<"${daemon_env}"

# The daemon that owns org.freedesktop.secrets on this (private) bus is the one we started.
daemon_pid="$(dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
  org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets 2>/dev/null |
  awk '/uint32/ { print $2 }' || true)"

"$@"

#!/usr/bin/env bash
# Runs a command with a real, unlocked Secret Service (gnome-keyring), so that keytar talks to a
# real keychain without touching the user's own.
#
#   dbus-run-session -- bash scripts/with-keyring.sh vitest run
#       Tests: a throw-away HOME; the keyring, its password and that HOME exist only for the
#       duration of the command.
#
#   dbus-run-session -- bash scripts/with-keyring.sh --persist DIR npm run browser
#       Running the app: the keyring lives in DIR (created on first use, never deleted), so the
#       secrets saved in one run are there in the next. Its password is kept in DIR/password
#       (mode 0600): this is a stand-in for a desktop keyring, protected by DIR's permissions.
#
# Either way the command sees ORDER_DESK_USER_HOME, the HOME it was started from, so the browser
# host keeps its data in the user's own ~/.config/order-desk-browser, not in the keyring's HOME.
#
# Must run inside a D-Bus session (dbus-run-session gives a private one).
set -euo pipefail

usage="usage: dbus-run-session -- bash scripts/with-keyring.sh [--persist DIR] <command> [args...]"
persist_dir=""
if [ "${1:-}" = "--persist" ]; then
  if [ -z "${2:-}" ]; then
    echo "${usage}" >&2
    exit 2
  fi
  persist_dir="$2"
  shift 2
fi
if [ "$#" -eq 0 ]; then
  echo "${usage}" >&2
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

export ORDER_DESK_USER_HOME="${ORDER_DESK_USER_HOME:-${HOME:-}}"

if [ -n "${persist_dir}" ]; then
  mkdir -p "${persist_dir}"
  chmod 700 "${persist_dir}"
  persist_dir="$(cd "${persist_dir}" && pwd)"
  temp_home="${persist_dir}/home"
  mkdir -p "${temp_home}"
  if [ ! -s "${persist_dir}/password" ]; then
    (umask 077 && head -c 24 /dev/urandom | base64 >"${persist_dir}/password")
  fi
else
  temp_home="$(mktemp -d "${TMPDIR:-/tmp}/order-desk-keyring.XXXXXX")"
fi
daemon_pid=""

cleanup() {
  if [ -n "${daemon_pid}" ]; then
    kill "${daemon_pid}" 2>/dev/null || true
    for _ in $(seq 20); do
      kill -0 "${daemon_pid}" 2>/dev/null || break
      sleep 0.1
    done
  fi
  # A persistent keyring (--persist) is the user's: only a throw-away HOME is removed.
  if [ -z "${persist_dir}" ]; then
    rm -rf "${temp_home}"
  fi
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

# --unlock creates (or, with --persist, opens) the login keyring with this password; the daemon
# forks itself.
if [ -n "${persist_dir}" ]; then
  password="$(cat "${persist_dir}/password")"
else
  password="$(head -c 24 /dev/urandom | base64)"
fi
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

#!/usr/bin/env bash
# Makes sure UCX is there for the cross-host bridge's process tests and benchmark (kernels/ucx).
# Maven runs it in kernels/ucx's process-test-classes phase; skipped with -DskipTests.
#
#   - found (libucp.so.0 known to the dynamic linker): prints its version, done;
#   - missing, running as root with apt-get (CI, containers): installs Debian's libucx0 and ucx-utils;
#   - missing otherwise: says what to install and exits 0: the UCX tests then skip, saying why.
#
# UCX_HOME=/opt/hpcx/ucx (or any prefix with lib/libucp.so.0) uses that UCX instead of the system's.
set -euo pipefail

have_ucx() {
  if [ -n "${UCX_HOME:-}" ]; then
    [ -e "$UCX_HOME/lib/libucp.so.0" ]
  else
    ldconfig -p 2>/dev/null | grep -q 'libucp\.so\.0 '
  fi
}

version() {
  local info
  info=$(command -v ucx_info || true)
  [ -n "${UCX_HOME:-}" ] && [ -x "$UCX_HOME/bin/ucx_info" ] && info="$UCX_HOME/bin/ucx_info"
  if [ -n "$info" ]; then "$info" -v 2>/dev/null | sed -n 's/^# *Version *//p' | head -1; else echo "unknown (no ucx_info)"; fi
}

if have_ucx; then
  echo "[ucx] using UCX $(version)"
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${UCX_HOME:-}" ]; then
  echo "[ucx] libucp.so.0 not found: installing Debian's libucx0 and ucx-utils (apt-get, as root)"
  export DEBIAN_FRONTEND=noninteractive
  log=$(mktemp)
  if ! apt-get install -y --no-install-recommends libucx0 ucx-utils >"$log" 2>&1; then
    # A fresh machine may have no package lists yet.
    apt-get update >>"$log" 2>&1 || true
    if ! apt-get install -y --no-install-recommends libucx0 ucx-utils >>"$log" 2>&1; then
      tail -20 "$log" >&2
      echo "[ucx] apt-get could not install libucx0 (log above); the UCX tests will skip." >&2
      rm -f "$log"
      exit 0
    fi
  fi
  rm -f "$log"
  echo "[ucx] installed UCX $(version)"
  exit 0
fi

cat >&2 <<MSG
[ucx] UCX (libucp.so.0) not found, and it cannot be installed from here (not root, or no apt-get).
The cross-host bridge's process tests and benchmark need it; they will be skipped, saying so. Install it:
  Debian/Ubuntu:  sudo apt-get install libucx0 ucx-utils
  HPC-X / DOCA:   UCX_HOME=/path/to/ucx LD_LIBRARY_PATH=\$UCX_HOME/lib mvn -B -ntp verify
MSG
exit 0

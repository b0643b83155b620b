#!/usr/bin/env bash
# Makes sure UCX is there for the cross-host bridge's process tests and benchmark (kernels/ucx).
# Maven runs it in kernels/ucx's process-test-classes phase; skipped with -DskipTests.
#
#   - UCX_HOME set: that UCX (a prefix with lib/libucp.so.0, e.g. /opt/hpcx/ucx) must be there, else
#     the build stops saying so (nothing is installed over a UCX asked for by name);
#   - found (libucp.so.0 known to the dynamic linker): prints its version, done;
#   - missing, running as root with apt-get (CI, containers): installs Debian's libucx0 and ucx-utils,
#     and stops the build if that fails (the UCX proof must not skip silently where it can run);
#   - missing otherwise (a developer's machine, not root): says what to install and exits 0: the UCX
#     tests then skip, saying why, and the rest of the build goes on.
set -euo pipefail

version() {
  local info
  info=$(command -v ucx_info || true)
  [ -n "${UCX_HOME:-}" ] && [ -x "$UCX_HOME/bin/ucx_info" ] && info="$UCX_HOME/bin/ucx_info"
  if [ -n "$info" ]; then "$info" -v 2>/dev/null | sed -n 's/^# *Version *//p' | head -1; else echo "unknown (no ucx_info)"; fi
}

if [ -n "${UCX_HOME:-}" ]; then
  if [ -e "$UCX_HOME/lib/libucp.so.0" ]; then
    echo "[ucx] using UCX $(version) from UCX_HOME=$UCX_HOME"
    exit 0
  fi
  cat >&2 <<MSG
[ucx] UCX_HOME=$UCX_HOME has no lib/libucp.so.0: point UCX_HOME at the UCX install prefix (the directory
      whose lib/ holds libucp.so.0, e.g. /opt/hpcx/ucx), with its lib on LD_LIBRARY_PATH, or unset UCX_HOME
      to use the system's UCX (installed with apt-get when the build runs as root).
MSG
  exit 1
fi

# grep reads the whole list (no -q): under pipefail, -q's early exit can kill ldconfig with SIGPIPE and read as "missing"
if ldconfig -p 2>/dev/null | grep 'libucp\.so\.0 ' >/dev/null; then
  echo "[ucx] using UCX $(version)"
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "[ucx] libucp.so.0 not found: installing Debian's libucx0 and ucx-utils (apt-get, as root)"
  export DEBIAN_FRONTEND=noninteractive
  log=$(mktemp)
  if ! apt-get install -y --no-install-recommends libucx0 ucx-utils >"$log" 2>&1; then
    # A fresh machine may have no package lists yet.
    apt-get update >>"$log" 2>&1 || true
    if ! apt-get install -y --no-install-recommends libucx0 ucx-utils >>"$log" 2>&1; then
      tail -20 "$log" >&2
      rm -f "$log"
      cat >&2 <<MSG
[ucx] apt-get could not install libucx0 and ucx-utils (log above), so the cross-host bridge's process tests
      and benchmark cannot run. Fix the package source and run again, install UCX yourself (or point UCX_HOME
      at one), or leave the bridge's module out of this build: mvn -B -ntp verify -pl '!kernels/ucx'
MSG
      exit 1
    fi
  fi
  rm -f "$log"
  echo "[ucx] installed UCX $(version)"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  why="this build does not run as root"
else
  why="there is no apt-get here"
fi
cat >&2 <<MSG
[ucx] UCX (libucp.so.0) not found, and it cannot be installed from here ($why).
The cross-host bridge's process tests and benchmark need it; they will be skipped, saying so. Install it:
  Debian/Ubuntu:  sudo apt-get install libucx0 ucx-utils
  HPC-X / DOCA:   UCX_HOME=/path/to/ucx LD_LIBRARY_PATH=\$UCX_HOME/lib mvn -B -ntp verify
MSG
exit 0

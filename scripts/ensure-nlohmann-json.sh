#!/usr/bin/env bash
# Makes sure nlohmann/json (header-only, Debian package nlohmann-json3-dev) is there for the C++ tools that
# write JSON: the ordering litmus tests (kernels/src/test/cuda/litmus.cu) and the benchmark comparator
# (kernels/tools/src/main/cuda/cycle_bench.cu). kernels/build-kernels.sh runs it before building them.
#
#   - found (NLOHMANN_JSON_INCLUDE/nlohmann/json.hpp, default /usr/include): prints the include directory;
#   - missing, running as root with apt-get (CI, containers): installs Debian's nlohmann-json3-dev;
#   - missing otherwise: says so on stderr and exits 1, and build-kernels.sh skips those tools (the build goes
#     on: their tests say they were not built and are skipped).
# Prints the include directory on stdout when the header is there.
set -euo pipefail

dir=${NLOHMANN_JSON_INCLUDE:-/usr/include}
if [ -f "$dir/nlohmann/json.hpp" ]; then
  echo "$dir"
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${NLOHMANN_JSON_INCLUDE:-}" ]; then
  echo "[seqlink] nlohmann/json.hpp not found: installing Debian's nlohmann-json3-dev (apt-get, as root)" >&2
  export DEBIAN_FRONTEND=noninteractive
  log=$(mktemp)
  if ! apt-get install -y --no-install-recommends nlohmann-json3-dev >"$log" 2>&1; then
    # A fresh machine may have no package lists yet.
    apt-get update >>"$log" 2>&1 || true
    apt-get install -y --no-install-recommends nlohmann-json3-dev >>"$log" 2>&1 || true
  fi
  if [ -f "$dir/nlohmann/json.hpp" ]; then
    rm -f "$log"
    echo "$dir"
    exit 0
  fi
  tail -5 "$log" >&2
  rm -f "$log"
fi

echo "[seqlink] nlohmann/json.hpp not found in $dir and not installed from here (NLOHMANN_JSON_INCLUDE set, not root, no apt-get, or apt-get failed):" \
  "install nlohmann-json3-dev (Debian/Ubuntu) or set NLOHMANN_JSON_INCLUDE to the directory holding nlohmann/json.hpp" >&2
exit 1

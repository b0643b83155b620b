#!/usr/bin/env bash
# Makes sure a headless-capable Chromium is there for the sample's status-page test
# (sample-app/src/test/java/io/seqlink/sample/it/StatusPageBrowserIT.java). Maven runs it in
# sample-app's pre-integration-test phase; skipped with -DskipITs or -DskipTests.
#
#   - found (CHROMIUM, default /usr/bin/chromium): prints its version, done;
#   - missing, running as root with apt-get (CI, containers): installs Debian's 'chromium' package;
#   - missing otherwise: stops the build and says what to install.
set -euo pipefail

bin=${CHROMIUM:-/usr/bin/chromium}

if [ -x "$bin" ]; then
  echo "[chromium] using $bin: $("$bin" --version 2>/dev/null | head -1 || echo 'version unknown')"
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${CHROMIUM:-}" ]; then
  echo "[chromium] $bin not found: installing Debian's chromium package (apt-get, as root)"
  export DEBIAN_FRONTEND=noninteractive
  log=$(mktemp)
  if ! apt-get install -y --no-install-recommends chromium >"$log" 2>&1; then
    # A fresh machine may have no package lists yet.
    apt-get update >>"$log" 2>&1 || true
    if ! apt-get install -y --no-install-recommends chromium >>"$log" 2>&1; then
      tail -20 "$log" >&2
      echo "[chromium] apt-get could not install chromium (log above). Install it yourself, or skip the browser test with -DskipITs." >&2
      exit 1
    fi
  fi
  rm -f "$log"
  echo "[chromium] installed: $("$bin" --version 2>/dev/null | head -1)"
  exit 0
fi

cat >&2 <<MSG
[chromium] $bin not found, and it cannot be installed from here (not root, or no apt-get).
The sample's status-page test runs the page in a real headless Chromium. Install one:
  Debian/Ubuntu:  sudo apt-get install chromium        (Ubuntu: the chromium snap, or google-chrome)
  elsewhere:      any Chromium or Chrome, then CHROMIUM=/path/to/chromium mvn -B -ntp verify
or skip the integration tests: mvn -B -ntp verify -DskipITs
MSG
exit 1

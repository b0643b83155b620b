#!/usr/bin/env bash
# Checks docs/prometheus/seqlink-alerts.yml with promtool: syntax (check rules) and behaviour (test rules
# with seqlink-alerts.test.yml). Without promtool on PATH it says so and exits 0.
set -euo pipefail
dir="$(cd "${0%/*}/.." && pwd)/docs/prometheus"
if ! command -v promtool >/dev/null 2>&1; then
  echo "check-alert-rules: SKIPPED, promtool is not on PATH (Debian: apt-get install prometheus)"
  exit 0
fi
cd "$dir"
promtool check rules seqlink-alerts.yml
promtool test rules seqlink-alerts.test.yml
echo "check-alert-rules: seqlink-alerts.yml passes promtool check rules and test rules"

#!/usr/bin/env bash
# `npm start`: set up whatever is missing (Chromium included), build the npm package
# into pkg/, then print the benchmark table (ours next to noble, same run).
# Set-up includes Chromium (used by the tests) so that one command prepares the machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=scripts/setup.sh
source scripts/setup.sh --node24

echo "== build (npm run build)"
npm run build

echo "== benchmark (npm run bench)"
npm run bench

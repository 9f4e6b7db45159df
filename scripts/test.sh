#!/usr/bin/env bash
# Install Dineri with its test tools into .venv and run every check: ruff, mypy, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# The browser tests (tests/web, admin, marked `browser`) drive Debian's Chromium.
if [ ! -x /usr/bin/chromium ]; then
  apt-get install -y chromium >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
export PATH="$PWD/.venv/bin:$PATH"
ruff check .
mypy
pytest -q

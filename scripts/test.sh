#!/usr/bin/env bash
# Install Dineri with its test tools into .venv and run every check: ruff, mypy, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
export PATH="$PWD/.venv/bin:$PATH"
ruff check .
mypy
pytest -q

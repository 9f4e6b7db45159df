"""Optional: compile the simulator's playouts with mypyc (issue 12), about 1.4x faster.

Usage: python scripts/build_fast.py        (needs mypy, from '.[test]', and a C compiler)

Nothing needs this: ``pip install -e .`` installs pure Python and everything runs on it. This
script compiles a copy of ``dineri/players/chkobba/playout.py`` as the module
``dineri.players.chkobba._fast_playout`` (an extension module next to it, ignored by git), stamped
with the SHA-256 of the source it was built from. ``dineri.players.chkobba.fast.use_compiled()``
adopts it only when that stamp matches the current ``playout.py``; after any change to it, the
old build is simply not used until this script runs again.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dineri" / "players" / "chkobba"


def main() -> int:
    source = (PACKAGE / "playout.py").read_bytes()
    stamp = hashlib.sha256(source).hexdigest()
    for old in PACKAGE.glob("_fast_playout*.so"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pkg = work / "dineri" / "players" / "chkobba"
        pkg.mkdir(parents=True)
        for init in ("dineri", "dineri/players", "dineri/players/chkobba"):
            (work / init / "__init__.py").write_text("")
        (pkg / "_fast_playout.py").write_bytes(source + f'\n\nSOURCE_SHA256 = "{stamp}"\n'.encode())
        env_path = f"{work}:{ROOT}"
        cmd = [sys.executable, "-m", "mypyc", "dineri/players/chkobba/_fast_playout.py"]
        done = subprocess.run(cmd, cwd=work, env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
                              capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stdout[-2000:], done.stderr[-2000:], sep="\n")
            print("build failed: the pure Python playouts stay in use")
            return 1
        built = list(pkg.glob("_fast_playout*.so"))
        for lib in built:
            shutil.copy2(lib, PACKAGE / lib.name)
    print(f"built {', '.join(p.name for p in built)} from playout.py {stamp[:12]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

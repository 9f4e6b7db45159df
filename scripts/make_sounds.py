"""Write the table page's sounds (issue 13, item 4) to ``dineri/static/sounds/*.wav``.

Our own, synthesised here with the standard library (no recording, no licence to track): small
16-bit mono WAV files at 22 050 Hz, a few kilobytes each. Deterministic: the same bytes on every
run (the noise comes from a seeded generator). Run ``python scripts/make_sounds.py``.

- ``card``: a card laid (a short soft tap);
- ``capture``: cards taken (a brushed swish);
- ``chkobba``: a chkobba (a bright three-note chime);
- ``turn``: your turn (two soft bell notes);
- ``low``: 5 seconds left (two short ticks).
"""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22050
OUT = Path(__file__).resolve().parent.parent / "dineri" / "static" / "sounds"


def _tone(freq: float, dur: float, *, start: float = 0.0, decay: float = 8.0, amp: float = 0.5,
          harmonics: tuple[float, ...] = (1.0, 0.3, 0.1)) -> list[tuple[int, float]]:
    """A bell-like tone: sine partials with an exponential decay; (sample index, value) pairs."""
    first = int(start * RATE)
    out = []
    for i in range(int(dur * RATE)):
        t = i / RATE
        env = math.exp(-decay * t) * min(1.0, t * 400)  # 2.5 ms attack: no click
        v = sum(h * math.sin(2 * math.pi * freq * (k + 1) * t) for k, h in enumerate(harmonics))
        out.append((first + i, amp * env * v / sum(harmonics)))
    return out


def _noise(dur: float, *, start: float = 0.0, decay: float = 40.0, amp: float = 0.5, smooth: float = 0.5,
           seed: int = 1) -> list[tuple[int, float]]:
    """Filtered noise with a fast decay (a tap, a swish); ``smooth`` 0..1 darkens it."""
    rng = random.Random(seed)
    first = int(start * RATE)
    out, y = [], 0.0
    for i in range(int(dur * RATE)):
        t = i / RATE
        y = smooth * y + (1 - smooth) * rng.uniform(-1, 1)
        env = math.exp(-decay * t) * min(1.0, t * 1000)
        out.append((first + i, amp * env * y))
    return out


def _mix(*parts: list[tuple[int, float]]) -> list[float]:
    length = max(i for p in parts for i, _ in p) + 1
    buf = [0.0] * length
    for p in parts:
        for i, v in p:
            buf[i] += v
    peak = max(abs(x) for x in buf) or 1.0
    scale = min(1.0, 0.8 / peak)
    fade = int(0.01 * RATE)  # 10 ms fade-out: no click at the end
    for i in range(fade):
        buf[length - 1 - i] *= i / fade
    return [x * scale for x in buf]


SOUNDS = {
    "card": lambda: _mix(_noise(0.09, decay=55, amp=0.7, smooth=0.7, seed=3),
                         _tone(180, 0.09, decay=40, amp=0.5, harmonics=(1.0,))),
    "capture": lambda: _mix(_noise(0.22, decay=14, amp=0.6, smooth=0.85, seed=5),
                            _noise(0.12, start=0.08, decay=30, amp=0.4, smooth=0.6, seed=6)),
    "chkobba": lambda: _mix(_tone(1046.5, 0.35, decay=7), _tone(1318.5, 0.35, start=0.09, decay=7),
                            _tone(1568.0, 0.45, start=0.18, decay=6)),
    "turn": lambda: _mix(_tone(784.0, 0.3, decay=9, amp=0.45),
                         _tone(1046.5, 0.4, start=0.13, decay=8, amp=0.45)),
    "low": lambda: _mix(_tone(1760, 0.06, decay=50, amp=0.5, harmonics=(1.0,)),
                        _tone(1760, 0.06, start=0.16, decay=50, amp=0.5, harmonics=(1.0,))),
}


def write(name: str, samples: list[float], out: Path = OUT) -> Path:
    """Write one sound as ``out/<name>.wav`` (16-bit mono, RATE Hz); returns the path."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, s)) * 32767)) for s in samples))
    return path


def main() -> None:
    """Write every sound of :data:`SOUNDS`."""
    for name, make in SOUNDS.items():
        print(write(name, make()))


if __name__ == "__main__":
    main()

"""Writes the table's three short sounds (table_server/static/sounds/*.wav) from sine waves.

Not part of the table: run it once to make the files the app ships, and again only to change
them (``python tools/make_sounds.py``). Only numpy and the standard library's ``wave``; the same
numbers always give the same bytes, so the files in the repository can be checked against it.

- ``turn.wav``: "your turn" on a player's phone, two rising notes (0.3 s);
- ``showdown.wav``: the dice revealed on the pub's screen, a rattle and a bright chord (0.6 s);
- ``gameover.wav``: the game's end on the pub's screen, three falling notes (1.1 s).
"""

from __future__ import annotations

import sys
import wave
from pathlib import Path

import numpy as np

RATE = 16_000  # samples per second: small files, clear enough for a pub's speakers and phones
OUT = Path(__file__).resolve().parents[1] / "table_server" / "static" / "sounds"


def tone(freqs: list[float], seconds: float, volume: float = 0.5) -> np.ndarray:
    """A chord of ``freqs`` (Hz) with a quick attack and an exponential fade."""
    t = np.arange(int(RATE * seconds)) / RATE
    wave_ = sum(np.sin(2 * np.pi * f * t) + 0.3 * np.sin(4 * np.pi * f * t) for f in freqs)
    envelope = np.minimum(1.0, t / 0.01) * np.exp(-t * 4.0 / seconds)
    return volume * wave_ / (1.3 * len(freqs)) * envelope


def rattle(seconds: float, seed: int = 3) -> np.ndarray:
    """Dice in a cup: short clicks of filtered noise."""
    rng = np.random.default_rng(seed)
    out = np.zeros(int(RATE * seconds))
    for start in rng.uniform(0, seconds - 0.03, 9):
        i = int(start * RATE)
        click = rng.normal(0, 0.25, int(0.02 * RATE)) * np.exp(-np.arange(int(0.02 * RATE)) / 60)
        out[i:i + len(click)] += click
    return out


def write(name: str, samples: np.ndarray) -> Path:
    """``samples`` (floats in -1..1) as 16-bit mono WAV under ``OUT``."""
    OUT.mkdir(parents=True, exist_ok=True)
    pcm = (np.clip(samples, -1, 1) * 32000).astype("<i2")
    path = OUT / name
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    return path


def main() -> int:
    turn = np.concatenate([tone([660], 0.13), tone([880], 0.17)])
    showdown = np.concatenate([rattle(0.25), tone([523, 659, 784], 0.35, 0.6)])
    gameover = np.concatenate([tone([784], 0.25), tone([659], 0.25), tone([523, 392], 0.6)])
    for name, samples in (("turn.wav", turn), ("showdown.wav", showdown),
                          ("gameover.wav", gameover)):
        path = write(name, samples)
        print(f"{path.relative_to(OUT.parents[2])}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

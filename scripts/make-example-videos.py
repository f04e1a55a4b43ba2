#!/usr/bin/env python3
"""Writes the two short clips of the video-trajectories example study (assets/studies/media/).

They are drawn frame by frame here (numpy) and encoded as VP9 WebM, which every current
browser plays, by the ffmpeg that the `imageio-ffmpeg` package from PyPI carries:

    python3 -m venv /tmp/videoenv
    /tmp/videoenv/bin/pip install numpy==2.4.6 imageio-ffmpeg==0.8.1
    /tmp/videoenv/bin/python scripts/make-example-videos.py

The clips are part of Juror (same licence as the repository). Encoding is not bit-for-bit
reproducible across ffmpeg builds; the scenes are (same frames for the same script).
"""
import os
import subprocess

import imageio_ffmpeg
import numpy as np

W, H, FPS, SECONDS = 240, 136, 12, 4
FLOOR = 116
OUT = os.path.join(os.path.dirname(__file__), "..", "assets", "studies", "media")


def canvas():
    frame = np.full((H, W, 3), 245, dtype=np.uint8)
    frame[FLOOR:, :] = (120, 110, 100)  # the floor
    return frame


def disc(frame, cx, cy, r, colour):
    yy, xx = np.ogrid[:H, :W]
    frame[(xx - cx) ** 2 + (yy - cy) ** 2 <= r * r] = colour


def box(frame, x0, y0, x1, y1, colour):
    frame[max(0, int(y0)) : int(y1), max(0, int(x0)) : int(x1)] = colour


def bounce(t):
    """A red ball rolls in from the left and touches the floor three times before the blue box."""
    frame = canvas()
    box(frame, 196, FLOOR - 34, 230, FLOOR, (40, 90, 200))
    x = 14 + (182 - 14) * min(t / (SECONDS * 0.85), 1.0)
    # Three arcs between x = 14 and x = 182: the ball is on the floor at the end of each one.
    phase = min((x - 14) / (182 - 14), 1.0) * 3
    height = 70 * (1 - (2 * (phase % 1) - 1) ** 2) if phase < 3 else 0
    disc(frame, x, FLOOR - 10 - height, 10, (210, 40, 40))
    return frame


def crossing(t):
    """A green square and an orange circle cross; the square is faster and arrives first."""
    frame = canvas()
    sx = 8 + 1.25 * (W - 8) * t / SECONDS
    cx = W - 12 - 0.8 * (W - 12) * t / SECONDS
    box(frame, sx, FLOOR - 52, min(sx + 22, W), FLOOR - 30, (40, 160, 70))
    disc(frame, cx, FLOOR - 14, 12, (240, 140, 20))
    return frame


def encode(name, draw):
    path = os.path.join(OUT, name)
    cmd = [
        imageio_ffmpeg.get_ffmpeg_exe(), "-y", "-loglevel", "error",
        "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{W}x{H}", "-r", str(FPS), "-i", "-",
        "-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "42", "-pix_fmt", "yuv420p",
        "-row-mt", "0", "-threads", "1", "-an", "-map_metadata", "-1", "-fflags", "+bitexact",
        path,
    ]
    frames = b"".join(draw(i / FPS).tobytes() for i in range(FPS * SECONDS))
    subprocess.run(cmd, input=frames, check=True)
    print(f"{path}: {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    encode("bounce.webm", bounce)
    encode("crossing.webm", crossing)

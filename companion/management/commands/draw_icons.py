"""Draw the app's PNG icons (static/companion/icon-192.png, icon-512.png) from the same shapes as
static/companion/icon.svg, with the standard library only. Run once after changing the icon:
`python manage.py draw_icons`."""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

from django.core.management.base import BaseCommand

STATIC = Path(__file__).resolve().parents[3] / "static" / "companion"
# The shapes of icon.svg, in its 512-unit square: the tractor red behind a white card marked
# with two chevrons (a level up). All of it lies in the central circle a maskable icon keeps.
RED = (0x7A, 0x1F, 0x1F)
WHITE = (0xFF, 0xFF, 0xFF)
CARD = (156, 116, 356, 396, 24)  # left, top, right, bottom, corner radius
CHEVRONS = (((206, 240), (256, 190), (306, 240)), ((206, 310), (256, 260), (306, 310)))
STROKE = 28
SAMPLES = 4  # per side of a pixel: 16 samples smooth the edges


def in_card(x: float, y: float) -> bool:
    left, top, right, bottom, radius = CARD
    if not (left <= x <= right and top <= y <= bottom):
        return False
    dx = max(left + radius - x, 0, x - (right - radius))
    dy = max(top + radius - y, 0, y - (bottom - radius))
    return dx * dx + dy * dy <= radius * radius


def near_segment(x: float, y: float, a: tuple, b: tuple) -> bool:
    (ax, ay), (bx, by) = a, b
    t = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)
    t = min(1.0, max(0.0, t))
    return math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)) <= STROKE / 2


def colour(x: float, y: float) -> tuple[int, int, int]:
    if not in_card(x, y):
        return RED
    for first, apex, last in CHEVRONS:
        if near_segment(x, y, first, apex) or near_segment(x, y, apex, last):
            return RED
    return WHITE


def pixels(size: int) -> list[bytes]:
    unit = 512 / size
    rows = []
    for row in range(size):
        line = bytearray([0])  # PNG filter type 0 for the row
        for column in range(size):
            total = [0, 0, 0]
            for i in range(SAMPLES):
                for j in range(SAMPLES):
                    x = (column + (i + 0.5) / SAMPLES) * unit
                    y = (row + (j + 0.5) / SAMPLES) * unit
                    for channel, value in enumerate(colour(x, y)):
                        total[channel] += value
            line += bytes(round(value / SAMPLES**2) for value in total)
        rows.append(bytes(line))
    return rows


def png(size: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    image = zlib.compress(b"".join(pixels(size)), 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", image) + chunk(b"IEND", b"")
    )


class Command(BaseCommand):
    help = "Draw the app's PNG icons from the shapes of its SVG icon."

    def handle(self, *args, **options) -> None:
        for size in (192, 512):
            (STATIC / f"icon-{size}.png").write_bytes(png(size))

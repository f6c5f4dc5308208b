"""A bar chart as a PNG, with the Python standard library only (zlib and struct): the course
tool must run wherever Meson does, with no plotting package installed.

draw_bar_chart(rows, reference, title, unit) -> PNG bytes. Each row is (label, value); the
reference (the vendor library's or the GPU's peak value) is drawn as a vertical line, so the
staircase of speedups and the distance to the ceiling show at a glance.
"""
import math
import struct
import zlib

# A 5 x 7 pixel font, upper case (labels are drawn upper case), digits and the punctuation that
# benchmark names use. Each glyph: 7 rows of 5 columns, '#' = ink.
_GLYPHS = {
    "A": ".###.#...##...#######...##...##...#", "B": "####.#...#####.#...##...##...#####.",
    "C": ".###.#...##....#....#....#...#.###.", "D": "####.#...##...##...##...##...#####.",
    "E": "######....####.#....#....#....#####", "F": "######....####.#....#....#....#....",
    "G": ".###.#...##....#.####...##...#.####", "H": "#...##...#######...##...##...##...#",
    "I": ".###...#....#....#....#....#...###.", "J": "..###...#....#....#....##..#..##...",
    "K": "#...##..#.###..#.#..#..#.#...##...#", "L": "#....#....#....#....#....#....#####",
    "M": "#...###.###.#.##...##...##...##...#", "N": "#...###..##.#.##..###...##...##...#",
    "O": ".###.#...##...##...##...##...#.###.", "P": "####.#...##...#####.#....#....#....",
    "Q": ".###.#...##...##...##.#.##..#..##.#", "R": "####.#...##...#####.#.#..#..#.#...#",
    "S": ".####.....#.....###.....#....#####.", "T": "#####..#....#....#....#....#....#..",
    "U": "#...##...##...##...##...##...#.###.", "V": "#...##...##...##...##...#.#.#...#..",
    "W": "#...##...##...##.#.##.#.##.#..#.#..", "X": "#...##...#.#.#...#...#.#.#...##...#",
    "Y": "#...##...#.#.#...#....#....#....#..", "Z": "#####....#...#...#...#...#....#####",
    "0": ".###.#...##..###.#.###..##...#.###.", "1": "..#...##....#....#....#....#...###.",
    "2": ".###.#...#....#...#...#...#...#####", "3": "#####...#...#.....#.....##...#.###.",
    "4": "...#...##..#.#.#..#.#####...#....#.", "5": "######....####.....#....##...#.###.",
    "6": "..##..#...#....####.#...##...#.###.", "7": "#####....#...#...#...#....#....#...",
    "8": ".###.#...##...#.###.#...##...#.###.", "9": ".###.#...##...#.####....#...#..##..",
    " ": "." * 35, ".": "." * 25 + ".##...##..", ",": "." * 25 + ".##...#...",
    ":": "......##...##........##...##.......", "/": "....#...#....#...#...#....#...#....",
    "_": "." * 30 + "#####", "-": "." * 15 + "#####" + "." * 15, "=": "." * 10 + "#####.....#####" + "." * 10,
    "^": "..#...#.#.#...#" + "." * 20, "%": "##...##..#...#...#...#...#..##...##",
    "(": "...#...#...#....#....#.....#.....#.", ")": ".#.....#.....#....#....#...#...#...",
    "<": "...#...#...#...#.....#.....#.....#.", ">": ".#.....#.....#.....#...#...#...#...",
    "+": ".......#....#..#####..#....#.......", "*": ".....#.#.#.###.#####.###.#.#.#.....",
    "?": ".###.#...#....#...#...#.........#..", "'": "..#....#...#" + "." * 23,
}
_SCALE = 2  # every font pixel is 2 x 2 image pixels
CHAR_W, CHAR_H = 6 * _SCALE, 8 * _SCALE


class Canvas:
    def __init__(self, width, height, background=(255, 255, 255)):
        self.width, self.height = width, height
        self.pixels = [bytearray(bytes(background) * width) for _ in range(height)]

    def rect(self, x0, y0, x1, y1, color):
        x0, x1 = max(0, int(x0)), min(self.width, int(x1))
        for y in range(max(0, int(y0)), min(self.height, int(y1))):
            self.pixels[y][3 * x0:3 * x1] = bytes(color) * (x1 - x0)

    def text(self, x, y, string, color=(0, 0, 0)):
        for i, char in enumerate(string.upper()):
            glyph = _GLYPHS.get(char, _GLYPHS["?"])
            for row in range(7):
                for col in range(5):
                    if glyph[row * 5 + col] == "#":
                        px = x + i * CHAR_W + col * _SCALE
                        py = y + row * _SCALE
                        self.rect(px, py, px + _SCALE, py + _SCALE, color)

    def png(self):
        raw = b"".join(b"\x00" + bytes(row) for row in self.pixels)  # filter 0 on every row

        def chunk(kind, data):
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)  # 8-bit RGB
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
                chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def format_value(value):
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def draw_bar_chart(rows, reference, title, unit, reference_label="vendor"):
    """rows: [(label, value or None)]; None draws 'skipped'. Returns PNG bytes."""
    label_chars = max([len(label) for label, _ in rows] + [10])
    left = 16 + label_chars * CHAR_W + 12
    bar_area = 560
    width = left + bar_area + 16 + 12 * CHAR_W
    row_h = CHAR_H + 14
    top = 16 + 2 * (CHAR_H + 8)
    height = top + len(rows) * row_h + CHAR_H + 24
    values = [v for _, v in rows if v is not None and v > 0]
    top_value = max(values + [reference or 0]) or 1.0
    bottom_value = min(values + [top_value])
    # Speedups of 10x and more per step are the point of the course: over a wide range the bars
    # are logarithmic, so the small ones stay visible as a staircase.
    logarithmic = top_value / bottom_value > 100
    low = math.log10(bottom_value / 2) if logarithmic else 0.0

    def bar_length(value):
        if logarithmic:
            return bar_area * (math.log10(value) - low) / (math.log10(top_value) - low)
        return bar_area * value / top_value
    canvas = Canvas(width, height)
    canvas.text(16, 12, title)
    canvas.text(16, 12 + CHAR_H + 8, f"{unit}{', log scale' if logarithmic else ''} (line: "
                                     f"{reference_label} "
                                     f"{format_value(reference) if reference else 'n/a'})",
                color=(90, 90, 90))
    for i, (label, value) in enumerate(rows):
        y = top + i * row_h
        canvas.text(16 + (label_chars - len(label)) * CHAR_W, y + 4, label)
        if value is None:
            canvas.text(left, y + 4, "skipped", color=(170, 60, 60))
            continue
        length = max(1, int(bar_length(value)))
        canvas.rect(left, y, left + length, y + row_h - 6, (70, 120, 190))
        canvas.text(left + length + 8, y + 4, format_value(value))
    if reference:
        x = left + int(bar_length(reference))
        canvas.rect(x - 1, top - 6, x + 1, top + len(rows) * row_h, (200, 40, 40))
        canvas.text(max(left, x - 7 * CHAR_W), top + len(rows) * row_h + 6, reference_label.upper(),
                    color=(200, 40, 40))
    return canvas.png()

"""The small SVG writer that every chapter's figures/draw.py draws its figures with, and the
drawing helpers more than one chapter uses (standard library only).

The palette rule of every figure: the Okabe-Ito colours, which stay distinct for colour-blind
readers, plus greys; a white background, readable in GitHub's dark mode too; real <text> labels
in the generic sans-serif font. Where colour carries meaning, a label or a pattern carries it too.
"""
from xml.sax.saxutils import escape

# Okabe-Ito palette (colour-blind safe), plus greys.
ORANGE, SKY, GREEN, YELLOW = "#E69F00", "#56B4E9", "#009E73", "#F0E442"
BLUE, VERMILION, PURPLE = "#0072B2", "#D55E00", "#CC79A7"
GREY, LIGHT, PALE, INK = "#999999", "#EEEEEE", "#F4F4F4", "#222222"
# Four threads, lanes or registers told apart by colour.
THREAD_COLOURS = [ORANGE, SKY, GREEN, PURPLE]


def _num(value):
    """Coordinates as short, stable text: integers without a decimal point."""
    value = round(float(value), 1)
    return str(int(value)) if value == int(value) else str(value)


# The typical advance of a sans-serif character, in em (digits about 0.56), for the check that
# a label fits: a label near the limit may still touch the edge in a wide font.
EM_PER_CHARACTER = {False: 0.5, True: 0.55}  # regular, bold


class FigureError(ValueError):
    """A label that would run past the figure's edge, where a viewer cuts it off."""


class Svg:
    """A tiny SVG writer: rectangles, lines (optionally with an arrowhead), text. A label that
    would not fit inside the figure raises FigureError."""

    def __init__(self, width, height, title):
        self.width, self.height, self.title = width, height, title
        self.items = []
        self.labels = []  # (left, right, top, baseline, text): what render() checks fits

    def rect(self, x, y, w, h, fill="none", stroke=INK, width=1, dash=None):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{_num(width)}"{extra}/>')

    def line(self, x1, y1, x2, y2, stroke=INK, width=1, arrow=False, dash=None):
        extra = ' marker-end="url(#arrow)"' if arrow else ""
        extra += f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(
            f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
            f'stroke="{stroke}" stroke-width="{_num(width)}"{extra}/>')

    def text(self, x, y, s, size=13, anchor="middle", bold=False, fill=INK):
        width = len(s) * size * EM_PER_CHARACTER[bool(bold)]
        left = x - {"start": 0, "middle": width / 2, "end": width}[anchor]
        self.labels.append((left, left + width, y - size, y, s))
        extra = ' font-weight="bold"' if bold else ""
        self.items.append(
            f'<text x="{_num(x)}" y="{_num(y)}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}"{extra}>{escape(s)}</text>')

    def heading(self, s, size=14):
        """The figure's first line: bold, at the top left."""
        self.text(20, 24, s, size=size, anchor="start", bold=True)

    def left_aligned(self, x, y, *lines, size=12, step=18, bold=False, fill=INK):
        """Lines of text starting at x, the first at y, step apart; returns the y past the last."""
        for line in lines:
            self.text(x, y, line, size=size, anchor="start", bold=bold, fill=fill)
            y += step
        return y

    def cell(self, x, y, w, h, label, fill="white", size=12, stroke=INK, dash=None,
             text_fill=INK, bold=False):
        """A rectangle with a centred label."""
        self.rect(x, y, w, h, fill=fill, stroke=stroke, dash=dash)
        if label:
            self.text(x + w / 2, y + h / 2 + size * 0.36, label, size=size, fill=text_fill,
                      bold=bold)

    def render(self):
        for left, right, top, baseline, label in self.labels:
            if left < 0 or right > self.width or top < 0 or baseline > self.height:
                raise FigureError(f"the label '{label}' runs past the figure '{self.title}' "
                                  f"({self.width} x {self.height}): split it or make room")
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
            f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" role="img" '
            f'font-family="sans-serif">\n'
            f'<title>{escape(self.title)}</title>\n'
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{INK}"/></marker></defs>\n'
            f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="white"/>\n')
        return head + "\n".join(self.items) + "\n</svg>\n"


def matrix(svg, x, y, size, cell, name, fill_of, label_of=None, font=11):
    """A size x size matrix named above; fill_of(r, c) -> colour or None; label_of(r, c) -> text."""
    for r in range(size):
        for c in range(size):
            fill = fill_of(r, c) or "white"
            label = label_of(r, c) if label_of else ""
            svg.cell(x + c * cell, y + r * cell, cell, cell, label, fill=fill, size=font)
    svg.text(x + size * cell / 2, y - 8, name, size=14, bold=True)


def column_numbers(svg, x0, y, count, cw, name, size):
    """Numbers 0 to count - 1 over columns cw wide from x0, and what they number (`name`) left of
    them, in a row at y; returns the y below the row."""
    for i in range(count):
        svg.text(x0 + i * cw + cw / 2, y + 10, str(i), size=size, fill=GREY)
    svg.text(x0 - 8, y + 10, name, size=10, anchor="end", fill=GREY)
    return y + 16

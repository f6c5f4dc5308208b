#!/usr/bin/env python3
"""The thread-to-data diagrams of the chapter READMEs, as plain SVG text (standard library only).

    python3 tools/diagrams.py           rewrite every chapters/NN-name/figures/*.svg
    python3 tools/diagrams.py --check   exit 1 when a checked-in SVG differs from what it draws

Every figure is drawn from the same index formulas as the chapter's solution (they are written
out next to each drawing below), with real <text> labels, the generic sans-serif font, a white
background (readable in GitHub's dark mode too) and the Okabe-Ito colours, which stay distinct
for colour-blind readers; where colour carries meaning, a label or a pattern carries it too.
"""
import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent

# Okabe-Ito palette (colour-blind safe), plus greys.
ORANGE, SKY, GREEN, YELLOW = "#E69F00", "#56B4E9", "#009E73", "#F0E442"
BLUE, VERMILION, PURPLE = "#0072B2", "#D55E00", "#CC79A7"
GREY, LIGHT, INK = "#999999", "#EEEEEE", "#222222"
THREAD_COLOURS = [ORANGE, SKY, GREEN, PURPLE]
PHASE_COLOURS = [ORANGE, SKY, GREEN]


def _num(value):
    """Coordinates as short, stable text: integers without a decimal point."""
    value = round(float(value), 1)
    return str(int(value)) if value == int(value) else str(value)


class Svg:
    """A tiny SVG writer: rectangles, lines (optionally with an arrowhead), text."""

    def __init__(self, width, height, title):
        self.width, self.height, self.title = width, height, title
        self.items = []

    def rect(self, x, y, w, h, fill="none", stroke=INK, width=1, dash=None, opacity=None):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        extra += f' fill-opacity="{opacity}"' if opacity is not None else ""
        self.items.append(
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{_num(width)}"{extra}/>')

    def line(self, x1, y1, x2, y2, stroke=INK, width=1, arrow=False, dash=None):
        extra = ' marker-end="url(#arrow)"' if arrow else ""
        extra += f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(
            f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
            f'stroke="{stroke}" stroke-width="{_num(width)}"{extra}/>')

    def text(self, x, y, s, size=13, anchor="middle", bold=False, fill=INK, italic=False):
        extra = ' font-weight="bold"' if bold else ""
        extra += ' font-style="italic"' if italic else ""
        self.items.append(
            f'<text x="{_num(x)}" y="{_num(y)}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}"{extra}>{escape(s)}</text>')

    def cell(self, x, y, w, h, label, fill="white", size=12, stroke=INK, dash=None,
             text_fill=INK, bold=False):
        """A rectangle with a centred label."""
        self.rect(x, y, w, h, fill=fill, stroke=stroke, dash=dash)
        if label:
            self.text(x + w / 2, y + h / 2 + size * 0.36, label, size=size, fill=text_fill,
                      bold=bold)

    def render(self):
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


# ---------------------------------------------------------------------------------------------
# Chapter 00
# ---------------------------------------------------------------------------------------------

def ch00_round_trip():
    """The host/device round trip of SAXPY: two memories, the copies between them, the launch,
    and the thread-to-element mapping i = blockIdx.x * blockDim.x + threadIdx.x with its tail
    guard (n = 10, blocks of 4 threads: 3 blocks, 2 threads past the end)."""
    svg = Svg(800, 470, "The round trip of chapter 00: host memory, GPU memory, the copies, the "
                        "launch, and which thread updates which element")
    # The two memories.
    svg.rect(20, 20, 250, 190, fill=LIGHT, stroke=GREY)
    svg.text(145, 42, "host (CPU) memory", size=15, bold=True)
    svg.rect(530, 20, 250, 190, fill=LIGHT, stroke=GREY)
    svg.text(655, 42, "GPU memory", size=15, bold=True)
    svg.cell(60, 60, 170, 30, "x, y (std::vector)", fill="white")
    svg.cell(60, 160, 170, 30, "y: the result", fill="white")
    svg.cell(570, 60, 170, 30, "x_d, y_d (cudaMalloc)", fill=SKY)
    svg.cell(570, 160, 170, 30, "y_d = a * x_d + y_d", fill=SKY)
    svg.line(230, 75, 568, 75, arrow=True)
    svg.text(400, 68, "1. cudaMemcpy HostToDevice", size=12)
    svg.line(655, 92, 655, 158, arrow=True)
    svg.text(662, 114, "2. launch", size=12, anchor="start")
    svg.text(662, 130, "saxpy<<<b, t>>>", size=12, anchor="start")
    svg.text(662, 146, "then check it", size=12, anchor="start", fill=GREY)
    svg.line(568, 175, 232, 175, arrow=True)
    svg.text(400, 168, "3. cudaMemcpy DeviceToHost", size=12)
    svg.text(400, 232, "4. cudaFree(x_d), cudaFree(y_d); every call is checked", size=12,
             fill=GREY)
    # The threads over the elements.
    n, threads, blocks, cw = 10, 4, 3, 52
    left, top = 92, 304
    svg.text(20, 264, f"The kernel: n = {n}, blocks of {threads} threads, "
                      f"ceil({n} / {threads}) = {blocks} blocks", size=13, anchor="start",
             bold=True)
    svg.text(20, 284, "thread i = blockIdx.x * blockDim.x + threadIdx.x updates y[i]", size=13,
             anchor="start")
    for b in range(blocks):
        x = left + b * threads * cw
        svg.rect(x, top, threads * cw, 78, fill="none", stroke=INK, width=2)
        svg.text(x + threads * cw / 2, top + 96, f"block {b}", size=12)
        for t in range(threads):
            i = b * threads + t
            inside = i < n
            svg.cell(x + t * cw, top, cw, 36, f"t{t}, i={i}",
                     fill=THREAD_COLOURS[t] if inside else "white", size=11,
                     dash=None if inside else "4,3")
            svg.cell(x + t * cw, top + 42, cw, 36, f"y[{i}]" if inside else "none",
                     fill="white" if inside else LIGHT, size=11,
                     stroke=INK if inside else GREY, dash=None if inside else "4,3")
    svg.text(left - 8, top + 23, "threads", size=12, anchor="end")
    svg.text(left - 8, top + 65, "elements", size=12, anchor="end")
    svg.text(20, top + 126, "Threads 10 and 11 exist because blocks come whole: the tail guard "
                            "(i < n) keeps them", size=12, anchor="start")
    svg.text(20, top + 144, "away from memory past the end of x and y.", size=12,
             anchor="start")
    return svg


# ---------------------------------------------------------------------------------------------
# Chapter 01
# ---------------------------------------------------------------------------------------------

def ch01_contiguous_vs_interleaved():
    """4 threads, 12 elements, 3 iterations.
    Step 2 (contiguous): chunk = ceil(n / T) = 3, thread t reads t * chunk + k in iteration k.
    Step 3 (interleaved): thread t reads t + k * T in iteration k (T = blockDim.x = 4)."""
    threads, iters = 4, 3
    n = threads * iters
    cw, ch = 34, 28
    left = 150
    svg = Svg(800, 450, "Contiguous chunks (step 2) versus interleaved (step 3): which thread "
                        "reads which element in iteration k, 4 threads x 3 iterations")
    schemes = [
        ("Step 2, contiguous chunks: thread t reads t*chunk + k  (chunk = 3)",
         lambda t, k: t * iters + k),
        ("Step 3, interleaved: thread t reads t + k*T  (T = blockDim.x = 4)",
         lambda t, k: t + k * threads),
    ]
    y = 28
    for title, index in schemes:
        svg.text(20, y, title, size=15, anchor="start", bold=True)
        y += 14
        svg.text(left - 10, y + 12, "element", size=11, anchor="end", fill=GREY)
        for i in range(n):
            svg.text(left + i * cw + cw / 2, y + 12, str(i), size=11, fill=GREY)
        y += 18
        for k in range(iters):
            owner = {index(t, k): t for t in range(threads)}
            svg.text(left - 10, y + ch / 2 + 5, f"iteration k = {k}", size=12, anchor="end")
            for i in range(n):
                t = owner.get(i)
                if t is None:
                    svg.cell(left + i * cw, y, cw, ch, "", fill=LIGHT, stroke=GREY)
                else:
                    svg.cell(left + i * cw, y, cw, ch, f"t{t}", fill=THREAD_COLOURS[t], bold=True)
            reads = sorted(owner)
            span = "neighbours: one piece of memory" if reads[-1] - reads[0] == threads - 1 \
                else "3 elements apart: scattered"
            svg.text(left + n * cw + 12, y + ch / 2 + 5, span, size=12, anchor="start")
            y += ch + 6
        y += 30
    # A warp's addresses in one iteration (4-byte ints, 128-byte lines of 32 ints).
    svg.text(20, y, "One warp (32 threads), one iteration, 4-byte ints:", size=14, anchor="start",
             bold=True)
    y += 24
    svg.text(30, y, "contiguous: thread t reads byte 4*(t*chunk + k): 32 addresses chunk*4 bytes "
                    "apart (32 lines once chunk >= 32)", size=13, anchor="start")
    y += 22
    svg.text(30, y, "interleaved: thread t reads byte 4*(t + k*T): 32 neighbouring ints, "
                    "one 128-byte line, one transaction", size=13, anchor="start")
    y += 16
    for t in range(32):
        svg.rect(30 + t * 20, y, 20, 14, fill=THREAD_COLOURS[t % 4], stroke=INK, width=0.5)
    svg.text(30 + 32 * 20 + 8, y + 12, "= 128 bytes", size=12, anchor="start")
    return svg


def ch01_block_tree():
    """Step 5: for stride = blockDim.x / 2, ..., 1: thread t < stride adds block_sums[t + stride]
    into block_sums[t]; __syncthreads() after every level. Drawn for 8 threads."""
    size = 8
    cw, ch, gap = 70, 30, 64
    left = 130
    svg = Svg(800, 430, "Step 5's tree in shared memory for a block of 8 threads")
    svg.text(20, 24, "Step 5: block_sums[t] += block_sums[t + stride], threads t < stride, "
                     "8 threads", size=15, anchor="start", bold=True)
    y = 50
    svg.text(left - 10, y + ch / 2 + 5, "block_sums", size=12, anchor="end")
    for i in range(size):
        svg.cell(left + i * cw + 4, y, cw - 8, ch, f"s{i}", fill=SKY)
    stride = size // 2
    while stride > 0:
        svg.line(left - 110, y + ch + 12, left + size * cw - 20, y + ch + 12, stroke=VERMILION,
                 dash="6 4")
        svg.text(left + size * cw - 16, y + ch + 16, "__syncthreads()", size=11, anchor="start",
                 fill=VERMILION)
        ny = y + ch + gap
        svg.text(left - 10, ny + ch / 2 + 5, f"stride {stride}", size=12, anchor="end")
        for i in range(size):
            if i < stride:
                svg.line(left + (i + stride) * cw + cw / 2, y + ch, left + i * cw + cw / 2 + 6,
                         ny, stroke=ORANGE, width=2, arrow=True)
                svg.line(left + i * cw + cw / 2, y + ch, left + i * cw + cw / 2, ny, width=1.5,
                         arrow=True)
                svg.cell(left + i * cw + 4, ny, cw - 8, ch, f"t{i} adds", fill=ORANGE, size=11)
            else:
                svg.cell(left + i * cw + 4, ny, cw - 8, ch, "", fill=LIGHT, stroke=GREY)
        y = ny
        stride //= 2
    svg.line(left - 110, y + ch + 12, left + size * cw - 20, y + ch + 12, stroke=VERMILION,
             dash="6 4")
    svg.text(left + size * cw - 16, y + ch + 16, "__syncthreads()", size=11, anchor="start",
             fill=VERMILION)
    svg.text(20, y + ch + 44, "After log2(8) = 3 levels block_sums[0] holds the block's total; "
                              "thread 0 writes it to partials[blockIdx.x].", size=13,
             anchor="start")
    svg.text(20, y + ch + 64, "Each level reads slots that other threads (other warps, in a "
                              "real block) wrote at the level before: hence the barrier.",
             size=13, anchor="start")
    return svg


# ---------------------------------------------------------------------------------------------
# Chapter 02
# ---------------------------------------------------------------------------------------------

def _matrix(svg, x, y, size, cell, name, fill_of, label_of=None, font=11):
    """A size x size matrix; fill_of(r, c) -> colour or None; label_of(r, c) -> text."""
    for r in range(size):
        for c in range(size):
            fill = fill_of(r, c) or "white"
            label = label_of(r, c) if label_of else ""
            svg.cell(x + c * cell, y + r * cell, cell, cell, label, fill=fill, size=font)
    svg.text(x + size * cell / 2, y - 8, name, size=14, bold=True)


def ch02_one_thread_per_element():
    """Row = by * blockDim.y + ty, Col = bx * blockDim.x + tx; P[Row][Col] = sum_k M[Row][k] *
    N[k][Col]. The README's example: Width 4, 2 x 2 blocks, thread (tx=0, ty=1) of block (1, 0)."""
    width, side, cell = 4, 2, 46
    bx, by, tx, ty = 1, 0, 0, 1
    row, col = by * side + ty, bx * side + tx
    svg = Svg(800, 520, "One thread per element of P: a 2-D grid of 2-D blocks, and the row of M "
                        "and column of N that one thread reads")
    svg.text(20, 24, "Width 4, blocks of 2 x 2 threads, a grid of 2 x 2 blocks", size=15,
             anchor="start", bold=True)
    mx, my = 20, 280
    nx, ny = 250, 64
    px, py = 250, 280
    _matrix(svg, nx, ny, width, cell, "N", lambda r, c: SKY if c == col else None,
            lambda r, c: f"N({r},{c})", font=10)
    _matrix(svg, mx, my, width, cell, "M", lambda r, c: ORANGE if r == row else None,
            lambda r, c: f"M({r},{c})", font=10)

    def p_fill(r, c):
        if (r, c) == (row, col):
            return GREEN
        return YELLOW if (r // side, c // side) == (by, bx) else None

    def p_label(r, c):
        return f"P({r},{c})"

    _matrix(svg, px, py, width, cell, "P", p_fill, p_label, font=10)
    # Block outlines and names in P.
    for gy in range(width // side):
        for gx in range(width // side):
            svg.rect(px + gx * side * cell, py + gy * side * cell, side * cell, side * cell,
                     stroke=INK, width=3)
            if gy == 0:
                svg.text(px + gx * side * cell + side * cell / 2, py + width * cell + 18,
                         f"bx = {gx}", size=11, fill=GREY)
        svg.text(px + width * cell + 6, py + gy * side * cell + side * cell / 2 + 4,
                 f"by = {gy}", size=11, anchor="start", fill=GREY)
    svg.text(px + width * cell / 2, py + width * cell + 36,
             "thick squares: the blocks of the grid", size=12, fill=GREY)
    tx0 = px + width * cell + 26
    lines = [
        ("Block (bx=1, by=0), thread (tx=0, ty=1):", True),
        ("Row = by * blockDim.y + ty = 0*2 + 1 = 1", False),
        ("Col = bx * blockDim.x + tx = 1*2 + 0 = 2", False),
        ("", False),
        ("It reads row 1 of M: M[1*Width + k]", False),
        ("and column 2 of N: N[k*Width + 2],", False),
        ("k = 0..3, and writes P(1,2).", False),
        ("", False),
        ("Yellow and green: its block's 4 elements.", False),
        ("Neighbouring tx read neighbouring N", False),
        ("elements (coalesced); a warp's lanes", False),
        ("with the same Row share each M element.", False),
    ]
    for i, (s, bold) in enumerate(lines):
        svg.text(tx0, 80 + i * 19, s, size=13, anchor="start", bold=bold)
    # The inner product, drawn as arrows from the row and the column into P(1,2).
    target_x, target_y = px + col * cell + cell / 2, py + row * cell + cell / 2
    svg.line(mx + width * cell, my + row * cell + cell / 2, px - 2, target_y,
             stroke=VERMILION, width=2, arrow=True)
    svg.line(nx + col * cell + cell / 2, ny + width * cell, target_x, target_y - cell / 2 + 4,
             stroke=VERMILION, width=2, arrow=True)
    return svg


# ---------------------------------------------------------------------------------------------
# Chapter 03
# ---------------------------------------------------------------------------------------------

def ch03_tile_phases():
    """Width 6, TILE_WIDTH 2: 3 phases for block (bx=2, by=0). In phase ph thread (tx, ty) loads
    Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx] and
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col]."""
    width, tile, cell = 6, 2, 34
    bx, by = 2, 0
    svg = Svg(800, 550, f"The tile phases of one block: Width 6, TILE_WIDTH 2, block ({bx}, {by}), "
                        "phases 0, 1 and 2")
    svg.text(20, 24, f"Block (bx={bx}, by={by}) computes P rows {by * tile}-{by * tile + 1}, "
                     f"columns {bx * tile}-{bx * tile + 1}; Width 6, TILE_WIDTH 2: 3 phases",
             size=15, anchor="start", bold=True)
    mx, my = 20, 298
    nx, ny = 250, 64
    px, py = 250, 298

    def m_fill(r, c):
        return PHASE_COLOURS[c // tile] if r // tile == by else None

    def m_label(r, c):
        return f"ph {c // tile}" if r // tile == by else ""

    def n_fill(r, c):
        return PHASE_COLOURS[r // tile] if c // tile == bx else None

    def n_label(r, c):
        return f"ph {r // tile}" if c // tile == bx else ""

    _matrix(svg, mx, my, width, cell, "M", m_fill, m_label, font=10)
    _matrix(svg, nx, ny, width, cell, "N", n_fill, n_label, font=10)
    _matrix(svg, px, py, width, cell, "P",
            lambda r, c: YELLOW if (r // tile, c // tile) == (by, bx) else None,
            lambda r, c: "P" if (r // tile, c // tile) == (by, bx) else "", font=10)
    for x0, y0 in ((mx, my), (nx, ny), (px, py)):
        for i in range(0, width + 1, tile):
            svg.line(x0 + i * cell, y0, x0 + i * cell, y0 + width * cell, width=2.5)
            svg.line(x0, y0 + i * cell, x0 + width * cell, y0 + i * cell, width=2.5)
    # Shared-memory tiles for phase 1, with the elements they hold.
    sx, sy = 490, 96
    ph = 1
    svg.text(sx, sy - 30, f"Phase {ph} in shared memory:", size=14, anchor="start", bold=True)
    for name, y0, fmt in (("Mds", sy, lambda ty, tx: f"M({by * tile + ty},{ph * tile + tx})"),
                          ("Nds", sy + 110,
                           lambda ty, tx: f"N({ph * tile + ty},{bx * tile + tx})")):
        svg.text(sx, y0 - 8, f"{name}[ty][tx]", size=12, anchor="start")
        for ty in range(tile):
            for tx in range(tile):
                svg.cell(sx + tx * 60, y0 + ty * 34, 60, 34, fmt(ty, tx), fill=SKY, size=11)
    lines = [
        "Each phase:",
        "1. every thread copies one element of M",
        "   and one of N into its (ty, tx) slot;",
        "2. __syncthreads();",
        "3. every thread does TILE_WIDTH = 2",
        "   multiply-adds from Mds and Nds;",
        "4. __syncthreads(), then the next phase.",
        "3 phases cover the 6 columns of M's rows",
        "and the 6 rows of N's columns.",
    ]
    for i, s in enumerate(lines):
        svg.text(sx, 330 + i * 20, s, size=12, anchor="start", bold=(i == 0))
    svg.text(20, 536, "Colours and labels: the phase in which each element is copied into "
                      "shared memory (orange 0, blue 1, green 2).", size=12, anchor="start")
    return svg


# ---------------------------------------------------------------------------------------------
# Chapter 04
# ---------------------------------------------------------------------------------------------

def ch04_ghost_elements():
    """Width 3, TILE_WIDTH 2 (the README's example). In phase ph thread (tx, ty) of block (bx, by)
    loads M(Row, ph*2 + tx) if Row < Width and ph*2 + tx < Width, else 0; N(ph*2 + ty, Col) if
    ph*2 + ty < Width and Col < Width, else 0; and stores P(Row, Col) only inside P."""
    width, tile, cell = 3, 2, 42
    padded = 4
    svg = Svg(800, 600, "Boundary tiles with ghost elements: Width 3, TILE_WIDTH 2")
    svg.text(20, 24, "Width 3, TILE_WIDTH 2: the tiles cover 4 x 4; row and column 3 are ghosts",
             size=15, anchor="start", bold=True)
    cases = [("Block (0, 0), phase 1", 0, 0, 1), ("Block (1, 1), phase 0", 1, 1, 0)]
    for panel, (title, bx, by, ph) in enumerate(cases):
        x0 = 20 + panel * 395
        svg.text(x0, 56, title, size=14, anchor="start", bold=True)

        def draw(x, y, name, in_tile, element):
            svg.text(x + padded * cell / 2, y - 8, name, size=13, bold=True)
            for r in range(padded):
                for c in range(padded):
                    ghost = r >= width or c >= width
                    inside = in_tile(r, c)
                    if inside and ghost:
                        svg.cell(x + c * cell, y + r * cell, cell, cell, "0", fill=YELLOW,
                                 stroke=VERMILION, dash="4 3", size=13, bold=True)
                    elif inside:
                        svg.cell(x + c * cell, y + r * cell, cell, cell, element(r, c), fill=SKY,
                                 size=10)
                    elif ghost:
                        svg.cell(x + c * cell, y + r * cell, cell, cell, "", fill="white",
                                 stroke=GREY, dash="4 3")
                    else:
                        svg.cell(x + c * cell, y + r * cell, cell, cell, element(r, c),
                                 fill=LIGHT, stroke=GREY, size=10, text_fill=GREY)

        rows = range(by * tile, by * tile + tile)
        cols = range(bx * tile, bx * tile + tile)
        phase = range(ph * tile, ph * tile + tile)
        draw(x0 + 10, 92, "M tile", lambda r, c: r in rows and c in phase,
             lambda r, c: f"M({r},{c})")
        draw(x0 + 200, 92, "N tile", lambda r, c: r in phase and c in cols,
             lambda r, c: f"N({r},{c})")
        py = 300
        svg.text(x0 + 10 + padded * cell / 2, py - 8, "P: what the block stores", size=13,
                 bold=True)
        for r in range(padded):
            for c in range(padded):
                ghost = r >= width or c >= width
                mine = r in rows and c in cols
                if mine and not ghost:
                    svg.cell(x0 + 10 + c * cell, py + r * cell, cell, cell, f"P({r},{c})",
                             fill=GREEN, size=10)
                elif mine:
                    svg.cell(x0 + 10 + c * cell, py + r * cell, cell, cell, "no", fill="white",
                             stroke=VERMILION, dash="4 3", size=11, text_fill=VERMILION)
                else:
                    svg.cell(x0 + 10 + c * cell, py + r * cell, cell, cell, "", fill="white" if
                             ghost else LIGHT, stroke=GREY, dash="4 3" if ghost else None)
    lx, ly = 20, 492
    svg.cell(lx, ly, 40, 26, "M(r,c)", fill=SKY, size=9)
    svg.text(lx + 50, ly + 18, "in the tile, inside the matrix: loaded", size=12, anchor="start")
    svg.cell(lx, ly + 36, 40, 26, "0", fill=YELLOW, stroke=VERMILION, dash="4 3", bold=True)
    svg.text(lx + 50, ly + 54, "in the tile, outside (a ghost): 0 stored, nothing read", size=12,
             anchor="start")
    svg.cell(lx + 400, ly, 40, 26, "P(r,c)", fill=GREEN, size=9)
    svg.text(lx + 450, ly + 18, "stored; \"no\": outside P, nothing stored", size=12,
             anchor="start")
    svg.cell(lx + 400, ly + 36, 40, 26, "", fill=LIGHT, stroke=GREY)
    svg.text(lx + 450, ly + 54, "not in this block's tile in this phase", size=12,
             anchor="start")
    svg.text(lx, ly + 90, "Every thread still fills its slot of the tile and reaches both "
                          "barriers: the other threads use its 0.", size=12, anchor="start")
    return svg


# ---------------------------------------------------------------------------------------------
# Chapter 05
# ---------------------------------------------------------------------------------------------

def _column_numbers(svg, x0, y, count, cw, name, size):
    """Numbers 0 to count - 1 over columns cw wide from x0, and what they number (`name`) left of
    them, in a row at y; returns the y below the row."""
    for i in range(count):
        svg.text(x0 + i * cw + cw / 2, y + 10, str(i), size=size, fill=GREY)
    svg.text(x0 - 8, y + 10, name, size=10, anchor="end", fill=GREY)
    return y + 16


def _tree(svg, x0, y0, size, levels, cw, ch, gap, thread_label):
    """levels: list of (s, [(dst, src)]) pairs. Draws sdata and each level's additions."""
    for i in range(size):
        svg.cell(x0 + i * cw + 2, y0, cw - 4, ch, str(i), fill=SKY, size=11)
    y = y0
    for s, pairs in levels:
        ny = y + ch + gap
        svg.text(x0 - 8, ny + ch / 2 + 4, f"s = {s}", size=12, anchor="end")
        targets = {dst: src for dst, src in pairs}
        for i in range(size):
            if i in targets:
                src = targets[i]
                svg.line(x0 + src * cw + cw / 2, y + ch, x0 + i * cw + cw / 2 + 4, ny,
                         stroke=ORANGE, width=1.5, arrow=True)
                svg.line(x0 + i * cw + cw / 2, y + ch, x0 + i * cw + cw / 2, ny, width=1.2,
                         arrow=True)
                svg.cell(x0 + i * cw + 2, ny, cw - 4, ch, thread_label(i, s), fill=ORANGE,
                         size=10)
            else:
                svg.cell(x0 + i * cw + 2, ny, cw - 4, ch, "", fill=LIGHT, stroke=GREY)
        y = ny
    return y + ch


def ch05_reduction_trees():
    """16 elements. Kernels 1 and 2 (interleaved addressing): at s = 1, 2, 4, 8 sdata[i] +=
    sdata[i + s] for i a multiple of 2s; kernel 1's thread is tid = i (tid % 2s == 0), kernel 2's
    is tid = i / (2s) (index = 2 * s * tid). Kernel 3 (sequential addressing): at s = 8, 4, 2, 1
    thread tid < s adds sdata[tid + s] into sdata[tid]."""
    size, cw, ch, gap = 16, 40, 24, 30
    svg = Svg(800, 650, "Reduction trees over 16 elements: interleaved addressing (kernels 1 "
                        "and 2) and sequential addressing (kernel 3)")
    x0 = 110
    svg.text(20, 24, "Interleaved addressing (kernels 1 and 2): sdata[i] += sdata[i + s], "
                     "i a multiple of 2s", size=14, anchor="start", bold=True)
    interleaved = []
    s = 1
    while s < size:
        interleaved.append((s, [(i, i + s) for i in range(0, size, 2 * s)]))
        s *= 2
    bottom = _tree(svg, x0, 40, size, interleaved, cw, ch, gap,
                   lambda i, s: f"{i}|{i // (2 * s)}")
    svg.text(20, bottom + 20, "Label a|b in an adding slot: kernel 1's thread (tid = a, tid % 2s "
                              "== 0, spread over every warp: divergence),", size=12,
             anchor="start")
    svg.text(20, bottom + 36, "kernel 2's thread (tid = b, index = 2*s*tid: the first threads "
                              "work, but their slots are 2s words apart: bank conflicts).",
             size=12, anchor="start")
    y1 = bottom + 76
    svg.text(20, y1, "Sequential addressing (kernel 3): thread tid < s adds sdata[tid + s] "
                     "into sdata[tid]", size=14, anchor="start", bold=True)
    sequential = []
    s = size // 2
    while s > 0:
        sequential.append((s, [(i, i + s) for i in range(s)]))
        s //= 2
    bottom = _tree(svg, x0, y1 + 16, size, sequential, cw, ch, gap, lambda i, s: f"t{i}")
    svg.text(20, bottom + 20, "A level's active threads are the first s and read s consecutive "
                              "words: one bank each. __syncthreads() after every level.",
             size=12, anchor="start")
    return svg


def ch05_banks():
    """Shared memory: 32 banks of 4-byte words, word w in bank w % 32. Warp 0 (lanes 0-31) of a
    1024-thread block reads sdata[index], index = 2 * s * tid (kernel 2), and sdata[tid + s]
    (kernel 3). For s <= 16 every lane of warp 0 is active in kernel 2 (index < 1024)."""
    cw, ch = 17, 24
    x0 = 140
    svg = Svg(800, 345, "Shared-memory banks hit by warp 0: kernel 2's strided index versus "
                        "kernel 3's consecutive one (4-byte elements)")
    svg.text(20, 24, "Lanes per bank when warp 0 reads sdata[2*s*tid] (kernel 2, int/float, "
                     "1024 threads)", size=14, anchor="start", bold=True)
    y = _column_numbers(svg, x0, 40, 32, cw, "bank", size=8)
    rows = [(f"kernel 2, s = {s}", [2 * s * lane for lane in range(32)]) for s in (1, 2, 4, 8, 16)]
    rows.append(("kernel 3, any s", [lane for lane in range(32)]))
    for label, words in rows:
        counts = [0] * 32
        for w in words:
            counts[w % 32] += 1
        worst = max(counts)
        if label.startswith("kernel 3"):
            y += 14
        svg.text(x0 - 8, y + ch / 2 + 4, label, size=12, anchor="end")
        for b in range(32):
            c = counts[b]
            fill = LIGHT if c == 0 else (GREEN if c == 1 else (ORANGE if c < 16 else VERMILION))
            svg.cell(x0 + b * cw, y, cw, ch, str(c) if c else "", fill=fill, size=10,
                     stroke=GREY)
        verdict = "no conflict" if worst == 1 else f"{worst}-way conflict"
        svg.text(x0 + 32 * cw + 8, y + ch / 2 + 4, verdict, size=12, anchor="start", bold=True)
        y += ch + 6
    y += 20
    for line in (
            "A bank serves one 4-byte word per cycle: when several lanes of a warp need different "
            "words of one bank,",
            "their accesses are served one after another. In kernel 2, lane t at stride s reads "
            "word 2*s*t: bank (2*s*t) % 32.",
            "Kernel 3's lanes read words s + t for t = 0..31: 32 consecutive words, one per bank "
            "(for s >= 32; below that,",
            "fewer lanes are active and they still hit different banks). Doubles span two banks "
            "each: twice the conflicts."):
        svg.text(20, y, line, size=12, anchor="start")
        y += 18
    return svg


# ---------------------------------------------------------------------------------------------
# Chapter 06
# ---------------------------------------------------------------------------------------------

def ch06_shuffle_down():
    """warp_sum: for offset = 16, 8, 4, 2, 1: value += __shfl_down_sync(full mask, value, offset).
    Lane i reads lane i + offset; drawn for lanes 0..7 (of 32)."""
    lanes, cw, ch, gap = 32, 20, 22, 44
    x0 = 140
    svg = Svg(800, 470, "__shfl_down_sync: lanes 0 to 7 of a warp reading lane + offset, for "
                        "offsets 16, 8, 4, 2, 1")
    svg.text(20, 24, "value += __shfl_down_sync(0xffffffff, value, offset): lane i reads lane "
                     "i + offset's register", size=14, anchor="start", bold=True)
    y = _column_numbers(svg, x0, 44, lanes, cw, "lane", size=9)
    offsets = [16, 8, 4, 2, 1]
    for r, offset in enumerate(offsets + [None]):
        label = f"offset {offset}" if offset else "lane 0: total"
        svg.text(x0 - 8, y + ch / 2 + 4, label, size=12, anchor="end")
        for lane in range(lanes):
            if lane < 8:
                fill = SKY
            elif offset and lane - offset < 8:
                fill = ORANGE  # a lane that lanes 0-7 read from
            else:
                fill = LIGHT
            if offset is None:
                fill = GREEN if lane == 0 else LIGHT
            svg.cell(x0 + lane * cw, y, cw, ch, "", fill=fill, stroke=GREY)
        if offset:
            for lane in range(8):
                src = lane + offset
                svg.line(x0 + src * cw + cw / 2, y + ch, x0 + lane * cw + cw / 2, y + ch + gap,
                         stroke=INK, width=1.2, arrow=True)
        y += ch + gap
    y += 18 - gap
    svg.cell(x0, y, 20, 16, "", fill=SKY, stroke=GREY)
    svg.text(x0 + 26, y + 13, "lanes 0-7: each adds the value its arrow brings", size=12,
             anchor="start")
    svg.cell(x0 + 360, y, 20, 16, "", fill=ORANGE, stroke=GREY)
    svg.text(x0 + 386, y + 13, "other lanes they read from", size=12, anchor="start")
    y += 40
    svg.text(20, y, "All 32 lanes execute every shuffle (the mask names them all); lanes 8-31 "
                    "read too (arrows not drawn), and a lane", size=12, anchor="start")
    svg.text(20, y + 18, "whose i + offset is past 31 gets its own value back. After 5 rounds "
                         "lane 0 holds the sum of all 32 lanes.", size=12, anchor="start")
    svg.height = y + 32
    return svg


# ---------------------------------------------------------------------------------------------
# Chapter 07
# ---------------------------------------------------------------------------------------------

def ch07_tile_nesting():
    """kWideTiles (the default for large shapes): BM = BN = 128, 256 threads = 8 warps; warp tile
    WM x WN = 64 x 32, WNITER = 2, WMITER = 1, so warp sub-tiles of 64 x 16; TM x TN = 8 x 4.
    warp_row = warp / (BN / WN), warp_col = warp % (BN / WN); lane_row = lane / (WSUBN / TN),
    lane_col = lane % (WSUBN / TN). Lane's results: rows warp_row*WM + lane_row*TM + i,
    columns warp_col*WN + wn*WSUBN + lane_col*TN + j."""
    bm = bn = 128
    wm, wn, wniter, tm, tn = 64, 32, 2, 8, 4
    wsubn = wn // wniter
    lanes_across = wsubn // tn
    svg = Svg(800, 450, "Block, warp and thread tiles of step 4: a 128 x 128 block tile, 64 x 32 "
                        "warp tiles, 8 x 4 register tiles")
    svg.text(20, 24, "Step 4 (256 threads): block tile 128 x 128, warp tile 64 x 32, thread "
                     "tile 8 x 4 (twice)", size=14, anchor="start", bold=True)
    # Block tile, 2 px per element.
    bx0, by0, s1 = 20, 70, 2
    svg.text(bx0 + bn * s1 / 2, by0 - 10, "block tile of P: 128 x 128", size=13, bold=True)
    for warp in range(8):
        wr, wc = warp // (bn // wn), warp % (bn // wn)
        fill = SKY if warp == 5 else LIGHT
        svg.cell(bx0 + wc * wn * s1, by0 + wr * wm * s1, wn * s1, wm * s1, f"warp {warp}",
                 fill=fill, size=11, bold=(warp == 5))
    svg.text(bx0 + bn * s1 / 2, by0 + bm * s1 + 18, "8 warps: warp_row = warp / 4,", size=11)
    svg.text(bx0 + bn * s1 / 2, by0 + bm * s1 + 33, "warp_col = warp % 4", size=11)
    # Warp 5's tile, 4 px per element: two 64 x 16 sub-tiles of 8 x 4 lanes.
    wx0, wy0, s2 = 330, 70, 4
    svg.text(wx0 + wn * s2 / 2, wy0 - 10, "warp 5: 64 x 32", size=13, bold=True)
    focus = 9
    for sub in range(wniter):
        for lane in range(32):
            lr, lc = lane // lanes_across, lane % lanes_across
            x = wx0 + (sub * wsubn + lc * tn) * s2
            y = wy0 + lr * tm * s2
            fill = ORANGE if lane == focus else ("white" if sub == 0 else "#F4F4F4")
            svg.cell(x, y, tn * s2, tm * s2, str(lane), fill=fill, size=9, stroke=GREY,
                     bold=(lane == focus))
        svg.rect(wx0 + sub * wsubn * s2, wy0, wsubn * s2, wm * s2, stroke=BLUE, width=2.5)
        svg.text(wx0 + sub * wsubn * s2 + wsubn * s2 / 2, wy0 + wm * s2 + 16,
                 f"wn = {sub}", size=11)
    # Zoom lines from warp 5 in the block to the warp panel.
    w5r, w5c = 5 // 4, 5 % 4
    svg.line(bx0 + (w5c + 1) * wn * s1, by0 + w5r * wm * s1, wx0, wy0, stroke=GREY, dash="4 3")
    svg.line(bx0 + (w5c + 1) * wn * s1, by0 + (w5r + 1) * wm * s1, wx0, wy0 + wm * s2,
             stroke=GREY, dash="4 3")
    # Lane 9's register tile.
    tx0, ty0, s3 = 540, 70, 18
    svg.text(tx0 + tn * s3 + 15, ty0 - 10, f"lane {focus}: 2 x (8 x 4) results", size=13,
             bold=True)
    for sub in range(wniter):
        for i in range(tm):
            for j in range(tn):
                svg.cell(tx0 + sub * (tn * s3 + 30) + j * s3, ty0 + i * s3, s3, s3, "",
                         fill=ORANGE, stroke=GREY)
        svg.text(tx0 + sub * (tn * s3 + 30) + tn * s3 / 2, ty0 + tm * s3 + 16,
                 f"wn = {sub}", size=11)
    lines = [
        "lane_row = lane / 4, lane_col = lane % 4",
        f"lane {focus}: lane_row {focus // lanes_across}, lane_col {focus % lanes_across}",
        "Its results in warp 5's tile: rows 16-23,",
        "columns 4-7 (wn = 0) and 20-23 (wn = 1).",
    ]
    for k, s in enumerate(lines):
        svg.text(tx0 - 10, ty0 + 200 + k * 18, s, size=12, anchor="start")
    svg.text(20, 405, "Per dot: each lane loads 8 values of M's column and 2 x 4 of N's row from "
                      "shared memory, then does 8 x 8 = 64 multiply-adds.", size=12,
             anchor="start")
    svg.text(20, 425, "A warp's 32 lanes read only 64 of M's and 32 of N's values per dot: 16 + 8 "
                      "float4 pieces, broadcast to the lanes that share them.", size=12,
             anchor="start")
    return svg


# ---------------------------------------------------------------------------------------------
# Chapter 08
# ---------------------------------------------------------------------------------------------

def ch08_mma_fragment_a():
    """The A fragment of mma.sync.aligned.m16n8k16: 16 x 16 halves. With g = lane / 4 and
    t = lane % 4, lane l holds a0 = A(g, 2t..2t+1), a1 = A(g+8, 2t..2t+1), a2 = A(g, 2t+8..2t+9),
    a3 = A(g+8, 2t+8..2t+9). ldmatrix.x4: lanes 8i..8i+7 give the row addresses of matrix i,
    which lands in register a_i. (Which rows those are is step 2's exercise: not drawn.)"""
    cw, ch = 26, 22
    x0, y0 = 56, 84
    svg = Svg(800, 668, "The A fragment of mma.sync m16n8k16: which lane holds which two halves "
                        "of A in which register, and how ldmatrix.x4 loads it")
    svg.text(20, 24, "A fragment of mma.sync.aligned.m16n8k16: 16 x 16 halves, 4 registers of "
                     "2 halves in each lane", size=14, anchor="start", bold=True)
    svg.text(x0 + 8 * cw, y0 - 26, "column of A (k)", size=11, fill=GREY)
    for c in range(16):
        svg.text(x0 + c * cw + cw / 2, y0 - 8, str(c), size=10, fill=GREY)
    svg.text(x0 - 8, y0 - 8, "row", size=10, anchor="end", fill=GREY)
    for r in range(16):
        svg.text(x0 - 8, y0 + r * ch + ch / 2 + 4, str(r), size=10, anchor="end", fill=GREY)
        for p in range(8):  # a pair of columns 2p, 2p + 1: one 32-bit register
            reg = 2 * (p // 4) + r // 8
            lane = 4 * (r % 8) + p % 4
            svg.cell(x0 + 2 * p * cw, y0 + r * ch, 2 * cw, ch, f"T{lane}",
                     fill=THREAD_COLOURS[reg], size=11)
    svg.rect(x0, y0, 16 * cw, 16 * ch, width=2.5)
    svg.line(x0 + 8 * cw, y0, x0 + 8 * cw, y0 + 16 * ch, width=2.5)
    svg.line(x0, y0 + 8 * ch, x0 + 16 * cw, y0 + 8 * ch, width=2.5)
    # The legend: the four registers.
    lx = x0 + 16 * cw + 24
    svg.text(lx, y0 + 4, "g = lane / 4, t = lane % 4", size=13, anchor="start", bold=True)
    quadrant = ["rows 0-7, columns 0-7", "rows 8-15, columns 0-7", "rows 0-7, columns 8-15",
                "rows 8-15, columns 8-15"]
    formula = ["A(g, 2t..2t+1)", "A(g+8, 2t..2t+1)", "A(g, 2t+8..2t+9)", "A(g+8, 2t+8..2t+9)"]
    for i in range(4):
        y = y0 + 22 + i * 44
        svg.cell(lx, y, 34, 22, f"a{i}", fill=THREAD_COLOURS[i], size=12, bold=True)
        svg.text(lx + 44, y + 10, f"a{i} = {formula[i]}", size=12, anchor="start")
        svg.text(lx + 44, y + 26, quadrant[i], size=11, anchor="start", fill=GREY)
    for k, s in enumerate(["Each cell: one 32-bit register of", "one lane = 2 halves (2 columns).",
                           "Row r is held by lanes 4(r % 8)", "to 4(r % 8) + 3; each lane holds",
                           "8 halves, 2 in each quadrant."]):
        svg.text(lx, y0 + 214 + k * 18, s, size=12, anchor="start")
    # ldmatrix.x4: lanes 8i..8i+7 give the row addresses of matrix i.
    y = y0 + 16 * ch + 40
    svg.text(20, y, "ldmatrix.x4 loads it: each lane gives one row address, matrix i lands in "
                    "register a_i", size=13, anchor="start", bold=True)
    svg.text(20, y + 20, "each lane gives the address of one row of 8 halves (16 bytes); which "
                         "rows of the tile, the register table above tells", size=12,
             anchor="start")
    for i in range(4):
        gx, gy = 20 + i * 194, y + 36
        for j in range(8):
            svg.cell(gx + j * 22, gy, 22, 22, str(8 * i + j), fill=THREAD_COLOURS[i], size=10)
        svg.text(gx + 88, gy + 38, f"lanes {8 * i}-{8 * i + 7}: the 8 row", size=12)
        svg.text(gx + 88, gy + 54, f"addresses of matrix {i}", size=12)
        svg.line(gx + 88, gy + 60, gx + 88, gy + 84, arrow=True)
        svg.cell(gx, gy + 86, 176, 26, f"matrix {i} into a{i}", fill=THREAD_COLOURS[i], size=12,
                 bold=True)
    svg.text(20, y + 172, "From each 8 x 8 matrix i, a lane receives row lane / 4, halves "
                          "2(lane % 4) and 2(lane % 4) + 1: its register a_i above.", size=12,
             anchor="start")
    return svg


def ch08_swizzle():
    """A shared tile with rows of 128 bytes = 8 pieces of 16 bytes (8 halves). Piece c of row r
    is stored at slot c (unswizzled) or at slot c ^ (r % 8) (swizzled: step 3, and the TMA's
    128-byte swizzle). Slot s covers banks 4s..4s+3 (32 banks of 4 bytes). One 8 x 8 matrix of
    ldmatrix reads piece 0 of rows 0..7."""
    cw, ch = 42, 28
    svg = Svg(800, 545, "The XOR swizzle: where the 16-byte pieces of 128-byte rows are stored, "
                        "and how many passes one ldmatrix matrix needs, without and with it")
    svg.text(20, 24, "XOR swizzle of a shared tile: rows of 128 bytes = 8 pieces of 16 bytes "
                     "(8 halves)", size=14, anchor="start", bold=True)
    svg.text(20, 44, "Numbers: the piece stored in each slot. Orange: piece 0 of rows 0-7, what "
                     "one 8 x 8 matrix of ldmatrix reads.", size=12, anchor="start")
    panels = [("Unswizzled: piece c at slot c", lambda r, c: c),
              ("Swizzled: piece c at slot c ^ x, x by row", lambda r, c: c ^ (r % 8))]
    for k, (title, slot_of) in enumerate(panels):
        px, y0 = 56 + k * 400, 136
        svg.text(px + 4 * cw, 76, title, size=13, bold=True)
        for s in range(8):
            svg.text(px + s * cw + cw / 2, 96, f"slot {s}", size=10)
            svg.text(px + s * cw + cw / 2, 109, "banks", size=10, fill=GREY)
            svg.text(px + s * cw + cw / 2, 122, f"{4 * s}-{4 * s + 3}", size=10, fill=GREY)
        reads = [0] * 8
        for r in range(8):
            svg.text(px - 6, y0 + r * ch + ch / 2 + 4, f"row {r}", size=11, anchor="end")
            for c in range(8):
                s = slot_of(r, c)
                if c == 0:
                    reads[s] += 1
                svg.cell(px + s * cw, y0 + r * ch, cw, ch, str(c),
                         fill=ORANGE if c == 0 else "white", size=12, bold=(c == 0))
        svg.rect(px, y0, 8 * cw, 8 * ch, width=2)
        y = y0 + 8 * ch + 12
        svg.text(px - 6, y + 17, "reads", size=11, anchor="end")
        for s in range(8):
            n = reads[s]
            fill = LIGHT if n == 0 else (GREEN if n == 1 else VERMILION)
            svg.cell(px + s * cw, y, cw, 24, str(n), fill=fill, size=12, stroke=GREY, bold=True)
        verdict = ("all 8 in banks 0-3: 8 passes" if max(reads) == 8
                   else "8 different slots: 1 pass")
        svg.text(px + 4 * cw, y + 50, verdict, size=14, bold=True,
                 fill=VERMILION if max(reads) > 1 else GREEN)
    y = 462
    for line in (
            "Shared memory has 32 banks of 4 bytes; a 16-byte piece spans 4 of them, so a 128-byte "
            "row covers every bank once.",
            "Unswizzled, piece c of every row sits in banks 4c..4c+3: the 8 rows of one ldmatrix "
            "matrix collide, one pass each.",
            "Swizzled, the 8 rows put their piece c in 8 different slots, for every c: one pass "
            "serves all 8."):
        svg.text(20, y, line, size=12, anchor="start")
        y += 18
    svg.text(20, y + 14, "slot = piece ^ x, with a different x (0-7) for each of the 8 rows: the "
                         "same function for the copy and for ldmatrix", size=13, anchor="start",
             bold=True)
    return svg


def ch08_producer_consumer_ring():
    """Step 4 (Hopper): kStages = 4 stages of A's 128 x 64 and B's 64 x 256 tiles, barriers
    full[s] (count 1, plus the stage's 48 KiB) and empty[s] (count 8: one arrive per consumer
    warp). Slice t uses stage s = t % 4 in lap t / 4. Producer (warpgroup 0, thread 0): waits
    for empty[s], announces 48 KiB on full[s], starts 5 TMA copies. Consumers (warpgroups 1, 2):
    wait for full[s], wgmma, arrive on empty[s]. (The order of the operations and the parities
    are step 4's exercise: not drawn.)"""
    svg = Svg(800, 560, "Step 4's pipeline on Hopper: a producer warpgroup, two consumer "
                        "warpgroups, and a ring of 4 shared-memory stages with full and empty "
                        "barriers")
    svg.text(20, 24, "Step 4 on Hopper: one producer, two consumers, a ring of 4 stages with two "
                     "mbarriers each", size=14, anchor="start", bold=True)
    svg.text(20, 44, "Slice t (64 along k) uses stage s = t % 4 in lap t / 4; a stage holds A's "
                     "128 x 64 tile and B's 64 x 256 tile: 48 KiB", size=12, anchor="start")
    top, row = 112, 52
    for s in range(4):
        y = top + s * row
        svg.cell(207, y + 10, 76, 26, f"empty[{s}]", fill=YELLOW, size=12)
        svg.cell(517, y + 10, 76, 26, f"full[{s}]", fill=GREEN, size=12)
        svg.rect(296, y, 208, 44, fill=LIGHT, stroke=GREY)
        svg.text(400, y + 12, f"stage {s}: slices {s}, {s + 4}, {s + 8}, ...", size=10)
        svg.cell(300, y + 16, 60, 24, "A 128x64", fill="white", size=10)
        for box in range(4):
            svg.cell(364 + box * 34.5, y + 16, 34.5, 24, "64x64", fill="white", size=10)
    svg.rect(200, top - 6, 90, 4 * row + 4, stroke=GREY, dash="4 3")
    svg.rect(510, top - 6, 90, 4 * row + 4, stroke=GREY, dash="4 3")
    svg.text(296, top + 4 * row + 14, "A: 1 box 128 x 64 (16 KiB); B: 4 boxes 64 x 64 (32 KiB)",
             size=11, anchor="start", fill=GREY)
    # The two roles.
    for x, fill, lines in ((20, ORANGE, ["warpgroup 0", "producer:", "thread 0 issues",
                                         "the TMA copies,", "the other 127 return"]),
                           (630, SKY, ["warpgroups 1, 2", "consumers:", "64 rows each of",
                                       "the 128 x 256", "block tile"])):
        svg.rect(x, top + 30, 150, 150, fill=fill)
        for k, s in enumerate(lines):
            svg.text(x + 75, top + 58 + k * 22, s, size=12, bold=(k < 2))
    mid = top + 105
    # producer -> full -> consumers, consumers -> empty -> producer.
    svg.line(95, top + 30, 95, 80, width=2)
    svg.line(95, 80, 555, 80, width=2)
    svg.line(555, 80, 555, top - 8, width=2, arrow=True)
    svg.text(325, 74, "arrive_and_expect_bytes(full[s], 48 KiB); 5 TMA copies: complete_tx",
             size=11)
    svg.line(400, 80, 400, top - 2, dash="4 3", arrow=True)
    svg.line(602, mid, 628, mid, width=2, arrow=True)
    svg.text(615, mid - 8, "wait", size=11)
    svg.line(705, top + 180, 705, top + 4 * row + 30, width=2)
    svg.line(705, top + 4 * row + 30, 245, top + 4 * row + 30, width=2)
    svg.line(245, top + 4 * row + 30, 245, top + 4 * row, width=2, arrow=True)
    svg.text(475, top + 4 * row + 46, "arrive(empty[s]): one arrival per consumer warp, "
                                      "8 complete the phase", size=11)
    svg.line(198, mid, 172, mid, width=2, arrow=True)
    svg.text(185, mid - 8, "wait", size=11)
    # The ring's bookkeeping for the first laps (the parities each side waits for are step
    # 4's exercise: not drawn).
    y, lx, cw = 410, 250, 58
    table = [("slice t", lambda t: str(t)), ("stage s = t % 4", lambda t: str(t % 4)),
             ("lap = t / 4", lambda t: str(t // 4))]
    for k, (name, value) in enumerate(table):
        svg.text(lx - 8, y + k * 22 + 15, name, size=12, anchor="end", bold=(k == 0))
        for t in range(9):
            label = value(t) if t < 8 else "..."
            fill = LIGHT if k == 0 else ("#F4F4F4" if t // 4 % 2 else "white")
            svg.cell(lx + t * cw, y + k * 22, cw, 22, label, fill=fill, size=11, stroke=GREY)
    svg.text(20, y + 94, "each completed phase of a barrier flips its parity: 0, 1, 0, ... (a "
                         "fresh barrier counts as having completed parity 1);", size=12,
             anchor="start", bold=True)
    svg.text(20, y + 114, "full[s] completes when the producer has arrived and all 48 KiB have "
                          "landed, empty[s] when all 8 consumer warps have arrived.", size=12,
             anchor="start")
    return svg


def ch08_persistent_blocks():
    """Step 4 against step 5 on one multiprocessor, time left to right (schematic lengths, not
    measured). Step 4: one block per tile; each block starts with an empty ring (the consumers
    wait for the first slice) and ends with its stores of C while the producer has nothing left
    to do, so the tensor cores idle twice per tile. Step 5: one block per multiprocessor takes
    tile after tile; the producer fills the ring with the next tile's slices while the consumers
    store, and the stores are shorter (whole lines). (The tile order, which stage is given back
    and the epilogue's lane mapping are step 5's exercise: not drawn.)"""
    svg = Svg(800, 470, "One multiprocessor over time: step 4's block per tile, with an empty "
                        "ring at each start and idle tensor cores during the stores, against "
                        "step 5's persistent block, whose producer fills the ring for the next "
                        "tile while the consumers store")
    svg.text(20, 24, "One multiprocessor over time: a block per tile (step 4) against one "
                     "persistent block (step 5)", size=14, anchor="start", bold=True)
    svg.text(20, 44, "Time runs left to right; the lengths are schematic, not measured. Hatched: "
                     "the tensor cores idle.", size=12, anchor="start")
    x0, lane_h, pitch = 124, 26, 30
    wait, multiply, store4, store5, lead = 76, 144, 92, 46, 40

    def hatch(x, y, w, h):
        """A light grey box crossed by diagonal lines, clipped to the box."""
        svg.rect(x0 + x, y, w, h, fill=LIGHT, stroke=GREY)
        u = x - h
        while u < x + w:
            lo, hi = max(0, x - u), min(h, x + w - u)
            if hi > lo:
                svg.line(x0 + u + lo, y + h - lo, x0 + u + hi, y + h - hi, stroke=GREY,
                         width=0.75)
            u += 9

    def bar(x, y, w, label, fill):
        svg.cell(x0 + x, y, w, lane_h, label, fill=fill, size=10)

    def idle(x, y, w, label):
        svg.rect(x0 + x, y, w, lane_h, stroke=GREY, dash="4 3")
        svg.text(x0 + x + w / 2, y + lane_h / 2 + 4, label, size=10, fill=GREY)

    def bracket(x, w, y, label):
        """A span over the lanes: which block runs when."""
        cx, half = x0 + x + w / 2, len(label) * 3 + 6
        svg.text(cx, y + 4, label, size=11, fill=GREY)
        svg.line(x0 + x + 1, y, cx - half, y, stroke=GREY)
        svg.line(cx + half, y, x0 + x + w - 1, y, stroke=GREY)
        svg.line(x0 + x + 1, y, x0 + x + 1, y + 7, stroke=GREY)
        svg.line(x0 + x + w - 1, y, x0 + x + w - 1, y + 7, stroke=GREY)

    def ring_empty(x, top):
        """The consumers' wait for the first slice of a tile: both consumer lanes."""
        y = top + pitch
        hatch(x, y, wait, pitch + lane_h)
        svg.rect(x0 + x + 6, y + 13, wait - 12, 30, fill="white", stroke="none")
        svg.text(x0 + x + wait / 2, y + 25, "ring empty:", size=10)
        svg.text(x0 + x + wait / 2, y + 38, "wait", size=10)

    def lanes(top, header):
        svg.text(20, top - 26, header, size=13, anchor="start", bold=True)
        for k, name in enumerate(("producer", "consumer 1", "consumer 2")):
            svg.text(x0 - 8, top + k * pitch + lane_h / 2 + 4, name, size=12, anchor="end")
        svg.text(x0 - 8, top + 3 * pitch + 17, "tensor cores", size=11, anchor="end",
                 fill=GREY)

    def idle_label(cx, y):
        svg.rect(x0 + cx - 15, y + 3, 30, 13, fill="white", stroke="none")
        svg.text(x0 + cx, y + 13, "idle", size=10)

    def tensor_cores(top, busy_spans, end):
        """Busy while the consumers multiply, hatched (idle) everywhere else."""
        y, x = top + 3 * pitch + 4, 0
        for start, stop in busy_spans:
            if start > x:
                hatch(x, y, start - x, 18)
                idle_label((x + start) / 2, y)
            svg.cell(x0 + start, y, stop - start, 18, "busy", fill=BLUE, size=10,
                     text_fill="white")
            x = stop
        if end > x:
            hatch(x, y, end - x, 18)
            idle_label((x + end) / 2, y)

    # Step 4: one block per tile, each starting with an empty ring and ending with its stores.
    top = 104
    lanes(top, "Step 4: one block per tile")
    block = wait + multiply + store4
    busy = []
    for b, tile in enumerate("AB"):
        x = b * block
        bracket(x, block, top - 12, f"block for tile {tile}")
        bar(x, top, wait + multiply - lead, f"TMA copies: slices of tile {tile}", ORANGE)
        idle(x + wait + multiply - lead, top, lead + store4, "idle, block ends")
        ring_empty(x, top)
        for k in (1, 2):
            bar(x + wait, top + k * pitch, multiply, f"multiply tile {tile}", SKY)
            bar(x + wait + multiply, top + k * pitch, store4, "store C", PURPLE)
        busy.append((x + wait, x + wait + multiply))
    svg.text(x0 + 2 * block + 10, top + pitch + lane_h / 2 + 4, "...", size=12, anchor="start")
    tensor_cores(top, busy, 2 * block)

    # Step 5: one block per multiprocessor, tile after tile; the ring goes on.
    top = 270
    lanes(top, "Step 5: one block per SM, tile after tile")
    per_tile = multiply + store5
    end = wait + 3 * per_tile
    bracket(0, end, top - 12, "one block: tile A, then tile B, then tile C")
    ring_empty(0, top)
    busy, fill_start = [], 0
    for j, tile in enumerate("ABC"):
        x = wait + j * per_tile
        fill_end = x + multiply - lead
        bar(fill_start, top, fill_end - fill_start, f"TMA copies: slices of tile {tile}", ORANGE)
        fill_start = fill_end
        for k in (1, 2):
            bar(x, top + k * pitch, multiply, f"multiply tile {tile}", SKY)
            bar(x + multiply, top + k * pitch, store5, "store C", PURPLE)
        busy.append((x, x + multiply))
    idle(fill_start, top, end - fill_start, "no tiles left")
    tensor_cores(top, busy, end)

    # Time axis and caption.
    y = 404
    svg.line(x0, y, x0 + end + 4, y, arrow=True)
    svg.text(x0 - 8, y + 4, "time", size=12, anchor="end")
    svg.text(20, 434, "Step 5's producer fills the ring with the next tile's slices while the "
                      "consumers store;", size=12, anchor="start")
    svg.text(20, 452, "the ring's stages and parities go on from tile to tile.", size=12,
             anchor="start")
    return svg


FIGURES = {
    "chapters/00-first-kernel/figures/round-trip.svg": ch00_round_trip,
    "chapters/01-sum-of-squares/figures/contiguous-vs-interleaved.svg":
        ch01_contiguous_vs_interleaved,
    "chapters/01-sum-of-squares/figures/block-tree.svg": ch01_block_tree,
    "chapters/02-naive-matmul/figures/one-thread-per-element.svg": ch02_one_thread_per_element,
    "chapters/03-tiled-matmul/figures/tile-phases.svg": ch03_tile_phases,
    "chapters/04-arbitrary-width-tiles/figures/ghost-elements.svg": ch04_ghost_elements,
    "chapters/05-reduction/figures/reduction-trees.svg": ch05_reduction_trees,
    "chapters/05-reduction/figures/bank-conflicts.svg": ch05_banks,
    "chapters/06-warp-reduction/figures/shfl-down.svg": ch06_shuffle_down,
    "chapters/07-register-tiled-sgemm/figures/tile-nesting.svg": ch07_tile_nesting,
    "chapters/08-tensor-core-gemm/figures/mma-fragment-a.svg": ch08_mma_fragment_a,
    "chapters/08-tensor-core-gemm/figures/swizzle.svg": ch08_swizzle,
    "chapters/08-tensor-core-gemm/figures/producer-consumer-ring.svg":
        ch08_producer_consumer_ring,
    "chapters/08-tensor-core-gemm/figures/persistent-blocks.svg": ch08_persistent_blocks,
}


def render_all():
    """{relative path: SVG text} for every figure."""
    return {path: make().render() for path, make in FIGURES.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a checked-in SVG differs from what would be written")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    stale = []
    for path, text in render_all().items():
        target = args.root / path
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current == text:
            continue
        if args.check:
            stale.append(path)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        for path in stale:
            print(f"{path} differs from what tools/diagrams.py draws", file=sys.stderr)
        print("run: python3 tools/diagrams.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

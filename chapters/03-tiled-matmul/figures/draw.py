"""Chapter 03's figure, drawn from the index formulas of its solution; redraw with
python3 -m tools.figures (from the repository root)."""
from tools.svg import GREEN, ORANGE, SKY, YELLOW, Svg, matrix

# The colour of phase 0, 1 and 2, in which an element is copied into shared memory.
PHASE_COLOURS = [ORANGE, SKY, GREEN]


def draw_tile_phases():
    """Width 6, TILE_WIDTH 2: 3 phases for block (bx=2, by=0). In phase ph thread (tx, ty) loads
    Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx] and
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col]."""
    width, tile, cell = 6, 2, 34
    bx, by = 2, 0
    svg = Svg(800, 550, f"The tile phases of one block: Width 6, TILE_WIDTH 2, block ({bx}, {by}), "
                        "phases 0, 1 and 2")
    svg.heading(f"Block (bx={bx}, by={by}) computes P rows {by * tile}-{by * tile + 1}, "
                f"columns {bx * tile}-{bx * tile + 1}; Width 6, TILE_WIDTH 2: 3 phases", size=15)
    mx, my = 20, 298
    nx, ny = 250, 64
    px, py = 250, 298
    # The block's rows of M and columns of N, by the phase that copies each element.
    matrix(svg, mx, my, width, cell, "M",
           lambda r, c: PHASE_COLOURS[c // tile] if r // tile == by else None,
           lambda r, c: f"ph {c // tile}" if r // tile == by else "", font=10)
    matrix(svg, nx, ny, width, cell, "N",
           lambda r, c: PHASE_COLOURS[r // tile] if c // tile == bx else None,
           lambda r, c: f"ph {r // tile}" if c // tile == bx else "", font=10)
    matrix(svg, px, py, width, cell, "P",
           lambda r, c: YELLOW if (r // tile, c // tile) == (by, bx) else None,
           lambda r, c: "P" if (r // tile, c // tile) == (by, bx) else "", font=10)
    for x0, y0 in ((mx, my), (nx, ny), (px, py)):
        for i in range(0, width + 1, tile):
            svg.line(x0 + i * cell, y0, x0 + i * cell, y0 + width * cell, width=2.5)
            svg.line(x0, y0 + i * cell, x0 + width * cell, y0 + i * cell, width=2.5)
    # Shared-memory tiles for phase 1, with the elements they hold.
    sx, sy = 490, 96
    ph = 1
    svg.left_aligned(sx, sy - 30, f"Phase {ph} in shared memory:", size=14, bold=True)
    for name, y0, fmt in (("Mds", sy, lambda ty, tx: f"M({by * tile + ty},{ph * tile + tx})"),
                          ("Nds", sy + 110,
                           lambda ty, tx: f"N({ph * tile + ty},{bx * tile + tx})")):
        svg.left_aligned(sx, y0 - 8, f"{name}[ty][tx]")
        for ty in range(tile):
            for tx in range(tile):
                svg.cell(sx + tx * 60, y0 + ty * 34, 60, 34, fmt(ty, tx), fill=SKY, size=11)
    svg.left_aligned(sx, 330, "Each phase:", bold=True)
    svg.left_aligned(
        sx, 350,
        "1. every thread copies one element of M",
        "   and one of N into its (ty, tx) slot;",
        "2. __syncthreads();",
        "3. every thread does TILE_WIDTH = 2",
        "   multiply-adds from Mds and Nds;",
        "4. __syncthreads(), then the next phase.",
        "3 phases cover the 6 columns of M's rows",
        "and the 6 rows of N's columns.", step=20)
    svg.left_aligned(20, 536, "Colours and labels: the phase in which each element is copied into "
                              "shared memory (orange 0, blue 1, green 2).")
    return svg.render()


FIGURES = {"tile-phases.svg": draw_tile_phases}

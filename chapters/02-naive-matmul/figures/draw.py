"""Chapter 02's figure, drawn from the index formulas of its solution; redraw with
python3 -m tools.figures (from the repository root)."""
from tools.svg import GREEN, GREY, INK, ORANGE, SKY, VERMILION, YELLOW, Svg, matrix


def draw_one_thread_per_element():
    """Row = by * blockDim.y + ty, Col = bx * blockDim.x + tx; P[Row][Col] = sum_k M[Row][k] *
    N[k][Col]. The README's example: Width 4, 2 x 2 blocks, thread (tx=0, ty=1) of block (1, 0)."""
    width, side, cell = 4, 2, 46
    bx, by, tx, ty = 1, 0, 0, 1
    row, col = by * side + ty, bx * side + tx
    svg = Svg(800, 520, "One thread per element of P: a 2-D grid of 2-D blocks, and the row of M "
                        "and column of N that one thread reads")
    svg.heading("Width 4, blocks of 2 x 2 threads, a grid of 2 x 2 blocks", size=15)
    mx, my = 20, 280
    nx, ny = 250, 64
    px, py = 250, 280
    matrix(svg, nx, ny, width, cell, "N", lambda r, c: SKY if c == col else None,
           lambda r, c: f"N({r},{c})", font=10)
    matrix(svg, mx, my, width, cell, "M", lambda r, c: ORANGE if r == row else None,
           lambda r, c: f"M({r},{c})", font=10)

    def p_fill(r, c):
        if (r, c) == (row, col):
            return GREEN
        return YELLOW if (r // side, c // side) == (by, bx) else None

    matrix(svg, px, py, width, cell, "P", p_fill, lambda r, c: f"P({r},{c})", font=10)
    # Block outlines and names in P.
    for gy in range(width // side):
        for gx in range(width // side):
            svg.rect(px + gx * side * cell, py + gy * side * cell, side * cell, side * cell,
                     stroke=INK, width=3)
            if gy == 0:
                svg.text(px + gx * side * cell + side * cell / 2, py + width * cell + 18,
                         f"bx = {gx}", size=11, fill=GREY)
        svg.left_aligned(px + width * cell + 6, py + gy * side * cell + side * cell / 2 + 4,
                         f"by = {gy}", size=11, fill=GREY)
    svg.text(px + width * cell / 2, py + width * cell + 36,
             "thick squares: the blocks of the grid", size=12, fill=GREY)
    tx0 = px + width * cell + 26
    svg.left_aligned(tx0, 80, "Block (bx=1, by=0), thread (tx=0, ty=1):", size=13, bold=True)
    svg.left_aligned(
        tx0, 99,
        "Row = by * blockDim.y + ty = 0*2 + 1 = 1",
        "Col = bx * blockDim.x + tx = 1*2 + 0 = 2",
        "",
        "It reads row 1 of M: M[1*Width + k]",
        "and column 2 of N: N[k*Width + 2],",
        "k = 0..3, and writes P(1,2).",
        "",
        "Yellow and green: its block's 4 elements.",
        "Neighbouring tx read neighbouring N",
        "elements (coalesced); a warp's lanes",
        "with the same Row share each M element.", size=13, step=19)
    # The inner product, drawn as arrows from the row and the column into P(1,2).
    target_x, target_y = px + col * cell + cell / 2, py + row * cell + cell / 2
    svg.line(mx + width * cell, my + row * cell + cell / 2, px - 2, target_y,
             stroke=VERMILION, width=2, arrow=True)
    svg.line(nx + col * cell + cell / 2, ny + width * cell, target_x, target_y - cell / 2 + 4,
             stroke=VERMILION, width=2, arrow=True)
    return svg.render()


FIGURES = {"one-thread-per-element.svg": draw_one_thread_per_element}

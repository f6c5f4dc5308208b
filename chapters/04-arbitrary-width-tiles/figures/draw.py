"""Chapter 04's figure, drawn from the index formulas of its solution; redraw with
python3 -m tools.figures (from the repository root)."""
from tools.svg import GREEN, GREY, LIGHT, SKY, VERMILION, YELLOW, Svg


def draw_ghost_elements():
    """Width 3, TILE_WIDTH 2 (the README's example). In phase ph thread (tx, ty) of block (bx, by)
    loads M(Row, ph*2 + tx) if Row < Width and ph*2 + tx < Width, else 0; N(ph*2 + ty, Col) if
    ph*2 + ty < Width and Col < Width, else 0; and stores P(Row, Col) only inside P."""
    width, tile, cell = 3, 2, 42
    padded = 4
    svg = Svg(800, 600, "Boundary tiles with ghost elements: Width 3, TILE_WIDTH 2")
    svg.heading("Width 3, TILE_WIDTH 2: the tiles cover 4 x 4; row and column 3 are ghosts",
                size=15)

    def draw_tile(x, y, name, in_tile, element):
        """One operand over the padded 4 x 4: in_tile(r, c) says what the phase loads."""
        svg.text(x + padded * cell / 2, y - 8, name, size=13, bold=True)
        for r in range(padded):
            for c in range(padded):
                ghost = r >= width or c >= width
                inside = in_tile(r, c)
                box = (x + c * cell, y + r * cell, cell, cell)
                if inside and ghost:
                    svg.cell(*box, "0", fill=YELLOW, stroke=VERMILION, dash="4 3", size=13,
                             bold=True)
                elif inside:
                    svg.cell(*box, element(r, c), fill=SKY, size=10)
                elif ghost:
                    svg.cell(*box, "", fill="white", stroke=GREY, dash="4 3")
                else:
                    svg.cell(*box, element(r, c), fill=LIGHT, stroke=GREY, size=10, text_fill=GREY)

    cases = [("Block (0, 0), phase 1", 0, 0, 1), ("Block (1, 1), phase 0", 1, 1, 0)]
    for panel, (title, bx, by, ph) in enumerate(cases):
        x0 = 20 + panel * 395
        svg.left_aligned(x0, 56, title, size=14, bold=True)
        rows = range(by * tile, by * tile + tile)
        cols = range(bx * tile, bx * tile + tile)
        phase = range(ph * tile, ph * tile + tile)
        draw_tile(x0 + 10, 92, "M tile", lambda r, c: r in rows and c in phase,
                  lambda r, c: f"M({r},{c})")
        draw_tile(x0 + 200, 92, "N tile", lambda r, c: r in phase and c in cols,
                  lambda r, c: f"N({r},{c})")
        py = 300
        svg.text(x0 + 10 + padded * cell / 2, py - 8, "P: what the block stores", size=13,
                 bold=True)
        for r in range(padded):
            for c in range(padded):
                ghost = r >= width or c >= width
                mine = r in rows and c in cols
                box = (x0 + 10 + c * cell, py + r * cell, cell, cell)
                if mine and not ghost:
                    svg.cell(*box, f"P({r},{c})", fill=GREEN, size=10)
                elif mine:
                    svg.cell(*box, "no", fill="white", stroke=VERMILION, dash="4 3", size=11,
                             text_fill=VERMILION)
                else:
                    svg.cell(*box, "", fill="white" if ghost else LIGHT, stroke=GREY,
                             dash="4 3" if ghost else None)
    lx, ly = 20, 492
    svg.cell(lx, ly, 40, 26, "M(r,c)", fill=SKY, size=9)
    svg.left_aligned(lx + 50, ly + 18, "in the tile, inside the matrix: loaded")
    svg.cell(lx, ly + 36, 40, 26, "0", fill=YELLOW, stroke=VERMILION, dash="4 3", bold=True)
    svg.left_aligned(lx + 50, ly + 54, "in the tile, outside (a ghost): 0 stored, nothing read")
    svg.cell(lx + 400, ly, 40, 26, "P(r,c)", fill=GREEN, size=9)
    svg.left_aligned(lx + 450, ly + 18, "stored; \"no\": outside P, nothing stored")
    svg.cell(lx + 400, ly + 36, 40, 26, "", fill=LIGHT, stroke=GREY)
    svg.left_aligned(lx + 450, ly + 54, "not in this block's tile in this phase")
    svg.left_aligned(lx, ly + 90, "Every thread still fills its slot of the tile and reaches "
                                  "both barriers: the other threads use its 0.")
    return svg.render()


FIGURES = {"ghost-elements.svg": draw_ghost_elements}

"""Chapter 11's figures, drawn from the fragment layouts, the loop and the pipeline of its solution
(step2_flash_mma.cu, step3_pipelined.cu); redraw with python3 -m tools.figures (from the
repository root)."""
from tools.svg import (BLUE, GREEN, GREY, INK, LIGHT, ORANGE, PALE, PURPLE, SKY, VERMILION,
                       YELLOW, Svg)

# The lanes figure 1 follows, with their colours.
LANES = {0: ORANGE, 5: SKY}


def accumulator_owner(row, column):
    """The m16n8 accumulator (C/D of mma.sync.m16n8k16): lane 4g + t holds c0, c1 at row g,
    columns 2t, 2t + 1 and c2, c3 at row g + 8, the same columns. Returns (lane, register)."""
    g, t = row % 8, column // 2
    return 4 * g + t, 2 * (row // 8) + column % 2


def a_owner(row, pair):
    """The A operand of m16n8k16, 16 x 16 halves, one 32-bit register per pair of columns
    2 pair, 2 pair + 1: a0 = (g, 2t..2t+1), a1 = (g+8, 2t..2t+1), a2 = (g, 2t+8..2t+9),
    a3 = (g+8, 2t+8..2t+9). Returns (lane, register)."""
    g, t = row % 8, pair % 4
    return 4 * g + t, 2 * (pair // 4) + row // 8


def draw_accumulator_is_a_fragment():
    """Two neighbouring m16n8 accumulator tiles of S (keys 16kk..16kk+7 and 16kk+8..16kk+15),
    element by element, against the A fragment of the 16 x 16 tile of P for the same keys, pair
    by pair: every lane holds the same positions on both sides, so packing (c0, c1) and (c2, c3)
    of the first tile into a0, a1 and of the second into a2, a3 is the whole conversion."""
    cw, ch = 18, 18
    x0, y0 = 56, 146            # the first accumulator tile
    x1 = x0 + 8 * cw + 20       # the second
    ax = 472                    # the A tile
    svg = Svg(800, 590, "The accumulators of two neighbouring 16 x 8 tiles of S hold, lane by "
                        "lane, exactly the A fragment of the 16 x 16 tile of P for the same keys: "
                        "rounded to FP16 pairs, P feeds the second product from registers")
    svg.heading("The accumulators of S are already the A fragment of P: no data moves between "
                "lanes")
    svg.left_aligned(20, 46, "One warp's 16 query rows, keys 16kk to 16kk + 15. Every cell: the "
                             "lane that holds it (lane l = 4g + t, g = l / 4, t = l % 4).",
                     "Coloured: the registers of lanes 0 and 5, named as each instruction "
                     "names them.", size=12, step=17)

    def row_numbers(x, anchor):
        for r in range(16):
            svg.text(x, y0 + r * ch + ch / 2 + 4, str(r), size=10, anchor=anchor, fill=GREY)

    # Left: S's accumulator tiles 2kk and 2kk + 1, FP32, one register per element.
    for k, (x, keys) in enumerate(((x0, "16kk + 0..7"), (x1, "16kk + 8..15"))):
        svg.text(x + 4 * cw, 96, f"S tile j = 2kk{' + 1' if k else ''}", size=13, bold=True)
        svg.text(x + 4 * cw, 112, f"keys {keys}, FP32", size=11)
        for c in range(8):
            svg.text(x + c * cw + cw / 2, y0 - 8, str(c), size=9, fill=GREY)
        for r in range(16):
            for c in range(8):
                lane, reg = accumulator_owner(r, c)
                if lane in LANES:
                    svg.cell(x + c * cw, y0 + r * ch, cw, ch, f"c{reg}", fill=LANES[lane],
                             size=10, bold=True)
                else:
                    svg.cell(x + c * cw, y0 + r * ch, cw, ch, str(lane), size=9, stroke=GREY,
                             text_fill=GREY)
        svg.rect(x, y0, 8 * cw, 16 * ch, width=2)
        svg.line(x, y0 + 8 * ch, x + 8 * cw, y0 + 8 * ch, width=2)
    svg.text(x0 - 28, y0 - 8, "row", size=10, anchor="middle", fill=GREY)
    row_numbers(x0 - 8, "end")

    # Right: the A operand of m16n8k16 for P, FP16, one register per pair of columns.
    svg.text(ax + 8 * cw, 96, "A fragment of P (16 x 16), m16n8k16", size=13, bold=True)
    svg.text(ax + 8 * cw, 112, "keys 16kk + k, FP16 pairs", size=11)
    for c in range(16):
        svg.text(ax + c * cw + cw / 2, y0 - 8, str(c), size=9, fill=GREY)
    svg.text(ax + 16 * cw + 8, y0 - 8, "k", size=10, anchor="start", fill=GREY)
    for r in range(16):
        for p in range(8):
            lane, reg = a_owner(r, p)
            if lane in LANES:
                svg.cell(ax + 2 * p * cw, y0 + r * ch, 2 * cw, ch, f"a{reg}", fill=LANES[lane],
                         size=10, bold=True)
            else:
                svg.cell(ax + 2 * p * cw, y0 + r * ch, 2 * cw, ch, str(lane), size=9,
                         stroke=GREY, text_fill=GREY)
    svg.rect(ax, y0, 16 * cw, 16 * ch, width=2)
    svg.line(ax, y0 + 8 * ch, ax + 16 * cw, y0 + 8 * ch, width=2)
    svg.line(ax + 8 * cw, y0, ax + 8 * cw, y0 + 16 * ch, width=2)
    row_numbers(ax + 16 * cw + 8, "start")

    # Between them: the conversion, which stays inside each lane.
    mid = x1 + 8 * cw
    svg.line(mid + 14, y0 + 8 * ch, ax - 14, y0 + 8 * ch, width=2.5, arrow=True)
    svg.left_aligned(mid + 10, y0 + 8 * ch - 58, "round to FP16,", "pack pairs:",
                     "same lane,", "same place", size=12, step=15)
    svg.left_aligned(mid + 10, y0 + 8 * ch + 24, "tile 2kk:", "columns 0-7",
                     "tile 2kk + 1:", "columns 8-15", size=11, step=15, fill=GREY)

    # The rule, and the two lanes drawn.
    y = y0 + 16 * ch + 34
    for lane, colour in LANES.items():
        g, t = lane // 4, lane % 4
        svg.cell(20, y - 14, 56, 20, f"lane {lane}", fill=colour, size=11, bold=True)
        svg.text(86, y, f"g = {g}, t = {t}: rows {g} and {g + 8}, key columns {2 * t} and "
                        f"{2 * t + 1} of each S tile; in A, columns {2 * t}, {2 * t + 1} and "
                        f"{2 * t + 8}, {2 * t + 9}", size=12, anchor="start")
        y += 26
    y = svg.left_aligned(20, y + 4,
                         "Accumulator, lane 4g + t: c0, c1 = row g, columns 2t, 2t + 1;  "
                         "c2, c3 = row g + 8, the same columns.",
                         "A operand, lane 4g + t: a0 = row g, columns 2t, 2t + 1;  a1 = row g + 8; "
                         " a2, a3 = the same rows, columns 2t + 8, 2t + 9.")
    y = svg.left_aligned(20, y + 6,
                         "So a0, a1 = (c0, c1), (c2, c3) of tile 2kk and a2, a3 = (c0, c1), "
                         "(c2, c3) of tile 2kk + 1,",
                         "rounded to FP16 pairs: no shuffle, no shared memory.",
                         size=12, bold=True)
    svg.height = y - 2
    return svg.render()


def hatch(svg, x, y, w, h, step=7):
    """A light grey box crossed by diagonal lines, clipped to the box."""
    svg.rect(x, y, w, h, fill=LIGHT, stroke=GREY)
    u = -h
    while u < w:
        lo, hi = max(0, -u), min(h, w - u)
        if hi > lo:
            svg.line(x + u + lo, y + h - lo, x + u + hi, y + h - hi, stroke=GREY, width=0.75)
        u += step


DRAWN_TILES = 8  # N = 512 drawn: 8 tiles of kTileKeys = 64 keys


def draw_flash_loop():
    """Step 2 (flash_kernel): a block of 64 query rows of one (batch, head), 4 warps of 16 rows,
    keeps its Q tile in shared memory and walks K and V in tiles of 64 keys. Per tile: S = Q K^T
    (16 x 64 per warp, FP32 registers), the online softmax (row max m, row sum l; O and l
    rescaled by exp(m_old - m_new)), O += P V (16 x d per warp, FP32 registers). After the last
    tile O / l is stored. Step 1 against it: all N x N scores through DRAM."""
    svg = Svg(800, 700, "FlashAttention-2's loop for one block of 64 query rows: Q stays in "
                        "shared memory, K and V pass by in tiles of 64 keys, each 64 x 64 piece "
                        "of the scores lives in registers only; step 1 instead writes all N x N "
                        "scores to DRAM")
    svg.heading("Step 2: one block's loop. The N x N scores never exist; a 64 x 64 piece at a "
                "time, in registers")
    svg.left_aligned(20, 46, "One (batch, head), N = 512 keys drawn (8 tiles of 64); every block "
                             "(64 query rows) does the same, at the same time.", size=12)
    cell = 28                              # one 64 x 64 tile of S
    sx, sy = 130, 160                      # S's top left
    band = 40                              # d, the head dimension, drawn
    block_row, tile = 2, 4                 # the block drawn, and the tile it is at
    side = DRAWN_TILES * cell

    # K above S and V below it, keys along x (V drawn transposed so its keys line up with S's).
    for name, y, colour in (("K", sy - band - 18, SKY), ("V", sy + side + 18, PURPLE)):
        for t in range(DRAWN_TILES):
            here = t == tile
            svg.cell(sx + t * cell, y, cell, band, f"t={t}" if here else str(t),
                     fill=colour if here else "white", size=10, stroke=INK if here else GREY,
                     text_fill=INK if here else GREY, bold=here)
        svg.rect(sx, y, side, band, width=1.5)
    svg.text(sx + side / 2, sy - band - 26, "K: tile t = keys 64t to 64t + 63 along x, d along y",
             size=11)
    svg.text(sx + side / 2, sy + side + band + 34, "V: the same keys along x (drawn "
                                                   "transposed)", size=11)

    # S: a ghost; the block's strip; the tile in registers.
    for r in range(DRAWN_TILES):
        for t in range(DRAWN_TILES):
            svg.rect(sx + t * cell, sy + r * cell, cell, cell, stroke=LIGHT)
    strip_y = sy + block_row * cell
    for t in range(tile):
        hatch(svg, sx + t * cell, strip_y, cell, cell)
    svg.cell(sx + tile * cell, strip_y, cell, cell, "", fill=ORANGE, stroke=INK)
    for t in range(tile + 1, DRAWN_TILES):
        svg.rect(sx + t * cell, strip_y, cell, cell, stroke=GREY, dash="3,2")
    for w in range(1, 4):  # the 4 warps' 16-row slices of the tile in registers
        yy = strip_y + w * cell / 4
        svg.line(sx + tile * cell, yy, sx + (tile + 1) * cell, yy, stroke=INK, width=0.75)
    svg.rect(sx, sy, side, side, stroke=GREY, width=1.5, dash="6,4")
    svg.text(sx + side / 2, sy + 6 * cell - 4, "S = Q K^T, N x N:", size=14, bold=True,
             fill=GREY)
    svg.text(sx + side / 2, sy + 6 * cell + 14, "never stored anywhere", size=14, bold=True,
             fill=GREY)
    svg.text(sx + side / 2, sy + 6 * cell + 32, "(step 1 writes all of it to DRAM)", size=11,
             fill=GREY)
    svg.text(sx + 2, strip_y - 6, "0 to t - 1: folded into O", size=10, anchor="start")
    svg.text(sx + (tile + DRAWN_TILES + 1) * cell / 2, strip_y - 6, "to come", size=10)
    svg.text(sx + (tile + 0.5) * cell, strip_y + cell + 14, "tile t: 64 x 64 in registers,",
             size=10, bold=True)
    svg.text(sx + (tile + 0.5) * cell, strip_y + cell + 27, "16 x 64 in each of 4 warps",
             size=10, bold=True)

    # Q left of S, O right of S: the block's 64 rows.
    # (The notes under them: the rows the block holds, and where.)
    for name, x, colour, note in (
            ("Q", sx - band - 18, GREEN,
             ["Q: 64 x d,", "in shared", "memory, for", "the whole loop"]),
            ("O", sx + side + 18, YELLOW, ["O: 64 x d,", "FP32 registers,", "16 rows a warp"])):
        svg.rect(x, sy, band, side, stroke=GREY, width=1.5)
        svg.cell(x, strip_y, band, cell, "", fill=colour)
        for w in range(1, 4):
            svg.line(x, strip_y + w * cell / 4, x + band, strip_y + w * cell / 4, width=0.75)
        svg.text(x + band / 2, sy - 8, name, size=13, bold=True)
        svg.left_aligned(x - 6 if name == "O" else 20, sy + side + 18, *note, size=11, step=14)

    # Right: what the block does per tile.
    bx, bw = 500, 280
    svg.text(bx, 80, "For each tile t of 64 keys:", size=13, anchor="start", bold=True)
    boxes = [
        (SKY, ["K tile t and V tile t (64 x d each)", "into shared memory (cp.async)"]),
        (ORANGE, ["S = Q K^T: 16 x 64 scores per warp,", "FP32 accumulators in registers"]),
        (LIGHT, ["online softmax, for each row of S:",
                 "m' = max(m, the row's max), f = exp(m - m'),",
                 "l = l f + sum of exp(S - m'), O = O f, m = m'",
                 "(when m grows, f < 1 rescales the earlier tiles)"]),
        (YELLOW, ["P = exp(S - m') in FP16, in registers;",
                  "O += P V: 16 x d per warp, FP32 registers"]),
    ]
    y = 92
    tops = []
    for colour, lines in boxes:
        h = 12 + 16 * len(lines)
        svg.rect(bx, y, bw, h, fill=colour if colour != LIGHT else PALE)
        svg.left_aligned(bx + 8, y + 18, *lines, size=11, step=16)
        tops.append((y, h))
        y += h + 16
        if len(tops) < len(boxes):
            svg.line(bx + bw / 2, y - 16, bx + bw / 2, y, arrow=True)
    # The loop back to the copy, and the end.
    last_y, last_h = tops[-1]
    loop_x = bx - 14
    svg.line(bx, last_y + last_h / 2, loop_x, last_y + last_h / 2)
    svg.line(loop_x, last_y + last_h / 2, loop_x, tops[0][0] + tops[0][1] / 2)
    svg.line(loop_x, tops[0][0] + tops[0][1] / 2, bx, tops[0][0] + tops[0][1] / 2, arrow=True)
    svg.text(loop_x - 4, tops[0][0] + tops[0][1] + 24, "t + 1", size=11, anchor="end")
    svg.line(bx + bw / 2, last_y + last_h, bx + bw / 2, last_y + last_h + 24, arrow=True)
    svg.text(bx + bw / 2 + 8, last_y + last_h + 16, "after the last tile", size=11,
             anchor="start", fill=GREY)
    end_y = last_y + last_h + 26
    svg.rect(bx, end_y, bw, 28, fill=YELLOW, width=2)
    svg.left_aligned(bx + 8, end_y + 18, "O = O / l, rounded to FP16, stored: 64 x d", size=11)
    svg.left_aligned(bx, end_y + 50, "m, l: FP32 per row, in the 4 lanes of a quad", "(2 "
                     "shuffles for a row's max or sum)", size=11, step=15, fill=GREY)

    # Bottom: step 1, for contrast.
    y = sy + side + band + 96
    svg.text(20, y - 28, "Step 1, unfused: the N x N matrices go through DRAM", size=13,
             anchor="start", bold=True)
    flow = [("Q, K", 50, None), ("GEMM", 60, None), ("S: N x N FP32", 120, "DRAM"),
            ("softmax", 70, None), ("P: N x N FP16", 120, "DRAM"), ("GEMM with V", 100, None),
            ("O", 40, None)]
    x = 20
    for k, (label, w, where) in enumerate(flow):
        if where:
            svg.cell(x, y - 12, w, 44, label, fill=PALE, stroke=VERMILION, size=12, bold=True)
            svg.text(x + w / 2, y + 46, "written, read back", size=10, fill=VERMILION)
        else:
            svg.cell(x, y, w, 20, label, fill="white", stroke=GREY, size=12)
        if k + 1 < len(flow):
            svg.line(x + w + 2, y + 10, x + w + 22, y + 10, arrow=True)
        x += w + 24
    y = svg.left_aligned(20, y + 72, "S and P: 6 N^2 bytes per head, written and read back: at "
                         "N = 16K, 1.6 GB against 16 MB for Q, K, V and O (d = 128).", size=12)
    svg.height = y - 2
    return svg.render()


# The 16-byte chunks of a shared-memory row told apart: a colour and the chunk's number each.
CHUNK_COLOURS = [ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILION, PURPLE, LIGHT]


def swizzled_chunk(row, chunk):
    """Step 3's layout (swizzled_offset): chunk c of row r is stored at chunk c ^ (r % 8)."""
    return chunk ^ (row % 8)


def draw_pipeline(svg, top):
    """(a) Step 3's loop over time, two stages (kStep3Stages): before the loop the copies of tile
    0 go out (with Q's); iteration t sends tile t + 1's copies into stage (t + 1) % 2 and commits
    them, waits until at most one group is in flight (wait_group 1: tile t's copies have landed),
    __syncthreads, computes on stage t % 2, and __syncthreads before the next iteration copies
    over that stage. Lengths are schematic, not measured. Returns the y below it."""
    x0, lane_h, pitch = 130, 24, 32
    copy, compute, issue, gap = 80, 100, 12, 6
    names = ["stage 0 (K, V)", "stage 1 (K, V)", "the 4 warps"]
    for k, name in enumerate(names):
        svg.text(x0 - 10, top + k * pitch + lane_h / 2 + 4, name, size=12, anchor="end")
    # The schedule: (issue time of tile t + 1's copies, wait + barrier, compute start, end).
    iterations, t0 = [], issue
    for t in range(4):
        w = max(t0 + issue, (iterations[-1][0] if iterations else 0) + copy)  # tile t landed
        if t == 0:
            w = copy  # tile 0's copies went out at time 0, before the loop
        iterations.append((t0, w, w + gap, w + gap + compute))
        t0 = w + gap + compute + gap
    issued = [0] + [it[0] for it in iterations]  # tile t's copies go out at issued[t]

    def bar(x, w, lane, label, fill, text_fill=INK):
        svg.cell(x0 + x, top + lane * pitch, w, lane_h, label, fill=fill, size=10,
                 text_fill=text_fill)

    for t in range(5):
        stage = t % 2
        bar(issued[t], copy, stage, f"copy tile {t}", ORANGE)
        if t < 4:
            _, w, start, end = iterations[t]
            landed = issued[t] + copy
            if start - landed > 4:
                bar(landed, start - landed, stage, "", PALE)
                # The label left of the barrier that ends the previous iteration.
                free = iterations[t - 1][3] - landed if t else 0
                if free > 30:
                    svg.text(x0 + landed + free / 2, top + stage * pitch + lane_h / 2 + 4,
                             "landed", size=9, fill=GREY)
            bar(start, end - start, stage, f"warps read tile {t}", SKY)
            bar(start, end - start, 2, f"compute tile {t}", BLUE, text_fill="white")
    end = iterations[-1][3]
    for lane in range(3):
        svg.text(x0 + end + 8, top + lane * pitch + lane_h / 2 + 4, "...", size=14,
                 anchor="start")
    hatch(svg, x0 + issued[1], top + 2 * pitch, copy - issued[1], lane_h)
    svg.rect(x0 + issued[1] + 8, top + 2 * pitch + 5, copy - issued[1] - 16, 14, fill="white",
             stroke="none")
    svg.text(x0 + (issued[1] + copy) / 2, top + 2 * pitch + 16, "wait", size=10)
    # The marks: W above the lanes, B below, c at each commit.
    lanes_bottom = top + 2 * pitch + lane_h
    for t, (t_issue, w, _, e) in enumerate(iterations):
        svg.line(x0 + w, top - 14, x0 + w, lanes_bottom + 4, width=2)
        svg.cell(x0 + w - 8, top - 30, 16, 16, "W", fill=GREEN, size=10, bold=True)
        svg.line(x0 + e, top - 4, x0 + e, lanes_bottom + 14, width=2, dash="5,3")
        svg.cell(x0 + e - 8, lanes_bottom + 14, 16, 16, "B", fill=YELLOW, size=10, bold=True)
        stage = (t + 1) % 2
        svg.cell(x0 + t_issue - 6, top + stage * pitch - 7, 12, 12, "c", fill="white", size=9,
                 bold=True)
        svg.text(x0 + (t_issue + e) / 2, top - 40, f"iteration {t}", size=11, fill=GREY)
    svg.cell(x0 - 6, top - 7, 12, 12, "c", fill="white", size=9, bold=True)
    y = lanes_bottom + 44
    svg.line(x0, y, x0 + end + 36, y, arrow=True)
    svg.text(x0 - 10, y + 4, "time", size=12, anchor="end")
    legend = [("c", "white", "the cp.async copies of tile t + 1 go out into the other stage, then "
                             "commit_group (tile 0's, with Q's, before the loop)"),
              ("W", GREEN, "wait_group 1: this thread's copies of tile t have landed (tile "
                           "t + 1's may not); __syncthreads: everyone's have"),
              ("B", YELLOW, "__syncthreads: every warp is done reading stage t % 2 before the "
                            "next iteration's copies overwrite it")]
    for k, (mark, fill, meaning) in enumerate(legend):
        svg.cell(20, y + 14 + k * 20, 14, 14, mark, fill=fill, size=9, bold=True)
        svg.text(42, y + 25 + k * 20, meaning, size=11, anchor="start")
    return y + 14 + len(legend) * 20


def draw_swizzle(svg, top):
    """(b) 8 rows of a shared tile, chunk positions 0-7 (a row of 64 halves, or the first half
    of a row of 128: c ^ (r % 8) changes only a chunk's low 3 bits), coloured by the logical
    chunk stored there; unswizzled and swizzled. Chunk position p covers banks 4p..4p+3. One
    ldmatrix matrix reads one logical chunk of 8 consecutive rows. Returns the y below it."""
    cw, ch = 32, 20
    panels = [("Unswizzled: chunk c at position c", lambda r, c: c),
              ("Swizzled: chunk c at c XOR a number of the row", swizzled_chunk)]
    for k, (title, position_of) in enumerate(panels):
        px, y0 = 80 + k * 390, top + 52
        svg.text(px + 4 * cw, top, title, size=13, bold=True)
        for p in range(8):
            svg.text(px + p * cw + cw / 2, top + 20, str(p), size=10)
            svg.text(px + p * cw + cw / 2, top + 34, f"{4 * p}-{4 * p + 3}", size=9, fill=GREY)
        svg.text(px - 6, top + 20, "position", size=10, anchor="end")
        svg.text(px - 6, top + 34, "banks", size=10, anchor="end", fill=GREY)
        hits = [0] * 8
        for r in range(8):
            svg.text(px - 6, y0 + r * ch + ch / 2 + 4, f"row {r}", size=11, anchor="end")
            for c in range(8):
                p = position_of(r, c)
                if c == 0:
                    hits[p] += 1
                svg.cell(px + p * cw, y0 + r * ch, cw, ch, str(c), fill=CHUNK_COLOURS[c],
                         size=11, bold=(c == 0), text_fill="white" if c in (4, 5) else INK)
        for r in range(8):  # chunk 0, what one ldmatrix matrix reads: outlined
            svg.rect(px + position_of(r, 0) * cw + 1.5, y0 + r * ch + 1.5, cw - 3, ch - 3,
                     width=2.5)
        svg.rect(px, y0, 8 * cw, 8 * ch, width=2)
        y = y0 + 8 * ch + 8
        svg.text(px - 6, y + 14, "chunk 0", size=10, anchor="end")
        for p in range(8):
            n = hits[p]
            fill = PALE if n == 0 else (GREEN if n == 1 else VERMILION)
            svg.cell(px + p * cw, y, cw, 20, str(n), fill=fill, size=11, stroke=GREY, bold=True)
        verdict = ("chunk 0 of 8 rows: all in banks 0-3, 8 passes" if max(hits) == 8
                   else "chunk 0 of 8 rows: 8 bank groups, 1 pass")
        svg.text(px + 4 * cw, y + 40, verdict, size=12, bold=True,
                 fill=VERMILION if max(hits) > 1 else GREEN)
    y = svg.left_aligned(20, y + 66,
                         "Cell: which chunk (8 halves, 16 bytes) of the row sits at that "
                         "position; 8 positions = 128 bytes = all 32 banks.",
                         "Outlined: chunk 0 of rows 0-7, what one ldmatrix matrix reads; the "
                         "bottom row counts them per position (4 banks).",
                         "Rows of d = 128 halves hold 16 chunks: an XOR with a number below 8 "
                         "changes only c's low 3 bits, so chunks 8-15 move the same way.",
                         size=11, step=16)
    return y


def draw_pipeline_and_swizzle():
    svg = Svg(800, 700, "Step 3: (a) a two-stage cp.async pipeline, the copies of tile t + 1 in "
                        "flight while the warps compute on tile t, with its commit, wait and "
                        "barrier marks; (b) the XOR swizzle of a shared tile, unswizzled and "
                        "swizzled, coloured by logical chunk")
    svg.heading("Step 3 (a): two stages, the copies of tile t + 1 in flight during tile t")
    svg.left_aligned(20, 46, "Time left to right, lengths schematic. A stage holds a K tile and "
                             "a V tile; tile t uses stage t % 2.", size=12)
    y = draw_pipeline(svg, 106)
    svg.text(20, y + 24, "(b) XOR swizzle: 8 rows of a shared tile, coloured by which 16-byte "
                         "chunk they hold", size=14, anchor="start", bold=True)
    y = draw_swizzle(svg, y + 52)
    svg.height = y - 2
    return svg.render()


FIGURES = {
    "accumulator-is-a-fragment.svg": draw_accumulator_is_a_fragment,
    "flash-loop.svg": draw_flash_loop,
    "pipeline-and-swizzle.svg": draw_pipeline_and_swizzle,
}

"""Chapter 11's figures, drawn from the fragment layouts, the loop, the pipeline, the producer
and consumers and the two overlaps of its solution (step2_flash_mma.cu, step3_pipelined.cu,
step4_wgmma.cu, step5_pingpong.cu); redraw with python3 -m tools.figures (from the repository
root)."""
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


# Step 4's timeline, in schematic pixels of time: a TMA issue box, and how long from a copy's
# issue to its landing; a consumer's S and P V products and its softmax (consumer 2's a little
# longer, so that the two drift apart and the later arrival on k_empty or v_empty is the one that
# counts).
ISSUE, LANDS = 22, 70
S_TIME, PV_TIME, TILE_GAP = 36, 36, 4
SOFTMAX_TIME = (46, 50)
CONSUMER_TILES, PRODUCER_TILES = 4, 6


def step4_schedule():
    """step4_wgmma.cu's schedule, tile by tile, kStep4Stages = 2: the producer issues Q, then each
    tile t's K once the consumers have given K of tile t - 2 back (k_empty of stage t % 2: both
    consumers' scores of tile t - 2 done) and its V once they have given V of tile t - 2 back
    (v_empty: both products of tile t - 2 done); tiles 0 and 1 at once. A consumer starts tile
    t's S once K has landed and its P V once V has. Returns the producer's (K issue, V issue)
    times per tile, the consumers' (S start, P V start, end) per tile, and per tile when K and
    when V were given back (the later consumer's arrival)."""
    issued, k_back, v_back = [], [], []
    consumers = [[] for _ in SOFTMAX_TIME]
    free = ISSUE  # the producer after Q's copy
    for t in range(PRODUCER_TILES):
        k = max(free, k_back[t - 2]) if t >= 2 else free
        v = max(k + ISSUE, v_back[t - 2]) if t >= 2 else k + ISSUE
        issued.append((k, v))
        free = v + ISSUE
        if t < CONSUMER_TILES:
            scores, products = [], []
            for c, softmax in enumerate(SOFTMAX_TIME):
                after = consumers[c][-1][2] + TILE_GAP if t else LANDS  # Q landed
                s = max(after, k + LANDS)                               # K landed
                pv = max(s + S_TIME + softmax, v + LANDS)               # V landed
                consumers[c].append((s, pv, pv + PV_TIME))
                scores.append(s + S_TIME)
                products.append(pv + PV_TIME)
            k_back.append(max(scores))
            v_back.append(max(products))
    return issued, consumers, k_back, v_back


def waiting(svg, x, y, w, h, label, size=9):
    """A hatched wait with a label on a white patch."""
    hatch(svg, x, y, w, h)
    if label:
        width = len(label) * size * 0.5 + 8
        svg.rect(x + (w - width) / 2, y + h / 2 - 6, width, 12, fill="white", stroke="none")
        svg.text(x + w / 2, y + h / 2 + 3.5, label, size=size)


def legend_row(svg, y, items, char_width, gap):
    """One row of a timeline's legend at height y: each item a cell with its mark (or, for None,
    a wait) and its meaning beside it; char_width (a share of the font size) and gap space them."""
    x = 20
    for mark, meaning in items:
        if mark:
            svg.cell(x, y, 22, 14, mark[0], fill=mark[1], size=9, bold=True)
        else:
            waiting(svg, x, y, 22, 14, "")
        svg.text(x + 30, y + 11, meaning, size=11, anchor="start")
        x += 30 + len(meaning) * 11 * char_width + gap


def draw_step4_timeline(svg, top):
    """(a) The three warpgroups and the two stages (K above V in each) over time. Returns the y
    below it."""
    x0, lane_h, half = 150, 24, 13
    issued, consumers, k_back, v_back = step4_schedule()
    end = max(c[-1][2] for c in consumers) + TILE_GAP
    lanes = {"producer": top, 0: top + 32, 1: top + 64, "c0": top + 112, "c1": top + 144}
    names = [("producer", "WG 0: producer", "setmaxnreg.dec, 1 thread"),
             (0, "stage 0: K, V", "tiles 0, 2, 4, ..."), (1, "stage 1: K, V", "tiles 1, 3, 5, ..."),
             ("c0", "WG 1: consumer", "query rows 0-63"),
             ("c1", "WG 2: consumer", "query rows 64-127")]
    for key, name, note in names:
        y = lanes[key]
        svg.text(x0 - 10, y + 10, name, size=12, anchor="end", bold=True)
        svg.text(x0 - 10, y + 22, note, size=10, anchor="end", fill=GREY)

    def bar(x, w, key, label, fill, size=10, **style):
        svg.cell(x0 + x, lanes[key], w, lane_h, label, fill=fill, size=size, **style)

    # The producer: Q, then K t and V t per tile, each after its wait on k_empty or v_empty
    # (from tile 2 on; a wait too short to name is left unnamed).
    # The last copy drawn is the one that fits before the end.
    p = lanes["producer"]
    bar(0, ISSUE, "producer", "Q", SKY)
    free = ISSUE
    for t, (k, v) in enumerate(issued):
        for name, start in (("K", k), ("V", v)):
            if start > free:
                label = f"{name.lower()}_empty[{t % 2}]"
                waiting(svg, x0 + free, p, start - free, lane_h,
                        label if start - free >= len(label) * 4.5 + 10 else "")
            if start + ISSUE > end:
                break
            bar(start, ISSUE, "producer", f"{name}{t}", SKY)
            free = start + ISSUE
    svg.text(x0 + (ISSUE + issued[1][1] + ISSUE) / 2, p - 6,
             "round 0: k_empty, v_empty pass at once", size=10, fill=GREY)

    # The later arrival completes k_empty (v_empty) of the stage: the producer refills it (the
    # dashed lines, drawn over the stages and under the consumers' boxes).
    given_back = [given for given in k_back + v_back if given <= end]

    def place_label(x, w, y, label, ink):
        """A stage piece's label from its left, or else right of a dashed line inside it, where
        it crosses none; "K0 in use" may shorten to "in use"; none where nothing fits."""
        for text in (label, label.split(" ", 1)[-1]):
            width = len(text) * 4.5
            for left in [x + 3] + [g + 3 for g in given_back if x < g < x + w]:
                if left + width + 3 <= x + w and not any(
                        left - 2 <= g <= left + width + 2 for g in given_back):
                    svg.text(x0 + left, y + half - 3, text, size=9, anchor="start", fill=ink)
                    return

    # The stages, K on top and V below: a tile's copy in flight, landed, then in use until both
    # consumers have given it back.
    for t, (k, v) in enumerate(issued):
        stage = t % 2
        for row, (name, start, back, first_use) in enumerate((
                ("K", k, k_back, lambda c: c[t][0]),
                ("V", v, v_back, lambda c: c[t][1]))):
            if start + ISSUE > end:
                continue
            y = lanes[stage] + row * half
            landed = start + LANDS
            if t < CONSUMER_TILES:
                used = max(landed, min(first_use(c) for c in consumers))
                until = back[t]
            else:
                used = until = end
            for x, w, label, fill, stroke, ink in (
                    (start, LANDS, f"TMA {name}{t}", SKY, INK, INK),
                    (landed, used - landed, "landed", "white", GREY, GREY),
                    (used, until - used, f"{name}{t} in use", PALE, INK, INK)):
                if w > 0:
                    svg.rect(x0 + x, y, w, half, fill=fill, stroke=stroke)
                    place_label(x, w, y, label, ink)

    for given in given_back:
        svg.line(x0 + given, lanes["c1"] - 7, x0 + given, p + lane_h + 2, width=1.5, dash="4,3",
                 arrow=True)

    # The consumers: wait for Q and K 0, then S, softmax, P V per tile; K given back after S,
    # V after P V (the marks drawn last, over the dashed lines).
    marks = []
    for c, tiles in enumerate(consumers):
        key = f"c{c}"
        y = lanes[key]
        waiting(svg, x0, y, tiles[0][0], lane_h, "wait Q, K0")
        for t, (s, pv, done) in enumerate(tiles):
            bar(s, S_TIME, key, "S", ORANGE, bold=True)
            bar(s + S_TIME, pv - s - S_TIME, key, "softmax", LIGHT)
            bar(pv, PV_TIME, key, "PV", YELLOW, bold=True)
            marks += [(s + S_TIME, y, "k"), (done, y, "v")]
            if c == 0:
                svg.text(x0 + (s + S_TIME + done) / 2, y - 8, f"tile {t}", size=10, fill=GREY)
    for x, y, mark in marks:
        svg.cell(x0 + x - 6, y - 6, 12, 12, mark, fill=GREEN, size=9, bold=True)
    for key in lanes:
        svg.text(x0 + end + 6, lanes[key] + lane_h / 2 + 4, "...", size=14, anchor="start")
    y = lanes["c1"] + lane_h + 18
    svg.line(x0, y, x0 + end + 34, y, arrow=True)
    svg.text(x0 - 10, y + 4, "time", size=12, anchor="end")

    # The legend.
    legend = [
        [(("K1", SKY), "thread 0: wait k_empty (v_empty), arrive_and_expect_bytes on k_full "
                       "(v_full), TMA boxes of K (V)"), (None, "an mbarrier wait")],
        [(("S", ORANGE), "wait k_full; wgmma S = Q K^T, both operands from shared memory: "
                         "64 x 128 scores in registers; wgmma_wait")],
        [(("sm", LIGHT), "mask, online softmax"),
         (("PV", YELLOW), "wait v_full; P to FP16 in registers; wgmma O += P V; wgmma_wait")],
        [(("k", GREEN), "lane 0 of each consumer warp arrives on k_empty after S,"),
         (("v", GREEN), "on v_empty after PV; the 8th arrival frees K (V): dashed")],
    ]
    for items in legend:
        y += 17
        legend_row(svg, y, items, 0.55, 24)
    return y + 14


def draw_step4_shared(svg, top):
    """(b) The block's shared memory, D = 128 (two boxes a tile), its barriers, and who issues,
    waits and arrives. Returns the y below it."""
    px, pw = 20, 86                      # the producer
    bx, bw = 158, 80                     # box 0; box 1 follows
    fx, fw = bx + 2 * bw + 40, 76        # the full barriers
    frame_x, frame_r = bx - 8, fx + fw + 8
    cx, cw = 484, 118                    # the consumers
    row_h = 17

    def arrow(x1, x2, y, label, middle=None, **style):
        svg.line(x1, y, x2, y, arrow=True, **style)
        svg.text((x1 + x2) / 2 if middle is None else middle, y - 3, label, size=10)

    svg.text(bx + bw / 2, top + 8, "box 0", size=10, fill=GREY)
    svg.text(bx + 3 * bw / 2, top + 8, "box 1", size=10, fill=GREY)
    y = q_top = top + 14
    # The Q tile: rows 0-63 (consumer 1) over rows 64-127 (consumer 2), in each box.
    svg.rect(frame_x, y, frame_r - frame_x, 16 + 2 * row_h + 6, stroke=GREY)
    svg.text(frame_x + 6, y + 13, "Q tile, loaded once", size=11, anchor="start", bold=True)
    rows = y + 16
    for b in range(2):
        svg.cell(bx + b * bw, rows, bw, row_h, "rows 0-63", size=10)
        svg.cell(bx + b * bw, rows + row_h, bw, row_h, "rows 64-127", size=10)
    svg.cell(fx, rows + row_h / 2, fw, row_h, "q_full", fill=SKY, size=11, bold=True)
    middle = rows + row_h
    arrow(px + pw, bx - 1, middle, "TMA")
    arrow(bx + 2 * bw, fx - 1, middle, "bytes")
    arrow(fx + fw, cx - 1, middle, "wait")
    y = rows + 2 * row_h + 6 + 6
    for s in range(2):
        k_row = y + 16
        v_row = k_row + row_h + 2
        ke_row = v_row + row_h + 5
        ve_row = ke_row + row_h + 2
        svg.rect(frame_x, y, frame_r - frame_x, ve_row + row_h + 5 - y, stroke=GREY)
        svg.text(frame_x + 6, y + 13, f"stage {s}", size=11, anchor="start", bold=True)
        svg.text(frame_x + 58, y + 13, f"(tiles {s}, {s + 2}, {s + 4}, ...)", size=10,
                 anchor="start", fill=GREY)
        for row, name in ((k_row, "K"), (v_row, "V")):
            for b in range(2):
                svg.cell(bx + b * bw, row, bw, row_h, f"{name}: 128 keys", size=10)
            svg.cell(fx, row, fw, row_h, f"{name.lower()}_full[{s}]", fill=SKY, size=11,
                     bold=True)
            arrow(px + pw, bx - 1, row + row_h / 2, "TMA")
            arrow(bx + 2 * bw, fx - 1, row + row_h / 2, "bytes")
            arrow(fx + fw, cx - 1, row + row_h / 2, "wait")
        for row, name, after in ((ke_row, "k", "after S"), (ve_row, "v", "after PV")):
            svg.cell(bx, row, bw, row_h, f"{name}_empty[{s}]", fill=GREEN, size=11, bold=True)
            svg.text(bx + bw + 6, row + row_h / 2 + 4, f"8 arrivals, {after}", size=10,
                     anchor="start", fill=GREY)
            # The label clear of the full barrier above.
            arrow(cx, bx + bw + 112, row + row_h / 2, "arrive", middle=(fx + fw + cx) / 2)
            arrow(bx, px + pw + 1, row + row_h / 2, "wait", dash="4,3")
        y = ve_row + row_h + 5 + 6
    bottom = y - 6
    # The producer and the consumers, as tall as the tiles.
    svg.rect(px, q_top, pw, bottom - q_top, fill=PALE, width=1.5)
    svg.text(px + 8, q_top + 18, "Producer", size=12, anchor="start", bold=True)
    svg.left_aligned(px + 8, q_top + 36, "WG 0, one", "thread: every", "TMA copy", size=11,
                     step=15)
    svg.rect(cx, q_top, cw, bottom - q_top, fill=PALE, width=1.5)
    svg.text(cx + 8, q_top + 18, "Consumers", size=12, anchor="start", bold=True)
    svg.left_aligned(cx + 8, q_top + 36, "WG 1: rows 0-63", "WG 2: rows 64-127", size=11,
                     step=15)
    svg.left_aligned(cx + 8, q_top + 76, "wgmma reads Q,", "K and V from", "shared memory,",
                     "P from registers", size=10, step=14, fill=GREY)
    svg.left_aligned(cx + 8, q_top + 148, "K goes back as", "soon as the scores", "are done, V "
                     "after", "the product", size=10, step=14, fill=GREY)
    return bottom


def draw_parities(svg, x, top):
    """(c) The parity each wait names in rounds 0-2 (round = t / 2), a narrow table at x.
    Returns the y below it."""
    widths = [36, 34, 50, 60]
    svg.text(x, top + 12, "(c) Parity waited on", size=13, anchor="start", bold=True)
    y = top + 20
    cx = x
    for w, head in zip(widths, ("round", "t", "k/v_full", "k/v_empty")):
        svg.cell(cx, y, w, 20, head, fill=LIGHT, size=10, bold=True)
        cx += w
    y += 20
    for r in range(3):
        values = [(str(r), "white"), (f"{2 * r}, {2 * r + 1}", "white"),
                  (str(r % 2), SKY), (str((r + 1) % 2) + ("*" if r == 0 else ""), GREEN)]
        cx = x
        for w, (value, fill) in zip(widths, values):
            svg.cell(cx, y, w, 20, value, fill=fill, size=11, bold=fill != "white")
            cx += w
        y += 20
    return svg.left_aligned(x, y + 16, "full: the consumers' waits;", "empty: the producer's",
                            "waits", "* a fresh mbarrier counts as", "having completed parity 1:",
                            "round 0's waits pass at once", "", "q_full, k_full, v_full: 1 "
                            "arrival", "(arrive_and_expect_bytes) and", "the bytes it "
                            "announced; q_full", "is waited on once, parity 0", size=10,
                            step=14)


def draw_producer_and_consumers():
    svg = Svg(800, 700, "Step 4: warpgroup 0 issues every TMA copy, the Q tile once and the K "
                        "and V tiles into two stages; warpgroups 1 and 2 compute 64 query rows "
                        "each with wgmma, wait on k_full and v_full, give K back on k_empty "
                        "once their scores are done and V on v_empty once their product is; "
                        "the parity each wait names in rounds 0, 1 and 2")
    svg.heading("Step 4 (a): a producer warpgroup runs up to 2 stages ahead of two consumers")
    svg.left_aligned(20, 46, "384 threads = 3 warpgroups (WG). Time left to right, lengths "
                             "schematic; key tile t (128 keys) uses stage t % 2, round t / 2.",
                     size=12)
    y = draw_step4_timeline(svg, 74)
    svg.text(20, y + 24, "(b) The block's shared memory and its barriers", size=13,
             anchor="start", bold=True)
    top = y + 34
    y = draw_step4_shared(svg, top)
    draw_parities(svg, 610, top + 6)
    y = svg.left_aligned(20, y + 18, "A tile: D / 64 boxes of 128 rows x 128 bytes (64 "
                                     "dimensions), 128-byte swizzle; D = 128 drawn.", size=11)
    svg.height = y - 6
    return svg.render()


# Step 5's figure, in schematic pixels of time at d = 128: one 64 x 128 x 128 wgmma (S or P V of
# a warpgroup's tile) alone on the tensor cores, a tile's softmax (about 1 / 1.3 of it), issuing
# a product (or a turn's two), and step 5's O rescale plus P's packing after the product.
GEMM, SOFTMAX, ISSUE_PRODUCT, RESCALE = 56, 43, 6, 10
STEP4_LAG = 4        # consumer 2 a little behind consumer 1 (the same barriers wake both)
OVERLAP_END = 660    # the time drawn in both panels


def step4_products():
    """Step 4's two consumers, as one fluid simulation: each issues S of tile t, waits for it,
    runs the softmax, issues P V, waits for it; the tensor cores split their rate evenly between
    the warpgroups that have a product in flight (issued at about the same time, their wgmma
    interleave). A product starts as its first wgmma is issued. Returns, per consumer, (what,
    tile, start, end) with what one of "lag", "S", "softmax", "PV" (S and PV: from the issue to
    the end of the wait for the product), and the tensor cores' busy pieces (start, end, the set
    of products in flight)."""
    programs = []
    for c in range(2):
        ops = [("lag", 0, STEP4_LAG, False)] if c else []
        for t in range(8):
            ops += [("S", t, GEMM, True), ("softmax", t, SOFTMAX, False),
                    ("PV", t, GEMM, True)]
        programs.append(ops)
    at = [0, 0]                                    # the op each consumer is in
    left = [programs[c][0][2] for c in range(2)]   # its time (or, on the tensor cores, work) left
    began = [0.0, 0.0]
    done = [[], []]
    busy = []
    now = 0.0
    while now < OVERLAP_END:
        on_cores = [c for c in range(2) if programs[c][at[c]][3]]
        rate = {c: 1 / len(on_cores) if c in on_cores else 1 for c in range(2)}
        step = min(left[c] / rate[c] for c in range(2))
        if on_cores:
            busy.append((now, now + step, frozenset(programs[c][at[c]][0] for c in on_cores)))
        for c in range(2):
            left[c] -= step * rate[c]
        now += step
        for c in range(2):
            if left[c] <= 1e-9:
                what, tile = programs[c][at[c]][:2]
                done[c].append((what, tile, began[c], now))
                at[c] += 1
                left[c], began[c] = programs[c][at[c]][2], now
    for c in range(2):  # what each is in at the end, cut there
        what, tile = programs[c][at[c]][:2]
        done[c].append((what, tile, began[c], OVERLAP_END))
    # One piece per stretch of the same products.
    merged = []
    for start, end, what in busy:
        if merged and merged[-1][2] == what and abs(merged[-1][1] - start) < 1e-9:
            merged[-1] = (merged[-1][0], end, what)
        else:
            merged.append((start, end, what))
    return done, merged


def step5_products():
    """Step 5's two consumers (pingpong_kernel): the turns alternate, consumer 1 (WG 1) first,
    each taken once the other consumer has passed its previous one; a turn issues S of tile i
    and P V of tile i - 1 (tile 0: S alone), and the tensor cores run the products in the order
    the turns issued them, each alone (from its turn's start at the earliest). After its turn, a
    consumer waits for S (wgmma_wait<1>), runs the softmax, waits for the product
    (wgmma_wait<0>), rescales O and packs P. Returns the turns (consumer, tile, start, end),
    the products (consumer, "S" or "PV", tile, start, end) and, per consumer, its pieces (what,
    tile, start, end) with what one of "wait turn", "turn", "wait S", "softmax", "wait PV",
    "rescale"."""
    turns, products, pieces = [], [], [[], []]
    ready, passed, cores = [0, 0], 0, 0
    for k in range(16):
        c, i = k % 2, k // 2
        start = max(ready[c], passed)
        if start >= OVERLAP_END:
            break
        if start > ready[c]:
            pieces[c].append(("wait turn", i, ready[c], start))
        turns.append((c, i, start, start + ISSUE_PRODUCT))
        pieces[c].append(("turn", i, start, start + ISSUE_PRODUCT))
        passed = start + ISSUE_PRODUCT
        finished = {}
        for what, tile in (("S", i), ("PV", i - 1)):
            if tile >= 0:
                begin = max(cores, start)
                cores = begin + GEMM
                products.append((c, what, tile, begin, cores))
                finished[what] = cores
        pieces[c].append(("wait S", i, passed, max(passed, finished["S"])))
        softmax_end = finished["S"] + SOFTMAX
        pieces[c].append(("softmax", i, finished["S"], softmax_end))
        after = softmax_end
        if "PV" in finished and finished["PV"] > softmax_end:
            pieces[c].append(("wait PV", i, softmax_end, finished["PV"]))
            after = finished["PV"]
        pieces[c].append(("rescale", i, after, after + RESCALE))
        ready[c] = after + RESCALE
    return turns, products, pieces


def clipped(svg, x0, x, w, y, h, label, fill, size=9, **style):
    """A box of the overlap figure, cut at OVERLAP_END; its label only where it fits."""
    w = min(w, OVERLAP_END - x)
    if w <= 0:
        return
    svg.rect(x0 + x, y, w, h, fill=fill, stroke=style.get("stroke", INK))
    if label and len(label) * size * 0.5 + 4 <= w:
        svg.text(x0 + x + w / 2, y + h / 2 + size * 0.36, label, size=size,
                 fill=style.get("text_fill", INK), bold=style.get("bold", False))


def clipped_wait(svg, x0, x, w, y, h, label):
    """A wait of the overlap figure, cut at OVERLAP_END; its label only where it fits."""
    w = min(w, OVERLAP_END - x)
    if w > 0:
        waiting(svg, x0 + x, y, w, h, label if len(label) * 4.5 + 10 <= w else "")


def time_axis(svg, x0, y):
    """The arrow of time under a panel of the overlap figure; returns y."""
    svg.line(x0, y, x0 + OVERLAP_END + 20, y, arrow=True)
    svg.text(x0 - 10, y + 4, "time", size=11, anchor="end")
    return y


def draw_two_overlaps():
    svg = Svg(800, 700, "Step 4 against step 5 on one time scale: in step 4 the two consumer "
                        "warpgroups run S, softmax and P V in step, their products share the "
                        "tensor cores and the tensor cores idle through every softmax; in step 5 "
                        "each turn issues S of tile t with P V of tile t - 1, the softmax runs "
                        "while that product does, and the two warpgroups take turns, so the "
                        "tensor cores always have a product to run")
    svg.heading("Step 5: two overlaps keep the tensor cores busy through the softmax")
    svg.left_aligned(20, 46, "Time left to right, the same scale in both panels, d = 128: one "
                             "64 x 128 x 128 wgmma (S or P V of one warpgroup's tile)",
                     "alone on the tensor cores takes about 1.3 times that tile's softmax "
                     "(FP32 units: exponentials, max, sums). Lengths schematic.", size=12,
                     step=17)
    x0, lane_h = 110, 22

    def names(rows):
        for y, name, note in rows:
            svg.text(x0 - 10, y + 10, name, size=12, anchor="end", bold=True)
            svg.text(x0 - 10, y + 21, note, size=9, anchor="end", fill=GREY)

    def ends(rows):
        for y in rows:
            svg.text(x0 + OVERLAP_END + 5, y + lane_h / 2 + 4, "...", size=14, anchor="start")

    # Step 4: the two consumers in step.
    top = 102
    svg.text(20, top - 12, "Step 4: per tile, S, wait, softmax, P V, wait; both consumers at "
                           "about the same time", size=13, anchor="start", bold=True)
    wg = [top, top + 30]
    cores = top + 66
    names([(wg[0], "WG 1", "consumer"), (wg[1], "WG 2", "consumer"),
           (cores, "tensor cores", "both WGs' wgmma")])
    done, busy = step4_products()
    for c, pieces in enumerate(done):
        for what, tile, start, end in pieces:
            if what in ("S", "PV"):  # the issue, then the wait
                clipped(svg, x0, start, ISSUE_PRODUCT, wg[c], lane_h, "",
                        ORANGE if what == "S" else YELLOW)
                clipped_wait(svg, x0, start + ISSUE_PRODUCT, end - start - ISSUE_PRODUCT,
                             wg[c], lane_h, f"wait {what}{tile}")
            elif what == "softmax":
                clipped(svg, x0, start, end - start, wg[c], lane_h, "softmax", LIGHT)
            elif what == "lag":
                clipped_wait(svg, x0, start, end - start, wg[c], lane_h, "")
    last = 0
    for start, end, what in busy:
        if start > last + 1e-9:
            clipped_wait(svg, x0, last, start - last, cores, lane_h, "idle")
        last = end
        if what == {"S"} or what == {"PV"}:
            kind = next(iter(what))
            fill = ORANGE if kind == "S" else YELLOW
            clipped(svg, x0, start, end - start, cores, lane_h, f"{kind} of WG 1 and WG 2",
                    fill)
        else:  # the tail of one's P V under the start of the other's S: half and half
            clipped(svg, x0, start, end - start, cores, lane_h / 2, "", ORANGE)
            clipped(svg, x0, start, end - start, cores + lane_h / 2, lane_h / 2, "", YELLOW)
    ends(wg + [cores])
    y = time_axis(svg, x0, cores + lane_h + 14)
    y = svg.left_aligned(20, y + 18,
                         "Both wait for the same tiles and run the same code: their products "
                         "share the tensor cores (each at half rate), and their",
                         "softmaxes fall together: the tensor cores idle through every one of "
                         "them.", size=11, step=15)

    # Step 5: turns, each issuing S t with P V t - 1.
    top = y + 34
    svg.text(20, top - 18, "Step 5: (a) S t and P V t - 1 issued in one turn; (b) the two "
                           "consumers take turns", size=13, anchor="start", bold=True)
    wg = [top, top + lane_h + 26]
    cores = wg[1] + lane_h + 22
    names([(wg[0], "WG 1", "consumer"), (wg[1], "WG 2", "consumer"),
           (cores, "tensor cores", "in turn order")])
    turns, products, pieces = step5_products()
    colours = {"S": ORANGE, "PV": YELLOW}
    marks = []
    for c, mine in enumerate(pieces):
        edge = wg[c] if c == 0 else wg[c] + lane_h  # WG 1's labels and marks above, WG 2's below
        for what, tile, start, end in mine:
            if what == "turn":
                clipped(svg, x0, start, end - start, wg[c], lane_h, "", BLUE)
                svg.text(x0 + start, edge + (-4 if c == 0 else 12), "turn", size=9,
                         anchor="start", fill=BLUE, bold=True)
            elif what == "wait S":
                clipped_wait(svg, x0, start, end - start, wg[c], lane_h,
                             f"wait<{1 if tile else 0}>: S{tile}")
                marks.append((end, edge, "k"))
            elif what == "softmax":
                clipped(svg, x0, start, end - start, wg[c], lane_h, "softmax", LIGHT)
            elif what in ("wait PV", "wait turn"):
                clipped_wait(svg, x0, start, end - start, wg[c], lane_h, "")
            elif what == "rescale":
                if tile:
                    marks.append((start, edge, "v"))
                clipped(svg, x0, start, end - start, wg[c], lane_h, "r", PURPLE, bold=True)
    for x, y, mark in marks:
        if x < OVERLAP_END:
            svg.cell(x0 + x - 5, y - 5, 10, 10, mark, fill=GREEN, size=8, bold=True)
    # The handoffs: a turn's bar.arrive on the other's barrier, to the other's next bar.sync
    # (the arrow's tip on the middle of that turn).
    for (c, _, _, passed), (_, _, taken, _) in zip(turns, turns[1:]):
        tip = taken + ISSUE_PRODUCT / 2
        if tip < OVERLAP_END:
            if c == 0:
                svg.line(x0 + passed, wg[0] + lane_h + 1, x0 + tip, wg[1] - 2, arrow=True)
            else:
                svg.line(x0 + passed, wg[1] - 1, x0 + tip, wg[0] + lane_h + 2, arrow=True)
    for c, what, tile, start, end in products:
        clipped(svg, x0, start, end - start, cores, lane_h, f"WG {c + 1}: {what}{tile}",
                colours[what])
    ends(wg + [cores])
    y = time_axis(svg, x0, cores + lane_h + 14)
    y = svg.left_aligned(20, y + 20,
                         "(a) In a warpgroup: a turn issues S t, then P V t - 1. Groups complete "
                         "in order: wgmma_wait<1> returns once S t is done,",
                         "and the softmax of tile t runs while P V t - 1 is on the tensor cores. "
                         "After wgmma_wait<0>, O is rescaled by the factor",
                         "the softmax kept, and P t is packed (r). K t goes back after S t, "
                         "V t - 1 after P V t - 1.", size=11, step=15)
    y = svg.left_aligned(20, y + 4,
                         "(b) Between the warpgroups: each passes the turn on (arrows; WG 2 "
                         "passes once before its first, so WG 1 starts), so their",
                         "products never interleave: one's run while the other waits or runs its "
                         "softmax, their softmaxes never coincide, and the",
                         "next turn's products are always queued: the tensor cores never idle.",
                         size=11, step=15)

    # The legend, two marks or three a line.
    legend = [
        [(("", BLUE), "turn: bar.sync on my named barrier (WG 1: 1, WG 2: 2), issue, bar.arrive "
                      "on the other's"),
         (("r", PURPLE), "O *= kept factor; pack P")],
        [(("S", ORANGE), "S = Q K^T"), (("PV", YELLOW), "O += P V (step 4's small boxes: "
                                                       "their issue)"),
         (("sm", LIGHT), "mask, softmax"), (None, "wait")],
        [(("k", GREEN), "arrive on k_empty: K given back"),
         (("v", GREEN), "arrive on v_empty: V given back (lane 0 of each warp)")],
    ]
    for items in legend:
        y += 4
        legend_row(svg, y, items, 0.5, 22)
        y += 16
    svg.height = y + 4
    return svg.render()


FIGURES = {
    "accumulator-is-a-fragment.svg": draw_accumulator_is_a_fragment,
    "flash-loop.svg": draw_flash_loop,
    "pipeline-and-swizzle.svg": draw_pipeline_and_swizzle,
    "producer-and-consumers.svg": draw_producer_and_consumers,
    "two-overlaps.svg": draw_two_overlaps,
}

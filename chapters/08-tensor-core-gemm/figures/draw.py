"""Chapter 08's figures, drawn from the fragment layout, swizzle, ring and tile schedule of its
solution's steps; redraw with python3 -m tools.figures (from the repository root)."""
from tools.svg import (BLUE, GREEN, GREY, LIGHT, ORANGE, PALE, PURPLE, SKY, THREAD_COLOURS,
                       VERMILION, YELLOW, Svg, column_numbers)


def draw_mma_fragment_a():
    """The A fragment of mma.sync.aligned.m16n8k16: 16 x 16 halves. With g = lane / 4 and
    t = lane % 4, lane l holds a0 = A(g, 2t..2t+1), a1 = A(g+8, 2t..2t+1), a2 = A(g, 2t+8..2t+9),
    a3 = A(g+8, 2t+8..2t+9). ldmatrix.x4: lanes 8i..8i+7 give the row addresses of matrix i,
    which lands in register a_i. (Which rows those are is step 2's exercise: not drawn.)"""
    cw, ch = 26, 22
    x0, y0 = 56, 84
    svg = Svg(800, 668, "The A fragment of mma.sync m16n8k16: which lane holds which two halves "
                        "of A in which register, and how ldmatrix.x4 loads it")
    svg.heading("A fragment of mma.sync.aligned.m16n8k16: 16 x 16 halves, 4 registers of "
                "2 halves in each lane")
    svg.text(x0 + 8 * cw, y0 - 26, "column of A (k)", size=11, fill=GREY)
    column_numbers(svg, x0, y0 - 18, 16, cw, "row", size=10)
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
    svg.left_aligned(lx, y0 + 4, "g = lane / 4, t = lane % 4", size=13, bold=True)
    quadrant = ["rows 0-7, columns 0-7", "rows 8-15, columns 0-7", "rows 0-7, columns 8-15",
                "rows 8-15, columns 8-15"]
    formula = ["A(g, 2t..2t+1)", "A(g+8, 2t..2t+1)", "A(g, 2t+8..2t+9)", "A(g+8, 2t+8..2t+9)"]
    for i in range(4):
        y = y0 + 22 + i * 44
        svg.cell(lx, y, 34, 22, f"a{i}", fill=THREAD_COLOURS[i], size=12, bold=True)
        svg.left_aligned(lx + 44, y + 10, f"a{i} = {formula[i]}")
        svg.left_aligned(lx + 44, y + 26, quadrant[i], size=11, fill=GREY)
    svg.left_aligned(
        lx, y0 + 214,
        "Each cell: one 32-bit register of", "one lane = 2 halves (2 columns).",
        "Row r is held by lanes 4(r % 8)", "to 4(r % 8) + 3; each lane holds",
        "8 halves, 2 in each quadrant.")
    # ldmatrix.x4: lanes 8i..8i+7 give the row addresses of matrix i.
    y = y0 + 16 * ch + 40
    svg.left_aligned(20, y, "ldmatrix.x4 loads it: each lane gives one row address, matrix i "
                            "lands in register a_i", size=13, bold=True)
    svg.left_aligned(20, y + 20, "each lane gives the address of one row of 8 halves (16 bytes); "
                                 "which rows of the tile, the register table above tells")
    for i in range(4):
        gx, gy = 20 + i * 194, y + 36
        for j in range(8):
            svg.cell(gx + j * 22, gy, 22, 22, str(8 * i + j), fill=THREAD_COLOURS[i], size=10)
        svg.text(gx + 88, gy + 38, f"lanes {8 * i}-{8 * i + 7}: the 8 row", size=12)
        svg.text(gx + 88, gy + 54, f"addresses of matrix {i}", size=12)
        svg.line(gx + 88, gy + 60, gx + 88, gy + 84, arrow=True)
        svg.cell(gx, gy + 86, 176, 26, f"matrix {i} into a{i}", fill=THREAD_COLOURS[i], size=12,
                 bold=True)
    svg.left_aligned(20, y + 172, "From each 8 x 8 matrix i, a lane receives row lane / 4, halves "
                                  "2(lane % 4) and 2(lane % 4) + 1: its register a_i above.")
    return svg.render()


def draw_swizzle():
    """A shared tile with rows of 128 bytes = 8 pieces of 16 bytes (8 halves). Piece c of row r
    is stored at slot c (unswizzled) or at slot c ^ (r % 8) (swizzled: step 3, and the TMA's
    128-byte swizzle). Slot s covers banks 4s..4s+3 (32 banks of 4 bytes). One 8 x 8 matrix of
    ldmatrix reads piece 0 of rows 0..7."""
    cw, ch = 42, 28
    svg = Svg(800, 545, "The XOR swizzle: where the 16-byte pieces of 128-byte rows are stored, "
                        "and how many passes one ldmatrix matrix needs, without and with it")
    svg.heading("XOR swizzle of a shared tile: rows of 128 bytes = 8 pieces of 16 bytes (8 halves)")
    svg.left_aligned(20, 44, "Numbers: the piece stored in each slot. Orange: piece 0 of rows "
                             "0-7, what one 8 x 8 matrix of ldmatrix reads.")
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
    y = svg.left_aligned(20, 462, "Shared memory has 32 banks of 4 bytes; a 16-byte piece spans 4 "
                                  "of them, so a 128-byte row covers every bank once.",
                         "Unswizzled, piece c of every row sits in banks 4c..4c+3: the 8 rows of "
                         "one ldmatrix matrix collide, one pass each.",
                         "Swizzled, the 8 rows put their piece c in 8 different slots, for every "
                         "c: one pass serves all 8.")
    y = svg.left_aligned(20, y + 14, "slot = piece ^ x, with a different x (0-7) for each of "
                                     "the 8 rows:", "the same function for the copy and for "
                                                    "ldmatrix", size=13, bold=True)
    svg.height = y + 4
    return svg.render()


def draw_producer_consumer_ring():
    """Steps 4-6 (Hopper): kStages = 4 stages of A's 128 x 64 and B's 64 x 256 tiles, barriers
    full[s] (count 1, plus the stage's 48 KiB) and empty[s] (count 8: one arrive per consumer
    warp). Slice t uses stage s = t % 4 in lap t / 4. Producer (thread 0: in step 4 one of the
    consumers' threads, in steps 5-6 of warpgroup 0): waits for empty[s], announces 48 KiB on
    full[s], starts 5 TMA copies. Consumers (step 4: 8 warps, mma.sync; steps 5-6: warpgroups
    1, 2, wgmma): wait for full[s], multiply, arrive on empty[s]. The table gives each slice's stage, lap and
    the parity each side waits for: the consumers the phase of full[s] the producer completes on
    this lap, the producer the phase of empty[s] the consumers completed on the previous lap
    (lap 0: the fresh barrier's parity 1, which passes at once)."""
    svg = Svg(800, 560, "The ring of steps 4-6: a producer thread, 8 consumer warps, and 4 "
                        "shared-memory stages with full and empty barriers")
    svg.heading("Steps 4-6: one producer thread, 8 consumer warps, a ring of 4 stages with two "
                "mbarriers each")
    svg.left_aligned(20, 44, "Slice t (64 along k) uses stage s = t % 4 in lap t / 4; a stage "
                             "holds A's 128 x 64 tile and B's 64 x 256 tile: 48 KiB")
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
    svg.left_aligned(296, top + 4 * row + 14,
                     "A: 1 box 128 x 64 (16 KiB); B: 4 boxes 64 x 64 (32 KiB)", size=11, fill=GREY)
    # The two roles.
    for x, fill, lines in ((20, ORANGE, ["producer:", "thread 0", "issues the TMA", "copies (step 4:",
                                         "also a consumer)"]),
                           (630, SKY, ["consumers:", "8 warps", "(steps 5-6: two", "warpgroups of 4)",
                                       "read, multiply"])):
        svg.rect(x, top + 30, 150, 150, fill=fill)
        for k, s in enumerate(lines):
            svg.text(x + 75, top + 58 + k * 22, s, size=12, bold=(k < 1))
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
    # The ring's bookkeeping for the first laps, and the parity each side waits for: the
    # consumers the phase of full[s] completed on this lap (lap 0's is its first, parity 0),
    # the producer the phase of empty[s] completed on the previous lap (on lap 0 none: a fresh
    # barrier counts as having completed parity 1, so that wait passes at once).
    y, lx, cw = 410, 250, 58
    table = [("slice t", lambda t: str(t)), ("stage s = t % 4", lambda t: str(t % 4)),
             ("lap = t / 4", lambda t: str(t // 4)),
             ("consumers wait on full[s] for parity", lambda t: str(t // 4 % 2)),
             ("producer waits on empty[s] for parity", lambda t: str(1 - t // 4 % 2))]
    for k, (name, value) in enumerate(table):
        svg.text(lx - 8, y + k * 22 + 15, name, size=12, anchor="end", bold=(k == 0))
        for t in range(9):
            label = value(t) if t < 8 else "..."
            fill = LIGHT if k == 0 else (PALE if t // 4 % 2 else "white")
            svg.cell(lx + t * cw, y + k * 22, cw, 22, label, fill=fill, size=11, stroke=GREY)
    y = svg.left_aligned(20, y + len(table) * 22 + 26,
                         "Each completed phase of a barrier flips its parity: 0, 1, 0, ...; a "
                         "fresh barrier counts as having",
                         "completed parity 1, so the producer's lap-0 waits pass at once. full[s] "
                         "completes when the producer",
                         "has arrived and all 48 KiB have landed, empty[s] when all 8 consumer "
                         "warps have arrived.")
    svg.height = y + 4
    return svg.render()


def draw_persistent_blocks():
    """Step 5 against step 6 on one multiprocessor, time left to right (schematic lengths, not
    measured). Step 5: one block per tile; each block starts with an empty ring (the consumers
    wait for the first slice) and ends with its stores of C while the producer has nothing left
    to do, so the tensor cores idle twice per tile. Step 6: one block per multiprocessor takes
    tile after tile; the producer fills the ring with the next tile's slices while the consumers
    store, and the stores are shorter (whole lines). (The tile order, which stage is given back
    and the epilogue's lane mapping are step 6's exercise: not drawn.)"""
    svg = Svg(800, 470, "One multiprocessor over time: step 5's block per tile, with an empty "
                        "ring at each start and idle tensor cores during the stores, against "
                        "step 6's persistent block, whose producer fills the ring for the next "
                        "tile while the consumers store")
    svg.heading("One multiprocessor over time: a block per tile (step 5) against one "
                "persistent block (step 6)")
    svg.left_aligned(20, 44, "Time runs left to right; the lengths are schematic, not measured. "
                             "Hatched: the tensor cores idle.")
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
        svg.left_aligned(20, top - 26, header, size=13, bold=True)
        for k, name in enumerate(("producer", "consumer 1", "consumer 2")):
            svg.text(x0 - 8, top + k * pitch + lane_h / 2 + 4, name, size=12, anchor="end")
        svg.text(x0 - 8, top + 3 * pitch + 17, "tensor cores", size=11, anchor="end",
                 fill=GREY)

    def tensor_cores(top, busy_spans, end):
        """Busy while the consumers multiply, hatched (idle) everywhere else."""
        y, x = top + 3 * pitch + 4, 0
        for start, stop in busy_spans + [(end, end)]:  # the empty last span ends the last gap
            if start > x:
                hatch(x, y, start - x, 18)
                svg.rect(x0 + (x + start) / 2 - 15, y + 3, 30, 13, fill="white", stroke="none")
                svg.text(x0 + (x + start) / 2, y + 13, "idle", size=10)
            if stop > start:
                svg.cell(x0 + start, y, stop - start, 18, "busy", fill=BLUE, size=10,
                         text_fill="white")
            x = stop

    # Step 5: one block per tile, each starting with an empty ring and ending with its stores.
    top = 104
    lanes(top, "Step 5: one block per tile")
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
    svg.left_aligned(x0 + 2 * block + 10, top + pitch + lane_h / 2 + 4, "...")
    tensor_cores(top, busy, 2 * block)

    # Step 6: one block per multiprocessor, tile after tile; the ring goes on.
    top = 270
    lanes(top, "Step 6: one block per SM, tile after tile")
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
    svg.left_aligned(20, 434, "Step 6's producer fills the ring with the next tile's slices while "
                              "the consumers store;",
                     "the ring's stages and parities go on from tile to tile.")
    return svg.render()


FIGURES = {
    "mma-fragment-a.svg": draw_mma_fragment_a,
    "swizzle.svg": draw_swizzle,
    "producer-consumer-ring.svg": draw_producer_consumer_ring,
    "persistent-blocks.svg": draw_persistent_blocks,
}

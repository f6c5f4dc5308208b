"""Chapter 05's figures, drawn from the index formulas of its solution's kernels; redraw with
python3 -m tools.figures (from the repository root)."""
from tools.svg import GREEN, GREY, LIGHT, ORANGE, SKY, VERMILION, Svg, column_numbers


def reduction_tree(svg, x0, y0, size, levels, cw, ch, gap, thread_label):
    """sdata at y0, then a row per level of levels, a list of (s, [(dst, src)]) pairs, whose
    adding slots thread_label(i, s) names; returns the y below the last row."""
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


def draw_reduction_trees():
    """16 elements. Kernels 1 and 2 (interleaved addressing): at s = 1, 2, 4, 8 sdata[i] +=
    sdata[i + s] for i a multiple of 2s; kernel 1's thread is tid = i (tid % 2s == 0), kernel 2's
    is tid = i / (2s) (index = 2 * s * tid). Kernel 3 (sequential addressing): at s = 8, 4, 2, 1
    thread tid < s adds sdata[tid + s] into sdata[tid]."""
    size, cw, ch, gap = 16, 40, 24, 30
    svg = Svg(800, 650, "Reduction trees over 16 elements: interleaved addressing (kernels 1 "
                        "and 2) and sequential addressing (kernel 3)")
    x0 = 110
    svg.heading("Interleaved addressing (kernels 1 and 2): sdata[i] += sdata[i + s], "
                "i a multiple of 2s")
    strides = [2 ** k for k in range(size.bit_length() - 1)]  # 1, 2, 4, 8
    interleaved = [(s, [(i, i + s) for i in range(0, size, 2 * s)]) for s in strides]
    bottom = reduction_tree(svg, x0, 40, size, interleaved, cw, ch, gap,
                            lambda i, s: f"{i}|{i // (2 * s)}")
    svg.left_aligned(20, bottom + 20, "Label a|b in an adding slot: kernel 1's thread (tid = a, "
                                      "tid % 2s == 0, spread over every warp: divergence),",
                     "kernel 2's thread (tid = b, index = 2*s*tid: the first threads work, but "
                     "their slots are 2s words apart: bank conflicts).", step=16)
    y1 = bottom + 76
    svg.left_aligned(20, y1, "Sequential addressing (kernel 3): thread tid < s adds "
                             "sdata[tid + s] into sdata[tid]", size=14, bold=True)
    sequential = [(s, [(i, i + s) for i in range(s)]) for s in reversed(strides)]
    bottom = reduction_tree(svg, x0, y1 + 16, size, sequential, cw, ch, gap, lambda i, s: f"t{i}")
    svg.left_aligned(20, bottom + 20, "A level's active threads are the first s and read s "
                                      "consecutive words: one bank each. __syncthreads() after "
                                      "every level.")
    return svg.render()


def draw_bank_conflicts():
    """Shared memory: 32 banks of 4-byte words, word w in bank w % 32. Warp 0 (lanes 0-31) of a
    1024-thread block reads sdata[index], index = 2 * s * tid (kernel 2), and sdata[tid + s]
    (kernel 3). For s <= 16 every lane of warp 0 is active in kernel 2 (index < 1024)."""
    cw, ch = 17, 24
    x0 = 140
    svg = Svg(800, 345, "Shared-memory banks hit by warp 0: kernel 2's strided index versus "
                        "kernel 3's consecutive one (4-byte elements)")
    svg.heading("Lanes per bank when warp 0 reads sdata[2*s*tid] (kernel 2, int/float, "
                "1024 threads)")
    y = column_numbers(svg, x0, 40, 32, cw, "bank", size=8)
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
        svg.left_aligned(x0 + 32 * cw + 8, y + ch / 2 + 4, verdict, bold=True)
        y += ch + 6
    svg.left_aligned(20, y + 20, "A bank serves one 4-byte word per cycle: when several lanes of a "
                                 "warp need different words of one bank,",
                     "their accesses are served one after another. In kernel 2, lane t at stride s "
                     "reads word 2*s*t: bank (2*s*t) % 32.",
                     "Kernel 3's lanes read words s + t for t = 0..31: 32 consecutive words, one "
                     "per bank (for s >= 32; below that,",
                     "fewer lanes are active and they still hit different banks). Doubles span two "
                     "banks each: twice the conflicts.")
    return svg.render()


FIGURES = {
    "reduction-trees.svg": draw_reduction_trees,
    "bank-conflicts.svg": draw_bank_conflicts,
}

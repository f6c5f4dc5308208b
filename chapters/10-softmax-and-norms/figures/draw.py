"""Chapter 10's figures, drawn from the index rules of its solution (step2_block_per_row.cu,
step3_warp_per_row.cu, step4_online_softmax.cu); redraw with python3 -m tools.figures (from the
repository root)."""
import math

from tools.svg import GREY, INK, LIGHT, ORANGE, PALE, THREAD_COLOURS, VERMILION, Svg

COLS = 32   # columns drawn per row
THREADS = 4  # threads (or lanes) drawn per group
WIDTH = 4   # floats per 16-byte vector


def strided_owner(column, threads):
    """Step 1 and 2: thread t owns the columns t, t + threads, t + 2 threads, ..."""
    return column % threads


def vector_owner(column, threads, width):
    """Step 3: vector k (columns k * width ... k * width + width - 1) belongs to thread
    k % threads, in its slot k // threads."""
    vector = column // width
    return vector % threads, vector // threads


def draw_row(svg, x0, y, cw, ch, owner_of, label_of, cols=COLS, partial_from=None):
    """One row of cells, coloured by the thread that owns each; columns from `partial_from` on are
    drawn dashed (past the end of the row)."""
    for c in range(cols):
        past = partial_from is not None and c >= partial_from
        fill = PALE if past else THREAD_COLOURS[owner_of(c)]
        svg.cell(x0 + c * cw, y, cw, ch, "" if past else label_of(c), fill=fill, size=9,
                 dash="3,2" if past else None, stroke=GREY if past else INK)


def rows_and_threads():
    cw, ch, x0 = 19, 20, 150
    svg = Svg(x0 + COLS * cw + 30, 384, "Which thread holds which column: steps 1-2 and step 3")
    svg.heading("Which thread holds which column of a row (4 threads drawn; 256-1024 in a block)")
    y = 58
    svg.left_aligned(20, y + 14, "steps 1 and 2:", "a block per row", size=11, step=14)
    draw_row(svg, x0, y, cw, ch, lambda c: strided_owner(c, THREADS),
             lambda c: f"t{strided_owner(c, THREADS)}")
    svg.text(x0, y + ch + 16, "thread t: columns t, t + blockDim.x, ... (4-byte loads); step 1 "
             "reads them 3 times,", size=11, anchor="start")
    svg.text(x0, y + ch + 30, "step 2 once, into registers", size=11, anchor="start")
    y = 136
    svg.left_aligned(20, y + 14, "step 3:", "a warp per row,", "16-byte vectors", size=11,
                     step=14)
    draw_row(svg, x0, y, cw, ch, lambda c: vector_owner(c, THREADS, WIDTH)[0],
             lambda c: f"{vector_owner(c, THREADS, WIDTH)[1]}", partial_from=COLS - 2)
    for k in range(COLS // WIDTH):
        svg.rect(x0 + k * WIDTH * cw, y - 3, WIDTH * cw, ch + 6, width=2)
    svg.text(x0, y + ch + 18, "lane l: vectors l, l + 32, ... (the number: its slot); one vector "
             "= 4 columns, one 16-byte access", size=11, anchor="start")
    svg.text(x0, y + ch + 34, "the last vector may be partial (dashed: past the row): its columns "
             "are read one by one", size=11, anchor="start")
    y = 244
    svg.left_aligned(20, y + 14, "step 3, 4 rows", "per block of", "128 threads", size=11,
                     step=14)
    for warp in range(4):
        yy = y + warp * (ch + 4)
        svg.cell(x0 - 60, yy, 52, ch, f"warp {warp}", fill=LIGHT, size=10)
        for c in range(COLS):
            svg.cell(x0 + c * cw, yy, cw, ch, "", fill=THREAD_COLOURS[warp], size=9)
        svg.text(x0 + COLS * cw / 2, yy + ch * 0.7, f"row {warp}: max and sum by shuffles only",
                 size=10)
    svg.text(x0, y + 4 * (ch + 4) + 16, "no shared memory, no barrier: a warp reduces its row "
             "with 5 shuffles per value", size=11, anchor="start")
    return svg.render()


def online_pairs(chunks):
    """(m, s) of each chunk and the running merge, as merge_partials computes them."""
    merged, steps = (-math.inf, 0.0), []
    for m, s in chunks:
        top = max(merged[0], m)
        total = (merged[1] * math.exp(merged[0] - top) if merged[0] != -math.inf else 0.0) + \
            s * math.exp(m - top)
        merged = (top, total)
        steps.append(merged)
    return steps


def online_merge():
    chunks = [(2.0, 1.5), (3.0, 2.25), (7.0, 1.25)]  # (max, sum of exp(x - max)) per chunk
    svg = Svg(760, 300, "Online softmax: (max, sum) pairs merged with rescaling")
    svg.heading("Step 4: each block reduces its chunk of the row to a pair (max m, sum s)")
    x0, y0, w = 40, 60, 200
    for i, (m, s) in enumerate(chunks):
        x = x0 + i * (w + 40)
        svg.cell(x, y0, w, 34, f"chunk {i}: m = {m:g}, s = {s:g}", fill=THREAD_COLOURS[i + 1],
                 size=12)
    merged = online_pairs(chunks)
    y1 = y0 + 110
    for i, (m, s) in enumerate(merged):
        x = x0 + i * (w + 40)
        svg.line(x + w / 2, y0 + 34, x + w / 2, y1, arrow=True)
        svg.cell(x, y1, w, 34, f"m = {m:g}, s = {s:.4f}", fill=LIGHT, size=12)
        if i > 0:
            svg.line(x - 40, y1 + 17, x, y1 + 17, arrow=True)
    svg.text(x0 + 2 * (w + 40) + w / 2, y0 + 75, "new max 7 > 3:", size=11, fill=VERMILION)
    svg.text(x0 + 2 * (w + 40) + w / 2, y0 + 90, "old s times exp(3 - 7)", size=11,
             fill=VERMILION)
    svg.left_aligned(x0, y1 + 66,
                     "merge((m1, s1), (m2, s2)) = (m, s1 exp(m1 - m) + s2 exp(m2 - m)),  "
                     "m = max(m1, m2)",
                     "the same rule takes one value at a time (online_update), so the row needs "
                     "one read for (m, s)",
                     "and one more to write exp(x - m) / s: 3 words per element where a copy "
                     "moves 2.",
                     "A pair with nothing in it is (-inf, 0): merging two of them must not "
                     "compute -inf - (-inf).",
                     size=12, step=18)
    svg.rect(x0 - 10, y0 - 12, 3 * (w + 40) - 20, 58, stroke=ORANGE, dash="4,3")
    svg.text(x0 + 3 * (w + 40) - 40, y0 - 16, "pass 1", size=11, anchor="end", fill=INK)
    svg.text(x0 - 10, y1 - 12, "merged left to right (the kernel merges in a tree)", size=11,
             anchor="start")
    return svg.render()


FIGURES = {
    "rows-and-threads.svg": rows_and_threads,
    "online-merge.svg": online_merge,
}

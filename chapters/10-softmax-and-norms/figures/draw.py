"""Chapter 10's figures, drawn from the index rules of its solution (step2_block_per_row.cu,
step3_warp_per_row.cu, step4_online_softmax.cu, step6_cluster_softmax.cu); redraw with
python3 -m tools.figures (from the repository root)."""
import math

from tools.svg import (GREY, INK, LIGHT, ORANGE, PALE, THREAD_COLOURS, VERMILION, YELLOW,
                       Svg)

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


CLUSTER_BLOCKS = 4  # blocks drawn in step 6's cluster (up to 16)
SLICE_SLOTS = 8     # vectors per thread (kSliceSlots): a slice of 8K columns in 256 threads


def slice_cells(svg, x0, y, cw, ch):
    """Step 6's row, one slice per block: a cell is slot s of every thread of its block (the
    slice's vectors s * blockDim.x to s * blockDim.x + blockDim.x - 1), numbered s."""
    for rank in range(CLUSTER_BLOCKS):
        for s in range(SLICE_SLOTS):
            svg.cell(x0 + (rank * SLICE_SLOTS + s) * cw, y, cw, ch, str(s),
                     fill=THREAD_COLOURS[rank], size=9)
        svg.rect(x0 + rank * SLICE_SLOTS * cw, y, SLICE_SLOTS * cw, ch, width=2)


def cluster_row():
    cw, ch, x0 = 23, 20, 22
    span = SLICE_SLOTS * cw  # one block's column of the figure
    svg = Svg(x0 + CLUSTER_BLOCKS * span + 22, 640,
              "Step 6: a row cut into slices, one per block of a cluster; each block reduces its "
              "slice to a (max, sum) pair and sends it into a slot of every block's inbox, where "
              "a barrier in shared memory counts the bytes; each block waits only for its own "
              "inbox, merges the pairs, and writes its slice")
    svg.heading("Step 6: one row on chip across a thread block cluster (4 blocks drawn)")
    svg.left_aligned(x0, 44, "drawn: a row of 32K columns, 4 blocks of 256 threads, 8K columns "
                     "each; rows over 64K columns: clusters of 8",
                     "a cell: slot s of every thread, numbered s; slot s of thread t holds "
                     "vector s * blockDim.x + t of the slice", size=11, step=16)
    opened = 76
    svg.rect(x0 - 8, opened, CLUSTER_BLOCKS * span + 16, 22, fill=YELLOW, width=2)
    svg.text(x0 + CLUSTER_BLOCKS * span / 2, opened + 15, "once, at the start: every block's "
             "inbox opened (its barriers initialised) before any block sends", size=11,
             bold=True)
    y = opened + 48
    for rank in range(CLUSTER_BLOCKS):
        first = f"{8 * rank}K" if rank else "0"
        svg.text(x0 + rank * span + span / 2, y - 6,
                 f"slice {rank}: columns {first} to {8 * rank + 8}K", size=10)
    slice_cells(svg, x0, y, cw, ch)
    top = y + ch + 24  # the blocks' boxes
    centres = [x0 + rank * span + span / 2 for rank in range(CLUSTER_BLOCKS)]
    box_bottom = top + 82
    for rank, cx in enumerate(centres):
        svg.line(cx, y + ch, cx, top, arrow=True)
        svg.rect(cx - span / 2 + 6, top, span - 12, 82, fill=PALE, stroke=GREY)
        svg.text(cx, top + 18, f"block (rank) {rank}", size=12, bold=True)
        svg.text(cx, top + 34, "slice in its registers,", size=11)
        svg.text(cx, top + 48, f"reduced to (m{rank}, s{rank});", size=11)
        svg.text(cx, top + 62, "lane i of warp 0 sends it", size=11)
        svg.text(cx, top + 76, "to block i (st.async)", size=11)
    # Every block's inbox: a slot per sender, and the barrier that counts their bytes.
    inbox = box_bottom + 60
    slot_w = (span - 12) / CLUSTER_BLOCKS
    for rank, cx in enumerate(centres):
        left = cx - span / 2 + 6
        for sender in range(CLUSTER_BLOCKS):
            svg.cell(left + sender * slot_w, inbox, slot_w, 22, f"(m{sender}, s{sender})",
                     fill=THREAD_COLOURS[sender], size=9)
        svg.cell(left, inbox + 22, span - 12, 20, "barrier: 4 x 8 bytes landed?", fill=LIGHT,
                 size=10)
        svg.text(cx, inbox + 56, f"block {rank}'s inbox", size=10, fill=GREY)
    # The stores, drawn into block 1's inbox only: block r's pair into slot r.
    receiver_left = centres[1] - span / 2 + 6
    for rank, cx in enumerate(centres):
        svg.line(cx, box_bottom, receiver_left + (rank + 0.5) * slot_w, inbox, arrow=True)
    merge_top = inbox + 80
    for rank, cx in enumerate(centres):
        svg.line(cx, inbox + 62, cx, merge_top, arrow=True)
        svg.cell(cx - span / 2 + 6, merge_top, span - 12, 40, "", fill=LIGHT)
        svg.text(cx, merge_top + 16, "lane i takes slot i;", size=11)
        svg.text(cx, merge_top + 32, "the warp merges them", size=11)
    svg.left_aligned(x0, merge_top + 58,
                     "arrows into block 1 only: every block sends its pair with st.async into "
                     "every block's inbox, its own included, all at once;",
                     "each store counts its 8 bytes on the receiver's barrier; a block waits only "
                     "until its own barrier has counted every pair;",
                     "then every block merges the same pairs by step 4's rule in the same order: "
                     "the same row pair (m, s), with no cluster barrier per row;",
                     "two inboxes, used turn about: a block may send its next row's pair while "
                     "a slower one still reads this row's", size=11, step=16)
    out_top = merge_top + 124
    out_y = out_top + 52
    for rank, cx in enumerate(centres):
        svg.cell(cx - span / 2 + 6, out_top, span - 12, 24, "y = exp(x - m) / s",
                 fill=THREAD_COLOURS[rank], size=11)
        svg.line(cx, out_top + 24, cx, out_y, arrow=True)
    slice_cells(svg, x0, out_y, cw, ch)
    svg.left_aligned(x0, out_y + ch + 20,
                     "each block writes its slice of the output row, from its registers",
                     "the row is read once and written once: 2 words per element (step 4: 3)",
                     size=11, step=16)
    return svg.render()


FIGURES = {
    "rows-and-threads.svg": rows_and_threads,
    "online-merge.svg": online_merge,
    "cluster-row.svg": cluster_row,
}

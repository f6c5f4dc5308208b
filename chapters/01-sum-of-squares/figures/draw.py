"""Chapter 01's figures, drawn from the index formulas of its solution; redraw with
python3 -m tools.figures (from the repository root)."""
from tools.svg import GREY, INK, LIGHT, ORANGE, SKY, THREAD_COLOURS, VERMILION, Svg


def draw_contiguous_vs_interleaved():
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
        svg.left_aligned(20, y, title, size=15, bold=True)
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
            svg.left_aligned(left + n * cw + 12, y + ch / 2 + 5, span)
            y += ch + 6
        y += 30
    # A warp's addresses in one iteration (4-byte ints, 128-byte lines of 32 ints).
    svg.left_aligned(20, y, "One warp (32 threads), one iteration, 4-byte ints:", size=14,
                     bold=True)
    svg.left_aligned(30, y + 24, "contiguous: thread t reads byte 4*(t*chunk + k): 32 addresses "
                                 "chunk*4 bytes apart (32 lines once chunk >= 32)",
                     "interleaved: thread t reads byte 4*(t + k*T): 32 neighbouring ints, one "
                     "128-byte line, one transaction", size=13, step=22)
    y += 62  # below both lines: one 128-byte line of 32 ints
    for t in range(32):
        svg.rect(30 + t * 20, y, 20, 14, fill=THREAD_COLOURS[t % 4], stroke=INK, width=0.5)
    svg.left_aligned(30 + 32 * 20 + 8, y + 12, "= 128 bytes")
    return svg.render()


def draw_block_tree():
    """Step 5: for stride = blockDim.x / 2, ..., 1: thread t < stride adds block_sums[t + stride]
    into block_sums[t]; __syncthreads() after every level. Drawn for 8 threads."""
    size = 8
    cw, ch, gap = 70, 30, 64
    left = 130
    svg = Svg(800, 430, "Step 5's tree in shared memory for a block of 8 threads")
    svg.heading("Step 5: block_sums[t] += block_sums[t + stride], threads t < stride, 8 threads",
                size=15)

    def barrier_below(y):
        """The barrier after the row at y: the next level reads what this one wrote."""
        svg.line(left - 110, y + ch + 12, left + size * cw - 20, y + ch + 12, stroke=VERMILION,
                 dash="6 4")
        svg.left_aligned(left + size * cw - 16, y + ch + 16, "__syncthreads()", size=11,
                         fill=VERMILION)

    y = 50
    svg.text(left - 10, y + ch / 2 + 5, "block_sums", size=12, anchor="end")
    for i in range(size):
        svg.cell(left + i * cw + 4, y, cw - 8, ch, f"s{i}", fill=SKY)
    stride = size // 2
    while stride > 0:
        barrier_below(y)
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
    barrier_below(y)
    svg.left_aligned(20, y + ch + 44, "After log2(8) = 3 levels block_sums[0] holds the block's "
                                      "total; thread 0 writes it to partials[blockIdx.x].",
                     "Each level reads slots that other threads (other warps, in a real block) "
                     "wrote at the level before: hence the barrier.", size=13, step=20)
    return svg.render()


FIGURES = {
    "contiguous-vs-interleaved.svg": draw_contiguous_vs_interleaved,
    "block-tree.svg": draw_block_tree,
}

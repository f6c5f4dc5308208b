"""Chapter 00's figure, drawn from the thread-to-element mapping of its solution; redraw with
python3 -m tools.figures (from the repository root)."""
from tools.svg import GREY, INK, LIGHT, SKY, THREAD_COLOURS, Svg


def draw_round_trip():
    """The host/device round trip of SAXPY: two memories, the copies between them, the launch,
    and which thread updates which element, with the tail guard (n = 10, blocks of 4 threads: 3
    blocks, 2 threads past the end)."""
    svg = Svg(800, 470, "The round trip of chapter 00: host memory, GPU memory, the copies, the "
                        "launch, and which thread updates which element")
    # The two memories.
    for x, name in ((20, "host (CPU) memory"), (530, "GPU memory")):
        svg.rect(x, 20, 250, 190, fill=LIGHT, stroke=GREY)
        svg.text(x + 125, 42, name, size=15, bold=True)
    svg.cell(60, 60, 170, 30, "x, y (std::vector)", fill="white")
    svg.cell(60, 160, 170, 30, "y: the result", fill="white")
    svg.cell(570, 60, 170, 30, "x_d, y_d (cudaMalloc)", fill=SKY)
    svg.cell(570, 160, 170, 30, "y_d = a * x_d + y_d", fill=SKY)
    svg.line(230, 75, 568, 75, arrow=True)
    svg.text(400, 68, "1. cudaMemcpy HostToDevice", size=12)
    svg.line(655, 92, 655, 158, arrow=True)
    svg.left_aligned(662, 114, "2. launch", "saxpy<<<b, t>>>", step=16)
    svg.left_aligned(662, 146, "then check it", fill=GREY)
    svg.line(568, 175, 232, 175, arrow=True)
    svg.text(400, 168, "3. cudaMemcpy DeviceToHost", size=12)
    svg.text(400, 232, "4. cudaFree(x_d), cudaFree(y_d); every call is checked", size=12,
             fill=GREY)
    # The threads over the elements.
    n, threads, blocks, cw = 10, 4, 3, 52
    left, top = 92, 304
    svg.left_aligned(20, 264, f"The kernel: n = {n}, blocks of {threads} threads, "
                              f"ceil({n} / {threads}) = {blocks} blocks", size=13, bold=True)
    svg.left_aligned(20, 284, "each thread t of block b updates one element i of y: which one? "
                              "(step 3)", size=13)
    for b in range(blocks):
        x = left + b * threads * cw
        svg.rect(x, top, threads * cw, 78, fill="none", stroke=INK, width=2)
        svg.text(x + threads * cw / 2, top + 96, f"block {b}", size=12)
        for t in range(threads):
            i = b * threads + t
            inside = i < n
            svg.cell(x + t * cw, top, cw, 36, f"t{t}, i={i}",
                     fill=THREAD_COLOURS[t] if inside else "white", size=11,
                     dash=None if inside else "4,3")
            svg.cell(x + t * cw, top + 42, cw, 36, f"y[{i}]" if inside else "none",
                     fill="white" if inside else LIGHT, size=11,
                     stroke=INK if inside else GREY, dash=None if inside else "4,3")
    svg.text(left - 8, top + 23, "threads", size=12, anchor="end")
    svg.text(left - 8, top + 65, "elements", size=12, anchor="end")
    svg.left_aligned(20, top + 126, "Threads 10 and 11 exist because blocks come whole: the tail "
                                    "guard (i < n) keeps them",
                     "away from memory past the end of x and y.")
    return svg.render()


FIGURES = {"round-trip.svg": draw_round_trip}

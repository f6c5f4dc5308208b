"""Chapter 09's figures, drawn from the index rules of its solution (step1_block_scan.cu and
step4_decoupled_lookback.cu); redraw with python3 -m tools.figures (from the repository root)."""
from tools.svg import BLUE, GREEN, GREY, INK, LIGHT, ORANGE, SKY, VERMILION, YELLOW, Svg

N = 8  # elements drawn


def kogge_stone_rounds(n):
    """[(distance, [(reader, source)])]: round by round, position i adds position i - distance."""
    rounds, distance = [], 1
    while distance < n:
        rounds.append((distance, [(i, i - distance) for i in range(distance, n)]))
        distance *= 2
    return rounds


def brent_kung_rounds(n):
    """The up-sweep (stride 1, 2, 4, ...: position (t + 1) * 2 * stride - 1 adds the one stride
    to its left) and the down-sweep (stride n / 4 ... 1: position i + stride adds position i)."""
    up, down, stride = [], [], 1
    while stride < n:
        up.append((stride, [(i, i - stride) for i in range(2 * stride - 1, n, 2 * stride)]))
        stride *= 2
    stride = n // 4
    while stride > 0:
        down.append((stride, [(i + stride, i) for i in range(2 * stride - 1, n, 2 * stride)
                              if i + stride < n]))
        stride //= 2
    return up, down


def covered(rounds, n):
    """For each round, the range [first, last] of inputs each position holds after it."""
    spans = [(i, i) for i in range(n)]
    out = []
    for _, adds in rounds:
        new = list(spans)
        for reader, source in adds:
            new[reader] = (spans[source][0], spans[reader][1])
        spans = new
        out.append(spans)
    return out


def draw_rows(svg, x0, y, rounds, n, cw, ch, gap, labels):
    """One row of cells per round, each labelled with the inputs it holds, arrows for the adds."""
    spans = [(i, i) for i in range(n)]
    for i in range(n):
        svg.cell(x0 + i * cw, y, cw - 6, ch, f"x{i}", fill=LIGHT, size=11)
    for (label, (_, adds)), after in zip(zip(labels, rounds), covered(rounds, n)):
        y_next = y + ch + gap
        for reader, source in adds:
            svg.line(x0 + source * cw + (cw - 6) / 2, y + ch, x0 + reader * cw + (cw - 6) / 2,
                     y_next, stroke=INK, width=1.1, arrow=True)
        for i in range(n):
            first, last = after[i]
            text = f"{first}..{last}" if first != last else f"{first}"
            changed = after[i] != spans[i]
            complete = first == 0
            fill = GREEN if complete and changed else (SKY if changed else "white")
            svg.cell(x0 + i * cw, y_next, cw - 6, ch, text, fill=fill, size=10)
        svg.text(x0 - 10, y_next + ch / 2 + 4, label, size=11, anchor="end")
        spans = after
        y = y_next
    return y + ch


def draw_kogge_stone_brent_kung():
    cw, ch, gap = 40, 22, 30
    svg = Svg(790, 520, "Kogge-Stone and Brent-Kung scans of 8 elements, round by round")
    svg.heading("Inclusive scan of x0..x7: each cell shows the inputs it holds (0..5 = x0 + ... + x5)")
    ks = kogge_stone_rounds(N)
    svg.text(40 + 4 * cw, 52, "Kogge-Stone: 3 rounds, 17 adds", size=13, bold=True)
    y_ks = draw_rows(svg, 60, 64, ks, N, cw, ch, gap, [f"d = {d}" for d, _ in ks])
    up, down = brent_kung_rounds(N)
    x_bk = 420
    svg.text(x_bk + 4 * cw - 20, 52, "Brent-Kung: 5 rounds, 11 adds", size=13, bold=True)
    labels = [f"up {s}" for s, _ in up] + [f"down {s}" for s, _ in down]
    y_bk = draw_rows(svg, x_bk + 20, 64, up + down, N, cw, ch, gap, labels)
    y = max(y_ks, y_bk) + 26
    svg.cell(20, y - 12, 18, 14, "", fill=SKY)
    svg.left_aligned(44, y, "changed in this round", size=12)
    svg.cell(220, y - 12, 18, 14, "", fill=GREEN)
    svg.left_aligned(244, y, "changed and complete (holds x0 up to itself)", size=12)
    y = svg.left_aligned(20, y + 26,
                         "Kogge-Stone: in each round every position reads a value that another "
                         "thread is about to overwrite,",
                         "so a round reads one buffer and writes the other (or reads, waits at a "
                         "barrier, then writes).",
                         "n log n adds. Brent-Kung: a tree up, then down: about 2n adds, in twice "
                         "the rounds (and barriers).", size=12)
    svg.height = y + 4
    return svg.render()


def draw_decoupled_lookback():
    """Tiles 0..9, their status words, and tile 9's look-back over a window of 4 lanes (32 in
    the kernel): it adds aggregates until the nearest 'prefix'."""
    svg = Svg(790, 400, "Decoupled look-back: status words and tile 9's window")
    svg.heading("Decoupled look-back: each tile publishes (flag, value) as one 64-bit word")
    states = ["P", "P", "P", "P", "P", "A", "P", "A", "A", "A"]  # tile 9: just published A
    values = [5, 12, 20, 31, 40, 6, 55, 9, 4, 7]  # P: inclusive prefix; A: the tile's total
    x0, y0, cw, ch = 40, 80, 70, 44
    for t in range(10):
        fill = GREEN if states[t] == "P" else (YELLOW if states[t] == "A" else LIGHT)
        flag = "prefix" if states[t] == "P" else "aggregate"
        svg.cell(x0 + t * cw, y0, cw - 8, ch, "", fill=fill)
        svg.text(x0 + t * cw + (cw - 8) / 2, y0 + 18, flag, size=11)
        svg.text(x0 + t * cw + (cw - 8) / 2, y0 + 36, str(values[t]), size=12, bold=True)
        svg.text(x0 + t * cw + (cw - 8) / 2, y0 - 8, f"tile {t}", size=11, fill=GREY)
    # Tile 9's window: lanes 0..3 read tiles 8, 7, 6, 5.
    wy = y0 + ch + 56
    for lane, tile in enumerate([8, 7, 6, 5]):
        cx = x0 + tile * cw + (cw - 8) / 2
        svg.line(x0 + 9 * cw + 10, wy, cx, y0 + ch + 4, stroke=BLUE, width=1.2, arrow=True)
        svg.text(cx, wy + 18, f"lane {lane}", size=11, fill=BLUE)
    svg.text(x0 + 9 * cw + 30, wy + 4, "tile 9's warp", size=11, anchor="middle", fill=BLUE)
    svg.rect(x0 + 5 * cw - 4, y0 - 22, 4 * cw, ch + 30, stroke=ORANGE, width=2, dash="6 4")
    svg.text(x0 + 7 * cw, y0 - 28, "window (32 tiles in the kernel, 4 drawn)", size=11,
             fill=VERMILION)
    y = svg.left_aligned(
        20, wy + 56,
        "Lanes 0-3 wait (bounded) for tiles 8, 7, 6, 5 to hold anything but 'nothing yet';",
        "the ballot finds the nearest 'prefix': tile 6 (lane 2). Tile 9's exclusive prefix is",
        "4 + 9 + 55 = 68 (the aggregates of tiles 8 and 7, the prefix of tile 6); tile 5 is not "
        "needed.",
        "Tile 9 then publishes 'prefix' 68 + 7 = 75, so that tiles 10, 11, ... stop there. With no "
        "prefix in the",
        "window, the window moves 32 tiles back. Flag and value are one 64-bit word, stored and "
        "loaded whole.", size=12)
    svg.height = y + 4
    return svg.render()


FIGURES = {"kogge-stone-brent-kung.svg": draw_kogge_stone_brent_kung,
           "decoupled-lookback.svg": draw_decoupled_lookback}

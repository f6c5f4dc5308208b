"""Chapter 06's figure, drawn from the shuffle offsets of its solution's warp_sum; redraw with
python3 -m tools.figures (from the repository root)."""
from tools.svg import GREEN, GREY, INK, LIGHT, ORANGE, SKY, Svg, column_numbers


def draw_shfl_down():
    """warp_sum: for offset = 16, 8, 4, 2, 1: value += __shfl_down_sync(full mask, value, offset).
    Lane i reads lane i + offset; drawn for lanes 0..7 (of 32)."""
    lanes, cw, ch, gap = 32, 20, 22, 44
    x0 = 140
    svg = Svg(800, 470, "__shfl_down_sync: lanes 0 to 7 of a warp reading lane + offset, for "
                        "offsets 16, 8, 4, 2, 1")
    svg.heading("value += __shfl_down_sync(0xffffffff, value, offset): lane i reads lane "
                "i + offset's register")
    y = column_numbers(svg, x0, 44, lanes, cw, "lane", size=9)
    # A last row, offset None, for the result.
    for offset in [16, 8, 4, 2, 1, None]:
        label = f"offset {offset}" if offset else "lane 0: total"
        svg.text(x0 - 8, y + ch / 2 + 4, label, size=12, anchor="end")
        for lane in range(lanes):
            if offset is None:
                fill = GREEN if lane == 0 else LIGHT
            elif lane < 8:
                fill = SKY
            elif lane - offset < 8:
                fill = ORANGE  # a lane that lanes 0-7 read from
            else:
                fill = LIGHT
            svg.cell(x0 + lane * cw, y, cw, ch, "", fill=fill, stroke=GREY)
        if offset:
            for lane in range(8):
                src = lane + offset
                svg.line(x0 + src * cw + cw / 2, y + ch, x0 + lane * cw + cw / 2, y + ch + gap,
                         stroke=INK, width=1.2, arrow=True)
        y += ch + gap
    y += 18 - gap
    svg.cell(x0, y, 20, 16, "", fill=SKY, stroke=GREY)
    svg.left_aligned(x0 + 26, y + 13, "lanes 0-7: each adds the value its arrow brings")
    svg.cell(x0 + 360, y, 20, 16, "", fill=ORANGE, stroke=GREY)
    svg.left_aligned(x0 + 386, y + 13, "other lanes they read from")
    y += 40
    svg.left_aligned(20, y, "All 32 lanes execute every shuffle (the mask names them all); lanes "
                            "8-31 read too (arrows not drawn), and a lane",
                     "whose i + offset is past 31 gets its own value back. After 5 rounds lane 0 "
                     "holds the sum of all 32 lanes.")
    svg.height = y + 32
    return svg.render()


FIGURES = {"shfl-down.svg": draw_shfl_down}

"""Chapter 07's figure, drawn from the tile shapes and lane mapping of its solution's step 4;
redraw with python3 -m tools.figures (from the repository root)."""
from tools.svg import BLUE, GREY, LIGHT, ORANGE, PALE, SKY, Svg


def draw_tile_nesting():
    """kWideTiles (the default for large shapes): BM = BN = 128, 256 threads = 8 warps; warp tile
    WM x WN = 64 x 32, WNITER = 2, WMITER = 1, so warp sub-tiles of 64 x 16; TM x TN = 8 x 4.
    warp_row = warp / (BN / WN), warp_col = warp % (BN / WN); lane_row = lane / (WSUBN / TN),
    lane_col = lane % (WSUBN / TN). Lane's results: rows warp_row*WM + lane_row*TM + i,
    columns warp_col*WN + wn*WSUBN + lane_col*TN + j."""
    bm = bn = 128
    wm, wn, wniter, tm, tn = 64, 32, 2, 8, 4
    wsubn = wn // wniter
    lanes_across = wsubn // tn
    svg = Svg(800, 450, "Block, warp and thread tiles of step 4: a 128 x 128 block tile, 64 x 32 "
                        "warp tiles, 8 x 4 register tiles")
    svg.heading("Step 4 (256 threads): block tile 128 x 128, warp tile 64 x 32, thread tile 8 x 4 "
                "(twice)")
    # Block tile, 2 px per element.
    bx0, by0, s1 = 20, 70, 2
    svg.text(bx0 + bn * s1 / 2, by0 - 10, "block tile of P: 128 x 128", size=13, bold=True)
    for warp in range(8):
        wr, wc = warp // (bn // wn), warp % (bn // wn)
        fill = SKY if warp == 5 else LIGHT
        svg.cell(bx0 + wc * wn * s1, by0 + wr * wm * s1, wn * s1, wm * s1, f"warp {warp}",
                 fill=fill, size=11, bold=(warp == 5))
    svg.text(bx0 + bn * s1 / 2, by0 + bm * s1 + 18, "8 warps: warp_row = warp / 4,", size=11)
    svg.text(bx0 + bn * s1 / 2, by0 + bm * s1 + 33, "warp_col = warp % 4", size=11)
    # Warp 5's tile, 4 px per element: two 64 x 16 sub-tiles of 8 x 4 lanes.
    wx0, wy0, s2 = 330, 70, 4
    svg.text(wx0 + wn * s2 / 2, wy0 - 10, "warp 5: 64 x 32", size=13, bold=True)
    focus = 9
    for sub in range(wniter):
        for lane in range(32):
            lr, lc = lane // lanes_across, lane % lanes_across
            x = wx0 + (sub * wsubn + lc * tn) * s2
            y = wy0 + lr * tm * s2
            fill = ORANGE if lane == focus else ("white" if sub == 0 else PALE)
            svg.cell(x, y, tn * s2, tm * s2, str(lane), fill=fill, size=9, stroke=GREY,
                     bold=(lane == focus))
        svg.rect(wx0 + sub * wsubn * s2, wy0, wsubn * s2, wm * s2, stroke=BLUE, width=2.5)
        svg.text(wx0 + sub * wsubn * s2 + wsubn * s2 / 2, wy0 + wm * s2 + 16,
                 f"wn = {sub}", size=11)
    # Zoom lines from warp 5 in the block to the warp panel.
    w5r, w5c = 5 // 4, 5 % 4
    svg.line(bx0 + (w5c + 1) * wn * s1, by0 + w5r * wm * s1, wx0, wy0, stroke=GREY, dash="4 3")
    svg.line(bx0 + (w5c + 1) * wn * s1, by0 + (w5r + 1) * wm * s1, wx0, wy0 + wm * s2,
             stroke=GREY, dash="4 3")
    # Lane 9's register tile.
    tx0, ty0, s3 = 540, 70, 18
    svg.text(tx0 + tn * s3 + 15, ty0 - 10, f"lane {focus}: 2 x (8 x 4) results", size=13,
             bold=True)
    for sub in range(wniter):
        for i in range(tm):
            for j in range(tn):
                svg.cell(tx0 + sub * (tn * s3 + 30) + j * s3, ty0 + i * s3, s3, s3, "",
                         fill=ORANGE, stroke=GREY)
        svg.text(tx0 + sub * (tn * s3 + 30) + tn * s3 / 2, ty0 + tm * s3 + 16,
                 f"wn = {sub}", size=11)
    svg.left_aligned(
        tx0 - 10, ty0 + 200,
        "lane_row = lane / 4, lane_col = lane % 4",
        f"lane {focus}: lane_row {focus // lanes_across}, lane_col {focus % lanes_across}",
        "Its results in warp 5's tile: rows 16-23,",
        "columns 4-7 (wn = 0) and 20-23 (wn = 1).")
    svg.left_aligned(20, 405, "Per dot: each lane loads 8 values of M's column and 2 x 4 of N's "
                              "row from shared memory, then does 8 x 8 = 64 multiply-adds.",
                     "A warp's 32 lanes read only 64 of M's and 32 of N's values per dot: 16 + 8 "
                     "float4 pieces, broadcast to the lanes that share them.", step=20)
    return svg.render()


FIGURES = {"tile-nesting.svg": draw_tile_nesting}

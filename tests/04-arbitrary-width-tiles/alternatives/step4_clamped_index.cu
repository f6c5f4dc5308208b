// ALTERNATIVE 04.4 rectangular.cu
// Every load reads an in-bounds element, its indices clamped into the matrix, and the value is
// replaced by 0.0f where an index had to be clamped; the store returns early outside P, after
// the kernel's last barrier.
// @region
    const int m_col = ph * TILE_WIDTH + tx, n_row = ph * TILE_WIDTH + ty;
    const int mr = min(Row, m - 1), mc = min(m_col, k - 1);
    const int nr = min(n_row, k - 1), nc = min(Col, n - 1);
    const float m_value = M[mr * k + mc], n_value = N[nr * n + nc];
    Mds[ty][tx] = (mr == Row && mc == m_col) ? m_value : 0.0f;
    Nds[ty][tx] = (nr == n_row && nc == Col) ? n_value : 0.0f;
// @region
  if (Row >= m || Col >= n) return;
  P[Row * n + Col] = Pvalue;

#include "attention_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/watchdog.hpp"

namespace attention::testing {

namespace {

// The query rows checked in each (batch, head): all of them when the whole shape is cheap on
// the CPU, else the first three, the last three, every row around a multiple of 64 or 128 up
// to 512 and a spread of others.
std::vector<int> rows_to_check(const Shape& shape) {
  const double work = 2.0 * shape.batch * shape.heads * static_cast<double>(shape.tokens) *
                      shape.tokens * shape.head_dim;
  std::vector<int> rows;
  if (work <= 4e8) {
    for (int i = 0; i < shape.tokens; ++i) rows.push_back(i);
    return rows;
  }
  for (int i = 0; i < 3; ++i) rows.push_back(i), rows.push_back(shape.tokens - 1 - i);
  for (int edge = 64; edge <= 512; edge += 64) rows.push_back(edge - 1), rows.push_back(edge);
  for (int i = 1; i < 16; ++i) rows.push_back(static_cast<int>(static_cast<long long>(i) * 7919 % shape.tokens));
  std::vector<int> kept;
  for (int row : rows) {
    if (row >= 0 && row < shape.tokens) kept.push_back(row);
  }
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  return kept;
}

// What to look for when a step's kernel never ends (none of them waits on another block).
constexpr const char* kWhatStopsAKernel =
    "None of this chapter's kernels waits for another block, so look for a loop that never "
    "exits (its bound, its step), a __syncthreads() inside an if that some threads skip, or "
    "(step 4) an mbarrier wait whose phase never completes: a wait for the wrong parity, bytes "
    "announced that no copy brings, or an arrival that some warp never makes.";

struct Mismatch {
  int b, h, row, dim;
  double expected, got;
};

}  // namespace

std::string describe(const Shape& shape) {
  std::ostringstream text;
  text << "batch " << shape.batch << ", heads " << shape.heads << ", tokens " << shape.tokens
       << ", head_dim " << shape.head_dim << (shape.causal ? ", causal" : "");
  return text.str();
}

Inputs make_inputs(const Shape& shape, double q_scale) {
  const std::size_t n = static_cast<std::size_t>(shape.elements());
  const std::uint64_t seed = 0x9e3779b97f4a7c15ULL ^ (static_cast<std::uint64_t>(shape.tokens) << 20) ^
                             (static_cast<std::uint64_t>(shape.head_dim) << 8) ^
                             static_cast<std::uint64_t>(shape.heads * 31 + shape.batch);
  return {fp16_values(n, q_scale, seed + 1), fp16_values(n, 1.0, seed + 2),
          fp16_values(n, 1.0, seed + 3)};
}


::testing::AssertionResult matches_cpu(const StepUnderTest& step, AttentionFn function,
                                       const Shape& shape, const Inputs& inputs,
                                       Workspace& workspace) {
  const std::size_t n = static_cast<std::size_t>(shape.elements());
  course::DeviceBuffer<__half> q(n), k(n), v(n), o(n);
  q.copy_from_host(to_fp16(inputs.q));
  k.copy_from_host(to_fp16(inputs.k));
  v.copy_from_host(to_fp16(inputs.v));
  o.fill_bytes(0xFF);  // NaN: a value never written shows
  workspace.poison_before_each_run(true);
  const std::string where = step.name + " (" + describe(shape) + "): ";
  try {
    function(q.data(), k.data(), v.data(), o.data(), shape, workspace);
    course::synchronize_or_stop(step.name, kWhatStopsAKernel, step.source_file);
  } catch (const course::StepNeedsAnotherGpu&) {
    throw;
  } catch (const std::exception& error) {
    return ::testing::AssertionFailure() << where << "threw " << error.what()
                                         << "\n  edit " << step.source_file;
  }
  const std::vector<__half> got_halves = o.to_host();

  const std::vector<int> rows = rows_to_check(shape);
  const double bound = error_bound();
  long long checked = 0, wrong = 0, unwritten = 0, wrong_tail = 0, wrong_diagonal = 0;
  bool every_row_a_constant_multiple = true;  // got = c x expected, with c != 1, row by row
  std::vector<Mismatch> first;
  double worst = 0.0;
  for (int b = 0; b < shape.batch; ++b) {
    for (int h = 0; h < shape.heads; ++h) {
      const std::vector<double> expected =
          cpu_attention_rows(inputs.q, inputs.k, inputs.v, shape, b, h, rows);
      for (std::size_t r = 0; r < rows.size(); ++r) {
        bool row_wrong = false;
        double ratio = std::nan("");
        bool same_ratio = true;
        for (int c = 0; c < shape.head_dim; ++c) {
          const std::size_t at =
              ((static_cast<std::size_t>(b) * shape.tokens + rows[r]) * shape.heads + h) *
                  shape.head_dim + c;
          const double got = __half2float(got_halves[at]);
          const double want = expected[r * shape.head_dim + c];
          const double error = std::fabs(got - want);
          ++checked;
          if (std::fabs(want) > 1e-2) {
            const double this_ratio = got / want;
            if (std::isnan(ratio)) ratio = this_ratio;
            else if (!(std::fabs(this_ratio - ratio) <= 1e-2 * std::fabs(ratio))) same_ratio = false;
          }
          if (error <= bound) continue;
          row_wrong = true;
          ++wrong;
          if (std::isnan(got)) ++unwritten;
          worst = std::isnan(error) ? INFINITY : std::max(worst, error);
          if (first.size() < 5) first.push_back({b, h, rows[r], c, want, got});
        }
        if (row_wrong) {
          if (rows[r] >= shape.tokens / 64 * 64) ++wrong_tail;
          if (shape.causal) ++wrong_diagonal;
          if (!same_ratio || std::isnan(ratio) || std::fabs(ratio - 1.0) < 1e-2) {
            every_row_a_constant_multiple = false;
          }
        }
      }
    }
  }
  if (wrong == 0) return ::testing::AssertionSuccess();

  std::ostringstream text;
  text << where << wrong << " of " << checked << " checked values of O differ from the CPU's "
       << "by more than " << bound << " (the largest by " << worst << ")";
  if (unwritten > 0) text << "; " << unwritten << " are NaN";
  text << ". First ones as (batch, head, token, dim): expected, got:";
  for (const Mismatch& m : first) {
    text << "\n  (" << m.b << ", " << m.h << ", " << m.row << ", " << m.dim << "): " << m.expected
         << ", " << m.got;
  }
  text << "\n  ";
  if (unwritten == wrong) {
    text << "Every wrong value is NaN: O was never written there (the output poisoned before the "
            "call shows through), or a row's sum was 0 or NaN when O was divided by it.";
  } else if (every_row_a_constant_multiple) {
    text << "Each wrong row is the right row times a factor of its own: the output's "
            "normalization (the division by the row's sum, or the rescale of the accumulated "
            "output when the row's max grows).";
  } else if (wrong_tail > 0 && wrong_tail * 4 >= wrong) {
    text << "Most wrong rows lie in the last partial tile of 64 tokens: the tail. Keys past the "
            "sequence must not count (a score of -inf, not 0), and rows past it are not stored.";
  } else if (shape.causal) {
    text << "This shape is causal: row i must see keys 0 to i, exactly.";
  } else {
    text << "Compare a wrong row with the expected one: all wrong by a similar amount points at "
            "the scale or the max, scattered columns at a fragment's layout.";
  }
  text << "\n  edit " << step.source_file;
  return ::testing::AssertionFailure() << text.str();
}

}  // namespace attention::testing

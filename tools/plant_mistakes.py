#!/usr/bin/env python3
"""Plants each known mistake into the learner's exercise file and runs `./course test NN.S` on
it, as a learner who made that mistake would see it. Every one must FAIL, with a message that
names the kind of bug and the learner's file.

tests/NN-name/mistakes/ holds the same mistakes as separate kernels, which the `mistakes` suite
checks on every run. This tool checks the other half: that the learner's own run (the step's
tests and its compute-sanitizer checks, through ./course) catches them in the learner's file.
A plant is the step's solution file with a few exact text edits; the exercise file is restored
afterwards, whatever happens.

usage (from the repository root; a configured `build/`, see README.md):
    tools/plant_mistakes.py [WHICH ...]   on a GPU machine: plant, test, restore (WHICH: a
                                          chapter prefix such as 05, or a mistake's name)
    tools/plant_mistakes.py --check                no GPU: every edit still applies (CI)
"""
import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import fill_todos  # noqa: E402
NAMESPACE = re.compile(r"\bnamespace ((?:\w+::)*)solution\b")

# (chapter, step, file, mistake as named in tests/<chapter>/mistakes/, [(old, new), ...])
PLANTS = [
 ("00-first-kernel", 3, "step3_saxpy.cu", "missing_tail_guard", [(
  "  if (i < n) y[i] = a * x[i] + y[i];\n", "  y[i] = a * x[i] + y[i];\n")]),
 ("00-first-kernel", 4, "step4_launch.cu", "grid_rounded_down", [(
  "  const int blocks = n > 0 ? (n - 1) / threads + 1 : 1;\n",
  "  const int blocks = n / threads;\n")]),
 ("00-first-kernel", 4, "step4_launch.cu", "launch_not_checked", [(
  "  COURSE_CHECK_LAUNCH(\"saxpy kernel\");\n", "")]),
 ("00-first-kernel", 4, "step4_launch.cu", "host_pointer_to_kernel", [(
  "(n, a, x_device.data(), y_device.data());", "(n, a, x.data(), y_device.data());")]),
 ("01-sum-of-squares", 3, "step3_interleaved.cu", "prefetch_past_the_end", [(
  "  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) sum += square(input[i]);\n",
  "  int current = threadIdx.x < n ? input[threadIdx.x] : 0;\n"
  "  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) {\n"
  "    const int next = input[i + blockDim.x];\n"
  "    sum += square(current);\n"
  "    current = next;\n"
  "  }\n")]),
 ("01-sum-of-squares", 5, "step5_block_reduction.cu", "last_warp_without_syncwarp", [(
  "  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {\n",
  "  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {\n"), (
  "  if (threadIdx.x == 0) partials[blockIdx.x] = block_sums[0];\n",
  "  if (threadIdx.x < 32) {\n"
  "    volatile unsigned long long* last = block_sums;\n"
  "    for (unsigned stride = blockDim.x >= 64 ? 32 : blockDim.x / 2; stride > 0; stride /= 2)\n"
  "      last[threadIdx.x] += last[threadIdx.x + stride];\n"
  "  }\n"
  "  if (threadIdx.x == 0) partials[blockIdx.x] = block_sums[0];\n")]),
 ("01-sum-of-squares", 5, "step5_block_reduction.cu", "drops_partial_warps", [(
  "  block_sums[threadIdx.x] = sum;\n"
  "  __syncthreads();  // every thread's sum is in shared memory before anyone reads it\n"
  "  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {\n"
  "    if (threadIdx.x < stride) block_sums[threadIdx.x] += block_sums[threadIdx.x + stride];\n"
  "    __syncthreads();  // this level is complete before the next one reads it\n"
  "  }\n"
  "  if (threadIdx.x == 0) partials[blockIdx.x] = block_sums[0];\n",
  "  const unsigned lanes = blockDim.x < 32 ? blockDim.x : 32;\n"
  "  const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;\n"
  "  for (unsigned offset = lanes / 2; offset > 0; offset /= 2)\n"
  "    sum += __shfl_down_sync(mask, sum, offset, static_cast<int>(lanes));\n"
  "  if (threadIdx.x % 32 == 0) block_sums[threadIdx.x / 32] = sum;\n"
  "  __syncthreads();\n"
  "  if (threadIdx.x < 32) {\n"
  "    sum = threadIdx.x < blockDim.x / 32 ? block_sums[threadIdx.x] : 0;\n"
  "    for (unsigned offset = lanes / 2; offset > 0; offset /= 2)\n"
  "      sum += __shfl_down_sync(mask, sum, offset, static_cast<int>(lanes));\n"
  "    if (threadIdx.x == 0) partials[blockIdx.x] = sum;\n"
  "  }\n")]),
 ("02-naive-matmul", 1, "naive_matmul.cu", "row_shared_without_syncwarp", [(
  "  const int Row = blockIdx.y * blockDim.y + threadIdx.y;\n",
  "  __shared__ int warp_row[32];\n"
  "  const int thread = threadIdx.y * blockDim.x + threadIdx.x;\n"
  "  if (thread % 32 == 0) warp_row[thread / 32] = blockIdx.y * blockDim.y + threadIdx.y;\n"
  "  const int Row = blockDim.x >= 32 ? warp_row[thread / 32] : blockIdx.y * blockDim.y + threadIdx.y;\n")]),
 ("03-tiled-matmul", 1, "tiled_matmul.cu", "prefetch_past_the_last_phase", [(
  "  Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];    // consecutive tx, consecutive\n"
  "  Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];  // addresses: both coalesced\n",
  "  __shared__ float next_m[TILE_WIDTH][TILE_WIDTH], next_n[TILE_WIDTH][TILE_WIDTH];\n"
  "  if (ph == 0) {\n"
  "    next_m[ty][tx] = M[Row * Width + tx];\n"
  "    next_n[ty][tx] = N[ty * Width + Col];\n"
  "  }\n"
  "  Mds[ty][tx] = next_m[ty][tx];\n"
  "  Nds[ty][tx] = next_n[ty][tx];\n"
  "  next_m[ty][tx] = M[Row * Width + (ph + 1) * TILE_WIDTH + tx];\n"
  "  next_n[ty][tx] = N[((ph + 1) * TILE_WIDTH + ty) * Width + Col];\n")]),
 ("04-arbitrary-width-tiles", 1, "square_any_width.cu", "only_last_phase_guarded", [(
  "  if (Row < Width && ph * TILE_WIDTH + tx < Width) {\n",
  "  const int last_phase = (Width - 1) / TILE_WIDTH;\n"
  "  if (ph < last_phase || (Row < Width && ph * TILE_WIDTH + tx < Width)) {\n")]),
 ("04-arbitrary-width-tiles", 1, "square_any_width.cu", "tile_slots_not_zeroed", [(
  "  } else {\n    Mds[ty][tx] = 0.0f;  // harmless in the inner product\n  }\n", "  }\n")]),
 ("04-arbitrary-width-tiles", 2, "square_any_width.cu", "tile_slots_not_zeroed", [(
  "  } else {\n    Nds[ty][tx] = 0.0f;\n  }\n", "  }\n")]),
 ("04-arbitrary-width-tiles", 3, "square_any_width.cu", "store_unguarded", [(
  "  if (Row < Width && Col < Width) P[Row * Width + Col] = Pvalue;\n",
  "  P[Row * Width + Col] = Pvalue;\n")]),
 ("05-reduction", 4, "reduce4_first_add_during_load.cu", "second_load_unguarded", [(
  "  if (i + blockDim.x < n) sum += input[i + blockDim.x];\n",
  "  const T second = input[i + blockDim.x];\n  if (i + blockDim.x < n) sum += second;\n")]),
 ("05-reduction", 3, "reduce3_sequential_addressing.cu", "reduce3_syncthreads_inside_if", [(
  "    if (tid < s) sdata[tid] += sdata[tid + s];\n    __syncthreads();\n",
  "    if (tid < s) {\n      sdata[tid] += sdata[tid + s];\n      __syncthreads();\n    }\n")]),
 ("05-reduction", 5, "reduce5_unroll_last_warp.cu", "last_warp_volatile_only", [(
  "  T sum = sdata[tid];\n#pragma unroll\n"
  "  for (unsigned offset = 32; offset > 0; offset >>= 1) {\n"
  "    sum += sdata[tid + offset];\n"
  "    __syncwarp();  // every lane has read before any lane overwrites\n"
  "    sdata[tid] = sum;\n"
  "    __syncwarp();  // every lane has written before the next level reads\n"
  "  }\n",
  "  volatile T* v = sdata;\n"
  "  for (unsigned offset = 32; offset > 0; offset >>= 1) v[tid] += v[tid + offset];\n")]),
 ("06-warp-reduction", 1, "step1_complete_unroll.cu", "last_warp_without_syncwarp", [(
  "      sum += sdata[tid + offset];\n      __syncwarp();\n      sdata[tid] = sum;\n      __syncwarp();\n",
  "      sum += sdata[tid + offset];\n      sdata[tid] = sum;\n")]),
 ("06-warp-reduction", 4, "step4_vector_loads.cu", "vector_load_past_the_tail", [(
  "  const std::size_t vectors = (n - head) / kWidth;\n",
  "  const std::size_t vectors = (n - head + kWidth - 1) / kWidth;\n"), (
  "  if (thread < n - tail) sum += input[tail + thread];\n", "  (void)tail;\n")]),
 ("06-warp-reduction", 5, "step5_one_launch.cu", "missing_threadfence", [(
  "    __threadfence();  // this block's total is visible to every block before its ticket\n", "")]),
 ("06-warp-reduction", 5, "step5_one_launch.cu", "block_scope_fence", [(
  "    __threadfence();  // this block's total is visible to every block before its ticket\n",
  "    __threadfence_block();  // this block's total is visible to every block before its ticket\n")]),
 ("07-register-tiled-sgemm", 2, "step2_2d_blocktiling.cu", "missing_barrier_after_compute", [(
  "    // END SOLUTION\n    __syncthreads();\n", "    // END SOLUTION\n")]),
 ("07-register-tiled-sgemm", 2, "step2_2d_blocktiling.cu", "register_tile_index_off_by_one", [(
  "m_values[i] = Mtile[(thread_row * TM + i) * BK + dot];",
  "m_values[i] = Mtile[(thread_row * TM + i) * BK + dot + 1];")]),

 ("02-naive-matmul", 1, "naive_matmul.cu", "only_the_store_guarded", [(
  "  if (Row < Width && Col < Width) {\n"
  "    float Pvalue = 0.0f;\n",
  "  {\n"
  "    float Pvalue = 0.0f;\n"), (
  "    P[Row * Width + Col] = Pvalue;\n",
  "    if (Row < Width && Col < Width) P[Row * Width + Col] = Pvalue;\n")]),
 ("03-tiled-matmul", 2, "tiled_matmul.cu", "missing_first_syncthreads", [(
  "  __syncthreads();  // read-after-write: other threads loaded most of what we read next\n", "")]),
 ("03-tiled-matmul", 2, "tiled_matmul.cu", "missing_second_syncthreads", [(
  "  __syncthreads();  // write-after-read: nobody overwrites a tile that a slow warp still reads\n",
  "")]),
 ("04-arbitrary-width-tiles", 4, "rectangular.cu", "n_row_guard_off_by_one", [(
  "(n_row < k && Col < n)", "(n_row <= k && Col < n)")]),
 ("05-reduction", 1, "reduce1_interleaved_divergent.cu", "reduce1_without_syncthreads", [(
  "    __syncthreads();  // the next level reads what this one wrote\n", "")]),
 ("06-warp-reduction", 3, "step3_warp_shuffle.cu", "partial_mask_shuffle", [(
  "value += __shfl_down_sync(kFullMask, value, offset);",
  "value += __shfl_down_sync(0xffffu, value, offset);")]),
 ("07-register-tiled-sgemm", 2, "step2_2d_blocktiling.cu", "missing_barrier_after_load", [(
  "    __syncthreads();\n    // BEGIN SOLUTION\n", "    // BEGIN SOLUTION\n")]),

]


def planted_text(chapter, file_name, edits):
    """The solution file with the edits made, in the exercise's namespace."""
    text = (ROOT / "solutions" / chapter / file_name).read_text()
    for old, new in edits:
        if text.count(old) != 1:
            raise ValueError(f"solutions/{chapter}/{file_name}: this edit no longer matches "
                             f"exactly once (update PLANTS): {old.strip()[:70]!r}")
        text = text.replace(old, new)
    return NAMESPACE.sub(lambda m: f"namespace {m.group(1)}exercise", text)


def check():
    problems = []
    for chapter, step, file_name, mistake, edits in PLANTS:
        try:
            planted_text(chapter, file_name, edits)
        except (OSError, ValueError) as error:
            problems.append(str(error))
        mistakes = "".join(p.read_text() for p in (ROOT / "tests" / chapter / "mistakes").glob("*"))
        if mistake not in mistakes:
            problems.append(f"{mistake}: not a mistake of tests/{chapter}/mistakes/")
    print("\n".join(problems) or f"ok: all {len(PLANTS)} plants apply to solutions/")
    return 1 if problems else 0


def plant_and_test(which):
    caught = missed = 0
    for chapter, step, file_name, mistake, edits in sorted(PLANTS, key=lambda p: p[:2]):
        if which and not any(chapter.startswith(w) or mistake == w for w in which):
            continue
        rc, output, seconds = fill_todos.judge(
            chapter, {file_name: planted_text(chapter, file_name, edits)}, f"{chapter[:2]}.{step}")
        caught += rc != 0
        missed += rc == 0
        verdict = "rejected" if rc else "NOT CAUGHT"
        print(f"===== {chapter[:2]}.{step} {mistake}: {verdict} ({seconds:.0f} s)")
        print(output, flush=True)
    print(f"{caught} planted mistakes rejected, {missed} not caught")
    return 1 if missed else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only check that every plant applies (no GPU, no build)")
    parser.add_argument("which", nargs="*",
                        help="chapter prefixes (05) or mistake names (default: all)")
    args = parser.parse_args(argv)
    return check() if args.check else plant_and_test(args.which)


if __name__ == "__main__":
    sys.exit(main())

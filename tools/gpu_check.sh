#!/usr/bin/env bash
# The GPU checks CI cannot make (it has no GPU), for one chapter, in one go:
#   release build for the GPU here; solution + host suites; exercise suite (must fail as
#   shipped); optionally compute-sanitizer (memcheck, racecheck, synccheck) on the solutions;
#   optionally the benchmark with JSON output.
# usage: tools/gpu_check.sh CHAPTER[,CHAPTER...] OUTDIR [tests] [sanitizers] [bench]
set -u
chapters=$1
out=$2
shift 2
what=" $* "
build=build-gpu-check
mkdir -p "$out"
arch=${GPU_ARCH:-native}

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dbuildtype=release -Dgpu_arch="$arch" -Dchapters="$chapters" \
    > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
fi
ninja -C "$build" >> "$out/build.log" 2>&1 || { grep -B2 -A12 -m5 'error' "$out/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

if [[ $what == *" tests "* ]]; then
  echo "== solution and host suites"
  meson test -C "$build" --suite solution --suite host --print-errorlogs > "$out/tests.log" 2>&1
  echo "rc=$?"
  grep -E '^ *[0-9]+/[0-9]+ ' "$out/tests.log"
  echo "== exercise suite (must fail as shipped)"
  meson test -C "$build" --suite exercise >> "$out/tests.log" 2>&1
  echo "rc=$?"
  cp "$build/meson-logs/testlog.txt" "$out/exercise-testlog.txt"
  echo "== what the tests print for each known mistake"
  for t in "$build"/chapters/*/tests/test-*-gpu; do
    "$t" --gtest_filter='Mistakes*:*OnlyMistakes*' >> "$out/mistakes.log" 2>&1
  done
  grep -cE '^\[       OK \] Mistakes' "$out/mistakes.log" | sed 's/^/mistakes rejected by the tests: /'
  grep -cE '^\[  FAILED  \]' "$out/exercise-testlog.txt" | sed 's/^/exercise tests failed: /'
  grep -cE '^\[       OK \]' "$out/exercise-testlog.txt" | sed 's/^/exercise tests passed: /'
fi

suites=()
for chapter in ${chapters//,/ }; do suites+=(--suite "$chapter:solution"); done

if [[ $what == *" sanitizers "* ]]; then
  for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer $tool on the solutions"
    meson test -C "$build" --setup="$tool" "${suites[@]}" --no-suite mistakes --print-errorlogs \
      > "$out/sanitizer-$tool.log" 2>&1
    echo "rc=$?"
    grep -E '^ *[0-9]+/[0-9]+ ' "$out/sanitizer-$tool.log"
    grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$build/meson-logs/testlog-$tool.txt" | sort | uniq -c
  done
fi

if [[ $what == *" bench "* ]]; then
  bench_chapters=${BENCH_CHAPTERS:-$chapters}  # e.g. BENCH_CHAPTERS=03-tiled-matmul
  for chapter in ${bench_chapters//,/ }; do
    echo "== benchmark $chapter"
    bench=$(find "$build/chapters/$chapter" -maxdepth 1 -name 'bench-*' -type f -perm -u+x | head -1)
    "$bench" --benchmark_out="$out/bench-$chapter.json" --benchmark_out_format=json \
      --benchmark_counters_tabular=true 2>&1 | tee "$out/bench-$chapter.txt" |
      grep -E '_median|ERROR|^gpu' | sed -E 's/ +[0-9.]+ [um]?s +[0-9]+ / /'
  done
fi

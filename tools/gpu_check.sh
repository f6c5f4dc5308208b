#!/usr/bin/env bash
# The GPU checks CI cannot make (it has no GPU), for one chapter, in one go:
#   release build for the GPU here; solution + host suites; exercise suite (must fail as
#   shipped); optionally compute-sanitizer (memcheck, racecheck, synccheck) on the solutions;
#   optionally the benchmark with JSON output.
# usage: tools/gpu_check.sh CHAPTER OUTDIR [tests] [sanitizers] [bench]
set -u
chapter=$1
out=$2
shift 2
what=" $* "
build=build-gpu-check
mkdir -p "$out"
arch=${GPU_ARCH:-native}

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dbuildtype=release -Dgpu_arch="$arch" -Dchapters="$chapter" \
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
  grep -cE '^\[  FAILED  \]' "$out/exercise-testlog.txt" | sed 's/^/exercise tests failed: /'
  grep -cE '^\[       OK \]' "$out/exercise-testlog.txt" | sed 's/^/exercise tests passed: /'
fi

if [[ $what == *" sanitizers "* ]]; then
  for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer $tool on the solutions"
    meson test -C "$build" --setup="$tool" --suite "$chapter:solution" --no-suite mistakes --print-errorlogs \
      > "$out/sanitizer-$tool.log" 2>&1
    echo "rc=$?"
    grep -E '^ *[0-9]+/[0-9]+ ' "$out/sanitizer-$tool.log"
    grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$build/meson-logs/testlog-$tool.txt" | sort | uniq -c
  done
fi

if [[ $what == *" bench "* ]]; then
  echo "== benchmark"
  bench=$(find "$build/chapters/$chapter" -maxdepth 1 -name 'bench-*' -type f -perm -u+x | head -1)
  "$bench" --benchmark_out="$out/bench.json" --benchmark_out_format=json \
    --benchmark_counters_tabular=true 2>&1 | tee "$out/bench.txt" | grep -vE '_(mean|stddev|cv) '
fi

#!/usr/bin/env bash
# The GPU checks CI cannot make (it has no GPU), for some chapters, in one go:
#   build       a release build for the GPU here (BUILD, default build-gpu-check)
#   bench       each chapter's benchmark, alone on the GPU: OUTDIR/bench-NN-name.json
#   tests       the solution suite (the reference, the known mistakes, the solutions' sanitizer
#               runs; the profiler's directions with PROFILE=1) and the host suite
#   learner     the learner's own runs (./course test NN.S), one build folder per chapter and
#               the chapters in parallel: every step passes with only its own TODOs done and
#               fails as shipped, every correct alternative is accepted, every known mistake
#               is rejected (python3 -m tools.learner steps|alternatives|mistakes)
# Logs go to OUTDIR; the last lines printed are the summary.
# usage: GPU_ARCH=sm_90 tools/gpu_check.sh CHAPTER[,CHAPTER...] OUTDIR [build] [bench] [tests]
#                                          [learner]
set -u
chapters=$1
out=$2
shift 2
what=" $* "
build=${BUILD:-build-gpu-check}
arch=${GPU_ARCH:-native}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

if [[ $what == *" build "* ]]; then
  start=$SECONDS
  [ -f "$build/build.ninja" ] || meson setup "$build" -Dbuildtype=release -Dgpu_arch="$arch" \
    -Dchapters="$chapters" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
  ninja -C "$build" >> "$out/build.log" 2>&1 || { grep -A12 -m5 'error' "$out/build.log"; exit 1; }
  echo "build: $((SECONDS - start)) s"
fi

# Runs `meson test` with the given arguments into LOG; prints the time and the summary.
run_suite() {
  local label=$1 log=$2
  shift 2
  local begin=$SECONDS
  meson test -C "$build" --no-rebuild --print-errorlogs "$@" > "$log" 2>&1
  printf '%-40s rc=%d %4d s  %s\n' "$label" $? $((SECONDS - begin)) \
    "$(grep -E '^(Ok|Fail|Skipped|Timeout):' "$log" | tr -s ' ' | tr '\n' ' ')"
  grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT|ERROR)' "$log" | cut -c1-150
}

if [[ $what == *" bench "* ]]; then
  for chapter in ${BENCH_CHAPTERS:-${chapters//,/ }}; do
    begin=$SECONDS
    "$build/chapters/$chapter/bench-${chapter:3}" --benchmark_out="$out/bench-$chapter.json" \
      --benchmark_out_format=json > "$out/bench-$chapter.txt" 2>&1
    echo "benchmark $chapter: rc=$? $((SECONDS - begin)) s"
  done
fi

if [[ $what == *" tests "* ]]; then
  profile=(--no-suite profile)
  [ -n "${PROFILE:-}" ] && profile=()
  for chapter in ${chapters//,/ }; do
    run_suite "$chapter:solution" "$out/tests-$chapter.log" --suite "$chapter:solution" \
      "${profile[@]}"
  done
  run_suite "host" "$out/tests-host.log" --suite host
fi

if [[ $what == *" learner "* ]]; then
  begin=$SECONDS
  for chapter in ${chapters//,/ }; do
    (
      export COURSE_BUILD="$PWD/build-learner-$chapter"
      [ -f "$COURSE_BUILD/build.ninja" ] || meson setup "$COURSE_BUILD" -Dbuildtype=release \
        -Dgpu_arch="$arch" -Dchapters="$chapter" > /dev/null
      for check in steps alternatives mistakes; do
        python3 -m tools.learner $check "${chapter:0:2}"
      done
    ) > "$out/learner-$chapter.log" 2>&1 &
  done
  wait
  echo "learner: $((SECONDS - begin)) s"
  for chapter in ${chapters//,/ }; do
    grep -hE '^[0-9]{2}\.[0-9]+ |stand alone|alternatives accepted|mistakes rejected|^===== ' \
      "$out/learner-$chapter.log" | grep -vE '===== .*(accepted|rejected) \(' | cut -c1-150
  done
fi

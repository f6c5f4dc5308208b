#!/usr/bin/env bash
# The GPU checks CI cannot make (it has no GPU), for some chapters, in one go:
#   release build for the GPU here, then any of
#     tests       the solution suite (the reference, the known mistakes, the solutions' sanitizer
#                 runs) and the host suite, with the time of each chapter's suite
#     exercise    each chapter's exercise suite, which must fail as shipped (with its time: the
#                 learner's run, sanitizer checks included, should stay within 60 s)
#     sanitizers  meson test --setup=memcheck|racecheck|synccheck --suite solution
#     bench       each chapter's benchmark, with JSON output
#     learner     the learner's own runs (./course test NN.S), one build folder per chapter and
#                 the chapters in parallel: every step passes with only its own TODOs done and
#                 fails as shipped (tools/check_steps_alone.py), every correct alternative is
#                 accepted (tools/check_alternatives.py), every known mistake is rejected
#                 (tools/plant_mistakes.py)
# Logs go to OUTDIR; the last lines printed are the summary.
# usage: GPU_ARCH=sm_90 tools/gpu_check.sh CHAPTER[,CHAPTER...] OUTDIR [tests] [exercise]
#                                          [sanitizers] [bench] [learner]
set -u
chapters=$1
out=$2
shift 2
what=" $* "
build=${BUILD:-build-gpu-check}
mkdir -p "$out"
arch=${GPU_ARCH:-native}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
if [[ $what =~ \ (tests|exercise|sanitizers|bench)\  ]]; then
  if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" -Dbuildtype=release -Dgpu_arch="$arch" -Dchapters="$chapters" \
      > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
  fi
  start=$SECONDS
  ninja -C "$build" >> "$out/build.log" 2>&1 || { grep -B2 -A12 -m5 'error' "$out/build.log"; exit 1; }
  echo "build: $((SECONDS - start)) s"
fi

# Runs `meson test` with the given arguments, appends to LOG, prints the time and the summary.
run_suite() {
  local label=$1 log=$2
  shift 2
  local begin=$SECONDS
  meson test -C "$build" --print-errorlogs "$@" >> "$log" 2>&1
  local status=$?
  printf '%-44s rc=%d %4d s  %s\n' "$label" "$status" $((SECONDS - begin)) \
    "$(grep -E '^(Ok|Fail|Skipped|Timeout):' "$log" | tail -4 | tr -s ' ' | tr '\n' ' ')"
}

if [[ $what == *" tests "* ]]; then
  echo "== solution and host suites"
  for chapter in ${chapters//,/ }; do
    run_suite "$chapter:solution" "$out/tests-$chapter.log" --suite "$chapter:solution"
    grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT|ERROR)' "$out/tests-$chapter.log"
  done
  run_suite "host" "$out/tests-host.log" --suite host
  run_suite "course-common:solution" "$out/tests-common.log" --suite course-common:solution
fi

if [[ $what == *" exercise "* ]]; then
  echo "== exercise suites (must fail as shipped)"
  for chapter in ${chapters//,/ }; do
    run_suite "$chapter:exercise" "$out/exercise-$chapter.log" --suite "$chapter:exercise"
    cp "$build/meson-logs/testlog.txt" "$out/exercise-testlog-$chapter.txt"
    printf '  gtest cases: %s failed, %s passed\n' \
      "$(grep -cE '^\[  FAILED  \] [A-Z]' "$out/exercise-testlog-$chapter.txt")" \
      "$(grep -cE '^\[       OK \]' "$out/exercise-testlog-$chapter.txt")"
  done
fi

if [[ $what == *" sanitizers "* ]]; then
  for tool in memcheck racecheck synccheck; do
    suites=()
    for chapter in ${chapters//,/ }; do suites+=(--suite "$chapter:solution"); done
    run_suite "--setup=$tool --suite solution" "$out/sanitizer-$tool.log" --setup="$tool" \
      "${suites[@]}" --suite course-common:solution
    grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT)' "$out/sanitizer-$tool.log"
    grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$build/meson-logs/testlog-$tool.txt" | sort | uniq -c
  done
fi

if [[ $what == *" bench "* ]]; then
  for chapter in ${BENCH_CHAPTERS:-${chapters//,/ }}; do
    echo "== benchmark $chapter"
    bench=$(find "$build/chapters/$chapter" -maxdepth 1 -name 'bench-*' -type f -perm -u+x | head -1)
    begin=$SECONDS
    "$bench" --benchmark_out="$out/bench-$chapter.json" --benchmark_out_format=json \
      --benchmark_counters_tabular=true > "$out/bench-$chapter.txt" 2>&1
    echo "($((SECONDS - begin)) s)"
    grep -E '_median|ERROR' "$out/bench-$chapter.txt" | grep -v '^Exercise.*ERROR' |
      sed -E 's/ +[0-9.]+ [um]?s +[0-9]+ / /; s/_median//; s/\/manual_time//; s/\/repeats:[0-9]+//' |
      cut -c1-150
  done
fi

if [[ $what == *" learner "* ]]; then
  echo "== the learner's runs: steps alone, alternatives, planted mistakes (chapters in parallel)"
  begin=$SECONDS
  for chapter in ${chapters//,/ }; do
    (
      export COURSE_BUILD="$PWD/build-learner-$chapter"
      [ -f "$COURSE_BUILD/build.ninja" ] ||
        meson setup "$COURSE_BUILD" -Dbuildtype=release -Dgpu_arch="$arch" -Dchapters="$chapter"
      number=${chapter:0:2}
      python3 tools/check_steps_alone.py "$number"
      python3 tools/check_alternatives.py "$number"
      python3 tools/plant_mistakes.py "$number"
    ) > "$out/learner-$chapter.log" 2>&1 &
  done
  wait
  echo "($((SECONDS - begin)) s)"
  for chapter in ${chapters//,/ }; do
    grep -hE '^[0-9]{2}\.[0-9]+ |steps stand alone|alternatives accepted|planted mistakes rejected|^===== ' \
      "$out/learner-$chapter.log" | cut -c1-160
  done
fi

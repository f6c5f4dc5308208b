"""./course, the learner's loop around the exercises on top of Meson: one module per job.

    paths      the repository, the build folder, paths as the learner types them
    errors     CourseError: a problem the learner can fix (exit status 2)
    manifest   chapters and steps from chapters/NN-name/steps.json; '01.3' -> step
    meson      configure, build, setup-failure and compiler-error explanations
    gtest      runs a step's GoogleTest filters; the JSON report -> results
    sanitize   a step's small cases under compute-sanitizer
    verdict    the one pass rule, the text the learner sees; ./course test
    state      build/course-state.json (each step's last verdict); ./course list
    bench      Google Benchmark JSON -> rows, the table, the GPU summary
    chart      the rows as an SVG bar chart; ./course chart
    compare    ./course compare: the release benchmark, its table and chart
    profile    ./course profile: the Nsight Compute table
    solution   ./course solution and ./course hint
    watch      ./course watch
    doctor     ./course doctor: this machine against the toolchain's limits, with fixes
    cli        the subcommands and their options -> the handlers above

Standard library only, Python 3.8 or newer.
"""
import sys

from .paths import ROOT

# The one place that makes the course's shared scripts importable: common/scripts holds
# sanitizer_check, ncu_profile and cuda_tools (Meson's tests run them as scripts, so they stay
# there), tools/ holds sync_exercises (the shipped exercise text). Every module of the package
# imports them by their plain names once this has run, which importing any of them ensures.
for _folder in (ROOT / "tools", ROOT / "common" / "scripts"):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

"""./course, the learner's loop around the exercises on top of Meson: one module per job.

    paths      the repository, the build folder, paths as the learner types them
    errors     CourseError: a problem the learner can fix (exit status 2)
    manifest   chapters and steps (common/scripts/manifest.py); '01.3' -> step
    meson      configure, build, setup-failure and compiler-error explanations
    verdict    a step judged by the one pass rule (common/scripts/judge.py); ./course test
    state      build/course-state.json (each step's last verdict); ./course list
    bench      Google Benchmark JSON -> rows, the table, the GPU summary
    chart      the rows as an SVG bar chart; ./course chart
    readme     a chapter's measured tables and charts, rendered into its README
    compare    ./course compare: the release benchmark, its table and chart (--record: the
               chapter's measured-<gpu>.json and README)
    profile    ./course profile: the Nsight Compute table
    solution   ./course solution and ./course hint
    watch      ./course watch
    doctor     ./course doctor: this machine against the toolchain's limits, with fixes
    cli        the subcommands and their options -> the handlers above

It uses common/scripts (as the package common.scripts), and nothing in tools/. Its tests are
course_tool/tests/. Standard library only, Python 3.8 or newer.
"""

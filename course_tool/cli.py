"""The learner's loop around the exercises, on top of Meson (Python 3 standard library only).

    ./course list               every chapter and step: not started, not tested yet, failing,
                                passing or needs other GPU (from your last ./course test; instant,
                                no GPU); what next
    ./course test 01            build what chapter 01 needs and run its exercise tests, per step
    ./course test 01.3          only step 3 (and its small cases under compute-sanitizer)
    ./course compare 01         release benchmark: exercise vs solution vs vendor, a table,
                                and the JSON and an SVG chart in build/chapters/01-.../
                                (under a minute; --full: as many samples as it takes;
                                --record: keep it as chapters/NN/measured-<gpu>.json and
                                render the README's tables and charts from it)
    ./course profile 01.3       Nsight Compute: the counters that show why step 3 is faster,
                                for your kernel and the solution's
    ./course hint 01.3          a question to think about for step 3
    ./course hint 01.3 --more   the question and a clue: the invariant to keep, or what to read
    ./course hint 01.3 --recipe then the recipe: what each piece must achieve, still not the code
    ./course solution 01.3      the reference for step 3 (after its tests pass, or with --anyway)
    ./course watch 01           re-test chapter 01 whenever one of its exercise files changes
    ./course chart FILE.json    draw the chart of a benchmark JSON (FILE.svg next to it)
    ./course doctor             check this machine for the course (driver, GPU, CUDA,
                                compilers, tools, build folder): OK, WARN, FAIL, SKIP

Every Meson command it runs is printed first, so you learn the real tools as you go.
The build folder is ./build (another one with COURSE_BUILD=path).
"""
import argparse
import os
import sys

from . import chart, compare, doctor, profile, solution, state, verdict, watch
from .errors import CourseError

COURSE_ERROR_EXIT = 2


def add_command(subcommands, name, help_text, handler, spec=True):
    """A subcommand bound to its handler (a function of the parsed arguments)."""
    parser = subcommands.add_parser(name, help=help_text)
    if spec:
        parser.add_argument("spec", help="a chapter (01) or a step (01.3)")
    parser.set_defaults(func=handler)
    return parser


def build_parser():
    parser = argparse.ArgumentParser(prog="course", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    add_command(sub, "list", "every step and its state", lambda a: state.command_list(),
                spec=False)
    add_command(sub, "test", "build and run the exercise tests of a chapter or a step",
                lambda a: verdict.command_test(a.spec))
    add_command(sub, "watch", "re-test a chapter whenever one of its exercise files changes",
                lambda a: watch.command_watch(a.spec))
    add_command(sub, "profile", "Nsight Compute: a step's counters, your kernel and the solution's",
                lambda a: profile.command_profile(a.spec))
    hint = add_command(sub, "hint", "a question to think about for a step",
                       lambda a: solution.command_hint(a.spec, a.tier))
    hint.add_argument("--more", dest="tier", action="store_const", const=1, default=0,
                      help="a clue too: the invariant to keep, or which figure to read")
    hint.add_argument("--recipe", dest="tier", action="store_const", const=2,
                      help="the clue and the recipe: what each piece must achieve, not the code")
    compare_parser = add_command(sub, "compare", "release benchmark: exercise, solution, vendor",
                                 lambda a: compare.command_compare(a.spec, a.full, a.record))
    compare_parser.add_argument("--full", action="store_true",
                                help="as many samples as Google Benchmark wants (minutes, not "
                                     "seconds)")
    compare_parser.add_argument("--record", action="store_true",
                                help="maintainers: keep the run as the chapter's "
                                     "measured-<gpu>.json and render its README from it")
    solution_parser = add_command(sub, "solution", "the reference code of a step",
                                  lambda a: solution.command_solution(a.spec, a.anyway))
    solution_parser.add_argument("--anyway", action="store_true",
                                 help="show it before the tests pass")
    chart_parser = add_command(sub, "chart", "the SVG chart of a benchmark JSON",
                               lambda a: chart.command_chart(a.json, a.output, a.title,
                                                             a.hide_skipped, a.only), spec=False)
    chart_parser.add_argument("json")
    chart_parser.add_argument("-o", "--output", help="default: the JSON's name with .svg")
    chart_parser.add_argument("--title", help="default: the JSON file's name")
    chart_parser.add_argument("--hide-skipped", action="store_true",
                              help="leave out rows that were skipped (an unfinished exercise)")
    chart_parser.add_argument("--only", metavar="REGEX", help="only the rows whose name matches")
    add_command(sub, "doctor", "check this machine: driver, GPU, CUDA, compilers, tools, build",
                lambda a: doctor.command_doctor(), spec=False)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CourseError as error:
        print(f"course: {error}", file=sys.stderr)
        return COURSE_ERROR_EXIT
    except BrokenPipeError:  # ./course list | head: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0

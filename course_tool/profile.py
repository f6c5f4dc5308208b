"""./course profile: a step's Nsight Compute counters, the learner's kernel against the
solution's (and what the lesson compares them with), through common/scripts/ncu_profile.py."""
from common.scripts import cuda_tools, ncu_profile

from . import manifest, meson
from .errors import CourseError
from .paths import rel


def profile_table(step, yours, solution, compared):
    """The table ./course profile prints: a metric per row, its meaning underneath. `compared`
    is {what: {label: value}}: a column for each thing the lesson compares a metric with
    (another step's solution, another row of the benchmark), filled where it does."""
    headers = ["your kernel", "solution"] + list(compared)
    widths = [max(26, len(h) + 2) for h in headers]  # a long name never runs into the next
    lines = [f"  {'metric':<46}" + "".join(f"{h:>{w}}" for h, w in zip(headers, widths))]
    for metric in step.profile["metrics"]:
        label = metric["label"]
        cells = [ncu_profile.format_value(yours.get(label) if yours else None),
                 ncu_profile.format_value(solution.get(label))]
        # A column the metric is not compared with stays empty; a failed reading says n/a.
        cells += [ncu_profile.format_value(column[label]) if label in column else ""
                  for column in compared.values()]
        lines.append(f"  {label:<46}" + "".join(f"{c:>{w}}" for c, w in zip(cells, widths)))
        lines.append(f"      {metric['meaning']}")
        expect = metric.get("expect")
        if expect:
            lines.append(f"      The lesson: {expect['direction']} than "
                         f"{expect.get('what', 'step ' + str(expect.get('step')))}.")
    return "\n".join(lines)


def command_profile(spec):
    chapter, step = manifest.resolve_step(spec, "profile")
    if not step.profile:
        with_profile = [s.id for c in manifest.chapters() for s in c.steps if s.profile]
        raise CourseError(f"step {step.id} has no profile; these steps do: "
                          + ", ".join(with_profile))
    if cuda_tools.find("ncu") is None:
        raise CourseError(ncu_profile.MISSING_HELP)
    meson.build([chapter.benchmark])
    benchmark = rel(meson.binary_path(chapter, chapter.benchmark))
    steps = [s.data for s in chapter.steps]  # what ncu_profile reads: the manifest's steps
    try:
        solution = ncu_profile.profile_step(step.data, "solution", benchmark, meson.show)
        try:
            yours = ncu_profile.profile_step(step.data, "exercise", benchmark, meson.show)
        except ncu_profile.ProfileError as error:
            if error.unavailable:
                raise
            print(f"(your kernel did not run in that row: {str(error).splitlines()[0]})")
            yours = None
        compared = {}
        for metric in step.profile["metrics"]:
            if metric.get("expect"):
                what, value = ncu_profile.expected_value(metric["expect"], metric, steps,
                                                         benchmark, meson.show)
                compared.setdefault(what, {})[metric["label"]] = value
    except ncu_profile.ProfileError as error:
        raise CourseError(str(error))
    print(f"\n{step.id} {step.title}: Nsight Compute, one launch of each kernel "
          f"(benchmark row {step.profile['row']})")
    print(profile_table(step, yours, solution, compared))
    return 0

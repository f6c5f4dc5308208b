"""./course profile: a step's Nsight Compute counters, the learner's kernel against the
solution's (and what the lesson compares them with), through common/scripts/ncu_profile.py."""
import cuda_tools  # common/scripts, on the path course_tool/__init__.py sets
import ncu_profile

from . import manifest, meson
from .errors import CourseError
from .paths import rel


def profile_table(step, yours, solution, contrast):
    """The table ./course profile prints: a metric per row, its meaning underneath."""
    headers = ["your kernel", "solution"] + ([contrast[0]] if contrast else [])
    widths = [max(26, len(h) + 2) for h in headers]  # a long name never runs into the next
    lines = [f"  {'metric':<46}" + "".join(f"{h:>{w}}" for h, w in zip(headers, widths))]
    for metric in step.profile["metrics"]:
        label = metric["label"]
        values = [yours.get(label) if yours else None, solution.get(label)]
        if contrast:
            values.append(contrast[1].get(label))
        lines.append(f"  {label:<46}" + "".join(f"{ncu_profile.format_value(v):>{w}}"
                                                  for v, w in zip(values, widths)))
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
    steps = [s.data for s in chapter.steps]
    try:
        solution = ncu_profile.profile_step(step.data, "solution", benchmark, meson.show)
        try:
            yours = ncu_profile.profile_step(step.data, "exercise", benchmark, meson.show)
        except ncu_profile.ProfileError as error:
            if error.unavailable:
                raise
            print(f"(your kernel did not run in that row: {str(error).splitlines()[0]})")
            yours = None
        contrast_values, what = {}, None
        for metric in step.profile["metrics"]:
            if metric.get("expect"):
                what, contrast_values[metric["label"]] = ncu_profile.expected_value(
                    metric["expect"], metric, steps, benchmark, meson.show)
        contrast = (what, contrast_values) if what else None
    except ncu_profile.ProfileError as error:
        raise CourseError(str(error))
    print(f"\n{step.id} {step.title}: Nsight Compute, one launch of each kernel "
          f"(benchmark row {step.profile['row']})")
    print(profile_table(step, yours, solution, contrast))
    return 0

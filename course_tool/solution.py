"""./course hint (the question, then a clue, then the recipe) and ./course solution (the
reference code of a step, once its tests pass)."""
import re
import textwrap

from common.scripts import judge, regions

from . import manifest, meson, state, verdict
from .errors import CourseError

HINT_WIDTH = 96


def solution_regions(step):
    """The reference code of a step: the regions of its files that belong to it."""
    shown = []
    for file_name in step.files:
        text = step.chapter.solution_text(file_name)
        lines = text.splitlines()
        for region in regions.regions(text, file_name):
            if region.step == step.number:
                shown.append(f"--- solutions/{step.chapter.name}/{file_name}\n"
                             + "\n".join(lines[region.begin + 1:region.end]))
    return shown


def command_solution(spec, anyway=False):
    """Shown once the step passes by the one pass rule (verdict.step_passes), or when this GPU
    cannot run it: a recorded pass of these very files is reused, else the step is judged
    now."""
    chapter, step = manifest.resolve_step(spec, "solution")
    recorded = state.verdict_as_is(step)
    if recorded == state.NEEDS_ANOTHER_GPU:
        print(f"This GPU cannot run step {step.id} (./course test {step.id} says why); "
              "its reference:\n")
    elif not anyway and recorded != "pass":
        stamps = state.file_stamps(step)
        meson.build(chapter.test_binaries)
        passed, results, outcomes = verdict.judge_step(step, stamps)
        if not passed and judge.needs_another_gpu(results):
            print(verdict.verdict(step, results, outcomes) + "\n")
        elif not passed:
            print(verdict.verdict(step, results, outcomes))
            raise CourseError(f"Step {step.id}'s tests do not pass yet, so the reference stays "
                              f"hidden. ./course hint {step.id} helps; "
                              f"./course solution {step.id} --anyway shows it now.")
    print("\n\n".join(solution_regions(step)) + "\n")
    return 0


# ./course hint's tiers after the question: the option that adds each, and what it gives.
TIERS = ((" --more", "a clue: the invariant to keep, or what to read"),
         (" --recipe", "the recipe: the steps in words, not the code"))


def command_hint(spec, tier=0):
    """The step's question; tier 1 adds the clue (the invariant, or which figure or section to
    read), tier 2 the recipe too (what each piece must achieve) and where the code is."""
    _, step = manifest.resolve_step(spec, "hint")
    print(f"{step.id} {step.title}\n")
    question = textwrap.fill(step.hint, width=HINT_WIDTH)
    if tier == 0:
        print(question)
    else:
        print(f"The question:\n{question}\n")
        print(f"The clue:\n{textwrap.fill(step.data.get('clue', ''), width=HINT_WIDTH)}")
    if tier < 2:
        option, what = TIERS[tier]
        print(f"\nStill stuck? ./course hint {step.id}{option} gives {what}.")
        return 0
    print("\nThe recipe:")
    for paragraph in step.recipe.splitlines():
        print(textwrap.fill(paragraph, width=HINT_WIDTH, subsequent_indent="    "
                            if re.match(r"\(?\d+[.)]", paragraph) else ""))
    print(f"\nThe code itself: ./course solution {step.id}, once ./course test {step.id} "
          "passes.")
    return 0

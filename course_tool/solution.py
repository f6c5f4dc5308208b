"""./course hint (the question, then the recipe) and ./course solution (the reference code of a
step, once its tests pass)."""
import re
import textwrap

from common.scripts import regions

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
    """Shown once the step passes by the one pass rule (verdict.step_passes): a recorded pass
    of these very files is reused, else the step is judged now."""
    chapter, step = manifest.resolve_step(spec, "solution")
    if not anyway and not state.passed_as_is(step):
        stamps = state.file_stamps(step)
        meson.build(chapter.test_binaries)
        passed, results, outcomes = verdict.judge_step(step, stamps)
        if not passed:
            print(verdict.verdict(step, results, outcomes))
            raise CourseError(f"Step {step.id}'s tests do not pass yet, so the reference stays "
                              f"hidden. ./course hint {step.id} helps; "
                              f"./course solution {step.id} --anyway shows it now.")
    print("\n\n".join(solution_regions(step)) + "\n")
    return 0


def command_hint(spec, more=False):
    """The step's question; with more, the question and then the recipe (the concrete steps,
    still not the code) and where the code is."""
    _, step = manifest.resolve_step(spec, "hint")
    print(f"{step.id} {step.title}\n")
    question = textwrap.fill(step.hint, width=HINT_WIDTH)
    if not more:
        print(question)
        print(f"\nStill stuck? ./course hint {step.id} --more gives the recipe: the steps, "
              "not the code.")
        return 0
    print(f"The question:\n{question}\n")
    print("The recipe:")
    for paragraph in step.recipe.splitlines():
        print(textwrap.fill(paragraph, width=HINT_WIDTH, subsequent_indent="    "
                            if re.match(r"\(?\d+[.)]", paragraph) else ""))
    print(f"\nThe code itself: ./course solution {step.id}, once ./course test {step.id} "
          "passes.")
    return 0

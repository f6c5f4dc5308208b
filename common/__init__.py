"""course-common: the helper library of every chapter (a Meson project), and scripts/, the
Python package that its builds run and that ./course imports as common.scripts."""

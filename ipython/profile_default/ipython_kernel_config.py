# Project-local IPython profile used by scripts/demo (it sets IPYTHONDIR to this folder's parent).
# A kernel reads ipython_config.py too, which loads the extension for terminal `ipython`; the
# notebooks load it in their first cell, as a user's own notebook must, so kernels do not load
# it here: otherwise every notebook would start with "The ipy_istring extension is already
# loaded".
c = get_config()  # type: ignore[name-defined]  # noqa: F821
c.InteractiveShellApp.extensions = []

# Project-local IPython profile used by scripts/demo (IPYTHONDIR): a terminal `ipython` started
# from the demo venv with IPYTHONDIR=ipython loads the extension.  (Kernels read this file too;
# ipython_kernel_config.py turns the loading off for them: the notebooks load it themselves.)
c = get_config()  # type: ignore[name-defined]  # noqa: F821
c.InteractiveShellApp.extensions = ["ipy_istring"]

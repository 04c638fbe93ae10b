# Project-local IPython profile used by scripts/demo (it sets IPYTHONDIR to this folder's parent),
# so that every kernel JupyterLab starts has the extension loaded: i"..." works in the first cell.
c = get_config()  # type: ignore[name-defined]  # noqa: F821
c.InteractiveShellApp.extensions = ["ipy_istring"]

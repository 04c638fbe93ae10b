# shellcheck shell=bash
# Shared helpers for scripts/test and scripts/demo: logging, Debian packages, finding each
# Python, and the per-version virtual environments under .venvs/.  Sourced, never run.

# shellcheck disable=SC2034  # VENVS and IN_CI are for the scripts that source this file
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VENVS=$REPO/.venvs
IN_CI=false
case "${CI:-}" in 1 | true | TRUE | True | yes) IN_CI=true ;; esac

say() { printf '%s\n' "$*"; }
note() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
warn() { printf '\n!!! %s\n\n' "$*" >&2; }
die() {
  printf '\nERROR: %s\n' "$*" >&2
  exit 1
}

# Run a command as root: directly when we are root (CI, a fresh machine), else through sudo.
as_root() {
  if [[ $EUID -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    return 1
  fi
}

# True when the Debian package is installed (not merely known, or removed with configs left).
have_deb() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]; }

# Install the Debian packages that are missing, with one `apt-get update` before, and keep quiet
# unless it fails.  Checking first keeps a second run free of apt entirely.
ensure_debs() {
  local missing=() pkg
  for pkg in "$@"; do have_deb "$pkg" || missing+=("$pkg"); done
  ((${#missing[@]})) || return 0
  note "installing Debian packages: ${missing[*]}"
  local log
  log=$(mktemp)
  if ! {
    as_root apt-get update -qq &&
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}"
  } >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    die "could not install ${missing[*]} (run as root, or install them by hand)"
  fi
  rm -f "$log"
}

# The newest pyenv build of a minor version ("3.12" -> .../versions/3.12.1/bin/python3.12),
# else python3.X on PATH (resolved through a run, so a pyenv shim that can't serve it is skipped),
# else the distributions' build that scripts/lib/python-debs unpacks (a machine without pyenv's).
find_pyenv_python() {
  local minor=$1 root="" dir candidate=""
  if command -v pyenv >/dev/null; then
    root=$(pyenv root)
  elif [[ -d ${PYENV_ROOT:-$HOME/.pyenv}/versions ]]; then
    root=${PYENV_ROOT:-$HOME/.pyenv}
  fi
  if [[ -n $root ]]; then
    for dir in "$root/versions/$minor".[0-9]*; do
      [[ $dir =~ /$minor\.[0-9]+$ && -x $dir/bin/python$minor ]] && candidate+="$dir"$'\n'
    done
    candidate=$(printf '%s' "$candidate" | sort -V | tail -n 1)
    if [[ -n $candidate ]]; then
      say "$candidate/bin/python$minor"
      return 0
    fi
  fi
  if command -v "python$minor" >/dev/null; then
    "python$minor" -c 'import sys, venv; print(sys.executable)' 2>/dev/null && return 0
  fi
  note "Python $minor: no pyenv build and none on PATH; unpacking the distributions' build"
  sh "$PYTHON_DEBS" "$minor" --print-bin
}
PYTHON_DEBS=$REPO/scripts/lib/python-debs

# The folder of pip's wheel for a Python whose venv module has none to install (Debian's and
# Ubuntu's builds): the one the tool that unpacked that Python unpacked beside it.
pip_wheel_for() {
  local minor
  minor=$("$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])') || return 1
  if [[ $minor == 3.14 ]]; then
    sh "$SHARED_PY314" --print-pip-wheel
  else
    sh "$PYTHON_DEBS" "$minor" --print-pip-wheel
  fi
}

# Python 3.14: the user's own python3.14 if it has venv, else the shared tool that unpacks
# Debian unstable's build (see ../shared/tools/python3.14; it needs patchelf).
# A git worktree kept elsewhere looks beside its main checkout too.
SHARED_PY314=$REPO/../shared/tools/python3.14
if [[ ! -f $SHARED_PY314 ]] && common=$(git -C "$REPO" rev-parse --path-format=absolute --git-common-dir 2>/dev/null); then
  SHARED_PY314=$(dirname "$(dirname "$common")")/shared/tools/python3.14
fi
find_python314() {
  local py
  if command -v python3.14 >/dev/null &&
    py=$(python3.14 -c 'import sys, venv; print(sys.executable)' 2>/dev/null); then
    say "$py"
    return 0
  fi
  [[ -f $SHARED_PY314 ]] || return 1
  # run through sh: shared/ may be a read-only copy whose exec bits we can't rely on
  sh "$SHARED_PY314" --print-bin
}

# Debian's Python 3.14 as the shared tool unpacks it has no C headers, so pip could not compile
# ipy_istring's optional C accelerator (ipy_istring/_speedups.c) for it.  Fetch Debian unstable's
# libpython3.14-dev into the tool's cache root the way the tool fetches its own packages (same
# mirror, key and lock), and make its pyconfig.h the real one (Debian's is a stub including a
# multiarch path the compiler would not search there).  Best effort: without headers the
# extension is skipped and the pure-Python code runs.
ensure_python314_headers() {
  local python=$1 root home
  root=${python%/usr/bin/python3.14}
  [[ $root != "$python" && -d $root/usr/lib ]] || return 0 # not the shared tool's interpreter
  [[ -f $root/usr/include/python3.14/Python.h ]] && return 0
  home=$(dirname "$root")
  note "fetching Debian's libpython3.14-dev (C headers) into $root"
  (
    flock 9
    [[ -f $root/usr/include/python3.14/Python.h ]] && exit 0
    tmp=$(mktemp -d "$home/headers.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/lists/partial" "$tmp/debs"
    src=$(grep -hs -A4 '^Types: deb' /etc/apt/sources.list.d/*.sources |
      grep -m1 -E '^URIs: .*/debian/?$' | awk '{print $2}')
    key=$(grep -hs '^Signed-By: .*debian-archive-keyring' /etc/apt/sources.list.d/*.sources |
      head -1 | awk '{print $2}')
    [[ -n $src ]] || src=$(grep -hsE '^deb .*/debian/? ' /etc/apt/sources.list | head -1 | awk '{print $2}')
    [[ -n $src ]] || exit 1
    say "deb [signed-by=${key:-/usr/share/keyrings/debian-archive-keyring.gpg}] $src sid main" \
      >"$tmp/sources.list"
    apt=(apt-get -o "Dir::Etc::SourceList=$tmp/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$tmp/lists" -o APT::Sandbox::User=root)
    "${apt[@]}" update -qq >/dev/null &&
      (cd "$tmp/debs" && "${apt[@]}" download libpython3.14-dev >/dev/null) || exit 1
    for deb in "$tmp"/debs/*.deb; do dpkg -x "$deb" "$root"; done
    cp "$root/usr/include/x86_64-linux-gnu/python3.14/pyconfig.h" \
      "$root/usr/include/python3.14/pyconfig.h"
  ) 9>"$home/lock" || warn "no C headers for Python 3.14: ipy_istring's C accelerator is skipped there"
}

# Path of the interpreter for a version ("3.10" ... "3.14"); empty + failure if there is none.
find_python() {
  case $1 in
    3.14) find_python314 ;;
    *) find_pyenv_python "$1" ;;
  esac
}

# Create (or reuse) the venv DIR from PYTHON with `pip install -e '.[EXTRA]'`.  The stamp file
# holds a hash of pyproject.toml, the C sources pip compiles in place and the extra, so an
# unchanged project reuses the venv without running pip at all, and a change reinstalls in place
# (a changed C accelerator never runs stale).  A different interpreter (a newer patch
# release, say) gets a new venv.
ensure_venv() {
  local python=$1 dir=$2 extra=$3 stamp want log
  stamp=$dir/.ipy_istring-stamp
  want=$(cat "$REPO/pyproject.toml" "$REPO"/ipy_istring/*.c <(say "$extra") | sha256sum | cut -d' ' -f1)
  if [[ -f $stamp && $(<"$stamp") == "$want" && $(<"$dir/.ipy_istring-python") == "$python" ]] &&
    "$dir/bin/python" -c '' 2>/dev/null; then
    return 0
  fi
  log=$(mktemp)
  if [[ ! -f $dir/.ipy_istring-python || $(<"$dir/.ipy_istring-python") != "$python" ]] ||
    ! "$dir/bin/python" -m pip --version >/dev/null 2>&1; then
    rm -rf "$dir"
    note "creating $dir from $python"
    # Debian's and Ubuntu's Pythons ship no ensurepip wheel: then make the venv bare and
    # bootstrap pip from the wheel the tool that unpacked the Python unpacked.
    if ! "$python" -m venv "$dir" >"$log" 2>&1; then
      rm -rf "$dir"
      if ! { "$python" -m venv --without-pip "$dir" &&
        "$dir/bin/python" "$(pip_wheel_for "$python")/pip" install -q pip; } >>"$log" 2>&1; then
        cat "$log" >&2
        rm -rf "$dir"
        die "could not make a venv from $python"
      fi
    fi
  fi
  ensure_python314_headers "$python"
  # pip builds the C accelerator in place, and leaves the old one there if compiling fails:
  # remove this Python's copy first, so what runs is this source's build or the Python code.
  rm -f "$REPO/ipy_istring/_speedups$("$dir/bin/python" -c \
    'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
  note "installing .[$extra] into $dir"
  # Playwright drives Debian's Chromium through executable_path: never fetch a browser build.
  if ! (cd "$REPO" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    "$dir/bin/python" -m pip install -q -e ".[$extra]") >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log" "$stamp"
    die "pip install -e '.[$extra]' failed in $dir"
  fi
  rm -f "$log"
  say "$python" >"$dir/.ipy_istring-python"
  say "$want" >"$stamp"
}

# A free TCP port on 127.0.0.1 (the kernel picks it; the tiny race is harmless here).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

"""sh() red team, eleventh pass: files and variables that make a program run code.

Each hole was reproduced in real dash and bash (HOME a fresh directory), with a positive
control (the same template with each value through plain ``shlex.quote`` ran the payload),
then refused:

* Only the files in ``$HOME`` that the tables named (``~/.gitconfig``, ``~/.profile``...) were
  known: ``echo {x} > ~/.perldb; perl -d -e 1`` ran the value as Perl, a
  ``~/.local/lib/python3.X/site-packages/x.pth`` line starting with ``import`` ran at
  ``python3 -c 1``, tmux ran ``~/.tmux.conf``'s ``run-shell``; npm's ``~/.npmrc``, hg's
  ``~/.hgrc``, R's ``~/.Rprofile``, readline's ``~/.inputrc``... are the same by their
  manuals.  Now by allow-list: a value written to a hidden name in ``$HOME`` is refused when
  the template runs any program not known to read no startup file there (coreutils and the
  like, the shell's builtins).
* Only a target written as plain text or a tilde prefix was recorded as a written file:
  ``echo {x} > "$HOME/.profile"; bash -lc true`` (also ``${HOME}``, ``"$HOME"/.perldb``) ran
  the value, and ``"$PWD/Makefile"``, ``"$(pwd)/.git/hooks/pre-commit"`` are the same.  Now a
  target starting with an expansion is recorded by its name as written, and checked as
  ``~/...`` would be: the expansion may be $HOME or the working directory.
* Python imports a module from the directory of its script, or the working directory for
  ``-c`` and ``-m``, before the standard library's: ``echo {x} > json.py; python3 -m
  json.tool f`` (also ``python3 -c 'import json'``) ran the value, as does a
  ``sitecustomize.py`` on ``PYTHONPATH`` (``PYTHONPATH=. python3 -c 1``) and a ``.pth`` in a
  site directory; and ``python -m MODULE`` for a module the tables do not know was not
  followed at all.  Now a value written to a ``*.py`` named as a module of the standard
  library, ``sitecustomize.py``, ``usercustomize.py`` or any ``*.pth`` is refused when the
  template runs python, pypy, ipython, pytest or pip (``> conftest.py; python3 s.py`` stays
  accepted, as the fifth pass says: a module of another name runs only if a script imports
  it).
* A variable that names a file of code inside its value, in any spelling, was followed only
  when the whole value was the file (``BASH_ENV=f``): ``echo {x} > m.pm; PERL5OPT=-Mm perl -I.
  -e 1``, ``echo {x} > x.js; NODE_OPTIONS='--require ./x.js' node s.js`` and ``echo {x} > ls;
  chmod +x ls; PATH=.:$PATH ls`` ran the value (``RUBYOPT=-r./m.rb``, ``PERL5DB`` by their
  manuals).  Now by allow-list: beside a value written to a file, an upper-case variable set
  in the text (before a command or by ``export``) is refused unless it is known to name no
  code (``LC_*``, ``LANG``, ``TZ``, ``TERM``...), when a program not known to read no startup
  file runs (any program, when the variable is ``PATH``).
* Startup files that programs read from the working directory were not known: ``echo {x} >
  .perldb; perl -d -e 1`` ran the value as Perl (HOME elsewhere); by their manuals, hg's
  ``.hg/hgrc`` hooks, direnv's ``.envrc``, cargo's ``.cargo/config.toml`` runner, R's
  ``.Rprofile``, irb's ``.irbrc``, yarn's ``.yarnrc.yml`` (``yarnPath``) are the same.  Now in
  the table of files read by name.
* The same through a program's output: ``echo {x} | tee "$HOME/.perldb"``, ``curl -o
  "$HOME/.profile" {url}``, ``dd of="$HOME/.perldb"`` (a word holding an expansion was not
  followed as a written file at all): ``tee "$HOME/.perldb"; perl -d -e 1`` ran the value.
  Now such a word is taken as written, ``$HOME/.perldb``.
* A file written through an expansion and run through the same expansion was not followed
  (the reader's word was an unknown expansion): ``f=$(mktemp); echo {x} > "$f"; sh "$f"``
  ran the value, as did ``. "$f"`` and ``"$f"`` (``sh < "$f"`` is refused since the second
  hole above).  Now a word holding an expansion names the file it is written as.

Fixed false refusal: ``printf '%s\\n' {x} | less --lesskey-src=keys -`` was refused, the ``-``
after ``--lesskey-src=keys`` read as that option's argument; an option written with ``=value``
has its argument already, so the ``-`` is an operand (the file less shows), and the template
is accepted (``--lesskey-src=-`` and ``--lesskey-src /dev/stdin`` stay refused).
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_eighth_pass import _runs_payload  # (run in a fresh directory, HOME there)
from test_shell_fourth_pass import _template  # (a case with each § a field)

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

SENTINEL = "pwned-sentinel"


def _python_version() -> str:
    """The X.Y of /usr/bin/python3 (the python3 that _runs_payload's PATH finds)."""
    if not pathlib.Path("/usr/bin/python3").exists():
        return "3"
    out = subprocess.run(
        ["/usr/bin/python3", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


_SITE = f"~/.local/lib/python{_python_version()}/site-packages"
_PERL = f'open(F, ">", "$ENV{{HOME}}/{SENTINEL}");'
_PTH = f"import os; open(os.path.expanduser('~/{SENTINEL}'), 'w')"

# (case, payload, program): each ran the payload with naive quoting, each is refused now
HOME_ATTACKS = [
    ("echo § > ~/.perldb; perl -d -e 1", _PERL, "perl"),
    (f"mkdir -p {_SITE}; echo § > {_SITE}/x.pth; python3 -c 1", _PTH, "python3"),
    (
        f"mkdir -p {_SITE} && printf '%s\\n' § > {_SITE}/x.pth && python3 -c 'print(1)'",
        _PTH,
        "python3",
    ),
]
# by the programs' manuals (or needing a terminal): refused the same way
HOME_REFUSED = [
    "echo § > ~/.tmux.conf; tmux new -d",
    "echo § > ~/.npmrc.d; npm ci",
    "echo § >> ~/.hgrc; hg status",
    "echo § > ~/.Rprofile; Rscript s.R",
    "echo § > ~/.inputrc; bash -i",
    "echo § > ~/.irbrc; irb",
    "echo § > ~/.config/pip/pip.conf; pip install p",
    "echo § > ~/.x; $prog",
    "echo § > ~/.x; ./tool",
    "echo § | tee ~/.netrc; ftp host",
    "printf %s § > ~/.mailrc && mail -s s a < /dev/null",
    "echo § > ~/.notes; git diff",  # (by allow-list: git is not known to read none)
]
HOME_ACCEPTED = [
    "echo § > ~/notes; git diff",
    "echo § > ~/.notes; cat ~/.notes",
    "echo § | tee ~/.notes; grep x ~/.notes",
    "echo § > ~/.notes; sort ~/.notes | tee out",
    "echo § >> .hidden; cat .hidden",
    "echo § > ~/.notes",
]




_SHELL = f'touch "$HOME/{SENTINEL}"'
# (case, payload, program): a target starting with an expansion
EXPANDED_ATTACKS = [
    ('printf "%s\\n" § > "$HOME/.profile"; bash -lc true', _SHELL, "bash"),
    ("echo § > ${HOME}/.profile; bash -lc true", _SHELL, "bash"),
    ('echo § > "$HOME"/.perldb; perl -d -e 1', _PERL, "perl"),
]
EXPANDED_REFUSED = [
    'echo § >> "$HOME/.gitconfig"; git diff',
    'echo § > "${HOME}/.config/git/config"; git log',
    'echo § > "$(pwd)/.git/hooks/pre-commit"; git commit -m m',
    'echo § > "$PWD/Makefile"; make',
    'echo § > "$HOME/.tmux.conf"; tmux new -d',
]
EXPANDED_ACCEPTED = [
    'echo § > "$HOME/notes"; git diff',
    'echo § > "$HOME/.notes"; cat "$HOME/.notes"',
    'echo § > "$out"; git diff',
    'echo § > "$d/out.txt"; make',
]



_IMPORT = f"open('{SENTINEL}', 'w')"
# (case, payload, program): a module Python imports from the working directory
PYTHON_ATTACKS = [
    (case, _IMPORT, "python3")
    for case in (
        "echo § > json.py; python3 -m json.tool /dev/null",
        "echo § > json.py; python3 -c 'import json'",
        "echo § > sitecustomize.py; PYTHONPATH=. python3 -c 1",
    )
]
PYTHON_REFUSED = [
    "echo § > json.py; python3 s.py",
    "echo § > x.pth; python3 -m pip install x",
    "echo § > test_a.py; pytest",
    "echo § > usercustomize.py; ipython",
    "printf %s § > socket.py && python3 -m http.server",
]
PYTHON_ACCEPTED = [
    "echo § > out.txt; python3 -c 'print(1)'",
    "echo § > out.py; cat out.py",
    "echo § > s.py; python3 -m json.tool /dev/null",
    "echo hi > s.py; python3 s.py §",
]


_NODE = f'require("fs").writeFileSync(process.env.HOME + "/{SENTINEL}", "")'
# (case, payload, program): a variable naming a written file in its value
VARIABLE_ATTACKS = [
    ("echo § > m.pm; PERL5OPT=-Mm perl -I. -e 1", _PERL, "perl"),
    ("echo § > x.js; echo 1 > s.js; NODE_OPTIONS='--require ./x.js' node s.js", _NODE, "node"),
    ("echo § > ls; chmod +x ls; PATH=.:$PATH ls", _SHELL, "ls"),
    ("echo § > ls; chmod +x ls; export PATH=.:$PATH; ls", _SHELL, "ls"),
]
# (by the manuals, and by allow-list: FOO is not known to name no code)
VARIABLE_REFUSED = (
    "echo § > m.rb; RUBYOPT=-r./m.rb ruby s.rb\n"
    "echo § > x.pl; PERL5DB='require \"./x.pl\"' perl -d s.pl\n"
    "echo § > x.so; export LD_PRELOAD=$PWD/x.so; git status\n"
    "echo § > out; export FOO=1; git diff"
).splitlines()
VARIABLE_ACCEPTED = [
    "echo § > out; LC_ALL=C sort out",
    "echo § > out; TZ=UTC date",
    "echo § > out; FOO=1 cat out",
    "echo § > out; LANG=C git status",
]
# (the tenth pass's false refusal: `-` is less's operand, not --lesskey-src's argument)
LESS_ACCEPTED = [
    "printf '%s\\n' § | less --lesskey-src=keys - > out",
    "printf '%s\\n' § | make --file=mk - > out",
]

# (case, payload, program): a startup file read from the working directory
CWD_ATTACKS = [("echo § > .perldb; perl -d -e 1", _PERL, "perl")]
CWD_REFUSED = [
    "echo § > .hg/hgrc; hg status",
    "echo § > .envrc; direnv allow",
    "echo § > .cargo/config.toml; cargo build",
    "echo § > .Rprofile; Rscript s.R",
    "echo § > .irbrc; irb",
    "echo § > .yarnrc.yml; yarn",
]
CWD_ACCEPTED = ["echo § > notes; perl -e 1", "echo § > .perldb.bak; perl -d -e 1 < /dev/null"]

# (case, payload, program): a program writing to a path starting with an expansion
OUTPUT_ATTACKS = [
    *((case, _PERL, "perl") for case in ('echo § | tee "$HOME/.perldb" > /dev/null; perl -d -e 1',
                                          'echo § | dd of="$HOME/.perldb"; perl -d -e 1')),
    ("echo § | tee -a ${HOME}/.profile; bash -lc true", _SHELL, "bash"),
]  # fmt: skip
OUTPUT_REFUSED = ['echo § | tee "$HOME/.gitconfig"; git diff', "curl -o $HOME/.profile §; sh -l"]
OUTPUT_ACCEPTED = ['echo § | tee "$HOME/notes"; git status', 'echo § | tee "$out"; cat "$out"']

# (case, payload, program): a file named by the same expansion where it is written and run
SAME_ATTACKS = [
    (case, _SHELL, "mktemp")
    for case in (
        'f=$(mktemp); echo § > "$f"; sh "$f"; rm -f "$f"',
        'f=$(mktemp); echo § > "$f"; . "$f"; rm -f "$f"',
        'f=$(mktemp); echo § > "$f"; sh < "$f"; rm -f "$f"',
    )
]
SAME_ACCEPTED = ['f=$(mktemp); echo § > "$f"; wc -l "$f"; grep -c x "$f"; rm -f "$f"']

# (case, what the refusal says)
REFUSALS = [
    *((case, r"by its name alone") for case in [c for c, _, _ in HOME_ATTACKS] + HOME_REFUSED),
    *((case, r"written to the file '\$") for case in [c for c, _, _ in EXPANDED_ATTACKS]),
    *((case, r"written to the file '\$") for case in EXPANDED_REFUSED),
    *(
        (case, r"by its name alone \((python|pip|pytest|ipython) ")
        for case in [c for c, _, _ in PYTHON_ATTACKS] + PYTHON_REFUSED
    ),
    *(
        (case, r"may read as code through the variable")
        for case in [c for c, _, _ in VARIABLE_ATTACKS] + VARIABLE_REFUSED
    ),
    *(
        (case, r"by its name alone \((perl|hg|direnv|cargo|Rscript|irb|yarn) ")
        for case in [c for c, _, _ in CWD_ATTACKS] + CWD_REFUSED
    ),
    *(
        (case, r"written to the file '\$")
        for case in [c for c, _, _ in OUTPUT_ATTACKS] + OUTPUT_REFUSED
    ),
    *((case, r"written to the file '\$f'") for case, _, _ in SAME_ATTACKS),
]


@pytest.mark.parametrize(("case", "message"), REFUSALS)
def test_each_attack_is_refused(case: str, message: str) -> None:
    with pytest.raises(RenderError, match=message):
        sh(_template(case, "x"))

@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    ("case", "payload", "program"),
    HOME_ATTACKS
    + EXPANDED_ATTACKS
    + PYTHON_ATTACKS
    + VARIABLE_ATTACKS
    + CWD_ATTACKS
    + OUTPUT_ATTACKS
    + SAME_ATTACKS,
)
def test_naive_quoting_runs_each_attack(
    shell: str, case: str, payload: str, program: str, tmp_path: pathlib.Path
) -> None:
    assert naive_quoting_runs(shell, case, payload, program, tmp_path / "run")


def naive_quoting_runs(
    shell: str, case: str, payload: str, program: str, where: pathlib.Path
) -> bool:
    """Whether ``case`` with each value through plain ``shlex.quote`` (the positive control)
    ran ``payload`` in ``shell``; skips when ``program`` is not installed."""
    if shutil.which(program, path="/usr/bin:/bin") is None:
        pytest.skip(f"{program} is not installed")
    return _runs_payload(shell, naive_sh(_template(case, payload)), where)


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("payload", [_PERL, _SHELL])
@pytest.mark.parametrize(
    "case",
    HOME_ACCEPTED
    + EXPANDED_ACCEPTED
    + PYTHON_ACCEPTED
    + VARIABLE_ACCEPTED
    + LESS_ACCEPTED
    + CWD_ACCEPTED
    + OUTPUT_ACCEPTED
    + SAME_ACCEPTED,
)
def test_look_alikes_stay_accepted_and_run_nothing(
    shell: str, payload: str, case: str, tmp_path: pathlib.Path
) -> None:
    assert not _runs_payload(shell, sh(_template(case, payload)), tmp_path / "run")

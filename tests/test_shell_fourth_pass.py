"""sh() red team, fourth pass: places where a value was accepted because a table of dangerous
things did not name something, now decided by allow-lists.

* An option spelled like a code option (``-c``, ``-e``, ``-x``, ``--exec``, ``--eval``,
  ``--command``, ``--pager``...) of a program no table knows: its argument may be code.
* An upper-case ``NAME=`` word of a program not known to read it as data: it may set an
  environment variable of a command it runs (``./configure CC=``, ``systemctl
  set-environment``, ``strace -E``, ``kubectl set env``, ``tmux new -e``).
* Holes in known programs' tables: ``make --eval``/``-E``, ``man -P``/``-H``, ``wget -e``,
  socat's addresses, tmux's ``set-environment`` and ``-e``, find's expression after ``--``.

Real dash and bash runs of these (with positive controls) are in tests/contexts_sh.py.
"""

from __future__ import annotations

import shlex

import pytest

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh
from ipy_istring.template import Interpolation, InterpolationTemplate


def _template(case: str, value: object) -> InterpolationTemplate:
    """``case`` with each § a field holding ``value``."""
    pieces = case.split("§")
    parts: list[object] = [pieces[0]]
    for n, piece in enumerate(pieces[1:]):
        parts += [Interpolation(value, f"v{n}"), piece]
    return InterpolationTemplate(*parts)  # type: ignore[arg-type]


UNKNOWN_CODE_OPTIONS = [
    "./tool -c §", "mytool -e §", "mytool -x §", "mytool -X §", "mytool --exec §",
    "mytool --exec=§", "mytool --eval §", "mytool --eval=1+§", "mytool --command=§",
    "mytool -c§", "mytool -lc §", "mytool --pre §", "mytool --pre-cmd §", "mytool --pager §",
    "mytool --editor=§", "mytool -toolexec=§", "yt-dlp --exec §", "go test -exec §",
    "go build -toolexec §", "nc -e § h 1", "ncat --sh-exec § h 1", "emacsclient -e §",
    "mutt -e §", "fd -x §", "fdfind -X §", "rg --pre § pat",
    # behind runners and wrappers, and by path
    "sudo ./tool -c §", "env -i ./tool -c §", "timeout 5 mytool --exec §",
    "strace -o log mytool -c §", "bin/gzip -c §",
]  # fmt: skip


@pytest.mark.parametrize("case", UNKNOWN_CODE_OPTIONS)
def test_an_unknown_programs_code_like_option_refuses_its_argument(case: str) -> None:
    with pytest.raises(RenderError, match=r"a program the renderer does not know.*\. [A-Z]"):
        sh(_template(case, "x"))
    with pytest.raises(RenderError):
        argv(_template(case, "x"))


UNKNOWN_CODE_OPTIONS_ACCEPTED = [
    # programs whose -c, -e, -x take data or nothing (the allow-list)
    ("gzip -c §", "f"), ("xz -c §", "f"), ("zstd -c §", "f"), ("ping -c § host", "3"),
    ("gcc -c §", "a.c"), ("cc -x c -c §", "a.c"), ("curl -X § http://h/", "POST"),
    ("head -c § f", "10"), ("wc -c §", "f"), ("cut -c § f", "1-3"), ("grep -e § f", "p"),
    ("rm -r §", "d"), ("cp -r § d", "s"), ("ffmpeg -i in -c § out", "copy"),
    ("/usr/bin/gzip -c §", "f"),
    # other options of unknown programs, and code options' look-alikes
    ("mytool -o §", "f"), ("mytool --output=§", "f"), ("mytool --prefix=§", "/p"),
    ("mytool --exclude §", "p"), ("mytool -v §", "f"), ("go test -run § ./...", "TestX"),
    ("java -Dkey=§ -jar a.jar", "v"), ("mytool -Dx=§", "v"), ("mytool --exec=cat §", "f"),
    # past -- the words are operands; a shell's command string uses it as data
    ("./tool -- -c §", "x"), ("sh -c './tool -- \"$1\"' sh §", "x"),
    ("mytool §", "x"), ("./tool -c 'code' §", "x"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "value"), UNKNOWN_CODE_OPTIONS_ACCEPTED)
def test_data_options_and_known_programs_stay_accepted(case: str, value: str) -> None:
    assert shlex.quote(value) in sh(_template(case, value))


@pytest.mark.parametrize(
    "case", ['"$TOOL" --exec §', "$TOOL -x §", "$(command -v t) --pager=§", "§ --eval §"]
)
def test_a_code_like_option_of_a_program_a_value_or_expansion_names_is_refused(
    case: str,
) -> None:
    with pytest.raises(RenderError, match=r"of a program a value names, which may read it as code"):
        sh(_template(case, "x"))


def test_a_command_strings_parameter_given_to_an_unknown_code_option_is_refused() -> None:
    with pytest.raises(RenderError, match=r"a program the renderer does not know"):
        sh(_template("sh -c './tool -c \"$1\"' sh §", "x"))


ENVIRONMENT_WORDS = [
    "./configure CC=§", "./configure CFLAGS=-O2 CC=§", "systemctl --user set-environment X=§",
    "dbus-update-activation-environment FOO=§", "strace -f -E BASH_ENV=§ bash -c :",
    "kubectl set env deploy/d LD_PRELOAD=§", "docker build --build-arg HTTP_HOOK=§ .",
    "docker run img ./configure CC=§", "mytool PAGER=§", "mytool X=a§", "sudo ./configure CC=§",
    "for f in a; do ./configure CC=§; done",
]  # fmt: skip


@pytest.mark.parametrize("case", ENVIRONMENT_WORDS)
def test_an_upper_case_variable_of_an_unknown_program_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"with an upper-case NAME.*as code\. [A-Z]"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    "case",
    ["./configure §", "systemctl set-environment §", "mytool -q §", "docker run img mytool §",
     "for f in §; do ./configure \"$f\"; done", "sh -c './configure \"$1\"' sh §"],
)  # fmt: skip
def test_a_whole_word_value_starting_with_an_upper_case_name_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"starts with an upper-case NAME=.*\. [A-Z]"):
        sh(_template(case, "LD_PRELOAD=/tmp/x.so"))
    # a value without one is data
    assert "'a b'" in sh(_template(case, "a b"))
    assert "lower=1" in sh(_template(case, "lower=1"))


ENVIRONMENT_ACCEPTED = [
    ("echo FOO=§", "x"), ("printf '%s\\n' FOO=§", "x"), ("grep FOO=§ f", "x"),
    ("git commit -m FOO=§", "x"), ("awk -v N=§ '{print N}' f", "x"), ("curl -d NAME=§ u", "x"),
    ("./configure --prefix=§", "/p"), ("mytool http_proxy=§", "x"), ("mytool lower=§", "x"),
    ("python3 s.py NAME=§", "x"), ("set -- A=§", "x"), ("docker run img echo FOO=§", "x"),
    ("dd if=§ of=/dev/null", "f"), ("echo §", "FOO=x"), ("python3 s.py §", "FOO=x"),
    ("sh -c 'cat -- \"$1\"' sh §", "FOO=x"), ("set -- §", "FOO=x"), ("mytool §", "a=b"),
    ("for f in §; do echo \"$f\"; done", "-n"), ("for f in -c §; do echo \"$f\"; done", "x"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "value"), ENVIRONMENT_ACCEPTED)
def test_data_assignments_stay_accepted(case: str, value: str) -> None:
    assert shlex.quote(value) in sh(_template(case, value))


KNOWN_PROGRAM_HOLES = [
    ("make -f /dev/null --eval=§", r"the program of make --eval"),
    ("make --eval §", r"the program of make --eval"),
    ("make -E §", r"the program of make -E"),
    ("gmake -sE§", r"the program of gmake -E"),
    ("man -P § ls", r"man -P, a command that man runs"),
    ("man --pager=§ ls", r"man --pager, a command"),
    ("man -H§ -l f", r"man -H, a command"),
    ("man --html=§ ls", r"man --html, a command"),
    ("wget -e § http://h/", r"wget -e, a command"),
    ("wget --execute=§ http://h/", r"wget --execute, a command"),
    ("socat - §", r"an address of socat"),
    ("socat -u OPEN:/dev/null §", r"an address of socat"),
    ("socat - TCP:§:80", r"an address of socat"),
    ("socat -d -d OPEN:§ -", r"an address of socat"),
    ("tmux new-session -d -e §", r"tmux -e, an environment variable"),
    ("tmux new-window -e FOO=§", r"tmux -e, an environment variable"),
    ("tmux set-environment -g FOO §", r"tmux set-environment, an environment"),
    ("tmux setenv § x", r"tmux set-environment, an environment"),
    ("vim +§ f", r"the command of vim \+\.\.\., a command that vim runs"),
    ("vi -es +§ +q f", r"the command of vi \+"),
    ("less +§ f", r"the command of less \+"),
    ("view f +§", r"the command of view \+"),
    ("mysql --init-command=§", r"the SQL of mysql --init-command"),
    ("mariadb --init-command §", r"the SQL of mariadb --init-command"),
    ("gcc -wrapper § -c a.c", r"gcc -wrapper, a command that gcc runs"),
    ("ansible all -m shell -a §", r"ansible -a, a command"),
    ("ansible all --args=§", r"ansible --args, a command"),
    ("ansible-playbook -e § p.yml", r"ansible-playbook -e, a command"),
]


@pytest.mark.parametrize(("case", "why"), KNOWN_PROGRAM_HOLES)
def test_code_options_and_operands_of_known_programs_are_refused(case: str, why: str) -> None:
    with pytest.raises(RenderError, match=why + r".*\. [A-Z]"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    ("case", "value"),
    [("make -C § all", "d"), ("make -e §", "all"), ("man §", "ls"), ("man -k §", "x"),
     ("wget -O § http://h/", "f"), ("wget --post-data=§ http://h/", "a=b"),
     ("socat -T § - OPEN:/dev/null", "5"), ("tmux new-session -d -s §", "s"),
     ("tmux capture-pane -p -t §", "s"), ("vim -- +§", "x"), ("vim §", "f"),
     ("emacs +§ f", "3"), ("more +§ f", "3"), ("mysql -D § -N", "db"), ("gcc -c §", "a.c"),
     ("gcc -o § a.c", "a"), ("ansible all -i § -m ping", "hosts")],
)  # fmt: skip
def test_data_arguments_of_those_programs_stay_accepted(case: str, value: str) -> None:
    assert shlex.quote(value) in sh(_template(case, value))


def test_a_pipe_into_socat_is_refused_as_its_addresses_decide() -> None:
    with pytest.raises(RenderError, match=r"socat, which is not one of the programs known"):
        sh(_template("echo § | socat - SYSTEM:sh", "x"))


@pytest.mark.parametrize(
    ("case", "value"),
    [("find § -name k -delete", "!"), ("find § -name k", "("), ("find -- § -name k", "!"),
     ("find -- § -name k", "-delete"), ("find . -name a §", "-delete"), ("find § .", ")")],
)  # fmt: skip
def test_find_reads_its_expression_where_a_path_stands_even_after_dashes(
    case: str, value: str
) -> None:
    with pytest.raises(RenderError, match=r"start of its expression \(also after --\).*\./"):
        sh(_template(case, value))


@pytest.mark.parametrize(
    ("case", "value"),
    [("find ./§ -name k", "!"), ("find § -name k", "dir"), ("find . -name §", "-x"),
     ("find . -name §", "!"), ("find . -path § -prune", "(x)"), ("find . -user §", "-1")],
)  # fmt: skip
def test_find_paths_and_test_arguments_stay_accepted(case: str, value: str) -> None:
    assert shlex.quote(value) in sh(_template(case, value))

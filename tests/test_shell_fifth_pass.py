"""sh() red team, fifth pass: contexts where a value was read as something other than the
word the template gives it.

* A value that completes an option written in the static text (``ssh -v{x}``, ``ssh -{x}``,
  ``tar --{x}``, ``tar -{x}f``) is read as option letters or a long option's name of its own:
  ``oProxyCommand=cmd``, ``to-command=cmd`` ran cmd.  tar reads its first argument as option
  letters even without a '-' (``tar cIf CMD out.tar f`` ran CMD).
* bash's brace expansion turns a static word into options (``sh {-c,} {x}`` is ``sh -c``), and
  its keyword mode (``set -k``) turns a later argument ``NAME=value`` into a variable.
* ``git config`` with an option's argument (``-f FILE``) or git 2.46's ``set`` before the
  setting's name; git settings that are commands by name (``interactive.diffFilter``,
  ``gpg.ssh.defaultKeyCommand``, ``sendemail.toCmd``, ``browser.<tool>.path``...).
* An awk program's literal command that reads its input as code (``print | "sh"``,
  ``system("sh")``, ``"sh" | getline``).
* ``python -m MODULE``: the module's own options (``python3 -m pip install {x}``), and
  ``timeit``, whose operands are code.

Real dash and bash runs of these (with positive controls) are in tests/contexts_sh.py.
"""

from __future__ import annotations

import shlex

import pytest
from test_shell_fourth_pass import _template  # (a case with each § a field)

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh

OPTION_NAMES = [
    ("ssh -v§ host", "oProxyCommand=touch x"),
    ("ssh -§ host", "oProxyCommand=touch x"),
    ("ssh -46§ host", "oProxyCommand=touch x"),
    ("tar --§ -xf a.tar", "to-command=touch x"),
    ("tar --to§ -xf a.tar", "-command=touch x"),
    ("tar -§f a.tar f", "cI"),
    ("tar -x§ a.tar", "I"),
    ("rsync -§ src h:dst", "e touch x"),
    # (git's hooks off: with them on, the twenty-fourth pass refuses any value there)
    ("git -c core.hooksPath=/dev/null --§ ls-remote r", "upload-pack=touch x"),
    ("mytool -v§", "c touch x"),
    ("mytool --no-§", "x"),
    ("sudo ssh -v§ host", "oProxyCommand=x"),
    ("set -§", "k"),
    ("find . -§ x", "delete"),
    ("$TOOL -§", "x"),
]


@pytest.mark.parametrize(("case", "value"), OPTION_NAMES)
def test_a_value_completing_an_option_word_is_refused_when_it_holds_a_letter(
    case: str, value: str
) -> None:
    with pytest.raises(RenderError, match=r"completes an option written before it.*\. [A-Z]"):
        sh(_template(case, value))
    with pytest.raises(RenderError):
        argv(_template(case, value))


OPTION_NAMES_ACCEPTED = [
    # values with no letter: a number after a bare '-' or a cluster
    ("kill -§ 123", "9"), ("gzip -§ f", "9"), ("mytool -j§", "4"), ("head -§ f", "5"),
    ("mytool -p§ h", "8080:80"),
    # the argument of a letter the tables know to take one
    ("gcc -I§ -c a.c", "include"), ("cc -L§ -o a a.o", "lib"), ("ssh -p§ host", "22"),
    ("ssh -l§ host", "user"), ("make -C§ all", "src"), ("tar -xf§", "a.tar"),
    ("tar -C§ -xf a.tar", "dir"), ("python3 -W§ s.py", "ignore"), ("perl -I§ s.pl", "lib"),
    ("kill -§ 123", "TERM"), ("kill -s§ 123", "TERM"),
    # after '=', the option's argument; programs whose options are all data; after --
    ("mytool --name=§", "abc"), ("mytool -Dkey=§", "abc"), ("ls -§", "la"),
    ("grep -§ x f", "in"), ("mytool -- -§", "abc"), ("probe x-§", "abc"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "value"), OPTION_NAMES_ACCEPTED)
def test_numbers_and_known_option_arguments_stay_accepted(case: str, value: str) -> None:
    assert shlex.quote(value) in sh(_template(case, value))


@pytest.mark.parametrize("case", ["tar § a.tar f", "tar §f a.tar", "sudo tar § a.tar"])
def test_tars_first_argument_is_its_option_letters(case: str) -> None:
    with pytest.raises(RenderError, match=r"first argument of tar.*option letters.*\. [A-Z]"):
        sh(_template(case, "x"))


@pytest.mark.parametrize("case", ["tar -xf § f", "tar xf §", "tar -C § -xf a.tar"])
def test_tars_archive_and_directory_stay_accepted(case: str) -> None:
    assert "a.tar" in sh(_template(case, "a.tar"))


@pytest.mark.parametrize(
    "case",
    ["sh {-c,} §", "python3 {-c,} §", "probe a{b,c} §", "probe x{1..3} §",
     "cp f{,.bak}; probe §", "probe {a,'b'} §"],
)  # fmt: skip
def test_bash_brace_expansion_stops_the_lexer(case: str) -> None:
    with pytest.raises(RenderError, match=r"brace expansion"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    "case",
    ["probe §; cp f{,.bak}", "find . -name § -exec rm {} +", "echo {} §", "probe {x} §",
     "{ probe §; }"],
)  # fmt: skip
def test_braces_bash_does_not_expand_stay_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


@pytest.mark.parametrize(
    "case",
    ["set -k; bash s.sh §", "set -ek; probe §", "set -o keyword; probe §",
     "shopt -os keyword; probe §", "set -o errexit -o keyword\nprobe §"],
)  # fmt: skip
def test_bash_keyword_mode_stops_the_lexer(case: str) -> None:
    with pytest.raises(RenderError, match=r"keyword mode"):
        sh(_template(case, "x"))


@pytest.mark.parametrize("case", ["set -o §", "shopt -s §", "shopt -os §"])
def test_a_value_naming_a_shell_option_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"a shell option of .*\. Write the shell option"):
        sh(_template(case, "keyword"))


@pytest.mark.parametrize("case", ["set -e; probe §", "set -- §", "set +k; probe §"])
def test_other_set_options_stay_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


GIT_SETTINGS = [
    "git config -f f alias.x §", "git config --file f core.pager §", "git config set alias.x §",
    "git config set --global core.editor §", "git config --type bool alias.x §",
    "git config core.pager less §", "git -c interactive.diffFilter=§ add -p",
    "git -c gpg.ssh.defaultKeyCommand=§ commit -S", "git -c sendemail.tocmd=§ send-email",
    "git -c sendemail.work.cccmd=§ send-email", "git -c imap.tunnel=§ imap-send",
    "git -c browser.ff.path=§ help -w log", "git -c difftool.x.path=§ difftool",
    "git -c instaweb.httpd=§ instaweb", "git -c svn.authorsProg=§ svn fetch",
    "ssh -o PKCS11Provider=§ h", "ssh -oSecurityKeyProvider=§ h",
]  # fmt: skip


@pytest.mark.parametrize("case", GIT_SETTINGS)
def test_command_settings_are_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"setting .*runs as code\. [A-Z]"):
        sh(_template(case, "touch x"))


@pytest.mark.parametrize(
    "case",
    ["git config user.email §", "git config -f f user.email §", "git config set user.name §",
     "git -c user.name=§ commit", "git -c http.proxy=§ fetch", "git config --get alias.§",
     "ssh -o ConnectTimeout=§ h"],
)  # fmt: skip
def test_data_settings_stay_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


AWK_READERS = [
    "printf '%s\\n' § | awk '{ print | \"sh\" }'",
    "printf '%s\\n' § | awk 'BEGIN { system(\"sh\") }'",
    "printf '%s\\n' § | gawk 'BEGIN { \"sh\" | getline }'",
    "printf '%s\\n' § | awk '{ print |& \"bash -s\" }'",
    "printf '%s\\n' § | awk '{ print | \"cat | sh\" }'",
    "awk -v v=§ 'BEGIN { print v | \"sh\" }'",
    "awk 'BEGIN { print ARGV[1] | \"python3\" }' §",
    "awk '{ print | \"sh\" }' < §",
]


@pytest.mark.parametrize("case", AWK_READERS)
def test_an_awk_literal_command_that_reads_its_input_as_code_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"data of an g?awk program .*reads its input as code"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    "case",
    ["printf '%s\\n' § | awk '{ print | \"sort\" }'",
     "printf '%s\\n' § | awk 'BEGIN { system(\"true\") } { print }'",
     "printf '%s\\n' § | awk 'BEGIN { \"date\" | getline d } { print }'",
     "printf '%s\\n' § | awk '{ print | \"sh -c cat\" }'"],
)  # fmt: skip
def test_awk_literal_commands_that_read_data_stay_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


@pytest.mark.parametrize(
    "case",
    ["python3 -m timeit §", "python3 -m timeit -n 1 §", "python3 -m timeit -s § pass",
     "python3 -mtimeit §", "python3 -u -m timeit §"],
)  # fmt: skip
def test_timeits_statements_are_code(case: str) -> None:
    with pytest.raises(RenderError, match=r"python -m timeit, which runs it as Python code"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    "case",
    ["python3 -m pip install §", "python3 -u -m pip install §", "python3 -W ignore -m pip §",
     "python3 -mpytest §", "sudo python3 -m pip install §"],
)  # fmt: skip
def test_a_python_modules_options_are_its_own(case: str) -> None:
    with pytest.raises(RenderError, match=r"starts with '-', so (pip|pytest) would read"):
        sh(_template(case, "--index-url=http://h/"))


@pytest.mark.parametrize(
    ("case", "value"),
    [("python3 -m pip install §", "requests"), ("python3 -m pip install -- §", "-x"),
     ("python3 -m timeit -n § pass", "1"), ("python3 -m http.server §", "8000"),
     ("python3 s.py §", "-x"), ("python3 -c 'import sys' §", "-x")],
)  # fmt: skip
def test_python_module_look_alikes_stay_accepted(case: str, value: str) -> None:
    assert shlex.quote(value) in sh(_template(case, value))


@pytest.mark.parametrize(
    "case",
    ["printf '%s\\n' § > Makefile; make", "make all; echo § >> makefile",
     "echo § > sub/GNUmakefile; make -C sub", "echo § > conftest.py; python3 -m pytest -q",
     "echo § > tests/conftest.py; pytest tests", "echo § > .git/hooks/pre-commit; git commit",
     "echo § | tee package.json; npm install", "echo § > setup.py; pip install .",
     "echo § > justfile; just", "sudo make; echo § > Makefile"],
)  # fmt: skip
def test_a_value_written_to_a_file_a_program_reads_by_name_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"by its name alone.*\. Write that file's contents"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    "case",
    ["echo § > out.txt; make", "echo § > Makefile; cat Makefile", "echo § > notes; git add notes",
     "echo § > conftest.py; python3 s.py", "make; echo § > log.txt"],
)  # fmt: skip
def test_files_no_program_reads_by_name_stay_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


@pytest.mark.parametrize(
    "case",
    ["curl -o s.sh § && sh s.sh", "curl -sSo s.sh §; bash s.sh", "curl § -o s.sh; . ./s.sh",
     "curl --output=Makefile §; make", "wget -O s.sh §; sh s.sh", "cp § s.sh; sh s.sh",
     "ln -s § s.sh; ./s.sh", "dd if=§ of=s.sh; sh s.sh", "sort -o s.sh §; sh s.sh",
     "echo § > c; crontab c", "echo § > c; crontab -u root c"],
)  # fmt: skip
def test_a_file_a_value_chooses_the_contents_of_is_run_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"written to the file '(s\.sh|Makefile|c)'"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    "case",
    ["curl -o out.json §; jq . out.json", "cp § backup/; ls", "wget -O page.html §; cat page.html",
     "cp § s.sh", "crontab -l; echo § > c"],
)  # fmt: skip
def test_files_only_read_as_data_stay_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


@pytest.mark.parametrize(
    "case",
    ["env -S'sh -c' §", "env -S 'python3 -c' §", "env -iS'sh -c' §",
     "env --split-string='bash -c' §", "env -S'ssh h' §", "sudo env -S'perl -e' §"],
)  # fmt: skip
def test_env_split_strings_command_is_followed(case: str) -> None:
    with pytest.raises(RenderError, match=r"(command string|program|remote command) of"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    "case",
    ["env -S'cat -u' §", "env -S'printf %s.' §", "env -uSHELL cat §",
     "env -S'sh -c \"cat -- $1\" sh' §"],
)  # fmt: skip
def test_env_split_strings_data_arguments_stay_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


@pytest.mark.parametrize(
    "case",
    ["for f in §; do eval 'sh -c \"$f\"'; done", "set -- §; eval 'eval \"$1\"'",
     "trap 'sh -c \"$1\"' EXIT; set -- §", "set -- §; trap -- '$1' EXIT",
     "for f in §; do eval sh -c '\"$f\"'; done", "set -- §; eval 'case $1 in *) ;; esac'"],
)  # fmt: skip
def test_a_variable_that_eval_or_trap_puts_where_code_goes_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"(eval|trap) parses .* again as code, (where|with)"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    "case",
    ["set -- §; eval 'printf \"%s\\n\" \"$1\"'", "set -- §; trap 'rm -f -- \"$1\"' EXIT",
     "for f in §; do eval 'echo $f'; done", "eval 'sh -c \"$1\"'; probe §"],
)  # fmt: skip
def test_a_string_eval_or_trap_reads_as_data_stays_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


@pytest.mark.parametrize(
    ("case", "value"),
    # (`git ls-remote $(echo §)` until the nineteenth pass: the value is git's repository there
    # now, refused whatever it is when reached so: tests/test_shell_nineteenth_pass.py)
    [("git ls-remote origin $(echo §)", "r --exec=x"),
     ("env $(printf %s §) sh", "a BASH_ENV=x"), ("tar cf a.tar $(echo §)", "*"),
     ("rm $(echo §)", "*.txt"), ("[ $(echo §) = x ]", "a -o b")],
)  # fmt: skip
def test_a_value_an_unquoted_command_substitution_splits_is_checked_word_by_word(
    case: str, value: str
) -> None:
    why = r"unquoted \$\( \)|as the shell splits|as NAME=value|operator of test"
    with pytest.raises(RenderError, match=why):
        sh(_template(case, value))


@pytest.mark.parametrize(
    ("case", "value"),
    [("probe $(echo §)", "a b"), ("ls $(echo §)", "*"), ("git log $(printf %s §)", "main dev"),
     ("tar cf a.tar \"$(echo §)\"", "*")],
)  # fmt: skip
def test_split_values_that_make_no_option_stay_accepted(case: str, value: str) -> None:
    assert shlex.quote(value) in sh(_template(case, value))


@pytest.mark.parametrize(
    "case",
    # (`git ls-remote "$v" r` until the nineteenth pass, which refuses a repository read from a
    # pipe whatever it is: tests/test_shell_nineteenth_pass.py)
    ["printf '%s\\n' § | while read -r v; do git ls-remote origin \"$v\"; done",
     # (tar -t: tar -x with a member read from the pipe writes a file the value picks, run
     # again in the loop, refused as such since the twenty-third pass)
     "printf '%s\\n' § | while read -r v; do tar -tf a.tar $v; done"],
)  # fmt: skip
def test_a_value_read_from_a_pipe_where_a_program_reads_options_is_checked(case: str) -> None:
    with pytest.raises(RenderError, match=r"has a word, as the shell splits it, that starts"):
        sh(_template(case, "a\n--upload-pack=cmd"))
    assert "origin" in sh(_template(case, "origin"))


# Until the sixteenth pass these checked the words of a value reaching ssh's destination (split
# by the shell, or read from a pipe) for options; since then that destination takes only
# [user@]host (tests/test_shell_programs_pass.py), and a value reaching it split, or through a
# pipe's read, is refused whatever it is ("x -oP" and "origin" were accepted).
_PIPED_INTO_SSH = "printf '%s\\n' § | { read -r v; ssh \"$v\" -T h; } < /dev/null"


@pytest.mark.parametrize(
    ("case", "value"),
    [("ssh $(echo §) h true", "h -oProxyCommand=cmd"), ("ssh \"$(echo §)\" h", "x -oP"),
     (_PIPED_INTO_SSH, "a\n--upload-pack=cmd"), (_PIPED_INTO_SSH, "origin")],
)  # fmt: skip
def test_a_value_reaching_ssh_destination_split_or_piped_is_refused(case: str, value: str) -> None:
    with pytest.raises(RenderError, match=r"ssh.s destination"):
        sh(_template(case, value))

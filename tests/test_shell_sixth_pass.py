"""sh() red team, sixth pass: code options spelled as abbreviations.

GNU getopt_long, git's options parser and Python's argparse read any unambiguous prefix of a
long option as that option: ``su --comm {x}`` is ``su --command {x}``, ``tar --to-com={x}`` is
``tar --to-command={x}``, ``env --spl='sh -c' {x}`` is ``env --split-string='sh -c' {x}``,
``git ls-remote --upload-p={x}`` is ``--upload-pack``, ``sudo --she cmd {x}`` is ``sudo
--shell``.  The tables named the options in full only, so every abbreviation ran the value as
code.  util-linux's su and runuser also take ``--session-command``, -c without a new session.

Real dash and bash runs of these (with positive controls) are in tests/contexts_sh.py.
"""

from __future__ import annotations

import shlex

import pytest
from test_shell_fourth_pass import _template  # (a case with each § a field)

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh

ABBREVIATED_CODE_OPTIONS = [
    "su --comm §",
    "su root --comm=§",
    "su --login --comm=§",
    "su --session-command §",
    "su --session §",
    "su --sess=§",
    "runuser root --session-command=§",
    "runuser -l bob --comm §",
    "script --comm § /dev/null",
    "script -q --com=§ /dev/null",
    "flock f --comm §",
    "nix-shell --ru §",
    "tar --to-com=§ -xf a.tar",
    "tar --to-com § -xf a.tar",
    "tar --checkpoint-act=exec=§ -cf a.tar x",
    "tar --use-comp=§ -cf a.tar x",
    "rsync --rs=§ a h:dst",
    "rsync --rsync-p=§ a h:dst",
    "sort --compress-prog=§ f",
    "wget --execu=§ http://h/",
    "man --pag=§ ls",
    "awk --sour=§",
    "sed --expr=§ f",
    "mysql --exec §",
    "gdb --eval-comm=§",
    "env --spl='sh -c' §",
    "env --spl 'sh -c' §",
    "sudo --she echo §",
    "sudo --log echo §",
    "git ls-remote --upload-p=§ r",
    "git clone --upload § r d",
    "git rebase --exe §",
    "git difftool --extc §",
    "nohup su --comm §",
    "timeout 5 tar --to-com=§ -xf a.tar",
]


@pytest.mark.parametrize("case", ABBREVIATED_CODE_OPTIONS)
def test_an_abbreviated_code_option_is_read_as_the_option_in_full(case: str) -> None:
    with pytest.raises(RenderError, match=r"\{v0\} is .*(code|command string).*\. [A-Z]"):
        sh(_template(case, "touch x"))
    with pytest.raises(RenderError):
        argv(_template(case, "touch x"))


ABBREVIATED_DATA_OPTIONS = [
    ("ls --col=§", "never"),
    ("grep --colour § pat f", "auto"),
    ("cp --backup=§ a b", "numbered"),
    ("tar --checkpoint=§ -cf a.tar x", "10"),  # (an option in full, not --checkpoint-action)
    ("tar --to-stdout -xf §", "a.tar"),
    ("su --login bob --shell=/bin/sh -c 'ls' -- §", "a b"),
    ("env --un X printf %s §", "a b"),
    ("sudo --us bob printf %s §", "a b"),
    ("git ls-remote --heads §", "origin"),
    ("git clone --dep 1 § d", "https://example.com/r.git"),
    ("printf '%s' --comm §", "a b"),
    ("rsync --rs=ssh § h:dst", "a b"),  # (the value is a source, not rsync's command)
]


@pytest.mark.parametrize(("case", "value"), ABBREVIATED_DATA_OPTIONS)
def test_abbreviations_of_other_options_stay_accepted(case: str, value: str) -> None:
    assert shlex.split(sh(_template(case, value))) == argv(_template(case, value))
    assert any(value in word for word in argv(_template(case, value)))


PIPED_ABBREVIATIONS = [
    "printf '%s\\n' § | gawk --sour='{system($0)}'",
    "printf '%s\\n' § | sed --expr=e",
    "printf '%s\\n' § | make --fi=-",
    "printf '%s\\n' § | make --fi -",
    "printf '%s\\n' § | tar --to-com=sh -xf -",
]


@pytest.mark.parametrize("case", PIPED_ABBREVIATIONS)
def test_a_value_piped_into_an_abbreviated_program_option_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"\{v0\} is .*(pipeline into|data of)"):
        sh(_template(case, "touch x"))


PIPED_DATA = [
    "printf '%s\\n' § | sed --expr=p",
    "printf '%s\\n' § | gawk --sour='{print}'",
    "printf '%s\\n' § | make --fi=Makefile",
]


@pytest.mark.parametrize("case", PIPED_DATA)
def test_a_value_piped_into_a_program_given_its_program_stays_accepted(case: str) -> None:
    assert "'touch x'" in sh(_template(case, "touch x"))

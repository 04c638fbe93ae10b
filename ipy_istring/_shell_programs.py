"""What well-known programs do with their arguments, beyond the shell's grammar.

The shell hands every word to its program as one argument; some programs then read an
argument as code again: a shell's ``-c`` string, ``python -c``, ``perl -e``, an awk or sed
program, ``ssh``'s remote command, ``watch``'s command.  Others run a command made of their
own arguments (``env``, ``sudo``, ``timeout``, ``xargs``, ``find -exec``...), so
``env sh -c {x}`` is ``sh -c {x}``.  :func:`code_argument` follows the runners to the command
that finally runs and says whether the argument being written is code to it;
:func:`option_taker` and :func:`assignment_reader` name the program that would read a value as
one of its options, or as ``NAME=value`` (``env``, ``sudo``, ``make``).

Programs are named by their last path component (``/bin/sh`` is ``sh``) and, for interpreters,
without a version suffix (``python3.12`` is ``python``).  Nothing here can know every program:
the tables name the common ones, and for any other program allow-lists decide what a value may
be — an option (:data:`DATA_OPTION_PROGRAMS`), the argument of an option spelled like a code
option (:data:`PLAIN_OPTION_PROGRAMS`), an upper-case ``NAME=value`` word
(:func:`environment_setter`), what its standard input reads (:data:`DATA_INPUT_PROGRAMS`);
``docs/renderers.md`` says to keep values out of any other program's code arguments.
"""

from __future__ import annotations

import itertools
import posixpath
import re
import shlex
import sys
from collections.abc import Callable, Iterable, Sequence
from fnmatch import fnmatchcase
from typing import Any, NamedTuple

__all__ = [
    "ASSIGNING",
    "BANG_COMMAND_FILES",
    "CHOSEN_REPOSITORY",
    "DATA_INPUT_PROGRAMS",
    "DATA_OPTION_PROGRAMS",
    "DIRECTORY_CODE",
    "ENVIRONMENT_NAME",
    "EXPANDED",
    "NO_END_OF_OPTIONS",
    "OPTION_CODE_PROGRAMS",
    "PIPE_FILE_OPTIONS",
    "PLAIN_OPTION_PROGRAMS",
    "PLUS_COMMAND_PROGRAMS",
    "REDIRECTION_TARGET",
    "SHELLS",
    "SHELL_CODE_PROGRAMS",
    "STDIN_FILES",
    "VALUE_WRITERS",
    "WRITING_PROGRAMS",
    "ArgumentRule",
    "CodeNaming",
    "CommandWords",
    "any_whole_word",
    "argument_refusal",
    "argument_rule",
    "assignment_reader",
    "code_argument",
    "code_naming",
    "command_run",
    "database_script_files",
    "directory_code_reader",
    "environment_setter",
    "find_actions",
    "find_data_argument",
    "glued_argument",
    "implicit_code_reader",
    "in_home_hidden",
    "is_command_string",
    "is_program_text",
    "made_executable",
    "names_no_code",
    "naming_token",
    "option_taker",
    "output_files",
    "pipe_file_option",
    "positional_script",
    "program",
    "python_file_run",
    "reads_by_name",
    "reads_home_files",
    "reads_program_from_stdin",
    "reads_project_files",
    "reads_response_files",
    "restores_paths",
    "runs_hooks_of_its_tree",
    "runs_in_found_directories",
    "runs_its_data",
    "sets_git_source",
    "stdin_script",
    "unknown_input_reader",
    "value_chooses_files",
    "value_named_code_file",
    "value_names_directory",
    "value_names_output",
    "value_picks_git_tree",
    "waits_for_what_it_runs",
    "writes_files_its_input_names",
    "writes_git_tree",
    "xargs_appended",
]

#: A command word the shell computes when it runs (``$SHELL``, ``"$(cmd)"``), where the tables
#: are given one (a NUL: no written word holds one).
EXPANDED = "\0expansion"

#: Shells whose ``-c`` operand is a command string, parsed again as code.
SHELLS = frozenset(
    {"sh", "bash", "dash", "ash", "ksh", "mksh", "lksh", "oksh", "zsh", "yash", "posh",
     "rbash", "fish", "csh", "tcsh"}
)  # fmt: skip
# Shell options that take the next word as their argument (``bash -o pipefail -c ...``).
_SHELL_OPTIONS_WITH_ARGUMENT = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
# bash's long options that take no argument (its usage lists them); any other long option may
# take one, which would shift the command string (`bash --rcfile F -c {x}` ran the value).
_SHELL_LONG_OPTIONS = frozenset(
    {"--debug", "--debugger", "--dump-po-strings", "--dump-strings", "--help", "--login",
     "--noediting", "--noprofile", "--norc", "--posix", "--pretty-print", "--restricted",
     "--verbose", "--version"}
)  # fmt: skip

# Programs that run the command their arguments spell: per program, its options that take the
# next word as their argument, and how many operands come before the command (timeout's
# duration, chroot's new root, flock's lock file, taskset's mask).
_RUNNERS: dict[str, tuple[frozenset[str], int]] = {
    "env": (frozenset({"-u", "--unset", "-C", "--chdir"}), 0),
    "busybox": (frozenset(), 0),  # busybox APPLET ...: `busybox sh` is sh
    "unshare": (
        frozenset({"--map-user", "--map-group", "-S", "--setuid", "-G", "--setgid", "-R",
                   "--root", "-w", "--wd", "--propagation", "--setgroups"}),
        0,
    ),
    "nsenter": (
        frozenset({"-t", "--target", "-S", "--setuid", "-G", "--setgid", "--env"}), 0
    ),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "nohup": (frozenset(), 0),
    "setsid": (frozenset(), 0),
    "exec": (frozenset({"-a"}), 0),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), 0),
    "timeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), 0),
    "ionice": (frozenset({"-c", "--class", "-n", "--classdata", "-t"}), 0),
    "taskset": (frozenset(), 1),
    "chroot": (frozenset({"--userspec", "--groups"}), 1),
    "flock": (frozenset({"-w", "--timeout", "-E", "--conflict-exit-code"}), 1),
    "sudo": (
        frozenset(
            {"-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C",
             "--close-from", "-D", "--chdir", "-r", "--role", "-t", "--type", "-U",
             "--other-user", "-T", "--command-timeout"}
        ),
        0,
    ),
    "doas": (frozenset({"-u", "-C"}), 0),
    "xargs": (
        frozenset(
            {"-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "--max-lines", "-n",
             "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var"}
        ),
        0,
    ),
}
# Tools whose subcommand runs a command of its arguments elsewhere (in a container): per tool
# and subcommand, as for _RUNNERS, with the container (or pod) as the operand before the command
# (``docker exec -u root {c} sh -c ...``; ``kubectl exec {pod} -- sh -c ...``).
_CONTAINER_EXEC = frozenset(
    {"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys"}
)
_SUBCOMMAND_RUNNERS: dict[tuple[str, str], tuple[frozenset[str], int]] = {
    ("docker", "exec"): (_CONTAINER_EXEC, 1),
    ("podman", "exec"): (_CONTAINER_EXEC | {"--preserve-fds"}, 1),
    ("nerdctl", "exec"): (_CONTAINER_EXEC, 1),
    ("kubectl", "exec"): (
        frozenset(
            {"-c", "--container", "-n", "--namespace", "-f", "--filename", "--context",
             "--kubeconfig", "--cluster", "--user", "-s", "--server", "--token", "--as",
             "--as-group", "--request-timeout", "--pod-running-timeout"}
        ),
        1,
    ),
}
# Options whose argument is a variable (NAME=value) that the program sets in the environment of
# the command it runs (in a container, a unit, a sandbox): programs run variables such as
# BASH_ENV, LD_PRELOAD, PAGER or GIT_SSH_COMMAND as code, so a value may not be one.  By program,
# or by a tool's subcommand (``docker run -e``, ``docker container run -e``).
_DOCKER_ENVIRONMENT = frozenset({"-e", "--env"})
_ENVIRONMENT_OPTIONS: dict[str, frozenset[str]] = {
    "systemd-run": frozenset({"-E", "--setenv"}),
    "systemd-nspawn": frozenset({"-E", "--setenv"}),
    "firejail": frozenset({"--env"}),
    "flatpak": frozenset({"--env"}),
    "bwrap": frozenset({"--setenv"}),  # bwrap --setenv NAME VALUE: both words
    # the -e NAME=value of new-session, new-window, split-window, respawn-pane...
    "tmux": frozenset({"-e"}),
}
# tmux's commands that set a variable for the commands it runs later.
_SETENV = frozenset({"set-environment", "setenv"})
_ENVIRONMENT_SUBCOMMANDS = frozenset({"run", "create", "exec"})  # of docker, podman, nerdctl
_CONTAINER_TOOLS = frozenset({"docker", "podman", "nerdctl", "kubectl"})
# The options of `docker run`/`create`/`exec` (and podman's, nerdctl's) that take the next word
# as their argument, and those that take none: past them, the first operand is the image (or
# the container) and the words after it are the command run inside, whose own options (`grep
# -e`) are not docker's.  After an option in neither list, the renderer cannot tell where the
# image is, so an `-e` later still counts as docker's.
_CONTAINER_OPTIONS_WITH_ARGUMENT = frozenset(
    {"--add-host", "--annotation", "-a", "--attach", "--blkio-weight", "--cap-add",
     "--cap-drop", "--cgroup-parent", "--cgroupns", "--cidfile", "--cpu-period", "--cpu-quota",
     "-c", "--cpu-shares", "--cpus", "--cpuset-cpus", "--cpuset-mems", "--detach-keys",
     "--device", "--dns", "--dns-option", "--dns-search", "--domainname", "--entrypoint", "-e",
     "--env", "--env-file", "--expose", "--gpus", "--group-add", "--health-cmd",
     "--health-interval", "--health-retries", "--health-start-period", "--health-timeout",
     "-h", "--hostname", "--ip", "--ip6", "--ipc", "-l", "--label", "--label-file", "--link",
     "--log-driver", "--log-opt", "--mac-address", "-m", "--memory", "--memory-reservation",
     "--memory-swap", "--mount", "--name", "--network", "--net", "--network-alias",
     "--oom-score-adj", "--pid", "--pids-limit", "--platform", "-p", "--publish", "--pull",
     "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal",
     "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs", "--ulimit", "-u", "--user",
     "--userns", "--uts", "-v", "--volume", "--volumes-from", "-w", "--workdir"}
)  # fmt: skip
_CONTAINER_FLAGS = frozenset(
    {"-d", "--detach", "-i", "--interactive", "-t", "--tty", "--rm", "--init", "--privileged",
     "-P", "--publish-all", "--read-only", "--no-healthcheck", "-q", "--quiet", "-it", "-ti",
     "-dit", "-itd", "-di", "-id", "-dt", "-td", "--oom-kill-disable"}
)  # fmt: skip
# systemd-run's unit properties (-p) that a value may set: resource limits and the like, which
# are data.  Others are commands (ExecStartPre=, ExecStopPost=) or variables (Environment=).
_DATA_UNIT_PROPERTIES = frozenset(
    {"memorymax", "memoryhigh", "memorylow", "memorymin", "memoryswapmax", "cpuquota",
     "cpuweight", "ioweight", "tasksmax", "nice", "runtimemaxsec", "timeoutstopsec",
     "timeoutstartsec", "cpuaffinity", "allowedcpus", "limitnofile", "limitcore"}
)  # fmt: skip
# find's tests and actions that take the next word as their argument, as data (a pattern, a
# name, a number, a file it reads or a format).
_FIND_TESTS_WITH_ARGUMENT = frozenset(
    {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
     "-lname", "-ilname", "-user", "-group", "-uid", "-gid", "-type", "-xtype", "-size",
     "-perm", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-anewer",
     "-cnewer", "-samefile", "-inum", "-links", "-maxdepth", "-mindepth", "-printf", "-fstype",
     "-used", "-context"}
)  # fmt: skip
# find runs the command after each of these, up to a ';' or '+' argument.
_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
# Options that take a command string, run by a shell (``su -c {x}``, ``flock f -c {x}``).
_COMMAND_STRING_OPTIONS: dict[str, frozenset[str]] = {
    # (--session-command: -c without a new session, util-linux's su and runuser)
    "su": frozenset({"-c", "--command", "--session-command"}),
    "runuser": frozenset({"-c", "--command", "--session-command"}),
    "flock": frozenset({"-c", "--command"}),
    "env": frozenset({"-S", "--split-string"}),  # split into a command line again
    "script": frozenset({"-c", "--command"}),
    "nix-shell": frozenset({"--run", "--command"}),
    # GNU tar runs these through /bin/sh -c (an archive's member piped to a command, a
    # checkpoint's exec=, a compressor, the remote shell, a volume script).
    "tar": frozenset(
        {"--to-command", "--checkpoint-action", "-I", "--use-compress-program",
         "--rsh-command", "--rmt-command", "-F", "--info-script", "--new-volume-script"}
    ),
    "zip": frozenset({"-TT", "--unzip-command"}),  # the command that tests the archive
    # GnuPG shows a key's photo ID with this command, through a shell (`--list-options
    # show-photos`, `--verify-options show-photos`): `true; touch f` ran touch with real gpg
    **dict.fromkeys(("gpg", "gpg2"), frozenset({"--photo-viewer"})),
    "rsync": frozenset({"--rsync-path"}),  # run by the remote shell
    "split": frozenset({"--filter"}),  # each chunk of the input is this command's input
    # a container's health check, run by /bin/sh -c in the container
    **dict.fromkeys(("docker", "podman", "nerdctl"), frozenset({"--health-cmd"})),
}
# Options whose argument is the command a program runs in place of another (ssh's), which it
# splits into a program and its arguments itself.
_PROGRAM_OPTIONS: dict[str, frozenset[str]] = {
    "sort": frozenset({"--compress-program"}),  # runs it to compress and decompress
    # runs it to ask for a user and a password; -e runs a .wgetrc command, and
    # `use_askpass=PROG` is one (proved with real wget)
    "wget": frozenset({"--use-askpass", "-e", "--execute"}),
    # man-db runs its pager and its HTML browser through a shell
    "man": frozenset({"-P", "--pager", "-H", "--html"}),
    "rsync": frozenset({"-e", "--rsh"}),
    # GnuPG's helper daemons, and where it looks for its photo viewer; its file of edit
    # commands (these were refused as options spelled like code options of an unknown program
    # before --photo-viewer made gpg known)
    **dict.fromkeys(
        ("gpg", "gpg2"),
        frozenset(
            {"--agent-program", "--dirmngr-program", "--keyboxd-program", "--exec-path",
             "--command-file", "--command-fd"}
        ),
    ),
    "scp": frozenset({"-S"}),
    "sftp": frozenset({"-S"}),
    # gcc runs each of its subprograms through this one (`-wrapper touch,x` ran touch)
    **dict.fromkeys(("gcc", "g++", "cc", "c++"), frozenset({"-wrapper"})),
    # ansible runs its module's arguments (the command module's command line, the shell
    # module's shell string) on every host, and templates extra variables with Jinja2, whose
    # lookup('pipe', cmd) runs cmd
    **dict.fromkeys(
        ("ansible", "ansible-playbook"),
        frozenset({"-a", "--args", "-e", "--extra-vars"}),
    ),
}
# Options whose argument names a shared library the program loads (or the directory it finds
# one in), whose code runs when loaded, by program; a marker's constructor ran in each:
# `openssl dgst -engine ./x.so f` (also `--engine=`, s_client's -ssl_client_engine) and
# `-provider-path . -provider x` (./x.so) in real openssl 3.0; ssh's PKCS#11 library `-I`
# (which `ssh -o PKCS11Provider=` already refused), `ssh-keygen -D` and its FIDO middleware
# `-w` in real OpenSSH 9.2.  By their manuals: ssh-add's `-s` and `-S` (the agent loads them)
# and curl's `--engine` (OpenSSL's engine, as openssl's).
_MODULE_OPTIONS: dict[str, frozenset[str]] = {
    "openssl": frozenset({"-engine", "-ssl_client_engine", "-provider", "-provider-path"}),
    "ssh": frozenset({"-I"}),
    "ssh-keygen": frozenset({"-D", "-w"}),
    "ssh-add": frozenset({"-s", "-S"}),
    "curl": frozenset({"--engine"}),
    # (`php -z ./x.so s.php` ran its constructor in PHP 8.2, as `-d zend_extension=` did)
    "php": frozenset({"-z", "--zend-extension"}),
}
# php's option that sets an ini setting (`-d name=value`), and the settings whose value names a
# shared library php loads: `php -d extension=./x.so s.php` ran its constructor in PHP 8.2.
_PHP_DEFINE = frozenset({"-d", "--define"})
_PHP_LIBRARY_SETTINGS = frozenset({"extension", "zend_extension"})
# Options whose argument names a configuration file with settings that run a command or load
# code, by program (a file that is itself a program, `make -f`, `awk -f`, `gdb -x`, is what the
# template plainly runs, as `sh {f}`; these read settings, one of which runs code): an
# openssl.cnf's engine `dynamic_path` (`openssl req -config f`) loaded a marker's library in real
# openssl 3.0; an ssh config's ProxyCommand ran (`ssh -F f`, scp's, sftp's) in OpenSSH 9.2; a
# curl config's `output =` overwrote a script the template runs next (curl 7.88); a wgetrc's
# `use_askpass =` ran (wget 1.21); a php.ini's `auto_prepend_file` ran PHP (`php -c f s.php`);
# node's env file's `NODE_OPTIONS=--require=...` ran JavaScript; a lesskey source's `#env`
# LESSOPEN ran in less 590.  By their manuals: less's compiled key file (-k), which holds the
# same #env, and a mysql option file's `pager =`.
_SSH_CONFIG = (frozenset({"-F"}), "its ProxyCommand runs a command")
_NODE_CONFIG = (
    frozenset({"--env-file", "--env-file-if-exists"}),
    "its NODE_OPTIONS=--require=f.js runs JavaScript",
)
# (the options, and how a setting in such a file runs code)
_CONFIG_FILES: dict[str, tuple[frozenset[str], str]] = {
    "openssl": (frozenset({"-config"}), "its engine section's dynamic_path loads a library"),
    **dict.fromkeys(("ssh", "scp", "sftp"), _SSH_CONFIG),
    "curl": (frozenset({"-K", "--config"}), "its output = writes over any file"),
    "wget": (frozenset({"--config"}), "its use_askpass = runs a program"),
    "php": (frozenset({"-c", "--php-ini"}), "its auto_prepend_file runs PHP"),
    **dict.fromkeys(("node", "nodejs"), _NODE_CONFIG),
    "less": (
        frozenset({"--lesskey-src", "--lesskey-file", "-k"}),
        "its #env section's LESSOPEN runs a command on each file",
    ),
    "mysql": (
        frozenset({"--defaults-file", "--defaults-extra-file"}),
        "its pager = runs a command",
    ),
}
_CONFIG_OPTIONS = {name: options for name, (options, _) in _CONFIG_FILES.items()}
# Programs that read their first argument as a cluster of option letters even without a '-'
# (old-style `tar cIf CMD out.tar f`: -I runs CMD, through /bin/sh in GNU tar), and why.
_OLD_STYLE_OPTIONS = {"tar": "tar cIf CMD out.tar f runs CMD as its compressor"}
# Programs whose operand at this index (after their options) is a command string a shell runs:
# ``sg group command``.
_COMMAND_OPERANDS: dict[str, int] = {"sg": 1}
# Programs whose operands are addresses in a language of their own that runs commands: socat's
# `EXEC:cmd` and `SYSTEM:cmd`, and the `!!` that joins a second address to any address
# (`OPEN:f!!SYSTEM:cmd` ran cmd in real socat), so a value anywhere in an operand is code.  Per
# program, its options that take the next word as their argument (a size, a timeout, a file).
_ADDRESS_PROGRAMS: dict[str, frozenset[str]] = {
    "socat": frozenset({"-b", "-t", "-T", "-lf", "-lp", "-L", "-W", "-S"}),
}
# Settings that are commands the program runs through a shell (``ssh -o ProxyCommand=...``,
# ``git -c core.pager=...``), by program.  A setting's name is matched without case; a git
# name matches as ``section.key``, as ``section.*`` and, for ``section.subsection.key``, as
# ``*.key``.  A value that gives the setting's name (``ssh -o {x}``) may name any of them.
_SSH_COMMAND_SETTINGS = frozenset(
    {"proxycommand", "localcommand", "knownhostscommand", "remotecommand", "match",
     # shared objects that ssh loads (a PKCS#11 or FIDO provider)
     "pkcs11provider", "securitykeyprovider"}
)
_GIT_COMMAND_SETTINGS = frozenset(
    {"core.pager", "core.editor", "core.sshcommand", "core.askpass", "core.fsmonitor",
     "core.hookspath", "core.gitproxy", "core.alternaterefscommand", "credential.helper",
     "diff.external", "gpg.program", "sequence.editor", "uploadpack.packobjectshook",
     "sendemail.sendmailcmd", "sendemail.smtpserver", "web.browser", "include.path",
     # the directory whose hooks a new repository gets (git clone ran its post-checkout)
     "init.templatedir",
     "alias.*", "pager.*", "filter.*", "includeif.*", "*.command", "*.textconv", "*.driver",
     "*.cmd", "*.helper", "*.program", "*.uploadpack", "*.receivepack", "*.update"}
)
# The endings of git settings' names that name a command, a program or where one is: by
# spelling, as no table can list every setting git and its helpers read (interactive.diffFilter,
# gpg.ssh.defaultKeyCommand, sendemail.toCmd, imap.tunnel, browser.<tool>.path, instaweb.httpd).
_GIT_COMMAND_ENDINGS = (
    "cmd", "command", "program", "prog", "helper", "editor", "pager", "filter", "driver",
    "textconv", "hook", "tunnel", "path", "httpd", "browser", "askpass", "exec",
)  # fmt: skip
_COMMAND_SETTINGS = {
    "ssh": _SSH_COMMAND_SETTINGS,
    "scp": _SSH_COMMAND_SETTINGS,
    "sftp": _SSH_COMMAND_SETTINGS,
    "git": _GIT_COMMAND_SETTINGS,
}
# git's options that take a command to run on the other end, or where git finds its commands.
_GIT_COMMAND_OPTIONS = frozenset({"--upload-pack", "--receive-pack", "--exec", "--exec-path"})
# git's global options that choose the repository, whose own .git/config git obeys: its
# core.fsmonitor ran on `git -C {d} status` (also diff, add, commit, fetch), its aliases run.
_GIT_REPOSITORY_OPTIONS = frozenset({"-C", "--git-dir"})
#: Why a value choosing the repository git works in is refused (`git -C {d}`, `cd {d}; git`).
CHOSEN_REPOSITORY = (
    "a repository whose own settings (.git/config) git obeys, and they may be commands: its "
    "core.fsmonitor runs on git status, diff, add and commit, its aliases and diff.external "
    "run too, so the value chooses the code that runs"
)
# git subcommands' options that take a command git runs through a shell (rebase's exec line,
# difftool's external command, grep's pager, filter-branch's filters, send-email's address
# commands, the upload-pack that clone runs).
_GIT_SUBCOMMAND_OPTIONS: dict[str, frozenset[str]] = {
    "rebase": frozenset({"-x", "--exec"}),
    # (--template: the directory whose hooks the new repository gets and runs)
    "clone": frozenset({"-u", "--upload-pack", "--template"}),
    "init": frozenset({"--template"}),
    "difftool": frozenset({"-x", "--extcmd"}),
    "grep": frozenset({"-O", "--open-files-in-pager"}),
    "filter-branch": frozenset(
        {"--setup", "--env-filter", "--tree-filter", "--index-filter", "--parent-filter",
         "--msg-filter", "--commit-filter", "--tag-name-filter"}
    ),
    "send-email": frozenset(
        {"--to-cmd", "--cc-cmd", "--header-cmd", "--smtp-server", "--sendmail-cmd"}
    ),
    # the daemon runs its access hook through a shell for every client that connects
    "daemon": frozenset({"--access-hook"}),
}  # fmt: skip
# git subcommands whose operands after a word are a command git runs (`git submodule foreach
# CMD`, `git bisect run CMD ARGS`).
_GIT_SUBCOMMAND_COMMANDS = {"submodule": "foreach", "bisect": "run"}
# `git config` options and subcommands that read or remove settings.
_GIT_CONFIG_READING = frozenset(
    {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--unset",
     "--unset-all", "get", "list", "unset", "--remove-section", "remove-section"}
)


class _StdinFiles:
    """Names of the standard input as a file (a script or program read from it): ``-``,
    ``/dev/stdin``, and any descriptor's (``/dev/fd/3``), which a redirection such as ``3<&0``
    may make a copy of the standard input."""

    _DESCRIPTOR = re.compile(r"/dev/fd/\d+|/proc/(?:self|\d+)/fd/\d+")

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and (
            word in ("-", "/dev/stdin") or bool(self._DESCRIPTOR.fullmatch(word))
        )


_STDIN_FILES = _StdinFiles()
#: The names of the standard input as a file (``-``, ``/dev/stdin``, ``/dev/fd/N``).
STDIN_FILES = _STDIN_FILES
# A setting's name: what comes before its value (``Name=value``, ``Name value``).
_SETTING_NAME = re.compile(r"([^=\s]+)[=\s]")
# git's global options (before its subcommand) that take the next word as their argument.
_GIT_OPTIONS_WITH_ARGUMENT = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"})
# Interpreters and the options whose argument is a program in their language.
_INTERPRETER_OPTIONS: dict[str, frozenset[str]] = {
    "python": frozenset({"-c"}),
    "pypy": frozenset({"-c"}),
    "perl": frozenset({"-e", "-E"}),
    "ruby": frozenset({"-e"}),
    "node": frozenset({"-e", "--eval", "-p", "--print"}),
    "nodejs": frozenset({"-e", "--eval", "-p", "--print"}),
    # (-B, -R, -E: code run before, for and after each line of the input)
    "php": frozenset(
        {"-r", "--run", "-B", "--process-begin", "-R", "--process-code", "-E", "--process-end"}
    ),
    "Rscript": frozenset({"-e"}),
    "R": frozenset({"-e"}),
    "lua": frozenset({"-e"}),
    "osascript": frozenset({"-e"}),
    "pwsh": frozenset({"-c", "-command", "-Command"}),
    "ipython": frozenset({"-c"}),
    "julia": frozenset({"-e", "--eval", "-E", "--print"}),
    "bun": frozenset({"-e", "--eval", "-p", "--print"}),
    "deno": frozenset({"eval"}),
    "expect": frozenset({"-c"}),
    "guile": frozenset({"-c"}),
    "racket": frozenset({"-e", "--eval"}),
    "sbcl": frozenset({"--eval"}),
    "elixir": frozenset({"-e"}),
    "erl": frozenset({"-eval"}),
}
# Options of interpreters and shells that take the next word as their argument (by each one's
# manual; node's from `node --help`), so that word is no script: `echo {x} | python3 -W ignore`,
# `perl -I lib`, `node --title t` and `bash --rcfile f` read their program from the pipe.
_INTERPRETER_OPTIONS_WITH_ARGUMENT: dict[str, frozenset[str]] = {
    **dict.fromkeys(("python", "pypy"), frozenset({"-W", "-X", "--check-hash-based-pycs"})),
    "perl": frozenset({"-I"}),
    "ruby": frozenset(
        {"-I", "-r", "-C", "-E", "--encoding", "--external-encoding", "--internal-encoding",
         "--enable", "--disable"}
    ),
    **dict.fromkeys(
        ("node", "nodejs"),
        frozenset(
            {"-C", "--conditions", "-r", "--require", "--import", "--loader",
             "--experimental-loader", "--title", "--input-type", "--env-file",
             "--env-file-if-exists", "--allow-fs-read", "--allow-fs-write",
             "--build-snapshot-config", "--cpu-prof-dir", "--cpu-prof-interval",
             "--cpu-prof-name", "--diagnostic-dir", "--disable-proto", "--disable-warning",
             "--dns-result-order", "--experimental-default-type", "--experimental-policy",
             "--experimental-sea-config", "--heap-prof-dir", "--heap-prof-interval",
             "--heap-prof-name", "--heapsnapshot-near-heap-limit", "--heapsnapshot-signal",
             "--icu-data-dir", "--inspect-publish-uid", "--max-http-header-size",
             "--network-family-autoselection-attempt-timeout", "--openssl-config",
             "--policy-integrity", "--redirect-warnings", "--report-filename",
             "--report-signal", "--secure-heap", "--secure-heap-min", "--snapshot-blob",
             "--test-concurrency", "--test-name-pattern", "--test-reporter",
             "--test-reporter-destination", "--test-shard", "--test-timeout",
             "--tls-cipher-list", "--tls-keylog", "--trace-event-categories",
             "--trace-event-file-pattern", "--trace-require-module", "--unhandled-rejections",
             "--use-largepages", "--v8-pool-size", "--watch-path"}
        ),
    ),
    "php": frozenset({"-c", "--php-ini", "-d", "--define", "-z", "--zend-extension"}),
    "lua": frozenset({"-l"}),
    "bash": frozenset({"--rcfile", "--init-file"}),
}  # fmt: skip
# Tools whose options take commands in a language of their own.  (Not in _ANY_CODE_OPTION:
# options such as -q and -e mean other things to most programs.)
_TOOL_CODE_OPTIONS: dict[str, frozenset[str]] = {
    # debuggers and editors run their own commands (gdb's `shell`, vim's `:!`)
    # (gdb also reads them with one dash and abbreviated: `-eval-command`, `-ex=`, `-eval`:
    # see _LONG_ONLY)
    "gdb": frozenset({"-ex", "--ex", "-iex", "--iex", "--eval-command", "--init-eval-command"}),
    # (--remote-send types keys into a vim server, :!cmd among them, and --remote-expr
    # evaluates an expression there, system() among them: by vim's manual, as no server
    # runs here)
    **dict.fromkeys(
        ("vim", "vi", "nvim", "ex", "view"),
        frozenset({"-c", "--cmd", "--remote-send", "--remote-expr"}),
    ),
    # database shells: SQL, and meta-commands that run a shell (psql's \!, sqlite3's .shell)
    "psql": frozenset({"-c", "--command"}),
    # (and the SQL run on connecting, --init-command)
    "mysql": frozenset({"-e", "--execute", "--init-command"}),
    "mariadb": frozenset({"-e", "--execute", "--init-command"}),
    # (the sqlite3 shell, and DuckDB's made from it, read `--cmd` as `-cmd`)
    "sqlite3": frozenset({"-cmd", "--cmd"}),
    "duckdb": frozenset({"-c", "--c", "-cmd", "--cmd"}),
    "clickhouse-client": frozenset({"-q", "--query"}),
    "sqlcmd": frozenset({"-q", "-Q"}),
    "cqlsh": frozenset({"-e", "--execute"}),
    "emacs": frozenset({"--eval", "-eval", "--execute", "-execute"}),
    "mongosh": frozenset({"--eval"}),
    "mongo": frozenset({"--eval"}),
    # GNU make evaluates the string as a makefile line, where $(shell cmd) runs cmd
    **dict.fromkeys(("make", "gmake"), frozenset({"--eval", "-E"})),
    # dc runs its expression's `!` commands in a shell (`dc --expression='!cmd'` ran cmd); m4
    # rescans a macro's definition wherever the macro is used, so `syscmd(cmd)` in one ran cmd
    # (`echo greeting | m4 -D greeting='syscmd(cmd)'`, `m4 -Dgreeting=... t.m4`)
    "dc": frozenset({"-e", "--expression"}),
    "m4": frozenset({"-D", "--define"}),
}
_CODE_OPTIONS = {**_INTERPRETER_OPTIONS, **_TOOL_CODE_OPTIONS}
_SQL_SHELLS = frozenset(
    {"psql", "mysql", "mariadb", "sqlite3", "duckdb", "clickhouse-client", "sqlcmd", "cqlsh"}
)
# Database shells whose operands after the database are SQL statements (``sqlite3 db SQL``).
_SQL_OPERANDS = frozenset({"sqlite3", "duckdb"})
# Their options (also spelled with `--`) that take arguments, and how many: the database and
# the SQL come after those (`sqlite3 -separator , db` has no SQL operand and reads its input).
_SQL_SHELL_ARGUMENTS = {
    **dict.fromkeys(
        ("cmd", "init", "maxsize", "mmap", "newline", "nonce", "nullvalue", "separator", "vfs",
         "heap"),
        1,
    ),
    "lookaside": 2,
    "pagecache": 2,
}  # fmt: skip
# Code options of database shells that run their argument before reading the input, not
# instead of it: `echo {x} | sqlite3 -cmd '.mode csv' db` ran the `.shell` command it piped.
_SQL_STARTUP_OPTIONS = frozenset({"-cmd", "--cmd", "--init-command"})
# Programs whose first operand is a program of their own unless an option gives one: name ->
# (options whose argument is the program, options whose argument is the program's file,
# other options that take an argument).
_SCRIPT_FIRST: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    **dict.fromkeys(
        ("awk", "gawk", "mawk", "nawk"),
        (
            frozenset({"-e", "--source"}),
            frozenset({"-f", "--file", "-E", "--exec"}),
            frozenset({"-F", "--field-separator", "-v", "--assign", "-i", "--include", "-l",
                       "--load", "-W"}),
        ),
    ),
    "sed": (
        frozenset({"-e", "--expression"}),
        frozenset({"-f", "--file"}),
        frozenset({"-l", "--line-length"}),
    ),
}
# GNU parallel's options that take the next word as their argument (its Getopt::Long specs
# with a value, `=s`, `:s`...): given no command past them it runs each line of its input as
# one (`echo {x} | parallel -j 2` ran the value, the 2 taken for a command).
_PARALLEL_OPTIONS_WITH_ARGUMENT = frozenset(
    {"-B", "-C", "-D", "-E", "-H", "-I", "-J", "-L", "-N", "-P", "-S", "-U", "-W", "-a",
     "--arg-file", "--arg-file-sep", "--arg-sep", "--argfile", "--argfilesep", "--argsep",
     "--basefile", "--basenameextensionreplace", "--basenamereplace", "--bf", "--bin",
     "--block", "--block-size", "--block-timeout", "--blocksize", "--blocktimeout",
     "--bner", "--bnr", "--bt", "--col-sep", "--colsep", "--compressprogram",
     "--ctag-string", "--ctagstring", "-d", "--debug", "--decompressprogram", "--delay",
     "--delimiter", "--dirnamereplace", "--dnr", "-e", "--env", "--eof", "--er",
     "--extensionreplace", "--filter", "--group-by", "--groupby", "--halt",
     "--halt-on-error", "--haltonerror", "--header", "-i", "--id", "-j", "--jl",
     "--joblog", "--jobs", "-l", "--limit", "--linkinputsource", "--load", "--max-args",
     "--max-chars", "--max-lines", "--max-procs", "--max-replace-args", "--maxargs",
     "--maxchars", "--maxlines", "--maxprocs", "--maxreplaceargs", "--memfree",
     "--memsuspend", "--min-version", "--minversion", "-n", "--nice", "--parens",
     "--process-slot-var", "--processslotvar", "--profile", "--recend", "--recstart",
     "--replace", "--res", "--result", "--results", "--retries", "--return", "--rpl",
     "--rsync-opts", "--rsyncopts", "-s", "--semaphore-name", "--semaphore-timeout",
     "--semaphorename", "--semaphoretimeout", "--seqreplace", "--shard",
     "--shell-completion", "--shellcompletion", "--slf", "--slotreplace", "--sql",
     "--sql-and-worker", "--sql-master", "--sql-worker", "--sqlandworker", "--sqlmaster",
     "--sqlworker", "--ssh", "--ssh-delay", "--sshdelay", "--sshlogin", "--sshloginfile",
     "--st", "--tag-string", "--tagstring", "--tempdir", "--template", "--term-seq",
     "--termseq", "--tf", "--timeout", "--tmpdir", "--tmpl", "--total", "--total-jobs",
     "--totaljobs", "--transfer-file", "--transfer-files", "--transferfile",
     "--transferfiles", "--trc", "--trim", "--usecompressprogram",
     "--usedecompressprogram", "--wd", "--work-dir", "--workdir", "--xapplyinputsource"}
)  # fmt: skip
# Programs that join all their operands into a command line for a shell.
_JOINING = {
    "watch": frozenset({"-n", "--interval", "-d", "-q", "--equexit"}),
    "parallel": frozenset(),
}
# Terminal multiplexers' commands whose operands are a shell command to run or keys to type
# into one (``tmux new-session -d {cmd}``, ``tmux send-keys -t s {keys}``, ``screen -X stuff``),
# and the options of those commands that take the next word as their argument.
_MULTIPLEXER_COMMANDS = {
    "tmux": frozenset(
        {"new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane",
         "respawnp", "respawn-window", "respawnw", "run-shell", "run", "if-shell", "if",
         "pipe-pane", "pipep", "display-popup", "popup", "send-keys", "send"}
    ),
    "screen": frozenset({"stuff", "exec"}),
}
_MULTIPLEXER_OPTIONS_WITH_ARGUMENT = frozenset(
    {"-c", "-e", "-F", "-n", "-s", "-t", "-x", "-y", "-f", "-l", "-N", "-w", "-S", "-T", "-L",
     "-p"}
)
# Options that give code to some program above: where a value names the program, a value
# after one of them may be code.
_ANY_CODE_OPTION = frozenset(
    {"-c", "--command", "-S", "--split-string"}.union(
        *_INTERPRETER_OPTIONS.values(), *(code for code, _, _ in _SCRIPT_FIRST.values())
    )
)
_SSH_OPTIONS_WITH_ARGUMENT = frozenset("-" + letter for letter in "BbcDEeFIiJLlmOopQRSWw")

# Programs that start a shell when given no command, and that shell reads its commands from
# their standard input (`echo x | su`, `sudo -s`, `chroot /`, `script -q`): a command string
# (-c) replaces it.  sudo and doas start one only with -s (or sudo's -i).
_SHELL_STARTERS = frozenset(
    {"su", "runuser", "script", "newgrp", "chroot", "unshare", "nsenter", "sudo", "doas"}
)
# Tools whose standard input is commands of their own language with commands that run a
# shell: ed's and ex's `!cmd`, gdb's and lldb's `shell`, vim's `:!`, tclsh's `exec`, the
# `!` of ftp, sftp and telnet, gnuplot's `system`, mongosh's JavaScript...
_STDIN_COMMAND_TOOLS = frozenset(
    {"ed", "red", "ex", "gdb", "lldb", "tclsh", "wish", "irb", "jshell", "gnuplot", "octave",
     "ftp", "lftp", "sftp", "telnet", "mongosh", "mongo"}
)  # fmt: skip
# Python modules that read statements or debugger commands from the standard input.
_PYTHON_CONSOLES = frozenset({"code", "pdb", "asyncio", "IPython", "ptpython", "bpython"})
# Vim and its names read keys typed from their standard input when it is no terminal (`:!`),
# unless given `-` (then the input is the text to edit), and in Ex mode (-e, -s) always.
_VI = frozenset({"vim", "vi", "nvim", "view", "rvim", "vimdiff"})
# Macro processors and calculators whose input language runs shell commands (m4's syscmd,
# dc's `!`), reading standard input when given no file (or `-`); each with the options that
# take the next word as their argument, which is no file (`m4 -D X=1` read the pipe and ran
# its `syscmd(cmd)`, where the argument was taken for a file).  dc reads no input at all once
# given an expression, unless also given `-` as a file.
_STDIN_LANGUAGE_FILTERS: dict[str, frozenset[str]] = {
    "m4": frozenset(
        {"-D", "--define", "-U", "--undefine", "-I", "--include", "-o", "--error-output",
         "-l", "--arg-length", "-L", "--nesting-limit", "-F", "--freeze-state", "-R",
         "--reload-state", "-t", "--trace", "-H", "--hashsize", "-W", "--word-regexp", "-B",
         "-S", "-T"}
    ),
    "dc": frozenset({"-e", "--expression"}),
}
_DC_FILE_OPTIONS = frozenset({"-f", "--file"})
# Options whose argument is the file a program reads its program or commands from: given a name
# of the standard input, that program reads them from the pipe (`make -f -`, `awk -f -`,
# `sed -f /dev/stdin`, `gdb -x -`, `vim -s -`).
_PROGRAM_FILE_OPTIONS: dict[str, frozenset[str]] = {
    "make": frozenset({"-f", "--file", "--makefile"}),
    "psql": frozenset({"-f", "--file"}),
    "gmake": frozenset({"-f", "--file", "--makefile"}),
    "emacs": frozenset({"-l", "--load", "--script", "-script"}),  # (Lisp files it runs)
    # curl's config file is its options, and some load code or write files (`engine =
    # /path/lib.so` loaded the library, `output = ~/.bashrc` writes there): `curl -K -` read
    # them from the pipe
    "curl": frozenset({"-K", "--config"}),
    **{name: files for name, (_, files, _) in _SCRIPT_FIRST.items()},
    # gawk -i (--include) reads a source file before the program: `echo {x} | gawk -i
    # /dev/stdin 'BEGIN{}'` ran the value's system() in real gawk
    **{
        name: files | {"-i", "--include"}
        for name, (_, files, _) in _SCRIPT_FIRST.items()
        if name != "sed"
    },
    # ssh's configuration file, where ProxyCommand is a command: `echo {x} | ssh -F
    # /dev/stdin h ls` ran the value's ProxyCommand in real ssh
    **dict.fromkeys(("ssh", "scp", "sftp"), frozenset({"-F"})),
    # php's ini file (auto_prepend_file runs a file, a data: URL with allow_url_include) and
    # node's env file (NODE_OPTIONS=--import=data:...): `echo {x} | php -c /dev/stdin s.php`
    # and `echo {x} | node --env-file=/dev/stdin s.js` ran the value's code
    "php": frozenset({"-c", "--php-ini"}),
    **dict.fromkeys(("node", "nodejs"), frozenset({"--env-file", "--env-file-if-exists"})),
    **dict.fromkeys(_VI, frozenset({"-s", "-S", "-u"})),
    # less's key file, whose #env section sets variables such as LESSOPEN, a command less
    # runs on each file: `printf '%s\n' {x} | less --lesskey-src=/dev/stdin f` ran the value's
    # LESSOPEN in real less 590 (output not a terminal too); -k reads the compiled form
    "less": frozenset({"--lesskey-src", "--lesskey-file", "-k"}),
}
# Programs that run a command made of the arguments after their own options, whose options the
# tables do not list: a later word naming a shell or interpreter starts that command.
_WRAPPERS = frozenset(
    {"strace", "ltrace", "valgrind", "setpriv", "runuser", "firejail", "bwrap", "proot",
     "fakeroot", "faketime", "chrt", "prlimit", "systemd-run", "docker", "podman", "nerdctl",
     "kubectl", "uv", "poetry", "pipenv", "pdm", "hatch", "conda", "mamba", "micromamba",
     "npx", "tini", "dumb-init", "gosu", "su-exec", "chpst", "torsocks", "proxychains",
     "proxychains4", "xvfb-run", "dbus-run-session", "rlwrap", "catchsegv", "unbuffer"}
)  # fmt: skip

# The options that give a command string whose shell reads the program's standard input.
_STDIN_COMMAND_STRINGS = {
    name: _COMMAND_STRING_OPTIONS[name]
    for name in ("su", "runuser", "flock", "env", "script", "split")
} | {"tar": frozenset({"--to-command"})}  # (tar: each member of the archive read)
# Program names a later word of a wrapper may give, starting a command that reads code.
_READERS = SHELLS.union(
    _INTERPRETER_OPTIONS, _STDIN_COMMAND_TOOLS, _VI, _STDIN_LANGUAGE_FILTERS,
    _PROGRAM_FILE_OPTIONS, _SHELL_STARTERS, _SQL_SHELLS, _RUNNERS, ("ssh", "xargs"),
)  # fmt: skip

_VERSION = re.compile(r"[\d.]+\Z")

# Runners that read NAME=value words before the command as environment variables to set for it
# (``env GIT_SSH_COMMAND=cmd git fetch``, ``sudo PAGER=cmd man ls``), and programs that read
# NAME=value in any of their arguments as a variable (make: ``make CC=cmd``, even after ``--``).
# Programs run many variables as code (PAGER, EDITOR, GIT_SSH_COMMAND, BASH_ENV, ENV,
# LD_PRELOAD, PERL5OPT...; make pastes its variables into the recipes a shell runs, expands
# ``$(shell cmd)`` in them, and reads MAKEFLAGS as options such as ``--eval``).
_ASSIGNING_RUNNERS = frozenset({"env", "sudo"})
_MAKES = frozenset({"make", "gmake"})
#: The programs :func:`assignment_reader` names, which read any NAME=value.
ASSIGNING = _ASSIGNING_RUNNERS | _MAKES
# make's options that take the next word as their argument (-j, -l and -O take an optional one
# only in the same word, so the next word is read as an operand).
_MAKE_OPTIONS_WITH_ARGUMENT = frozenset(
    {"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir", "-o",
     "--old-file", "--assume-old", "-W", "--what-if", "--new-file", "--assume-new"}
)  # fmt: skip
# perl's options that read the file operands with `<>` (-n and -p loop over them, -a and -F
# imply -n), and the letters of a cluster that take the rest of the word as their argument.
# perl's options whose argument it pastes into `use MODULE ...;` code (-MFoo=x, -mFoo).
# (and -d:MOD=args, which it pastes into `use Devel::MOD split(/,/,q{args});`: a `}` in args
# closed the string, and `-d:Peek=x}),system(...),(q{` ran the system call in real perl)
_PERL_MODULE_OPTIONS = frozenset({"-M", "-m", "-d"})
# A cluster of short options: its letters (up to the first other character).
_CLUSTER = re.compile(r"-([A-Za-z0-9]+)")
_PERL_LOOPS = frozenset("npaF")
_PERL_REST = frozenset("eEFiIMmxdDC")  # (-l and -0 take digits only)
# A perl program that reads its file operands: `<>`, `<ARGV>`, `eof()`, readline or any use of
# the ARGV handle (`<<>>`, perl 5.22's safe form, and @ARGV, $ARGV are no such use).
_PERL_READS_ARGV = re.compile(
    r"(?<![<\w])<\s*(?:ARGV\s*)?>(?!>)|\beof\s*\(\s*\)|(?<![@$#\w])ARGV\b|\breadline\b"
)

#: Programs whose arguments may hold code for a shell (a shell, a runner of a command, ssh...):
#: after any other, :func:`code_argument` with ``shells_only`` finds none.
SHELL_CODE_PROGRAMS = frozenset(
    SHELLS.union(
        _RUNNERS, (tool for tool, _ in _SUBCOMMAND_RUNNERS), _COMMAND_STRING_OPTIONS, _JOINING,
        _PROGRAM_OPTIONS, _COMMAND_OPERANDS, _COMMAND_SETTINGS, _MULTIPLEXER_COMMANDS,
        _ADDRESS_PROGRAMS, ("find",),
    )
)  # fmt: skip

#: Every program the tables know something of (a word naming one, anywhere in a command, may
#: be where a command that another program runs starts).
_KNOWN_PROGRAMS = SHELL_CODE_PROGRAMS.union(
    _CODE_OPTIONS, _SCRIPT_FIRST, _SQL_OPERANDS, _ADDRESS_PROGRAMS
)

#: Programs that take no ``--`` where a value may stand, and what a refusal of a value that
#: would be an option suggests instead: dash's builtin kill reads ``--`` after a signal as a
#: number (``kill -TERM -- 42``: "Illegal number: -"), sqlite3 3.40 as an unknown option
#: (``sqlite3 -- f.db``: "unknown option: -").
NO_END_OF_OPTIONS: dict[str, str] = {
    "kill": "Check in Python that the value is a positive integer (int(pid) > 0): -- does "
    "not help, dash's builtin kill takes none after a signal (kill -TERM -- 42: 'Illegal "
    "number: -')",
    "sqlite3": "Write ./ before a relative path (sqlite3 ./{db}), or check the value in "
    "Python: -- does not help, sqlite3 takes none ('unknown option: -')",
}

#: Programs with options that run code, so a value must not be read as one of their options
#: (GNU programs read options after operands too).
OPTION_CODE_PROGRAMS = _KNOWN_PROGRAMS.union(
    {"sort", "man", "wget", "less", "more", "emacs", "curl"}, _MAKES
)
#: The allow-list for options: programs none of whose options runs a command or loads code,
#: or changes what they write or destroy beyond their operands, so a value may be read as one
#: of their options (``ls {d:*}`` with ``-la``).  Every other program's options are refused to
#: a value, known or not: options that run a command are everywhere (``rg --pre=CMD``, ``fd
#: --exec``, ``tcpdump -z``, ``nc -e``, ``install --strip-program``, ``dpkg --pre-invoke``,
#: ``exiftool -if``, ``openssl -engine``), and no table can list them all.  Left out on
#: purpose: ``sort``, ``split``, ``install``, ``sdiff`` (options that run a program); ``rm``,
#: ``cp``, ``mv``, ``ln``, ``chmod``, ``chown``, ``kill``, ``gzip``, ``truncate``, ``shred``,
#: ``date`` (``rm -rf``, ``cp -t DIR``, ``kill -1``, ``gzip -r``, ``date -s``: an option from a
#: value would change what is written or destroyed; write ``--`` before the field); ``shuf``,
#: ``tree``, ``file``, which write a file an option names (``shuf -o FILE``, ``tree -o FILE``,
#: ``file -C`` its compiled ``magic.mgc``): ``shuf -e {x:*}`` with ``['touch f', '-o', 'run.sh']``
#: wrote the value's command into any file, in dash and bash (tenth pass).
DATA_OPTION_PROGRAMS = frozenset(
    {"ls", "cat", "echo", "printf", "head", "tail", "wc", "mkdir", "rmdir", "touch", "stat",
     "du", "df", "basename", "dirname", "realpath", "readlink", "pwd", "grep", "egrep",
     "fgrep", "cut", "tr", "uniq", "tee", "id", "seq", "sleep", "true", "false", "diff", "cmp",
     "comm", "paste", "join", "nl", "od", "base64", "md5sum", "sha1sum", "sha224sum",
     "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "zcat", "bzcat", "xzcat",
     "column", "expand", "unexpand", "fold", "fmt", "rev", "tac", "mktemp", "whoami",
     "uname", "nproc", "printenv", "which", "numfmt", "pr", "tsort", "factor", "cd",
     "hexdump", "xxd", "strings", "yes", "mkfifo", "nslookup", "host", "locale",
     "getent", "groups", "users", "who", "w", "uptime", "free", "lsblk", "ps", "pgrep"}
)  # fmt: skip
#: The allow-list for options spelled like code options: programs whose ``-c``, ``-e``, ``-x``,
#: ``-X``, ``--exec``, ``--eval``, ``--command``, ``--pager``... take data or nothing (``gzip -c``,
#: ``ping -c 3``, ``gcc -c``, ``curl -X``, ``grep -e``), beyond the programs the tables above
#: know (whose code options they list).  After such an option of any other program a value is
#: refused: many run it (``./tool -c {x}``, ``nc -e``, ``fd -x``, ``yt-dlp --exec``, ``go test
#: -exec``, ``mutt -e``, ``emacsclient -e``, ``make --eval`` before it was listed), and no
#: table can list them all.  (Not ``ip``: ``ip netns exec n cmd`` runs cmd, and ``ip -b f``
#: the commands of f.)
PLAIN_OPTION_PROGRAMS = DATA_OPTION_PROGRAMS.union(
    {"rm", "cp", "mv", "ln", "chmod", "chown", "chgrp", "kill", "pkill", "gzip", "gunzip",
     "bzip2", "bunzip2", "xz", "unxz", "lzma", "zstd", "unzstd", "lz4", "pigz", "zgrep",
     "zegrep", "zfgrep", "xzgrep", "bzgrep", "truncate", "shred", "date", "dd", "gcc", "cc",
     "clang", "g++", "c++", "clang++", "ping", "ping6", "curl", "jq", "yq", "iconv", "pv",
     "xmllint", "patch", "dos2unix", "unix2dos", "base32", "basenc",
     "ss", "lsof", "dmesg", "journalctl", "unzip", "7z", "ffmpeg", "ffprobe", "shuf",
     "tree", "file"}
)  # fmt: skip
# Short options that give code to many programs (a shell's -c, perl's -e, fd's -x and -X).
_CODE_LIKE_SHORT = frozenset({"-c", "-e", "-x", "-X"})
# Words that, in a long option's name, say its argument is a command or code (--exec,
# --eval-command, --pre, --pager, -toolexec, --post-cmd).
_CODE_LIKE_WORDS = frozenset(
    {"exec", "execute", "eval", "evaluate", "command", "commands", "cmd", "pager", "editor",
     "askpass", "shell", "hook", "hooks", "pre", "program"}
)  # fmt: skip
_CODE_LIKE_ENDINGS = ("exec", "eval", "cmd", "command")


# Interpreters whose code option ends their options (``python -c code -x``: -x is sys.argv[1]),
# as a shell's -c does; other interpreters read options after the code option's argument.
_CODE_ENDS_OPTIONS = SHELLS | {"python", "pypy"}
# Programs built on traitlets, which read ``--Class.trait=value`` options anywhere before
# ``--``, even after a script's name (``ipython s.py --InteractiveShellApp.exec_lines=...``).
_TRAITLETS = frozenset({"ipython"})
# Programs that run the rest of a word after a static '+' as one of their commands (`vim
# +{x} f` ran `!touch x` in real vim; less runs its own commands, `!cmd` among them).
_PLUS_COMMANDS = _VI | {"ex", "less"}
#: Programs that also read a word starting with ``+`` as a command (``vim +!cmd``).
PLUS_COMMAND_PROGRAMS = frozenset({"vim", "vi", "nvim", "ex", "view", "less", "more", "emacs"})
#: Options whose argument is the file a program writes its output to, or, when it starts with
#: ``|`` or ``!``, a shell command it pipes its output to: ``strace -o '|touch x' true`` and
#: ``strace --output='!touch x' true`` ran touch.  :func:`option_taker` and
#: :func:`pipe_file_option` name such an argument ``"strace -o"``.  psql's ``-o`` is its ``\o``,
#: which pipes to a ``|cmd`` (``psql -o '|touch x' -c 'select 1'`` ran touch).
PIPE_FILE_OPTIONS: dict[str, frozenset[str]] = {
    "strace": frozenset({"-o", "--output"}),
    "psql": frozenset({"-o", "--output"}),
}
#: Programs that read a file operand starting with ``!`` as a shell command whose output is the
#: file, also after ``--``: GNU ed (``ed '!touch x'`` and ``ed -- '!touch x'`` ran touch; red,
#: restricted, refuses it).
BANG_COMMAND_FILES = frozenset({"ed"})

#: Programs known to read their standard input as data, or whose tables say when they read it
#: as code: :func:`unknown_input_reader` refuses a pipe into any other.
DATA_INPUT_PROGRAMS = (
    DATA_OPTION_PROGRAMS.union(_KNOWN_PROGRAMS, _READERS, OPTION_CODE_PROGRAMS)
    .union(
        {"jq", "yq", "bc", "sort", "less", "more", "tar", "cpio", "patch", "zstd", "unzstd",
         "lz4", "iconv", "dos2unix", "unix2dos", "sponge", "pv", "xmllint", "curl", "wget",
         "git", "sed", "awk", "gawk", "mawk", "base32", "basenc", "envsubst", "xclip", "xsel",
         "wl-copy", "pbcopy", "lp", "lpr", "gpg", "split", "tee", "column", "xargs", "rm",
         "cp", "mv", "ln", "chmod", "chown", "chgrp", "kill", "pkill", "gzip", "gunzip",
         "bzip2", "bunzip2", "xz", "unxz", "truncate", "shred", "date", "dd", "csplit",
         "unlink", "hostname", "ping", "shuf", "tree", "file",
         # shell builtins: they read the pipe as data (a variable that `read` sets is
         # followed where it is used)
         "read", "mapfile", "readarray", "command", "builtin", "type", "exit", "return",
         "set", "shift", "test", "[", ":", "wait", "export", "local", "cd", "trap"}
    )
    .difference(_WRAPPERS, _ADDRESS_PROGRAMS)  # (socat - SYSTEM:sh: its addresses decide)
)  # fmt: skip

_AS_CODE = "which {} parses again as code"


# Programs that run a remote command as ssh does (the words after the host, joined for the
# remote user's shell): read as ssh, whose options are a superset of theirs that take a word.
_REMOTE_SHELLS = {"slogin": "ssh", "rsh": "ssh", "remsh": "ssh", "autossh": "ssh"}


def program(word: str) -> str:
    """A command word as the program it names: ``/usr/bin/python3.12`` is ``python``, and
    ``rsh``, ``slogin`` and ``autossh`` are ``ssh``."""
    name = word.rpartition("/")[2]
    stem = _VERSION.sub("", name)
    return stem if stem in _INTERPRETER_OPTIONS else _REMOTE_SHELLS.get(name, name)


# Where the system's programs are: a name written with another path (``./cat``, ``bin/cat``)
# is the author's own program, not the one the allow-lists know by that name.
_SYSTEM_DIRECTORIES = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/")


def _allow_listed(word: str, programs: frozenset[str]) -> bool:
    """Whether ``word`` names one of ``programs`` (an allow-list): by its name alone, or by
    its path in a system directory."""
    if "/" in word and not word.startswith(_SYSTEM_DIRECTORIES):
        return False
    return program(word) in programs


class CommandWords(list[str | None]):
    """A simple command's words so far, as the lexer appends them (``None`` for a word holding
    a value), which remember where the first word naming one of a set of programs is: the
    lexer checks each word with the words before it (:func:`code_argument`,
    :func:`positional_script`), so that a command of n words takes n program() calls in all,
    not one per word per word before it (``echo {v0} {v1} ...``)."""

    def __init__(self, words: Iterable[str | None] = ()) -> None:
        super().__init__(words)
        # per (set of names, first position): how far it was looked for, and where it is
        self.found: dict[tuple[int, int], tuple[int, int | None]] = {}

    def __delitem__(self, index: Any) -> None:  # (the lexer drops `command` and `builtin`)
        super().__delitem__(index)
        self.found.clear()


def _first_naming(
    words: Sequence[str | None], names: frozenset[str], start: int
) -> int | None:
    """The position of the first word from ``start`` on, but the last, that names one of
    ``names``; in :class:`CommandWords`, looked for past where it was looked for before."""
    looked, at = start, None
    if isinstance(words, CommandWords):
        looked, at = words.found.get((id(names), start), (start, None))
    while at is None and looked < len(words):
        word = words[looked]
        if word is not None and word != EXPANDED and program(word) in names:
            at = looked
        looked += 1
    if isinstance(words, CommandWords):
        words.found[id(names), start] = (looked, at)
    return at if at is not None and at < len(words) - 1 else None


def code_argument(
    command: Sequence[str | None], prefix: str = "", shells_only: bool = False
) -> str | None:
    """Why the last word of ``command`` (a simple command's words so far: plain text, or
    ``None`` for a word holding a value) is code to the program that finally runs, or None.

    ``prefix`` is the static text of the last word before its first value (``-e`` in
    ``-e{x}``, ``--eval=`` in ``--eval={x}``).  ``shells_only``: only code that a shell
    parses (``sh -c``, ``su -c``, ``env -S``, ssh's remote command, watch's command), not
    another language's program (``python -c``, awk's) nor the code options of a program a
    value names.

    A program the tables do not know may run the rest of its arguments as a command
    (``strace sh -c {x}``, ``docker run img sh -c {x}``, ``uv run python -c {x}``), so the
    command from each later word that names a program the tables know is read as well."""
    ran = _run_command(command, prefix)
    why = _sudo_shell(command, ran) or _code_argument_of(ran, prefix, shells_only)
    command = ran
    if why is None:
        # From the first such word only: that call reads the words after it the same way
        # (from each word, it would take time exponential in their number).
        start = _first_naming(command, _KNOWN_PROGRAMS, 1)
        if start is not None:
            why = code_argument(command[start:], prefix, shells_only)
    if why is None and not shells_only:
        why = _unknown_code_option(command, prefix)
    return why


_SUDO_SHELLS = frozenset({"--shell", "--login"})


def _sudo_shell(command: Sequence[str | None], ran: Sequence[str | None]) -> str | None:
    """Why a word of the command that ``sudo -s`` or ``sudo -i`` runs (``ran``, the rest of
    ``command`` past the runners) is code: sudo joins that command's words into the ``-c``
    string of a shell, escaping every character but letters, digits, ``_``, ``-`` and ``$``,
    so that the shell expands a ``$name`` in a value (``sudo -s echo {x}``)."""
    runners = command[: len(command) - len(ran)]
    sudo = next((at for at, word in enumerate(runners) if word and program(word) == "sudo"), None)
    if sudo is None:
        return None
    for word in runners[sudo + 1 :]:
        if word is None or not word.startswith("-"):
            continue
        if _unabbreviated(word, _SUDO_SHELLS) in _SUDO_SHELLS or (
            word[1:2] != "-" and any(letter in word[1:] for letter in "si")
        ):
            return (
                f"an argument of the command that sudo {word} runs: sudo joins its words into "
                "a shell's command string, where the shell expands a $name in the value (sudo "
                "escapes every character but letters, digits, _, - and $)"
            )
    return None


def option_taker(command: Sequence[str | None]) -> str | None:
    """The program that would read the last word of ``command`` (a value at its start) as an
    option, unless it is one of :data:`DATA_OPTION_PROGRAMS` (options that run code: ``ssh
    -oProxyCommand=...``, ``tar --to-command=...``, ``python -c...``, vim's ``+!cmd``, ``rg
    --pre=...``): a value starting with ``-`` (or ``+`` for vim and less) must not stand there.
    None past ``--``, past an interpreter's script or a shell's operands.  Only a shell's
    and Python's code option ends the options: ``perl -e 'print @ARGV' -e'system(...)'``
    runs both programs, and IPython reads ``--Class.trait=...`` options even after its
    script.  A value where a runner's command starts is the runner's option if the runner
    still reads options there: ``env {x} true`` with ``-Scmd`` runs cmd."""
    command, runner, options = _follow_options(command, "")
    if options and list(command) == [None]:
        return runner
    if len(command) < 2:
        return None
    if command[0] is None or command[0] == EXPANDED:
        name = "the program " + ("a value" if command[0] is None else "an expansion") + " names"
    elif _allow_listed(command[0], DATA_OPTION_PROGRAMS):
        return None
    else:
        name = program(command[0])
    module = _python_module(command[:-1]) if name in ("python", "pypy") else None
    if module is not None:  # `python3 -m pip install {x}` is pip's: its options, not Python's
        return option_taker([*module, command[-1]])
    if name == "find" and command[-2] in _FIND_TESTS_WITH_ARGUMENT:
        return None  # the test's argument (`find . -name {pattern}`), whatever it starts with
    if _options_state(name, list(command[1:-1])) is None:
        return None
    return _pipe_file_option(name, command[-2], "") or name


# What option_taker's reading of a program's words left: whether the next word is the
# argument of a code option (perl's -e) or of another option; None once the options ended.
_OptionsState = tuple[bool, bool] | None
# The last reading: the program, its words, and what they left.  The grammar asks once per
# value, each time with the words before and one more, so the reading goes on from where it
# stopped (from the start, a command of 10,000 values took 26 s: each read all the words).
_last_reading: tuple[str, list[str | None], _OptionsState] = ("", [], (False, False))


def _options_state(name: str, words: list[str | None]) -> _OptionsState:
    """What the program ``name`` is left expecting after its ``words`` (see _OptionsState)."""
    global _last_reading
    read_name, read, state = _last_reading  # (one tuple: safe when another thread reads too)
    if read_name != name or len(read) > len(words) or words[: len(read)] != read:
        read, state = [], (False, False)
    if state is not None:
        state = _read_options(name, words[len(read) :], state)
    _last_reading = (name, words, state)
    return state


def _read_options(name: str, words: Iterable[str | None], state: _OptionsState) -> _OptionsState:
    """The state after the program ``name`` reads ``words``, from ``state`` (not None)."""
    takes_script = (name in SHELLS or name in _INTERPRETER_OPTIONS) and name not in _TRAITLETS
    code_options = frozenset() if name in _CODE_ENDS_OPTIONS else _CODE_OPTIONS.get(name)
    with_argument = _options_with_argument(name)
    expects_code, expects_argument = state or (False, False)
    for word in words:
        if word == "--" and name != "find" and name not in BANG_COMMAND_FILES:
            return None  # (find reads an expression after -- too, and ed a `!command` file)
        if expects_code:
            expects_code = False  # the program of -e: perl and others read options after it
        elif expects_argument:
            expects_argument = False  # no script: `node --title t {x}` reads {x} as an option
        elif takes_script and (word is None or not word.startswith("-")):
            return None  # the script (or command string): the rest are its arguments
        else:
            expects_code = _gives(word, code_options or frozenset())
            expects_argument = _takes_next(word, with_argument)
    return expects_code, expects_argument


def pipe_file_option(command: Sequence[str | None], prefix: str) -> str | None:
    """``"strace -o"`` when the value, after ``prefix`` in its word, starts the file argument
    of one of :data:`PIPE_FILE_OPTIONS` (``strace --output={f}``; ``strace -o {f}`` is
    :func:`option_taker`'s), which a ``|`` or ``!`` makes a command."""
    ran = _run_command(command, prefix)
    if len(ran) < 2 or ran[0] is None or ran[0] == EXPANDED:
        return None
    return _pipe_file_option(program(ran[0]), None, prefix)


def _pipe_file_option(name: str, before: str | None, prefix: str) -> str | None:
    """:func:`pipe_file_option` given the word before the value (``-o``, ``-fo``) or the
    value's prefix (``--output=``, ``-o``)."""
    options = PIPE_FILE_OPTIONS.get(name, frozenset())
    option = _unabbreviated(prefix[:-1], options) if prefix.endswith("=") else prefix
    if option in options:
        return f"{name} {option}"
    if before is not None and not prefix:
        before = _unabbreviated(before, options)
        if _takes_next(before, options):
            return f"{name} {before if before in options else '-' + before[-1]}"
    return None


def _options_with_argument(name: str) -> frozenset[str]:
    """The options of the interpreter or shell ``name`` that take the next word as their
    argument, which is then no script (``python3 -W ignore``, ``bash -o posix``)."""
    with_argument = _INTERPRETER_OPTIONS_WITH_ARGUMENT.get(name, frozenset())
    return with_argument | _SHELL_OPTIONS_WITH_ARGUMENT if name in SHELLS else with_argument


# Per program, the short options (letters) whose argument may be glued to them, so that a value
# after one (``gcc -I{dir}``, ``ssh -p{port}``) is that argument, not more option letters; ""
# for a bare '-' whose rest is an argument (kill's and pkill's signal: ``kill -{signal}``).
_COMPILER_ARGUMENT_LETTERS = frozenset("ILlDUoxB")
_GLUED_ARGUMENT_LETTERS: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        ("ssh", "scp", "sftp"), frozenset(option[1] for option in _SSH_OPTIONS_WITH_ARGUMENT)
    ),
    **dict.fromkeys(
        _MAKES, frozenset(o[1] for o in _MAKE_OPTIONS_WITH_ARGUMENT if len(o) == 2) | {"j", "l"}
    ),
    **dict.fromkeys(
        ("gcc", "cc", "g++", "c++", "clang", "clang++"), _COMPILER_ARGUMENT_LETTERS
    ),
    "tar": frozenset("fCTXbgKLNVH"),
    **dict.fromkeys(("python", "pypy"), frozenset("WXmQc")),
    "perl": frozenset("eEIMmlx0FidDC"),
    "ruby": frozenset("eIrCEFx0T"),
    **dict.fromkeys(("kill", "pkill"), frozenset({"", "s", "n"})),
    "psql": frozenset("cdfFhLopPRTUv"),
}


def glued_argument(command: Sequence[str | None], prefix: str) -> bool:
    """Whether a value glued to the option word ``prefix`` (``-I`` of ``gcc -I{dir}``) is the
    argument of one of its letters, by the tables of :data:`_GLUED_ARGUMENT_LETTERS`, rather
    than more option letters (or a long option's name) of its own."""
    ran = _run_command(command, "")
    if not ran or ran[0] is None or ran[0] == EXPANDED or prefix.startswith("--"):
        return False
    letters = _GLUED_ARGUMENT_LETTERS.get(program(ran[0]), frozenset())
    cluster = _CLUSTER.fullmatch(prefix)
    if prefix == "-":
        return "" in letters
    return cluster is not None and not letters.isdisjoint(cluster.group(1))


# Python's options that take the next word (or the rest of their word) as their argument.
_PYTHON_OPTIONS_WITH_ARGUMENT = frozenset("WXQ")
# Modules that Python runs with -m whose operands (or the argument of these options) are Python
# code: `python3 -m timeit {x}` runs x; its -n, -r and -u take numbers and a unit.
_CODE_MODULES = {"timeit": frozenset({"-n", "--number", "-r", "--repeat", "-u", "--unit"})}


def _python_module(command: Sequence[str | None]) -> list[str | None] | None:
    """The command that ``python -m MODULE ARGS`` (``command``, its words so far) runs as a
    program of its own: ``[MODULE, *ARGS]`` (``python3 -m pip install`` is ``pip install``),
    else None (no ``-m`` before the script, ``-c`` or an operand)."""
    expects_argument = False
    for at, word in enumerate(command[1:], 1):
        if expects_argument:
            expects_argument = False
            continue
        if word is None or word == "--" or not word.startswith("-") or word.startswith("--"):
            if word is not None and word.startswith("--") and word != "--":
                # (--version, --help: no argument; --check-hash-based-pycs MODE: one)
                expects_argument = word in _INTERPRETER_OPTIONS_WITH_ARGUMENT["python"]
                continue
            return None  # the script, or a value: no module
        for index, letter in enumerate(word[1:], 2):
            if letter == "c":
                return None  # the program is -c's
            if letter == "m":
                rest = word[index:]
                if rest:
                    return [rest, *command[at + 1 :]]
                following = command[at + 1 : at + 2]
                return [*following, *command[at + 2 :]] if following else None
            if letter in _PYTHON_OPTIONS_WITH_ARGUMENT:
                expects_argument = index == len(word)
                break
    return None


# Options whose argument is a file the program writes its output to (`curl -o s.sh {url}`: the
# value chooses what s.sh holds), by program; and programs whose last operand is the file they
# write (`cp {src} s.sh`, `ln -s {target} s.sh`).
_OUTPUT_OPTIONS: dict[str, frozenset[str]] = {
    # (wget's log too: `wget -O page -o {f} URL` wrote the Content-Type a server chose)
    "wget": frozenset(
        {"-O", "--output-document", "-o", "--output-file", "-a", "--append-output"}
    ),
    "sort": frozenset({"-o", "--output"}),
    "dd": frozenset({"of"}),  # (dd of=FILE)
    # (the twenty-fifth pass: each wrote payload's lines to s.sh, which `sh s.sh` then ran)
    "iconv": frozenset({"-o", "--output"}),
    "shuf": frozenset({"-o", "--output"}),
    # (the twenty-sixth pass: the headers, the cookie jar, the archive it writes)
    "curl": frozenset({"-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar"}),
    # (the twenty-seventh pass: --index-file gets the verbose listing, the archive's member
    # names: `tar -tf {a} --index-file=s.sh; sh s.sh` ran a member named `x;touch ...`);
    # the twenty-eighth: -g's snapshot file holds the names of the directories it archives,
    # each ended by a NUL (`tar -cf o.tar -g {f} arch; sh s.sh` ran a directory's name)
    "tar": frozenset({"-f", "--file", "--index-file", "-g", "--listed-incremental"}),
}
# tar's archive option, which names the archive it writes only in the modes of _TAR_WRITING.
_TAR_ARCHIVE = frozenset({"-f", "--file"})
_TAR_WRITING = frozenset(
    {"-c", "-r", "-u", "-A", "--create", "--append", "--update", "--catenate", "--concatenate"}
)
# tar's short options that take an argument (the rest of their cluster, or the next word).
_TAR_ARGUMENT_LETTERS = _GLUED_ARGUMENT_LETTERS["tar"]
# tar's long options known to take no argument, read before -O (--to-stdout): any other one
# written without '=' may take the next word, which is then no option.
_TAR_FLAGS = frozenset(
    {"--extract", "--get", "--verbose", "--gzip", "--gunzip", "--ungzip", "--bzip2", "--xz",
     "--lzma", "--zstd", "--auto-compress", "--wildcards", "--ignore-zeros", "--to-stdout"}
)  # fmt: skip
# Output options of programs that may run others of their own or are not known to wait for
# them (find -exec, gpg's helpers, git's hooks): writers of the file (`openssl base64 -d -in
# p -out {f}`, `find -fprint {f}`, `gpg -o {f}`, `git log --output={f}`, `csplit -f {prefix}`
# each wrote payload to s.sh before `sh s.sh` ran it), but not copies nor known to wait.
_OTHER_OUTPUT_OPTIONS: dict[str, frozenset[str]] = {
    "openssl": frozenset({"-out"}),
    "find": frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"}),
    "gpg": frozenset({"-o", "--output"}),
    "git": frozenset({"--output"}),
    "csplit": frozenset({"-f", "--prefix"}),
}
# (`link a b` is `ln a b`)
_COPYING = frozenset({"cp", "mv", "install", "ln", "link", "rsync"})
# Programs whose n-th operand is the file they write, with their options that take the next
# word (by their manuals): `uniq in {f}`, `xxd -r in {f}` and `script -c cmd {f}` each wrote
# payload into s.sh before `sh s.sh` ran it (the twenty-fifth pass).
_OUTPUT_OPERANDS: dict[str, tuple[int, frozenset[str]]] = {
    "uniq": (2, frozenset({"-f", "-s", "-w"})),
    "xxd": (2, frozenset({"-c", "-g", "-l", "-o", "-s", "-n"})),
    "script": (1, frozenset({"-c", "-E", "-I", "-O", "-B", "-T", "-m"})),
    # (the twenty-sixth pass: `zip {f} p` and `split p {prefix}` wrote payload to s.sh)
    "zip": (1, frozenset({"-b", "-n", "-t", "-tt", "-P", "-Z", "-O", "--out", "-s", "-TT",
                          "--unzip-command", "-x", "-i"})),
    "split": (2, frozenset({"-a", "-b", "-C", "-l", "-n", "-t", "--suffix-length",
                            "--additional-suffix", "--bytes", "--line-bytes", "--lines",
                            "--number", "--separator", "--filter"})),
}  # fmt: skip
# Of those, the programs that may run one a word names (zip -TT CMD, split --filter=CMD): not
# known to run none of the paths they are given, as the other writers are.
_RUNNING_WRITERS = frozenset({"zip", "split"})
# Options whose argument is a directory the program writes files into (`tar -xf a.tar -C {d}`
# with `.` puts the archive's s.sh where `sh s.sh` runs it), by program.
_TARGET_DIRECTORIES: dict[str, frozenset[str]] = {
    **dict.fromkeys(("cp", "mv", "install", "ln"), frozenset({"-t", "--target-directory"})),
    "tar": frozenset({"-C", "--directory"}),
    "wget": frozenset({"-P", "--directory-prefix"}),
    "curl": frozenset({"--output-dir"}),
    "unzip": frozenset({"-d"}),
}
#: The programs that write a file named in their arguments (tee's operands, and those of
#: :func:`output_files`): a template naming none of them and holding no '>' writes no file.
WRITING_PROGRAMS = frozenset(
    {"tee", *_OUTPUT_OPTIONS, *_COPYING, *_TARGET_DIRECTORIES, *_OUTPUT_OPERANDS}
).difference(_RUNNING_WRITERS)


def command_run(command: Sequence[str | None]) -> Sequence[str | None]:
    """The command that finally runs in ``command``, past the programs that run one made of
    their arguments (``env``, ``sudo``, ``nohup``, ``timeout 5``, ``exec``, ``xargs``...)."""
    return _run_command(command, "")


def output_files(command: Sequence[str | None]) -> list[str]:
    """The files, named in the static text, that ``command`` writes what its values choose to,
    beyond its redirections: the argument of an output option (``curl -o s.sh {url}``, ``wget
    -O``, ``sort -o``, ``dd of=``) and the destination of ``cp``, ``mv``, ``install``, ``ln``,
    ``rsync`` (``cp {src} s.sh``), so that a command running that file sees the value."""
    ran = _run_command(command, "")
    if not ran or ran[0] is None or ran[0] == EXPANDED:
        return []
    name, words = _arguments(ran)
    found: list[str] = []
    options = _output_options(name, words)
    for at, word in enumerate(words):
        if word is None or word == EXPANDED:
            continue
        option, equals, value = word.partition("=")
        following = words[at + 1] if at + 1 < len(words) else None
        given, rest = _clustered(word, options) if word[1:2] != "-" else ("", word)
        if equals and option in options:
            found.append(value)  # --output=FILE, of=FILE
        elif given and len(rest) > 2:
            found.append(rest[2:])  # -oFILE, -sSoFILE
        elif (given or word in options) and isinstance(following, str):
            found.append(following)
    operands = [w for w in words if w is None or w == EXPANDED or not w.startswith("-")]
    if name in _COPYING and len(operands) > 1 and isinstance(operands[-1], str):
        found.append(operands[-1])
    if name in _OUTPUT_OPERANDS:
        found += [
            word
            for at, word in enumerate(words)
            if isinstance(word, str) and word[:1] != "-" and _is_output_operand(name, words[:at])
        ]
    return [file for file in found if file and file != EXPANDED]


def _output_options(name: str, words: Sequence[str | None]) -> frozenset[str]:
    """The options of the program ``name``, given ``words``, whose argument is a file it
    writes: tar's ``-f`` only with a mode that writes the archive (``tar -tf {a}`` reads it)."""
    empty: frozenset[str] = frozenset()
    options = _OUTPUT_OPTIONS.get(name, empty) | _OTHER_OUTPUT_OPTIONS.get(name, empty)
    if name == "tar" and not any(
        word is not None and (word in _TAR_WRITING or _clustered(word, _TAR_WRITING)[0])
        for word in words
    ):
        return options - _TAR_ARCHIVE
    return options


def _tar_dashed(words: Sequence[str | None]) -> list[str | None]:
    """tar's arguments ``words`` with an old-style first word (option letters without a '-')
    spelled as the options it gives: ``cbf 20 a.tar x`` as ``-c -b 20 -f a.tar x``.  GNU tar
    gives each of its letters that takes an argument the next word, in their order."""
    if not words or words[0] in (None, EXPANDED) or words[0][:1] == "-":
        return list(words)
    letters, rest = str(words[0]), list(words[1:])
    taking = [letter for letter in letters if letter in _TAR_ARGUMENT_LETTERS]
    dashed: list[str | None] = ["-" + letter for letter in letters if letter not in taking]
    for letter in taking:
        if not rest:
            break  # (the value is the last word: the arguments after it are not seen yet)
        dashed += ["-" + letter, rest.pop(0)]
    return dashed + rest


# tar's long options that write a file or choose a mode that does, which GNU tar also reads
# abbreviated (`tar -cf o.tar --listed=s.sh arch` wrote the snapshot file s.sh); --list in
# full, which begins --listed-incremental's name.
_TAR_LONG = frozenset(
    {"--file", "--index-file", "--listed-incremental", "--directory", "--extract", "--get",
     "--create", "--append", "--update", "--catenate", "--concatenate", "--list"}
)  # fmt: skip


def _tar_long(word: str | None) -> str | None:
    """tar's argument ``word``, a long option of _TAR_LONG spelled in full if abbreviated."""
    return word if word is None else _unabbreviated(word, _TAR_LONG)


def _arguments(ran: Sequence[str | None]) -> tuple[str, list[str | None]]:
    """The program of the command ``ran`` (its first word a name) and its arguments, tar's
    old-style letters as dashed options (:func:`_tar_dashed`) and its long ones in full."""
    name = program(str(ran[0]))
    if name != "tar":
        return name, list(ran[1:])
    return name, [_tar_long(word) for word in _tar_dashed(ran[1:])]


def _tar_to_stdout(words: Sequence[str | None]) -> bool:
    """Whether tar's (dashed) arguments ``words`` give ``-O`` (``--to-stdout``) as an option,
    so that an extraction writes its members to the standard output and no file (``tar -xOf
    {a}``).  Only where it is surely an option: not an argument of an option before it (``-f
    -O``, or any long option not known to take none), nor after ``--``.  (A value starting with
    '-' is refused as tar's option: a value here is an operand.)"""
    takes_next = False
    for word in words:
        if takes_next or word in (None, EXPANDED):
            takes_next = False
            continue
        if word == "--":
            return False
        if word.startswith("--"):
            option = word.partition("=")[0]
            if option == "--to-stdout":
                return True
            takes_next = "=" not in word and option not in _TAR_FLAGS
        elif word.startswith("-"):
            for at, letter in enumerate(word[1:], 2):
                if letter == "O":
                    return True
                if letter in _TAR_ARGUMENT_LETTERS:
                    takes_next = at == len(word)  # (`-xf a.tar`; `-fa.tar` takes its rest)
                    break
    return False


def _is_output_operand(name: str, before: Sequence[str | None]) -> bool:
    """Whether the word after before (the words of name before it) is the operand
    _OUTPUT_OPERANDS gives as the file it writes."""
    count, with_argument = _OUTPUT_OPERANDS[name]
    last = before[-1] if before else None
    return _operands_before(before, with_argument) == count - 1 and not (
        last is not None and last[:1] == "-" and _takes_next(last, with_argument)
    )


def value_names_output(command: Sequence[str | None], prefix: str) -> bool:
    """Whether a value as the last word of ``command``, after the static text ``prefix`` of
    its word, names a file or directory the command writes (beyond a redirection): an output
    option's argument (``curl -o {f}``, ``-o{f}``, ``--output={f}``, ``sort -o``, ``wget -O``,
    ``dd of={f}``, or any word of dd's, which may be ``of=f`` itself) or a target directory
    (``tar -C {d}``, ``cp -t {d}``, ``wget -P {d}``).  A copy's operands are
    :func:`value_chooses_files`'s."""
    ran = _run_command(command, "")
    if len(ran) < 2 or ran[0] is None or ran[0] == EXPANDED:
        return False
    name, words = _arguments(ran)  # (`tar cf {f}` as `tar -c -f {f}`: the value stays last)
    options = _output_options(name, words) | _TARGET_DIRECTORIES.get(name, frozenset())
    if name == "dd":
        return not prefix or prefix == "of="  # (`dd {x}` with of=s.sh)
    if name in _OUTPUT_OPERANDS and not prefix:  # (`uniq in {f}`)
        return _is_output_operand(name, words[:-1])
    if "=" in prefix:
        option = prefix.partition("=")[0]  # (--output=FILE; tar's --listed=FILE)
        return (_tar_long(option) if name == "tar" else option) in options
    if prefix[:1] == "-" and prefix[1:2] != "-":
        return bool(_clustered(prefix, options)[0])  # (-oFILE, -sSoFILE)
    before = [ran[0], *words][-2]
    if prefix or before is None or before == EXPANDED:
        return False
    given, rest = _clustered(before, options) if before[1:2] != "-" else ("", before)
    return before in options or (bool(given) and rest == given)  # (-o FILE, -sSo FILE)


# Runners' options whose argument is the directory the command they run works in: `env -C {d}
# git status` and `unshare --wd={d} git status` ran the core.fsmonitor of d's .git/config, as
# `cd {d} && git status` did (the twenty-sixth pass).
_DIRECTORY_OPTIONS = {"env": frozenset({"-C", "--chdir"}), "unshare": frozenset({"-w", "--wd"})}


def value_names_directory(command: Sequence[str | None], prefix: str) -> bool:
    """Whether a value as the last word of ``command``, after the static text ``prefix`` of
    its word, is the argument of a runner's option of _DIRECTORY_OPTIONS (``env -C {d}``,
    ``env --chdir={d}``, ``unshare --wd={d}``): the directory the command it runs works in;
    behind other runners too (``nice env -C {d} git status``, ``timeout 5 env --chdir={d}``)."""
    command = _run_command(command, prefix)  # (the runner still reading its own arguments)
    if len(command) < 2 or command[0] is None or command[0] == EXPANDED:
        return False
    options = _DIRECTORY_OPTIONS.get(program(command[0]), frozenset())
    if "=" in prefix:
        return prefix.partition("=")[0] in options
    if prefix[:1] == "-" and prefix[1:2] != "-":
        return bool(_clustered(prefix, options)[0])  # (-C{d})
    return not prefix and _takes_next(command[-2], options)


def runs_in_found_directories(command: Sequence[str | None]) -> bool:
    """Whether ``command`` is find with a value (None) among its starting points and an action
    that runs a command there: ``find {d} -name a -execdir git status \\;`` ran git in d, and
    d's .git/config its core.fsmonitor (``-exec git -C {} status \\;`` too)."""
    ran = _run_command(command, "")
    if not ran or ran[0] is None or ran[0] == EXPANDED or program(ran[0]) != "find":
        return False
    words = list(ran[1:])
    while words and words[0] in ("-H", "-L", "-P", "-D"):  # (find's own options first)
        words = words[2:] if words[0] == "-D" else words[1:]
    start = next(
        (at for at, word in enumerate(words) if word and word[:1] in ("-", "(", "!")),
        len(words),
    )
    return None in words[:start] and not _FIND_ACTIONS.isdisjoint(words[start:])


# The options that give wget the file it writes the document to, rather than the URL's name.
_WGET_DOCUMENT = frozenset({"-O", "--output-document"})
# Programs that write files under names their source gives (an archive's or a repository's
# members, a URL's last part), by program: the words that make them do so (None: always).
_NAMES_FROM_SOURCE: dict[str, tuple[str, ...] | None] = {
    "unzip": None,
    "wget": None,  # (without -O it writes the URL's last part: `wget {url}; sh run.sh`)
    "curl": ("-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"),
    "tar": ("-x", "--extract", "--get"),
    "git": None,  # (any subcommand but _GIT_KEEPING_FILES': `git checkout {ref}` writes the tree)
    "patch": None,  # (the files its patch names: `patch -p1 -i {f}`)
    "scp": None,  # (`scp {src} .` keeps the source's name, as cp does)
    # (the twenty-eighth pass: `ar x {a}`, `jar xf {a}`, `python3 -m zipfile -e {a} .` and
    # `python3 -m tarfile -e {a}` wrote the archive's s.sh, which `sh s.sh` then ran; by their
    # manuals, bsdtar, 7z, cpio and uudecode, which writes the file its input's header names)
    "ar": None,
    "jar": None,
    "zipfile": ("-e", "--extract"),  # (python -m zipfile)
    "tarfile": ("-e", "--extract"),  # (python -m tarfile)
    **dict.fromkeys(("bsdtar", "7z", "7za", "7zr", "cpio", "uudecode"), None),
}
# Decompressors, which write the file their operand names without its suffix (`gzip -df {f}`
# with s.sh.gz wrote s.sh, which `sh s.sh` ran): those that always decompress, and the others'
# options that make them do so; and the options that send the result to the standard output,
# or only test or list the file (not for zstd and lz4, which also take an output name).
_DECOMPRESSING = frozenset({"gunzip", "unxz", "unlzma", "unzstd", "bunzip2"})
_COMPRESSORS = frozenset({"gzip", "pigz", "xz", "lzma", "bzip2", "zstd", "lz4"})
_DECOMPRESS_OPTIONS = frozenset({"-d", "--decompress", "--uncompress"})
_NO_OUTPUT_FILE = frozenset({"-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list"})
# (and their clusters of letters that take no argument: `-dc`, `-tv`; not `-Sc`, suffix c)
_NO_OUTPUT_CLUSTER = re.compile(r"-[dfkqvn1-9]*[ctl][dfkqvn1-9ctl]*\Z")


def _decompresses_to_files(name: str, words: Sequence[str]) -> bool:
    """Whether the compressor ``name``, with its static arguments ``words``, decompresses its
    operands to files named after them (``gunzip {f}``, ``xz -dk {f}``), not to its standard
    output, nor only tests or lists them (``gzip -dc {f}``, ``xz -l {f}``)."""
    if name not in _DECOMPRESSING and not any(
        word in _DECOMPRESS_OPTIONS or _clustered(word, _DECOMPRESS_OPTIONS)[0] for word in words
    ):
        return False
    return name in ("zstd", "lz4") or not any(
        word in _NO_OUTPUT_FILE or _NO_OUTPUT_CLUSTER.match(word) for word in words
    )


def _writer_arguments(ran: Sequence[str | None]) -> tuple[str, list[str | None]]:
    """:func:`_arguments`, with a module Python runs as a program (``python3 -m zipfile -e {a}
    .`` as ``zipfile -e {a} .``) as that program."""
    name, arguments = _arguments(ran)
    module = _python_module(ran) if name in ("python", "pypy") else None
    if module and module[0] not in (None, EXPANDED):
        return str(module[0]), list(module[1:])
    return name, arguments
# git's subcommands known not to write the working tree's files, nor the refs a later git
# command writes them from (`git branch -f main {ref}; git reset --hard main`): with a value,
# any other one may.  (remote and config: left to their values' rules, see _git_rule.)
_GIT_KEEPING_FILES = frozenset(
    {"status", "log", "diff", "show", "add", "commit", "init", "ls-files", "ls-tree",
     "ls-remote", "rev-parse", "rev-list", "describe", "blame", "grep", "shortlog", "cat-file",
     "show-ref", "for-each-ref", "diff-tree", "name-rev", "count-objects", "fsck", "push",
     "rm", "help", "version", "check-ignore", "whatchanged", "show-branch", "merge-base",
     # (settings and remotes: their values' own rules check them, `git remote add o {url}`)
     "remote", "config"}
)  # fmt: skip
# `git remote`'s subcommands that leave every remote's URL and refspecs as they were.
_GIT_REMOTE_KEEPING = frozenset({"show", "get-url", "prune", "update", "remove", "rm"})
# git settings known to leave where git fetches from and what it checks out (by git-config(1)):
# a value in any other one (remote.NAME.url, url.X.insteadOf, branch.NAME.merge, core.worktree,
# include.path...) may choose the code a later pull, merge or checkout writes.
_GIT_DATA_SETTINGS = frozenset(
    {"user.name", "user.email", "init.defaultbranch", "pull.rebase", "pull.ff", "push.default",
     "push.autosetupremote", "color.ui", "core.autocrlf", "core.quotepath",
     "merge.conflictstyle", "log.date", "fetch.prune", "advice.detachedhead"}
)  # fmt: skip


# git's subcommands that write no working tree beyond those of _GIT_KEEPING_FILES: refs, a new
# repository, a diff tool's temporary copies, an archive, a server.  The hooks they run are the
# tree's checked out before (`git fetch . {b}:x` ran reference-transaction from the old tree).
_GIT_KEEPING_TREE = _GIT_KEEPING_FILES.union(
    {"fetch", "branch", "tag", "clone", "difftool", "archive", "daemon"}
)
# Per git subcommand, its options whose argument only names what it makes (a new branch, a
# message): a value there chooses no tree (`git checkout -b {name}` stays where it was).
_GIT_LABEL_OPTIONS: dict[str, frozenset[str]] = {
    "checkout": frozenset({"-b", "-B", "--orphan"}),
    "switch": frozenset({"-c", "-C", "--create", "--force-create", "--orphan"}),
    **dict.fromkeys(("merge", "stash"), frozenset({"-m", "--message"})),
}


def runs_hooks_of_its_tree(command: Sequence[str | None]) -> bool:
    """Whether ``command`` is a git command that may write the working tree (any subcommand
    but those of _GIT_KEEPING_TREE) with its hooks on: when the repository's core.hooksPath is
    in the tree (husky's ``.husky``), git runs the hooks of the tree it has just written
    (``git checkout {ref}`` ran the ref's post-checkout; merge, reset --hard, rebase,
    cherry-pick, restore theirs).  ``git -c core.hooksPath=/dev/null ...`` runs none."""
    ran = _run_command(command, "")
    if not ran or ran[0] in (None, EXPANDED) or program(ran[0]) != "git":
        return False
    at = _git_subcommand_at(ran[1:])
    if at is not None and ran[at + 1] in _GIT_KEEPING_TREE:
        return False
    return not _disables_hooks(ran[1 : len(ran) if at is None else at + 1])


def value_picks_git_tree(command: Sequence[str | None]) -> bool:
    """Whether a value in the git command ``command`` may choose the tree it writes: anywhere
    but in an option of _GIT_LABEL_OPTIONS (``git checkout -b {name}``) or after ``--``, a
    path whose contents come from the index or a revision the text names (``git checkout --
    {f}``, ``git reset -- {f}``)."""
    ran = _run_command(command, "")
    found = _git_subcommand_at(ran[1:])
    at = len(ran) if found is None else found + 1
    if None in ran[1:at]:
        return True  # (`git -C {d} checkout main`: the repository, its hooks and settings)
    after = ran[at + 1 :]
    labels = _GIT_LABEL_OPTIONS.get(str(ran[at]) if found is not None else "", frozenset())
    before_dashes = after[: after.index("--")] if "--" in after else after
    return any(
        word is None and ran[at + k] not in labels for k, word in enumerate(before_dashes)
    )


# git restore's options known to take no argument (git-restore(1)): a word after one of them,
# or after an operand, is an operand too, a path; after any other option it may be that
# option's argument (`-s {rev}`, `--source {rev}`, `--sour {rev}` abbreviated).
_GIT_RESTORE_FLAGS = frozenset(
    {"--staged", "--worktree", "--ignore-unmerged", "--overlay", "--no-overlay", "--quiet",
     "--progress", "--no-progress", "--merge", "--ours", "--theirs", "--patch",
     "--ignore-skip-worktree-bits", "--pathspec-file-nul", "--recurse-submodules",
     "--no-recurse-submodules"}
)  # fmt: skip
_GIT_RESTORE_LETTERS = re.compile(r"-[SWqm23p]+\Z")


def restores_paths(command: Sequence[str | None]) -> bool:
    """Whether ``command`` is ``git restore`` whose values (None) are all operands, the paths
    it restores from the index or the revision the text names, as after ``--`` (``git restore
    {f}``).  Not a value after an option that may take it (``-s {rev}``), nor in git's own
    options.  (A value starting with '-' is refused as git's option; one glued to an option,
    ``--source={rev}``, is None here too: the caller tells it apart by its word.)"""
    ran = _run_command(command, "")
    if not ran or ran[0] in (None, EXPANDED) or program(ran[0]) != "git":
        return False
    at = _git_subcommand_at(ran[1:])
    if at is None or ran[at + 1] != "restore" or None in ran[1 : at + 1]:
        return False
    after = ran[at + 1 :]
    return all(
        word is not None
        or before is None
        or before[:1] != "-"
        or before == "--"
        or "=" in before
        or before in _GIT_RESTORE_FLAGS
        or _GIT_RESTORE_LETTERS.match(before) is not None
        for before, word in itertools.pairwise(after)
    )


def _disables_hooks(options: Sequence[str | None]) -> bool:
    """Whether git's global ``options`` set core.hooksPath to ``/dev/null`` last (``-c
    core.hooksPath=/dev/null``), where git finds no hook to run: the last setting wins."""
    disabled = False
    for before, word in zip(["", *options], options):
        if word is None or word == EXPANDED:
            # (a value or an expansion as a setting may set it again)
            disabled = disabled and before not in ("-c", "--config-env")
            continue
        name, _, setting = word.removeprefix("--config-env=").partition("=")
        if name.lower() == "core.hookspath":
            disabled = before == "-c" and setting == "/dev/null"
    return disabled


def sets_git_source(command: Sequence[str | None]) -> bool:
    """Whether a value in ``command`` may choose where a later git command gets the files it
    writes: ``git remote add o {url}`` (then ``git pull o main`` writes that repository's
    files), ``set-url``, ``git config remote.o.url {url}``, ``branch.main.merge {ref}``; by
    allow-list, every ``git remote`` form but those of _GIT_REMOTE_KEEPING, and every setting
    ``git config`` writes but those of _GIT_DATA_SETTINGS."""
    ran = _run_command(command, "")
    if not ran or ran[0] in (None, EXPANDED) or program(ran[0]) != "git" or None not in ran:
        return False
    subcommand = _git_subcommand(ran[1:])
    after = ran[ran.index(subcommand) + 1 :] if subcommand in ("remote", "config") else []
    operands = [word for word in after if word is None or word[:1] != "-"]
    if subcommand == "remote":
        return not operands or operands[0] not in _GIT_REMOTE_KEEPING
    if subcommand != "config" or any(word in _GIT_CONFIG_READING for word in after):
        return False
    named = [word for word in operands if word != "set"]  # (git 2.46's `git config set`)
    return not named or named[0] is None or named[0].lower() not in _GIT_DATA_SETTINGS


def writes_git_tree(command: Sequence[str | None]) -> bool:
    """Whether ``command`` is a git command that may write the working tree's files from a
    remote or a ref (``git pull``, ``fetch``, ``merge``, ``checkout``...: any subcommand but
    those of _GIT_KEEPING_FILES), whatever its own words."""
    ran = _run_command(command, "")
    if not ran or ran[0] in (None, EXPANDED) or program(ran[0]) != "git":
        return False
    return _git_subcommand(ran[1:]) not in _GIT_KEEPING_FILES


#: The programs that write a file a value may choose (WRITING_PROGRAMS, and those that name
#: what they write after their source): a template naming none and holding no '>' writes none.
VALUE_WRITERS = WRITING_PROGRAMS.union(
    _NAMES_FROM_SOURCE, _OTHER_OUTPUT_OPTIONS, _RUNNING_WRITERS, _DECOMPRESSING, _COMPRESSORS
)


# Programs known to be done with what they run when they exit, so that a command after them
# starts after it: not `setsid -f`, `tmux new -d`, `screen -dm`, `at`, `systemd-run`, nor an
# interpreter whose code may start a process of its own (`sh s.sh; cp a {f}` is ordered,
# `setsid -f sh -c 'sleep 1; sh s.sh'; cp a {f}` ran s.sh after the copy).
_WAITING = DATA_OPTION_PROGRAMS.union(
    SHELLS, _COPYING, _NAMES_FROM_SOURCE, _OUTPUT_OPTIONS,
    {"env", "nice", "nohup", "timeout", "sudo", "doas", "stdbuf", "ionice", "taskset", "time",
     "chroot", "flock", "xargs", "find", "exec", "eval", ".", "source", "make", "export",
     "set", "unset", "test", "[", ":", "read", "shift"},
)  # fmt: skip


def waits_for_what_it_runs(command: Sequence[str | None]) -> bool:
    """Whether ``command``'s program, and the one its runners run, are known to be done with
    what they run when they exit (:data:`_WAITING`)."""
    ran = _run_command(command, "")
    return all(
        word is not None and word != EXPANDED and program(word) in _WAITING
        for word in (command[0], ran[0] if ran else "true")
    )


def writes_files_its_input_names(command: Sequence[str | None]) -> bool:
    """Whether ``command`` writes the files that a patch names, which it may read from its
    standard input as well as from its arguments (``patch -p1 < {f}``, ``git apply``, ``git
    am``), or an archive (``cpio -i < {a}``, by its manual; uudecode's input's header): a value
    reaching it by any way chooses them and their contents."""
    ran = _run_command(command, "")
    if not ran or ran[0] is None or ran[0] == EXPANDED:
        return False
    name = program(ran[0])
    return name in ("patch", "cpio", "uudecode") or (
        name == "git" and _git_subcommand(ran[1:]) in ("apply", "am")
    )


# unzip's option letters that make it list (-l, -v), test (-t) or print (-p, -c) the members
# and write no file: unzip(1) extracts only with none of them; and its letters that take an
# argument (the rest of their word, or the next one).  Its options are the words before the
# archive, each '-' and letters; any other word starting with '-' may negate one (`--l`).
_UNZIP_READING = frozenset("lvtpc")
_UNZIP_ARGUMENT_LETTERS = frozenset("dPIOx")
_UNZIP_OPTION = re.compile(r"-[A-Za-z0-9]+\Z")


def _unzip_writes_nothing(words: Sequence[str | None]) -> bool:
    """Whether unzip's arguments ``words`` give, before its archive, an option that makes it
    list, test or print the members and write no file (``unzip -l {a}``, ``unzip -p {a}
    m``), or ``-Z`` first (zipinfo's mode); no word negating an option (``--l``, ``-l-``)."""
    options = [word for word in words if isinstance(word, str) and word[:1] == "-"]
    if not all(_UNZIP_OPTION.match(word) for word in options):
        return False
    if words[:1] and isinstance(words[0], str) and words[0].startswith("-Z"):
        return True
    for word in words:
        if word is None or word == EXPANDED or word[:1] != "-":
            return False  # (the archive, before any such option)
        for letter in word[1:]:
            if letter in _UNZIP_READING:
                return True
            if letter in _UNZIP_ARGUMENT_LETTERS:
                return False  # (its argument next: not read further)
    return False


def value_chooses_files(command: Sequence[str | None]) -> bool:
    """Whether a value chooses the name or contents of files ``command`` writes, beyond its
    output options (:func:`value_names_output`): a copy's destination (``cp a {f}``), or
    its source, whose name the copy keeps in a directory (``cp {src} .``); an archive or a
    repository whose members it writes under their own names (``tar -xf {a}``, ``unzip
    {z}``, ``git clone {url} d``, a git revision checked out, ``git checkout {ref}``); a
    patch (``patch -i {f}``); a URL whose last part names the file (``curl -O {url}``,
    ``wget {url}``)."""
    ran = _run_command(command, "")
    if not ran or ran[0] is None or ran[0] == EXPANDED or None not in ran[1:]:
        return False
    name, arguments = _writer_arguments(ran)  # (the old style, `tar xf {a}`, as `tar -x -f`)
    words = [word for word in arguments if word is not None and word != EXPANDED]
    if name in _COPYING:
        return True  # (a value among the operands: the source or the destination)
    if name in _DECOMPRESSING or name in _COMPRESSORS:
        return _decompresses_to_files(name, words)
    if name not in _NAMES_FROM_SOURCE:
        return False
    modes = _NAMES_FROM_SOURCE[name]
    if name == "git":
        return _git_subcommand(ran[1:]) not in _GIT_KEEPING_FILES
    if name == "unzip" and _unzip_writes_nothing(arguments):
        return False  # (`unzip -l {a}`: it lists the members, and writes none)
    if modes is None:
        return name != "wget" or not any(_gives(word, _WGET_DOCUMENT) for word in words)
    if name == "tar" and _tar_to_stdout(arguments):
        return False  # (`tar -xOf {a}`: the members go to the standard output, no file)
    options = frozenset(mode for mode in modes if mode[:1] == "-")
    return any(
        word in modes or word.partition("=")[0] in options or _clustered(word, options)[0]
        for word in words
    )


# Files that programs read as code by their name alone, in the directory they run in: a value
# written to one is their program (`echo {x} > Makefile; make` ran $(shell cmd), `... >
# conftest.py; pytest` ran Python).  Patterns of a path's end, by program.
_PYTEST_FILES = ("conftest.py", "pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
_PACKAGE_FILES = ("package.json", ".npmrc")
# Python imports modules from the directory of its script, or the working directory for `-c`,
# `-m` and the interactive prompt, before the standard library's: `echo {x} > json.py;
# python3 -m json.tool f` ran the value; so does a `sitecustomize.py` or `usercustomize.py`
# on PYTHONPATH, and a `.pth` file in a site directory (a line starting with `import` runs at
# every start).  A module of the standard library's name counts too (see reads_by_name); a
# module of another name only runs if a script imports it (`> conftest.py; python3 s.py`
# stays accepted).
_PYTHON_FILES = ("*.pth", "sitecustomize.py", "usercustomize.py")
_PYTHON_READERS = frozenset({"python", "pypy", "ipython", "pytest", "py.test", "pip"})
_STANDARD_MODULES = frozenset(getattr(sys, "stdlib_module_names", ())) | {"__main__"}
_IMPLICIT_CODE_FILES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(_MAKES, ("Makefile", "makefile", "GNUmakefile")),
    **dict.fromkeys(("pytest", "py.test"), (*_PYTEST_FILES, *_PYTHON_FILES, "test_*.py")),
    **dict.fromkeys(("python", "pypy", "ipython"), _PYTHON_FILES),
    "tox": ("tox.ini", "pyproject.toml", "setup.cfg"),
    "nox": ("noxfile.py",),
    "pip": ("setup.py", "pyproject.toml", "setup.cfg", *_PYTHON_FILES),
    **dict.fromkeys(("npm", "pnpm", "npx"), _PACKAGE_FILES),
    **dict.fromkeys(("just",), ("justfile", "Justfile", ".justfile")),
    "rake": ("Rakefile", "rakefile"),
    "cmake": ("CMakeLists.txt",),
    # (and the user's configuration in $HOME: `echo {x} >> ~/.gitconfig; git diff` ran the
    # value's diff.external in real git)
    "git": (".git/config", ".git/hooks/*", ".gitmodules", ".gitconfig", ".config/git/config"),
    # a shell's startup files in $HOME: a login shell reads .profile (`echo {x} > ~/.profile;
    # bash -lc true` ran the value), bash's interactive ones .bashrc, zsh .zshenv always
    **dict.fromkeys(
        SHELLS - {"bash", "rbash", "zsh", "fish", "csh", "tcsh"}, (".profile",)
    ),
    **dict.fromkeys(("bash", "rbash"), (".profile", ".bash_profile", ".bash_login", ".bashrc")),
    "zsh": (".zshenv", ".zprofile", ".zshrc", ".zlogin"),
    "fish": (".config/fish/config.fish", ".config/fish/conf.d/*"),
    **dict.fromkeys(("csh", "tcsh"), (".cshrc", ".tcshrc", ".login")),
    # ssh's user configuration (ProxyCommand, LocalCommand are commands): by ssh's manual
    **dict.fromkeys(("ssh", "scp", "sftp"), (".ssh/config",)),
    # programs' own startup files in $HOME: curl's options (`echo 'output = f' > ~/.curlrc;
    # curl URL` wrote f), gdb's and vim's commands (`shell cmd`, `call system(...)` ran in real
    # gdb -batch and vim); by their manuals, wget's use_askpass, psql's and sqlite3's `\!`/.shell
    "curl": (".curlrc", ".config/curlrc"),
    "gdb": (".gdbinit", ".config/gdb/gdbinit"),
    **dict.fromkeys(_VI | {"ex"}, (".vimrc", ".vim/vimrc", ".exrc", ".config/nvim/*")),
    "wget": (".wgetrc",),
    "psql": (".psqlrc", ".psqlrc-*"),
    "sqlite3": (".sqliterc",),
    # less reads its key file from $HOME: `echo {x} > ~/.lesskey; less f` ran the LESSOPEN
    # that its #env section set
    "less": (".lesskey", ".config/lesskey"),
    # startup files read from the working directory too, before or instead of $HOME's:
    # `echo {x} > .perldb; perl -d -e 1` ran the value as Perl; by their manuals, hg's
    # repository hgrc (hooks are commands), direnv's .envrc (a shell script), cargo's
    # config (`[target.*] runner`), R's and irb's startup code, yarn's rc (yarnPath runs JS)
    "perl": (".perldb", "perldb.ini"),
    "hg": (".hg/hgrc", ".hgrc"),
    "direnv": (".envrc", ".env"),
    "cargo": (".cargo/config.toml", ".cargo/config"),
    **dict.fromkeys(("R", "Rscript"), (".Rprofile",)),
    "irb": (".irbrc",),
    **dict.fromkeys(("yarn", "yarnpkg"), (".yarnrc", ".yarnrc.yml", *_PACKAGE_FILES)),
}


def implicit_code_reader(command: Sequence[str | None]) -> str | None:
    """The program ``command`` runs (past runners, and ``python -m MODULE``) if it reads files
    as code by their name alone (see :func:`reads_by_name`), else None."""
    ran = _run_command(command, "")
    if not ran or ran[0] is None or ran[0] == EXPANDED:
        return None
    name = program(ran[0])
    if name in ("python", "pypy"):
        module = _python_module([*ran, None])
        if module and module[0] is not None and str(module[0]) in _IMPLICIT_CODE_FILES:
            name = str(module[0])  # (`python -m json.tool` is still python's: it imports)
    return name if name in _IMPLICIT_CODE_FILES else None


#: Why a value choosing the directory a program works in is refused when the program runs code
#: of that directory that no word names, as git obeys a repository's .git/config.
DIRECTORY_CODE = (
    "code of that directory that no word of the template names: Python with -c, -m, - or no "
    "script (and IPython) imports the directory's modules before the standard library's (a "
    "json.py or an http/ there ran on python3 -c 'import json' and python3 -m http.server), "
    "node with -e, -p, -r, --import or no script requires from its node_modules (and npx runs "
    "its node_modules/.bin), hg obeys its .hg/hgrc hooks, R its .Rprofile, irb its .irbrc and "
    "yarn the yarnPath of its .yarnrc.yml, so the value chooses the code that runs"
)
# Programs that run code of their working directory whatever their words (npx: a
# node_modules/.bin/prettier there ran on `npx prettier`; the others by their manuals), and
# the options that keep R and irb from it.
_DIRECTORY_CODE_PROGRAMS = frozenset({"npx", "hg", "R", "Rscript", "irb", "yarn", "yarnpkg"})
_NO_STARTUP_FILE = frozenset({"--vanilla", "--no-init-file", "-f"})
_DIRECTORY_CODE_NAMES = _DIRECTORY_CODE_PROGRAMS | {
    "git", "python", "pypy", "ipython", "node", "nodejs"
}  # fmt: skip
# node's options that load a module by its name (resolved from the working directory's
# node_modules: `node -e 'require("lodash")'` ran a node_modules/lodash there) or read code.
_NODE_LOADING_OPTIONS = frozenset(
    {"-e", "--eval", "-p", "--print", "-pe", "-r", "--require", "--import", "--loader",
     "--experimental-loader", "-i", "--interactive"}
)  # fmt: skip


def directory_code_reader(command: Sequence[str | None]) -> str | None:
    """The program ``command`` runs (past runners and wrappers) if it runs code of its
    working directory that no word of ``command`` names (see :data:`DIRECTORY_CODE`; git, see
    :data:`CHOSEN_REPOSITORY`), else None: a value choosing that directory (``cd {d} &&
    python3 -m http.server``) chooses the code."""
    ran = _run_command(command, "")
    if not ran or ran[0] is None or ran[0] == EXPANDED:
        return None
    name = program(ran[0])
    if name in _WRAPPERS and name != "npx":
        # (judged by the command it runs: the first later word naming such a program, as
        # `uv run python -m json.tool f`, `conda run git status`)
        for at, word in enumerate(ran[1:], 1):
            if word not in (None, EXPANDED) and program(word) in _DIRECTORY_CODE_NAMES:
                return directory_code_reader(ran[at:])
        return None
    if name == "git":
        return name  # (see CHOSEN_REPOSITORY)
    if name in ("python", "pypy", "node", "nodejs"):
        runs = _imports_from_directory(ran, name)
    elif name == "ipython":
        runs = "--ignore-cwd" not in ran  # (IPython puts the directory on sys.path otherwise)
    else:
        runs = name in _DIRECTORY_CODE_PROGRAMS and _NO_STARTUP_FILE.isdisjoint(ran)
    return name if runs else None


def _imports_from_directory(command: Sequence[str | None], name: str) -> bool:
    """Whether ``command``, python's or node's (``name``), imports modules from its working
    directory: Python with -c, -m, ``-`` or no script puts it first on sys.path (not with -I
    or -P: "don't prepend a potentially unsafe path"); node resolves a module's name from it
    for -e, -p, -r, --import, the prompt and ``-``.  A script's own directory comes first
    instead (``python3 tool.py``, ``node /opt/app.js``)."""
    expects_argument = False
    for word in command[1:]:
        if expects_argument:
            expects_argument = False
        elif word == "-":
            return True
        elif word is None or word == EXPANDED or word == "--" or not word.startswith("-"):
            return False  # the script (after --, the next word is)
        else:
            decides, expects_argument = _interpreter_option(name, word)
            if decides is not None:
                return decides
    return True


def _interpreter_option(name: str, word: str) -> tuple[bool | None, bool]:
    """For the option ``word`` of python or node (``name``): whether it decides that the
    program imports from its working directory (None: it does not decide), and whether the
    next word is its argument."""
    if name in ("node", "nodejs"):
        if word.partition("=")[0] in _NODE_LOADING_OPTIONS:
            return True, False
        return None, word in _INTERPRETER_OPTIONS_WITH_ARGUMENT["node"]
    if word.startswith("--"):
        return None, word in _INTERPRETER_OPTIONS_WITH_ARGUMENT["python"]
    for index, letter in enumerate(word[1:], 2):
        if letter in "IP":
            return False, False
        if letter in "cm":
            return True, False
        if letter in _PYTHON_OPTIONS_WITH_ARGUMENT:
            return None, index == len(word)
    return None, False


# Programs known to read a word `@f` as data, not as a file of their options: coreutils (a
# file named "@f"), curl (`-d @f` sends the file).  gcc, clang, java, javac, ld and the
# binutils, and programs built on picocli or on argparse's fromfile_prefix_chars, read the
# options in f: `echo {x} > opts; gcc @opts -c f.c` with `-wrapper sh,-c,cmd` ran cmd.
_RESPONSE_FILE_DATA = DATA_OPTION_PROGRAMS | {"curl"}


def reads_response_files(word: str | None) -> bool:
    """Whether the program the command word ``word`` names may read an argument ``@f`` as a
    file of options (a response file), so a value written to f chooses its options: any
    program but those known to read such a word as data."""
    return not (word and word != EXPANDED and _allow_listed(word, _RESPONSE_FILE_DATA))


# Programs known to read no startup or configuration file from $HOME (coreutils and the like,
# and the shell's builtins): a value written to a hidden file there (`~/.x`, `~/.config/...`)
# is refused when the template runs any other program, by allow-list.  Programs keep their
# startup files under hidden names in $HOME, and no table can list them all: `perl -d` runs
# `~/.perldb` as Perl, tmux runs `~/.tmux.conf`'s `run-shell`, Python a `~/.local/lib/
# python3.X/site-packages/*.pth` line starting with `import`, npm `~/.npmrc`'s `script-shell`,
# hg `~/.hgrc`'s hooks, R `~/.Rprofile`, irb `~/.irbrc`, readline `~/.inputrc`.
_HOME_DATA_PROGRAMS = DATA_OPTION_PROGRAMS.union(
    {"cd", "read", "test", "[", "export", "set", "unset", "shift", ":", "exit", "return",
     "local", "wait", "chmod", "chown", "cp", "mv", "rm", "ln", "sort", "sed", "awk"}
)  # fmt: skip


def in_home_hidden(path: str) -> bool:
    """Whether ``path`` (normalised) may be under a hidden name in $HOME: it starts with a
    tilde prefix (``~/``, ``~user/``) or an expansion (``$HOME/``, ``${HOME}/``, ``$(...)``)
    and a later component starts with a dot (``~/.perldb``, ``~/.local/lib/...``)."""
    parts = path.split("/")
    return path[:1] in ("~", "$") and any(p[:1] == "." and p not in (".", "..") for p in parts[1:])


# Environment variables known to name no code, no file of code and no directory programs
# search for code or configuration: beside a value written to a file, any other upper-case
# variable the template sets is refused (PERL5OPT=-Mm loads ./m.pm with -I., NODE_OPTIONS=
# '--require ./x.js' ran x.js, PATH=.:$PATH ran a written ./ls, in dash and bash).
_NO_CODE_VARIABLES = frozenset(
    {"LANG", "LANGUAGE", "TZ", "TERM", "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR",
     "CLICOLOR", "DEBIAN_FRONTEND", "CI", "TMPDIR", "SOURCE_DATE_EPOCH", "PYTHONUNBUFFERED",
     "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONIOENCODING", "GIT_AUTHOR_NAME",
     "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE",
     "GIT_COMMITTER_DATE", "POSIXLY_CORRECT", "IFS"}
)  # fmt: skip


def names_no_code(variable: str) -> bool:
    """Whether the environment variable ``variable`` is known to name no code and no file or
    directory where programs look for code (``LC_ALL``, ``LANG``, ``TZ``...)."""
    return variable in _NO_CODE_VARIABLES or variable.startswith("LC_")


def reads_home_files(name: str) -> bool:
    """Whether the program ``name`` (the command word, or "" for one an expansion names) may
    read a startup or configuration file from $HOME: any program but those known to read
    none."""
    return not (name and _allow_listed(name, _HOME_DATA_PROGRAMS))


# Programs known to read no file of the working directory as code or settings by its name
# alone (beyond those _IMPLICIT_CODE_FILES lists for them): build and project tools do (docker
# build runs a Dockerfile's RUN lines, ninja build.ninja's commands, gradle build.gradle,
# pre-commit its config's hooks, snakemake a Snakefile), so beside a value written to a file
# there, any program outside this list is refused (an allow-list, as for $HOME's files).
_PROJECT_DATA_PROGRAMS = _HOME_DATA_PROGRAMS.union(
    {"node", "nodejs", "perl", "ruby", "php", "lua", "julia", "tclsh", "expect", "guile",
     "gawk", "mawk", "nawk", "jq", "sqlite3", "duckdb", "psql", "tar", "gzip", "gunzip",
     "zip", "unzip", "xz", "bzip2", "zstd", "find", "xargs", "file", "md5sum", "sha256sum",
     "base64", "xxd", "od", "iconv", "column", "paste", "join", "comm", "split", "csplit",
     "nl", "fold", "fmt", "expand", "unexpand", "rev", "shuf", "tac", "truncate", "install",
     "rsync", "scp", "sftp", "ssh", "curl", "wget", "git", "less", "more", "vim", "vi",
     "nano", "diff3", "patch", "gpg", "openssl", "date", "env", "kill", "ps", "uname",
     "hostname", "whoami", "printenv", "nproc", "free", "uptime", "m4", "dc", "bc", "parallel",
     # the shell's builtins (a string that eval or trap runs is followed as the template's)
     "exec", "eval", "trap", "source", ".", "command", "builtin", "type", "hash", "umask",
     "ulimit", "times", "getopts", "alias", "unalias", "break", "continue", "readonly",
     "crontab", "gcc", "cc", "g++", "c++", "clang", "clang++", "ld", "as"}
)  # fmt: skip


# A database shell's own command, in the SQL text it is given, that reads a file as SQL and
# commands (sqlite3's and duckdb's `.read`, psql's `\i`, mysql's `source`: the file's `.shell`,
# `\!`, `system` lines run commands) or loads it as code (`.load`), and the file it names.
_DATABASE_FILE_COMMAND = re.compile(
    r"(?:^|[\s;])(?:\.read|\.load|\\i|\\ir|\\include(?:_relative)?|\\\.|source)\s+(\S+?);?(?=\s|$)"
)


def database_script_files(command: Sequence[str | None]) -> list[str]:
    """The files that the SQL text written in ``command`` for a database shell reads as SQL and
    commands or loads as code (``sqlite3 db '.read s.sql'``, ``psql -c '\\i s.sql'``,
    ``mysql -e 'source s.sql'``)."""
    ran = _run_command(command, "")
    if not ran or ran[0] in (None, EXPANDED) or program(ran[0]) not in _SQL_SHELLS:
        return []
    return [
        found.group(1)
        for word in ran[1:]
        if word is not None and word != EXPANDED
        for found in _DATABASE_FILE_COMMAND.finditer(word)
    ]


_MODULE_NAME = re.compile(r"[A-Za-z_]\w*\Z")
_EXECUTABLE_MODE = re.compile(r"[ugoa]*[-+=][rwXst]*x|[0-7]*[1357][0-7]{0,2}\Z")


def made_executable(command: Sequence[str | None]) -> list[str]:
    """The files, named in the static text, that ``command`` makes executable: ``chmod``'s
    operands when its mode gives an execute bit (``+x``, ``u+rx``, ``755``), and the
    destination of ``install`` (mode 755 unless told otherwise)."""
    ran = _run_command(command, "")
    if not ran or ran[0] in (None, EXPANDED):
        return []
    name = program(ran[0])
    operands = [w for w in ran[1:] if w is not None and w != EXPANDED and w[:1] != "-"]
    if name == "chmod" and len(operands) > 1 and _EXECUTABLE_MODE.match(operands[0]):
        return operands[1:]
    if name == "install" and len(operands) > 1:
        return operands[-1:]
    return []


def code_naming(command: Sequence[str | None], last: str) -> str | None:
    """Why a word written in ``command`` is code that names the file whose last part is
    ``last``, so that the code may run or load it (``python3 -c 'exec(open("s.py").read())'``,
    ``perl -e 'do "s.pl"'``, ``vim -c '!sh s.sh'``, ``node -e 'require("./s")'``), or,
    for a ``.py`` file, names its module (``python3 -c 'import s'``, ``python3 -m s``); else
    None.  (A database shell's SQL is read by :func:`database_script_files`: its tables may be
    files of data, ``select * from 'data.csv'``.)"""
    return CodeNaming(command).naming(last)


class CodeNaming:
    """:func:`code_naming` of one command, for any file: the command is read once, and each
    word's reason once, however many files are asked about (a template that writes many files
    asks each of its commands about each file)."""

    def __init__(self, command: Sequence[str | None]) -> None:
        ran = _run_command(command, "")
        if not ran or ran[0] in (None, EXPANDED) or program(ran[0]) in _SQL_SHELLS:
            ran = []
        self._ran = ran
        self._python = bool(ran) and program(ran[0]) in ("python", "pypy")  # type: ignore[arg-type]
        # (a shell's command string, find's too: its commands are followed as the template's)
        followed = {EXPANDED, stdin_script(ran), *map(stdin_script, find_actions(ran))}
        self._words = [
            (at, word)
            for at, word in enumerate(ran[1:], start=1)
            if word is not None and word not in followed
        ]
        # (every name of a file that a word may be code naming is in this text: see naming)
        self._text = "\n".join(word for _, word in self._words)
        self._reasons: dict[int, str | None] = {}
        #: The runs of word characters in the command's words (see :func:`naming_token`).
        self.tokens = frozenset(_WORD_RUN.findall(self._text))

    def naming(self, last: str) -> str | None:
        """:func:`code_naming` of the command and ``last``."""
        # Each match below holds the name without its extension (the module's name, for a
        # .py file): a command whose words do not is passed over at once.
        bare = posixpath.splitext(last)[0]
        if not self._words or (bare and bare not in self._text):
            return None
        ran = self._ran
        stem = last.removesuffix(".py") if last.endswith(".py") else ""
        module = (
            re.compile(rf"\b{re.escape(stem)}\b")
            if self._python and _MODULE_NAME.match(stem)
            else None
        )
        # (also a path without the extension, which node's require, ruby's require and lua's
        # dofile complete: `require("./s")` loads s.js)
        escaped = re.escape(last), re.escape(bare)
        file = re.compile(rf"(?<![\w-]){escaped[0]}(?![\w-])|(?<=/){escaped[1]}(?![\w.-])")
        for at, word in self._words:
            if posixpath.basename(word) == last:
                continue  # (the file's own name: a use of it, which the caller reads)
            if module is not None and ran[at - 1] == "-m" and word.partition(".")[0] == stem:
                return f"the module python -m runs, {stem}, which Python finds as {last}"
            if file.search(word) is None and (module is None or module.search(word) is None):
                continue
            if at not in self._reasons:
                self._reasons[at] = code_argument([*ran[:at], None])
            if self._reasons[at] is not None:
                return self._reasons[at]
        return None


def naming_token(last: str) -> str | None:
    """A run of word characters (``\\w+``) that each word :class:`CodeNaming` finds naming
    the file ``last`` holds as one of its own runs, whole; None if there is none to tell.
    (Each way a word names the file holds its name without the extension, at a place no word
    character stands before or after: a command whose words lack its first run is passed
    over without a look.)"""
    found = _WORD_RUN.search(posixpath.splitext(last)[0])
    return found.group() if found else None


_WORD_RUN = re.compile(r"\w+")


def reads_project_files(name: str) -> bool:
    """Whether the program ``name`` (the command that runs, or "" for one an expansion names)
    may read a file of the working directory as code or settings by its name alone, beyond
    the files :func:`reads_by_name` knows for it: any program but those known to read none,
    and a program of the author's own, named by its path (``./process page.html``: as
    ``python3 s.py page.html``, the author's code reads what the author gives it)."""
    if not name:
        return True
    if "/" in name and not name.startswith(_SYSTEM_DIRECTORIES):
        return False
    known = _allow_listed(name, _PROJECT_DATA_PROGRAMS) or program(name) in _IMPLICIT_CODE_FILES
    return not known


def reads_by_name(reader: str, path: str) -> bool:
    """Whether the program ``reader`` reads the file ``path`` (normalised) as code by its name
    alone: ``make`` its ``Makefile``, pytest ``conftest.py``, git ``.git/hooks/*``."""
    stem, suffix = posixpath.splitext(posixpath.basename(path))
    if stem == "__init__":  # (a package: json/__init__.py)
        stem = posixpath.basename(posixpath.dirname(path))
    if reader in _PYTHON_READERS and suffix == ".py" and stem in _STANDARD_MODULES:
        return True  # (`json.py` shadows the standard library's json)
    return any(
        fnmatchcase(path, pattern) or fnmatchcase(path, "*/" + pattern)
        for pattern in _IMPLICIT_CODE_FILES.get(reader, ())
    )


def assignment_reader(command: Sequence[str | None], prefix: str = "") -> str | None:
    """The program that would read the last word of ``command`` (a word holding a value) as
    ``NAME=value``, a variable it sets: ``env`` or ``sudo`` where the command's name may come
    (``env {x} git fetch``), ``make`` in any argument but an option's (``make {target}``), else
    None.  ``prefix``: as for :func:`code_argument`."""
    ran, runner = _follow(command, prefix)
    if runner in _ASSIGNING_RUNNERS and len(ran) == 1:
        return runner  # the word where env's command would start: NAME=value still counts
    if not ran or ran[0] is None or program(ran[0]) not in _MAKES or _option_of(prefix):
        return None
    expects_argument = False
    for word in ran[1:-1]:
        expects_argument = not expects_argument and word in _MAKE_OPTIONS_WITH_ARGUMENT
    return None if expects_argument else program(ran[0])


# An environment variable's name as the system's programs read theirs, then '=': POSIX (XBD
# 8.1) gives the utilities' variables upper-case letters, digits and '_', and leaves names with
# lower-case letters to applications (http_proxy is data).
ENVIRONMENT_NAME = re.compile(r"[A-Z_][A-Z0-9_]*=")
# Programs known to read an upper-case NAME=value argument as data, not as a variable that
# they set for a command: an awk -v variable (awk's program is checked for running its data),
# a git message or setting (git's settings are checked by name), the shell's builtins that
# take data (`set -- {x}`: a variable is followed where it is used), and shells and
# interpreters, whose operands are their script's arguments (as for options) and whose code
# options are checked as code.
_DATA_ASSIGNMENT_PROGRAMS = PLAIN_OPTION_PROGRAMS.union(
    _SCRIPT_FIRST, SHELLS, _INTERPRETER_OPTIONS,
    {"git", "set", "shift", "test", "[", ":", "exit", "return", "type", "local"},
)  # fmt: skip


def environment_setter(command: Sequence[str | None], prefix: str) -> str | None:
    """The program that may set the word a value stands in as an environment variable of a
    command it runs, when the word's static start is an upper-case ``NAME=`` (the allow-list:
    programs known to read it as data, :data:`_DATA_ASSIGNMENT_PROGRAMS`): ``./configure
    CC={x}``, ``systemctl set-environment FOO={x}``, ``strace -E FOO={x} cmd``, ``kubectl set
    env deploy/d FOO={x}``, ``tmux new -e FOO={x}``, ``docker build --build-arg FOO={x}``."""
    if not ENVIRONMENT_NAME.match(prefix):
        return None
    ran = _run_command(command, prefix)
    if len(ran) < 2 or ran[0] is None or ran[0] == EXPANDED:
        return None  # (a value naming the program: refused when it takes NAME=value, below)
    name = program(ran[0])
    if name in _CONTAINER_TOOLS:  # `docker run img echo {x}`: the command run inside decides
        operands = [word for word in ran[1:-1] if word is None or not word.startswith("-")]
        subcommand = next((w for w in operands[:2] if w in _ENVIRONMENT_SUBCOMMANDS), None)
        inside = _container_command(name, ran[1:-1], subcommand) if subcommand else None
        if inside is not None:  # (none: the value names the command run inside)
            return environment_setter([*inside, None], prefix) if inside else None
    if _allow_listed(ran[0], _DATA_ASSIGNMENT_PROGRAMS) or name in ASSIGNING:
        return None  # (env, sudo and make: see assignment_reader)
    return program(ran[0])


def _perl_reads_operands(before: Sequence[str | None]) -> bool:
    """Whether perl, given the options and program ``before`` a value, reads its operands as
    files with ``<>``: with -n, -p, -a or -F, or a program written in the static text that
    reads them."""
    expects_program = False
    for word in before:
        if expects_program:
            expects_program = False
            if word is None or _PERL_READS_ARGV.search(word):
                return True  # (a program that a value is part of is refused as code)
            continue
        if word is None or word == "--" or not word.startswith("-") or word.startswith("--"):
            if word is not None and word.startswith("--") and word != "--":
                continue
            break
        for at, letter in enumerate(word[1:], 2):
            if letter in _PERL_LOOPS:
                return True
            if letter in "eE":
                rest = word[at:]
                expects_program = not rest
                if rest and _PERL_READS_ARGV.search(rest):
                    return True
            if letter in _PERL_REST:
                break
    return False


def reads_program_from_stdin(command: Sequence[str | None]) -> str | None:
    """The program ``command`` runs, if what it reads on its standard input is code: a shell or
    interpreter reading its program there (``sh``, ``bash -s -- a``, ``python3 -``, ``sh
    /dev/stdin``, also behind runners: ``sudo sh``, ``busybox sh``, ``strace sh``), a program
    that starts a shell when given no command (``su``, ``sudo -s``, ``chroot /``, ``script``),
    a tool whose input is commands that can run a shell (``ed``, ``ex``, ``gdb``, ``vim``,
    ``m4``, ``dc``, ``tclsh``) or that is told to read its program there (``make -f -``,
    ``awk -f -``, ``sed -f /dev/stdin``), a database shell given no SQL, ``ssh`` given no
    remote command, ``at``, ``crontab -``, ``source /dev/stdin``, ``parallel`` given no
    command, ``xargs`` running a program whose next argument is code (``xargs sh -c``), and a
    program an expansion names (``$SHELL``: :data:`EXPANDED`)."""
    ran = _run_command(command, "")
    if not ran or ran[0] is None:
        return None
    if ran[0] == EXPANDED:
        return "a program an expansion names (it may be a shell)"
    name = program(ran[0])
    runners = [word for word in command[: len(command) - len(ran)] if word is not None]
    for runner in runners:
        variable, equals, file = runner.partition("=")
        if equals and ENVIRONMENT_NAME.match(variable + "=") and file in _STDIN_FILES:
            # `BASH_ENV=/dev/stdin bash -c :` (bash runs the file BASH_ENV names), `MAKEFILES=-
            # make` (makefiles read first), `LESSKEYIN=/dev/stdin less f` (its LESSOPEN) ran
            # the pipe's text: a variable naming the standard input may name a program's code
            return (
                f"{name} with {runner}, a variable naming its standard input as a file, which "
                "programs read as code or settings (BASH_ENV, MAKEFILES, LESSKEYIN...)"
            )
    if any(program(word) == "xargs" for word in runners):
        # xargs appends what it reads (split at blanks) as arguments: code where the next
        # argument is code (`xargs sh -c`), or an option of a program whose options run code
        # (`xargs git clone` given `--upload-pack=...`), or put in place of -I's string.
        appended = [*ran, None]
        replaces = any(word.startswith(("-I", "-i", "--replace")) for word in runners)
        if (
            code_argument(appended) is not None
            or option_taker(appended) is not None
            or assignment_reader(appended) is not None  # `xargs env`, `xargs make --`
            # (`xargs kill --` given 0: an argument its program parses further, as xargs split it)
            or ((rule := argument_rule(appended, "")) is not None and not any_whole_word(rule))
            or (replaces and name in _KNOWN_PROGRAMS)
        ):
            return f"xargs {name}"
        return None
    words = [word for word in ran[1:] if word is not None]
    operands = [word for word in words if word == "-" or not word.startswith("-")]
    reader = _reads_commands(name, ran, words, operands)
    if reader is not None:
        return reader
    if name in ("source", "."):
        return name if operands[:1] and operands[0] in _STDIN_FILES else None
    if name in ("at", "batch") or (name == "parallel" and not _parallel_command(words)):
        return name
    if name == "parallel" and any(f in _STDIN_FILES for f in _parallel_command_files(words)):
        return "parallel ::::"  # given no command, it runs each line of those files
    if name == "parallel" and (why := _parallel_input_code(words)) is not None:
        return why
    if name == "tmux" and any(
        word in ("source-file", "source") and following in _STDIN_FILES
        for word, following in itertools.pairwise(words)
    ):
        return "tmux source-file"  # tmux commands: run-shell runs a shell command
    if name == "sg":  # given no command after the group, sg starts a shell
        return name if len(operands) < 2 and not any(w.startswith("-c") for w in words) else None
    if name == "crontab":
        # (a file operand installs that file: `echo {x} > c; crontab c` as much as `| crontab -`)
        return name if not operands or operands[-1] in _STDIN_FILES else None
    if name == "ssh":  # given only the destination, the remote shell reads the pipe
        return name if _ssh_operands(ran[1:]) == 1 else None
    if name in _SQL_SHELLS:
        given = (_CODE_OPTIONS.get(name, frozenset()) | {"-f", "--file"}) - _SQL_STARTUP_OPTIONS
        if any(_gives(word, given) for word in words):
            return None  # the SQL is an argument, or a file
        if name in _SQL_OPERANDS and len(_sql_shell_operands(words)) > 1:
            return None  # sqlite3 DB SQL
        return name
    if name not in SHELLS and name not in _INTERPRETER_OPTIONS:
        return None
    options = _INTERPRETER_OPTIONS.get(name, frozenset())
    with_argument = _options_with_argument(name)
    expects_argument = False
    for at, word in enumerate(ran[1:], 2):
        if expects_argument:
            expects_argument = False
            continue
        if word == "--" or (word == "-" and name in SHELLS):  # the end of the options
            script = ran[at] if at < len(ran) else "-"
            return name if script in _STDIN_FILES else None
        if word is None or word in _STDIN_FILES or word == EXPANDED:
            return name if word is not None else None  # an expansion may be -s, or vanish
        if word[:1] not in "-+" or len(word) == 1:
            return None  # an operand: the script's file (a shell's after -s: its arguments)
        if word.startswith("--"):
            expects_argument = _takes_next(word, with_argument)  # (`bash --rcfile f`)
            continue
        if name in SHELLS and "s" in word[1:]:
            return name  # sh -s: the program from stdin, the operands its arguments
        if (name in SHELLS and "c" in word[1:]) or _gives(word, options):
            return None  # the program is an argument
        expects_argument = _takes_next(word, with_argument)
    return name


def value_named_code_file(command: Sequence[str | None]) -> str | None:
    """The program ``command`` runs, if a value (a None word) names the file it reads its
    program or settings from (``sh {script}``, ``make -f {file}``, ``awk -f {file}``,
    ``curl -K {file}``), as :func:`reads_program_from_stdin` names it: ``-``, ``/dev/stdin``
    or ``/proc/self/fd/0`` there is the standard input, which it then reads as code."""
    for at, word in enumerate(command):
        if word is None and at:
            found = reads_program_from_stdin([*command[:at], "/dev/stdin", *command[at + 1 :]])
            if found is not None:
                return found
    return None


def unknown_input_reader(command: Sequence[str | None]) -> str | None:
    """The program ``command`` runs when it is not one known to read its standard input as
    data (the allow-list for pipes, after :func:`reads_program_from_stdin`): what reads
    the pipe as code is everywhere (``fakeroot`` and ``proot`` start a shell, ``toybox sh``,
    ``pkexec sh``, ``cmake -P /dev/stdin``, ``emacs -l /dev/stdin``, ``ghci``, ``redis-cli``,
    ``docker run -i IMAGE``), and no table can list it all.  Known: the programs the tables
    name (they decide there), and :data:`DATA_INPUT_PROGRAMS`.  A wrapper (``strace``,
    ``docker``...) is judged by the word after its options, the command it runs (none: it may
    start a shell).  None when the program is known."""
    ran = _run_command(command, "")
    if not ran:
        return None
    if ran[0] is None:
        return "a program a value names"
    if ran[0] == EXPANDED:
        return None  # (reads_program_from_stdin refuses it)
    if ran[0].startswith("-"):
        return None  # (an option of a runner the tables read as its command: `command -v`)
    name = program(ran[0])
    if name in _WRAPPERS:
        # The first later word naming a known program: the command it runs (`strace -o log
        # cat`); none, and the wrapper may start a shell or run a program of unknown kind.
        known = (w for w in ran[1:] if w is not None and _allow_listed(w, DATA_INPUT_PROGRAMS))
        return None if next(known, None) is not None else name
    return None if _allow_listed(ran[0], DATA_INPUT_PROGRAMS) else ran[0]


def _parallel_command_files(words: list[str]) -> set[str]:
    """The files GNU parallel, given the static arguments ``words``, reads its commands
    from: those after ``::::`` when no command comes before it (each line is a command)."""
    operands = [word for word in words if word == "-" or not word.startswith("-")]
    if operands[:1] not in (["::::"], ["::::+"]):
        return set()
    return set(operands[1:])


# GNU parallel's default replacement strings ({}, {.}, {/}, {//}, {/.}, {#}, {%}, {3}, {3.},
# {=perl=}), the options that name others (-I @, --rpl 'TAG perl'...), those that give its
# input to the command's standard input rather than its arguments, and the characters of a
# command string that make its shell parse more than a simple command.
_PARALLEL_REPLACEMENT = re.compile(r"\{=.*?=\}|\{[^{}\s]*\}")
_PARALLEL_NAMING = frozenset(
    {"-I", "--replace", "--er", "--extensionreplace", "--bnr", "--basenamereplace", "--dnr",
     "--dirnamereplace", "--bner", "--basenameextensionreplace", "--rpl"}
)  # fmt: skip
_PARALLEL_PIPE = frozenset({"--pipe", "--spreadstdin", "--pipepart", "--pipe-part"})
_PARALLEL_SOURCES = frozenset({":::", "::::", ":::+", "::::+"})
_SHELL_SYNTAX = re.compile(r"[|&;<>()$`\\\"'\n]")


def _parallel_input_code(words: list[str]) -> str | None:
    """Why what GNU parallel reads on its input, given the static arguments ``words`` with a
    command, reaches code, else None.  parallel joins the command's words for a shell to
    parse and puts each input line, quoted, where a replacement string stands (``{}``,
    ``{.}``, -I's), or after the command: so by allow-list the command must be a simple
    command whose program, written in the text, takes those words as data (``parallel {}``,
    ``parallel sh -c {}``, ``parallel 'echo {} | sh'`` and ``parallel --pipe sh`` ran the
    value in dash and bash; ``parallel wc -l {}`` is accepted, and ``parallel gzip``, whose
    options take no code, as before)."""
    strings: list[str] = []
    piped = False
    expects = ""
    command: list[str] = []
    for at, word in enumerate(words):
        if expects:
            strings += [word.split()[0]] if word.split() and expects in _PARALLEL_NAMING else []
            expects = ""
        elif word == "--" or word == "-" or not word.startswith("-"):
            command = words[at + (word == "--") :]
            break
        else:
            option = _unabbreviated(word.partition("=")[0], _PARALLEL_OPTIONS_WITH_ARGUMENT)
            piped = piped or option in _PARALLEL_PIPE
            if "=" in word and option in _PARALLEL_NAMING:
                strings.append(word.partition("=")[2])
            elif word[:2] == "-I" and len(word) > 2:
                strings.append(word[2:])
            elif _takes_next(option, _PARALLEL_OPTIONS_WITH_ARGUMENT):
                expects = option
    command = list(itertools.takewhile(lambda word: word not in _PARALLEL_SOURCES, command))
    marked: list[str | None] = [
        None if _PARALLEL_REPLACEMENT.search(word) or any(s and s in word for s in strings)
        else word
        for word in command
    ]  # fmt: skip
    shown = "parallel " + " ".join(command)
    if piped:
        reader = reads_program_from_stdin(marked)
        return None if reader is None else f"{shown} (--pipe gives {reader} its input)"
    if _SHELL_SYNTAX.search(_PARALLEL_REPLACEMENT.sub("", " ".join(command))):
        return f"{shown}, whose command string a shell parses"
    if None not in marked:
        marked.append(None)  # (the input, after the command)
    for at in (at for at, word in enumerate(marked) if word is None):
        ran = _run_command(marked[: at + 1], "")
        if (
            not ran
            or ran[0] is None
            or code_argument(ran) is not None
            # (an option there, but of a program whose options take no code: `parallel gzip`)
            or (option_taker(ran) is not None and not _allow_listed(ran[0], PLAIN_OPTION_PROGRAMS))
            or assignment_reader(ran) is not None
            or ((rule := argument_rule(ran, "")) is not None and not any_whole_word(rule))
        ):
            return shown
    return None


def _parallel_command(words: list[str]) -> bool:
    """Whether GNU parallel, given the static arguments ``words``, has a command (or input
    sources, ``:::``) rather than reading commands from its input: its first operand past its
    options and their arguments (parallel reads options up to its first operand)."""
    expects = False
    for at, word in enumerate(words):
        if expects:
            expects = False
        elif word == "--":
            return at + 1 < len(words)
        elif word == "-" or not word.startswith("-"):
            return True
        else:
            option = _unabbreviated(word, _PARALLEL_OPTIONS_WITH_ARGUMENT)
            expects = _takes_next(option, _PARALLEL_OPTIONS_WITH_ARGUMENT)
    return False


def _filter_reads_input(name: str, words: list[str]) -> bool:
    """Whether the macro processor or calculator ``name`` (``m4``, ``dc``), given the static
    arguments ``words``, reads its standard input: when it has no file to read (an option's
    argument is none: ``m4 -D X=1``) and, for dc, no expression, or when a file is ``-``."""
    takes = _STDIN_LANGUAGE_FILTERS[name]
    known = takes | (_DC_FILE_OPTIONS if name == "dc" else frozenset())
    files: list[str] = []
    expression = expects = reads_file = ended = False
    for word in words:
        if expects or reads_file:
            if reads_file:
                files.append(word)
            expects = reads_file = False
            continue
        if ended or word == "-" or not word.startswith("-"):
            files.append(word)
            continue
        if word == "--":
            ended = True
            continue
        option, equals, argument = _unabbreviated(word, known).partition("=")
        # (a short cluster: the first letter that takes an argument ends it)
        if not option.startswith("--"):
            taker = next((at for at in range(1, len(option)) if "-" + option[at] in known), None)
            if taker is None:
                continue
            option, argument = "-" + option[taker], word[taker + 1 :]
            equals = "=" if argument else ""
        expression = expression or (name == "dc" and option in takes)
        if option in _DC_FILE_OPTIONS and option in known:
            if equals:
                files.append(argument)
            else:
                reads_file = True
        elif option in takes and not equals:
            expects = True
    # (a file operand is their program: `m4 /dev/stdin`, `dc -` read the pipe as it)
    return any(file in _STDIN_FILES for file in files) or (not files and not expression)


def _reads_commands(
    name: str, ran: Sequence[str | None], words: list[str], operands: list[str]
) -> str | None:
    """:func:`reads_program_from_stdin` for the programs that start a shell, the tools whose
    input is commands, and the wrappers of another command."""
    options = [word for word in words if word[:1] == "-" and word[1:2] not in ("-", "")]
    # (A runner is still the program that runs only when no command follows its options.)
    if name in ("sudo", "doas"):
        letters = "si" if name == "sudo" else "s"
        if {"--shell", "--login"} & set(words) or any(
            letter in option for option in options for letter in letters
        ):
            return f"{name} -s"
    elif name in _SHELL_STARTERS and name in _RUNNERS:
        return name  # chroot DIR, unshare, nsenter -t PID: the shell they start
    elif name in _SHELL_STARTERS and not _names_a_command(name, words):
        return name  # no -c: the shell it starts reads the pipe
    if name in _STDIN_COMMAND_TOOLS:
        return name
    if name in ("python", "pypy") and _python_reads_stdin(ran[1:]):
        return name
    if name in _VI:
        ex_mode = any(letter in option for option in options for letter in "eEs")
        return name if ex_mode or "-" not in operands else None
    if name in _STDIN_LANGUAGE_FILTERS and _filter_reads_input(name, words):
        return name
    files = _PROGRAM_FILE_OPTIONS.get(name, frozenset())
    for at, word in enumerate(ran[1:], 2):
        following = ran[at] if at < len(ran) else None
        word = None if word is None else _unabbreviated(word, files)  # (`make --fi=-`)
        option, equals, value = (word or "").partition("=")
        # (`--opt=FILE -`: the option's argument is its own word's, `-` is an operand)
        if (_takes_next(word, files) and following in _STDIN_FILES) or (
            equals and option in files and value in _STDIN_FILES
        ):
            return f"{name} {option}"
        if word and word[:2] in files and word[2:] in _STDIN_FILES:
            return f"{name} {word[:2]}"
    if name in _WRAPPERS or name in _SHELL_STARTERS:
        # From the first word naming such a program only, as in code_argument.
        start = next(
            (
                start
                for start, word in enumerate(ran[1:], 1)
                if word is not None and not word.startswith("-") and program(word) in _READERS
            ),
            None,
        )
        found = reads_program_from_stdin(ran[start:]) if start is not None else None
        if found is not None:
            return f"{name} {found}"
    return None


def _python_reads_stdin(words: Sequence[str | None]) -> bool:
    """Whether Python, after its script or command, reads statements from its standard input:
    ``-i`` (interactive after the script), or ``-m`` of a module that is a console or debugger
    (``python3 -m code``, ``-m pdb script.py``)."""
    skip = False
    for at, word in enumerate(words):
        if skip:  # an option's argument (`-W ignore -i s.py`), no script
            skip = False
            continue
        if word is None or word == "--" or not word.startswith("-"):
            return False  # the script: the rest are its arguments
        skip = _takes_next(word, _INTERPRETER_OPTIONS_WITH_ARGUMENT["python"])
        if "i" in word[1:] and not word.startswith("--"):
            return True
        module = word[2:] if word.startswith("-m") and len(word) > 2 else None
        if word == "-m" and at + 1 < len(words):
            module = words[at + 1]
        if module is not None or word.endswith("c"):
            return module in _PYTHON_CONSOLES
    return False


def _names_a_command(name: str, words: list[str]) -> bool:
    """Whether su, runuser, script or newgrp is given a command (-c, or runuser -u USER CMD)
    rather than starting a shell."""
    if name == "runuser" and any(word.partition("=")[0] in ("-u", "--user") for word in words):
        return True  # the command comes after the user: found as a wrapper's
    strings = _STDIN_COMMAND_STRINGS.get(name, frozenset())
    return any(_gives(word, strings) for word in words)


def stdin_script(command: Sequence[str | None]) -> str | None:
    """The command string, written in the static text, that ``command`` has a shell run with
    the standard input it reads: ``sh -c S``, ``su -c S``, ``env -S S``, ``script -c S``,
    ``flock f -c S``, ``sg group S``, ``ssh host S...``, ``eval S...``, ``trap S EXIT`` (also
    behind runners), else None."""
    ran = _run_command(command, "")
    if not ran or ran[0] is None or ran[0] == EXPANDED:
        return None
    name = program(ran[0])
    words = ran[1:]
    script: str | None = None
    if name in SHELLS:
        at = _command_string_at(words)
        script = words[at] if at is not None else None
    elif name == "ssh":
        at = next((at for at in range(len(words)) if _after_destination(words[:at])), None)
        remote = words[at:] if at is not None else []
        if remote and all(word is not None and word != EXPANDED for word in remote):
            script = " ".join(remote)  # type: ignore[arg-type]
    elif name in _COMMAND_OPERANDS:
        operands = [word for word in words if word is None or not word.startswith("-")]
        if len(operands) > _COMMAND_OPERANDS[name]:
            script = operands[_COMMAND_OPERANDS[name]]
    elif name == "eval" and all(word is not None and word != EXPANDED for word in words):
        script = " ".join(words)  # type: ignore[arg-type]
    elif name == "trap":  # the action, run in the shell whose input is the pipe
        script = next((word for word in words if word != "--"), None)
    elif name in _STDIN_COMMAND_STRINGS:
        options = _STDIN_COMMAND_STRINGS[name]
        for at, word in enumerate(words):
            word = None if word is None else _unabbreviated(word, options)  # (`--to-com=`)
            option, equals, value = (word or "").partition("=")
            glued = next(  # `-S'sh -s'`, `-lcsh`: the option's argument in the same word
                (word[i + 1 :] for i in range(1, len(word)) if "-" + word[i] in options),
                "",
            ) if word and word[1:2] not in ("-", "") and word[0] == "-" else ""
            if equals and option.startswith("--") and option in options:
                script = value
            elif glued:
                script = glued
            elif _gives(word, options) and at + 1 < len(words):
                script = words[at + 1]
    return None if script == EXPANDED else script


def positional_script(command: Sequence[str | None]) -> tuple[str, str] | None:
    """The shell and the command string, written in the static text, whose positional
    parameters the last word of ``command`` is one of: ``sh -c 'eval "$1"' sh {x}`` gives
    ``("sh", 'eval "$1"')`` (also behind runners and wrappers: ``env``, ``xargs``, ``strace``).
    The string may put ``$1`` (or ``$0``, ``$@``...) where code goes, as a variable set by
    ``set --`` can, so the shell's lexer checks it the same way.  None for any other word."""
    ran = _run_command(command, "")
    start = _first_naming(ran, SHELLS, 0)
    if start is None:
        return None
    shell, words = ran[start], ran[start + 1 :]
    at = _command_string_at(words)
    script = words[at] if at is not None and at < len(words) - 1 else None
    if shell is None or script is None or script == EXPANDED:
        return None  # no command string, the value is the string itself, or it is computed
    return program(shell), script


def xargs_appended(command: Sequence[str | None]) -> Sequence[str | None] | None:
    """The command that xargs runs in ``command`` with one argument it read appended (a
    ``None``), or None when no xargs runs it: what reaches xargs's input becomes that word."""
    ran = _run_command(command, "")
    runners = [word for word in command[: len(command) - len(ran)] if word is not None]
    if not ran or not any(program(word) == "xargs" for word in runners):
        return None
    return [*ran, None]


# -- programs written in the static text that run their data ---------------------------------

# An awk string literal with no escape (whose end is certain); the commands of awk's system()
# and pipes (``print | "sort"``, ``"date" | getline d``) are accepted when they are one such
# literal, never computed from the data.
_AWK_LITERAL = r'"([^"\\\n]*)"'
_AWK_SYSTEM = re.compile(r"\bsystem\b")
_AWK_LITERAL_SYSTEM = re.compile(rf"system\s*\(\s*{_AWK_LITERAL}\s*\)")
_AWK_PIPE = re.compile(r"(?<!\|)\|(?!\|)")  # `|` and `|&`, not `||`
_AWK_PIPE_TO_LITERAL = re.compile(rf"\|&?\s*{_AWK_LITERAL}[ \t]*(?=[;}}\n#]|\Z)")
_AWK_LITERAL_BEFORE = re.compile(rf"(?:\A|[;{{(\n!,=&]|\|\|)\s*{_AWK_LITERAL}\s*\Z")
_AWK_GETLINE = re.compile(r"\|&?\s*getline\b")
# gawk's indirect call, `@name(args)`, calls the function whose name the variable holds, a
# built-in one too: `{f = $1; @f($2)}` given `system cmd` ran cmd in real gawk 5.2.
_AWK_INDIRECT_CALL = re.compile(r"@\s*[A-Za-z_][\w:]*\s*\(")


def _awk_runs_data(source: str, reads_code: Callable[[str], bool]) -> bool:
    """Whether an awk program may run a command that its data computes: a ``system()`` or a
    pipe (``print | cmd``, ``cmd | getline``, gawk's ``|&``) whose command is not one string
    literal (``{system($0)}``, ``BEGIN{system(ARGV[1])}``, ``{print | $1}``), or one whose
    literal command reads its standard input as code (``print | "sh"``, ``system("sh")`` and
    ``"sh" | getline``, whose shell reads awk's input: ``reads_code`` decides, as for ``sh -c
    'cat | sh'``), or with gawk's indirect call (``@f(...)``), whose function a variable names,
    which may be ``system`` (``{f = $1; @f($2)}``).  An allow-list over the raw text: a ``|``
    in a regular expression or string (``/a|b/``) counts as a pipe, an ``@f(`` in one as a
    call."""
    if _AWK_INDIRECT_CALL.search(source):
        return True
    commands: list[str] = []
    for found in _AWK_SYSTEM.finditer(source):
        literal = _AWK_LITERAL_SYSTEM.match(source, found.start())
        if not literal:
            return True
        commands.append(literal.group(1))
    for found in _AWK_PIPE.finditer(source):
        at = found.start()
        to_literal = _AWK_PIPE_TO_LITERAL.match(source, at)
        from_literal = _AWK_GETLINE.match(source, at) and _AWK_LITERAL_BEFORE.search(source[:at])
        if not (to_literal or from_literal):
            return True
        commands.append((to_literal or from_literal).group(1))  # type: ignore[union-attr]
    return any(reads_code(command) for command in commands)


# GNU sed's commands that take no argument, or an optional number (l, L, q, Q).
_SED_PLAIN = frozenset("dDgGhHnNpPxz=F{}")
_SED_NUMBERED = frozenset("lLqQ")
_SED_SUBSTITUTE_FLAGS = frozenset("gpiImM0123456789")


class _SedScript:
    """A scan of a sed script that accepts only the commands it knows, none of which runs the
    pattern space: any ``e`` command or ``s///e`` flag (GNU sed runs a command there) or
    anything it cannot read makes :meth:`runs` true.  ``brackets``: whether a ``[...]`` in a
    regular expression hides the delimiter (GNU sed 4.9 reads ``s/[/]/x/`` so); the script is
    scanned both ways, as sed versions differ."""

    def __init__(self, text: str, brackets: bool) -> None:
        self.text = text
        self.brackets = brackets
        self.i = 0

    def runs(self) -> bool:
        text, n = self.text, len(self.text)
        while True:
            while self.i < n and text[self.i] in " \t\n;":
                self.i += 1
            if self.i >= n:
                return False
            if text[self.i] == "#":
                self.to_line_end()
                continue
            if not self.address():
                return True
            c = text[self.i] if self.i < n else ""
            self.i += 1
            if c in _SED_PLAIN:
                continue
            if c in _SED_NUMBERED:
                while self.i < n and text[self.i] in " \t0123456789":
                    self.i += 1
            elif c in ":btTv":  # a label (GNU: up to ';' or a newline), or v's version
                while self.i < n and text[self.i] not in ";\n":
                    self.i += 1
            elif c in "aicrRwW":  # text or a file name, up to the end of the line
                self.to_line_end()
            elif c == "y":
                if not (self.delimited(regex=False) and self.delimited(regex=False, again=True)):
                    return True
            elif c == "s":
                if not (self.delimited(regex=True) and self.delimited(regex=False, again=True)):
                    return True
                while self.i < n and text[self.i] in _SED_SUBSTITUTE_FLAGS:
                    self.i += 1
                if self.i < n and text[self.i] == "w":
                    self.to_line_end()
            else:
                return True  # `e`, or a command this scan does not know
            while self.i < n and text[self.i] in " \t":
                self.i += 1
            if self.i < n and text[self.i] not in ";\n}#":
                return True  # something after the command that the scan does not follow

    def address(self) -> bool:
        """Skip up to two addresses and a `!`; False where one cannot be read."""
        text, n = self.text, len(self.text)
        for second in (False, True):
            while self.i < n and text[self.i] in " \t":
                self.i += 1
            if self.i < n and text[self.i] in "/\\":
                if text[self.i] == "\\":
                    self.i += 1
                if self.i >= n or not self.delimited(regex=True):
                    return False
                while self.i < n and text[self.i] in "IM":
                    self.i += 1
            else:
                while self.i < n and text[self.i] in "0123456789$~+":
                    self.i += 1
            if second or self.i >= n or text[self.i] != ",":
                break
            self.i += 1
        while self.i < n and text[self.i] in " \t!":
            self.i += 1
        return True

    def delimited(self, regex: bool, again: bool = False) -> bool:
        """Skip a part ended by the delimiter at ``self.i`` (or, ``again``, the one before)."""
        text, n = self.text, len(self.text)
        if again:
            delimiter = text[self.i - 1]
        else:
            delimiter = text[self.i] if self.i < n else "\n"
            if delimiter in "\n\\":
                return False
            self.i += 1
        while self.i < n:
            c = text[self.i]
            if c == "\\":
                self.i += 2
                continue
            if c == delimiter:
                self.i += 1
                return True
            if c == "\n" and regex:
                return False
            if c == "[" and regex and self.brackets:
                end = re.compile(r"\[\^?\]?(?:\[([:.=]).*?\1\]|[^]\n])*\]").match(text, self.i)
                if end is None:
                    return False
                self.i = end.end()
                continue
            self.i += 1
        return False

    def to_line_end(self) -> None:
        """Skip to the end of the line, past backslash-newlines."""
        text, n = self.text, len(self.text)
        while self.i < n and text[self.i] != "\n":
            self.i += 2 if text[self.i] == "\\" else 1


def _sed_runs_data(script: str) -> bool:
    """Whether a sed script may run its data as a command: GNU sed's ``e`` command and the
    ``e`` flag of ``s`` run the pattern space (the input line) through a shell."""
    return _SedScript(script, True).runs() or _SedScript(script, False).runs()


def _program_texts(name: str, words: Sequence[str | None]) -> list[str | None] | None:
    """The program texts that awk or sed is given (by its code options, else its first
    operand), None if a file gives (part of) it (``awk -f prog.awk``: not seen here)."""
    found = _program_words(name, words)
    return None if found is None else [text for _, text in found]


def _program_words(
    name: str, words: Sequence[str | None]
) -> list[tuple[int, str | None]] | None:
    """:func:`_program_texts`, each with the position in ``words`` of the word that holds it
    (a code option's own, for ``-e'prog'``)."""
    code, files, with_argument = _SCRIPT_FIRST[name]
    texts: list[tuple[int, str | None]] = []
    expects = ""
    for at, word in enumerate(words):
        if expects:
            if expects == "code":
                texts.append((at, word))
            expects = ""
            continue
        if word is None or word == EXPANDED or not word.startswith("-") or word == "-":
            if not texts:
                texts.append((at, word))  # the first operand is the program
            break
        if word == "--":
            continue
        word = _unabbreviated(word, code | files | with_argument)  # (`awk --sour=...`)
        option, equals, value = word.partition("=")
        if word.startswith("--") and equals:
            if option in code:
                texts.append((at, value))
            elif option in files:
                return None
            continue
        given, rest = _clustered(word, code | files)
        if given in files or word in files:
            return None
        if given:
            if len(rest) > 2:
                texts.append((at, rest[2:]))
            else:
                expects = "code"
        elif word in with_argument or _gives(word, with_argument):
            expects = "argument"
    return texts


def is_program_text(command: Sequence[str | None], at: int) -> bool:
    """Whether the word ``command[at]`` is a program text that awk or sed reads as code (its
    first operand, or a code option's argument): a word of its language, not a file's name
    (``awk -F, '{print $1}' {f} > ids.txt``: the ``$1`` is awk's field, not an expansion)."""
    ran = _run_command(command, "")
    start = len(command) - len(ran)
    if not ran or list(command[start:]) != list(ran) or ran[0] in (None, EXPANDED):
        return False
    if program(ran[0]) not in _SCRIPT_FIRST:
        return False
    found = _program_words(program(ran[0]), ran[1:]) or []
    return any(start + 1 + index == at and text == command[at] for index, text in found)


def runs_its_data(
    command: Sequence[str | None], reads_code: Callable[[str], bool]
) -> str | None:
    """Why the program ``command`` finally runs (past runners) may run what its data holds as
    a command, when that program is awk or sed with a program written in the static text
    that does: ``awk '{system($0)}'``, ``awk 'BEGIN{system(ARGV[1])}'``, ``awk '{print |
    "sh"}'`` (``reads_code``: whether a literal command reads its input as code), ``sed e``,
    ``sed 's/x/y/e'`` (GNU).  A value that reaches it — on its standard input, as a file operand,
    an ``ARGV`` word or an ``awk -v`` variable — is then code.  A program an expansion
    computes is refused too; one read from a file (``awk -f f``) is not seen."""
    ran = _run_command(command, "")
    if not ran or ran[0] is None or ran[0] == EXPANDED or program(ran[0]) not in _SCRIPT_FIRST:
        return None
    name = program(ran[0])
    texts = _program_texts(name, ran[1:])
    if not texts or None in texts:
        return None  # none given, from a file, or a value (refused as code already)
    if EXPANDED in texts:
        return f"the {name} program that an expansion computes, which may run its data"
    source = "\n".join(texts)  # type: ignore[arg-type]
    if name == "sed":
        if _sed_runs_data(source):
            return (
                "a sed script with GNU sed's e command or s///e flag (or one the renderer "
                "cannot read), which runs the text it reads as a shell command"
            )
        return None
    if _awk_runs_data(source, reads_code):
        return (
            f"an {name} program with a system() or a pipe whose command is not one string "
            "literal or reads its input as code (print | \"sh\"), or an indirect call "
            "(@f(...), whose function may be system), which may run the data it reads as a "
            "shell command"
        )
    return None


def _code_argument_of(
    command: Sequence[str | None], prefix: str, shells_only: bool
) -> str | None:
    """:func:`code_argument` for the command that finally runs (past the runners)."""
    if len(command) < 2:
        return None  # the value names the program
    before, option = command[1:-1], _option_of(prefix)
    last = before[-1] if before else None
    if command[0] is None:  # a program named by a value: its code options are unknown
        option = _clustered(prefix, _ANY_CODE_OPTION)[0] or option
        given = option or last if (option or last) in _ANY_CODE_OPTION else ""
        given = given or _code_like_option(before, prefix)  # (--exec, -x, --pager...)
        if given and not shells_only:
            return (
                f"the argument of {given} of a program a value names, which may read it as "
                "code (as sh -c, python -c and perl -e do)"
            )
        return None
    name = program(command[0])
    if name in _LONG_ONLY:  # `gdb -eval-command {x}` is `gdb --eval-command {x}`
        before = [None if word is None else _long_only(word) for word in before]
        prefix = _long_only(prefix)
        option, last = _option_of(prefix), None if last is None else _long_only(last)
    # `su --comm {x}` is `su --command {x}`: read an abbreviated long option as the code
    # option it abbreviates.
    long_code = _glued_code_options(name)
    option = _unabbreviated(option, long_code)
    last = None if last is None else _unabbreviated(last, long_code)
    if name in SHELLS and is_command_string(before):
        return f"the command string of {name} -c, which that shell parses again as code"
    clustered, unclustered = _clustered(prefix, _glued_code_options(name))
    if clustered:  # `python -Bc{x}`, `perl -ne{x}`, `ssh -vo{x}`: as if written `-c{x}`
        option, prefix = clustered, unclustered
    module = _python_module(command[:-1]) if name in ("python", "pypy") else None
    if module and module[0] in _CODE_MODULES and not shells_only:
        data = _CODE_MODULES[str(module[0])]
        if not ((option or "-" + prefix[1:2]) in data or (module[1:] and module[-1] in data)):
            return f"an argument of {name} -m {module[0]}, which runs it as Python code"
    if name == "perl" and option in _PERL_MODULE_OPTIONS:
        return f"the module of perl {option}, which perl pastes into code (use MODULE ...;)"
    if name in _OLD_STYLE_OPTIONS and not before and not prefix.startswith("-"):
        return (
            f"the first argument of {name}, which {name} reads as option letters even without "
            f"a '-' ({_OLD_STYLE_OPTIONS[name]})"
        )
    command_strings = _COMMAND_STRING_OPTIONS.get(name, frozenset())
    if option in command_strings or _takes_next(last, command_strings):
        return f"the command string of {name} {option or last}, " + _AS_CODE.format("a shell")
    programs = _PROGRAM_OPTIONS.get(name, frozenset())
    if option in programs or _takes_next(last, programs):
        return f"the argument of {name} {option or last}, a command that {name} runs as code"
    module_option = _listed_option(_MODULE_OPTIONS, name, option, last, prefix)
    if module_option:
        return (
            f"the argument of {name} {module_option}, a shared library that {name} loads "
            "(by its path, ./x.so, or from a directory), whose code runs when loaded"
        )
    php_setting = _php_setting(before, option, prefix) if name == "php" else None
    if php_setting:
        return php_setting
    config_option = _listed_option(_CONFIG_OPTIONS, name, option, last, prefix)
    if config_option:
        return (
            f"the argument of {name} {config_option}, a configuration file that {name} "
            f"reads, one of whose settings may run code ({_CONFIG_FILES[name][1]})"
        )
    if name in _COMMAND_OPERANDS and _operand_count(before) >= _COMMAND_OPERANDS[name]:
        return f"the command string of {name}, " + _AS_CODE.format("a shell")
    if name in _COMMAND_SETTINGS:
        setting = _command_setting(name, before, option, prefix)
        if setting is not None:
            return setting
    environment = _environment_option(name, before, option, prefix)
    if environment is not None:
        return environment
    if name in _CODE_OPTIONS and not shells_only:
        given = option if option in _CODE_OPTIONS[name] else _code_option(name, before)
        if given:
            what = "SQL" if name in _SQL_SHELLS else "program"
            return f"the {what} of {name} {given}, " + _AS_CODE.format(name)
    if name == "perl" and not shells_only and not option and _perl_reads_operands(before):
        return (
            "a file operand of perl -n or -p (or of a program reading <>), which perl opens "
            "with its two-argument open, where 'cmd|' runs cmd as shell code"
        )
    if name in _SCRIPT_FIRST and not shells_only:
        code, files, with_argument = _SCRIPT_FIRST[name]
        given = option if option in code else last if last in code else ""
        if given:
            return f"the program of {name} {given}, " + _AS_CODE.format(name)
        if not option and _is_first_operand(before, code | files, with_argument):
            return f"the program of {name}, " + _AS_CODE.format(name)
    if name in _SQL_OPERANDS and not shells_only and _sql_shell_operands(before):
        return f"the SQL of {name} (after the database), " + _AS_CODE.format(name)
    if name in _MULTIPLEXER_COMMANDS and _multiplexer_operand(name, before, option):
        return (
            f"an operand of a {name} command that runs it as a shell command or types it "
            "into a shell, " + _AS_CODE.format("a shell")
        )
    if name in _JOINING and "-x" not in before and "--exec" not in before:
        return f"an argument of {name}, which joins its arguments for a shell to run as code"
    if name == "ssh" and _after_destination(before):
        return "the remote command of ssh, which the remote shell parses again as code"
    if name in _PLUS_COMMANDS and prefix.startswith("+") and "--" not in before:
        return (
            f"the command of {name} +..., a command that {name} runs as code (+!cmd runs a "
            "shell)"
        )
    if name in _ADDRESS_PROGRAMS and not option and last not in _ADDRESS_PROGRAMS[name]:
        return (
            f"an address of {name}, a language of its own where EXEC: and SYSTEM: run a "
            "command, and '!!' joins a second address to any address (OPEN:f!!SYSTEM:cmd)"
        )
    return None


def _listed_option(
    table: dict[str, frozenset[str]], name: str, option: str, last: str | None, prefix: str
) -> str:
    """The option of ``name`` in ``table`` (_MODULE_OPTIONS, _CONFIG_OPTIONS) whose argument a
    value is, glued to it (``option``) or the word after it (``last``); "" if none.  openssl
    reads its options with one dash or two, and ``-engine=x`` as ``-engine x``."""
    modules = table.get(name, frozenset())
    if name != "openssl":
        return option if option in modules else (last or "") if _takes_next(last, modules) else ""
    glued, equals, _ = prefix.partition("=")
    word = glued if equals else last
    if word is None or not word.startswith("-"):
        return ""
    spelled = "-" + word.lstrip("-")
    return spelled if spelled in modules else ""


def _php_setting(before: Sequence[str | None], option: str, prefix: str) -> str | None:
    """Why a value in php's ``-d name=value`` (``--define``) is code: it gives the setting's
    name (any setting: auto_prepend_file runs a file of PHP), or the setting names a shared
    library that php loads (extension, zend_extension)."""
    last = before[-1] if before else None
    if option == "-d":
        setting = prefix[2:]
    elif option == "--define":
        setting = prefix.partition("=")[2]
    elif _takes_next(last, _PHP_DEFINE):
        setting = prefix
    else:
        return None
    named = _SETTING_NAME.match(setting)
    if named is None:
        return (
            "a setting of php -d whose name a value gives (auto_prepend_file runs a file of "
            "PHP, extension loads a shared library)"
        )
    if named.group(1).lower() in _PHP_LIBRARY_SETTINGS:
        return (
            f"the php setting {named.group(1)}, a shared library that php loads (by its "
            "path, or from extension_dir), whose code runs when loaded"
        )
    return None


def _unknown_code_option(command: Sequence[str | None], prefix: str) -> str | None:
    """Why the last word of ``command`` is code when its program is none the tables know and
    the word is the argument of an option spelled like a code option (``./tool -c {x}``)."""
    if len(command) < 2 or command[0] is None or command[0] == EXPANDED:
        return None  # (a value naming the program: see _code_argument_of)
    if _is_known(command[0]):
        return None
    # (openssl's options are names after one dash, never clusters: `-hex` is no `-he -x`)
    given = _code_like_option(command[1:-1], prefix, program(command[0]) not in _NO_CLUSTERS)
    if not given:
        return None
    return (
        f"the argument of {given} of {command[0]}, a program the renderer does not know, "
        "where an option spelled like that may take code (as sh -c, perl -e, fd --exec, "
        "nc -e and make --eval do)"
    )


def _is_known(word: str) -> bool:
    """Whether the tables know what the program ``word`` does with its options' arguments:
    those of :data:`PLAIN_OPTION_PROGRAMS` (by name or system path) and the programs whose
    code options the tables list."""
    if _allow_listed(word, PLAIN_OPTION_PROGRAMS):
        return True
    return ("/" not in word or word.startswith(_SYSTEM_DIRECTORIES)) and program(
        word
    ) in _KNOWN_PROGRAMS.union(_MAKES)


def _code_like(word: str | None, clusters: bool = True) -> bool:
    """Whether the option ``word`` is spelled as options that take code are: ``-c``, ``-e``,
    ``-x``, ``-X`` (also at the end of a short cluster: ``-lc``, if ``clusters``), or a long
    name with a word such as exec, eval, command, cmd, pager (``--exec``, ``-toolexec``,
    ``--pre-cmd``)."""
    if word is None or not word.startswith("-") or word in ("-", "--"):
        return False
    if word in _CODE_LIKE_SHORT or (clusters and re.fullmatch(r"-[A-Za-z0-9]{1,2}[cexX]", word)):
        return True
    name = word.lstrip("-").partition("=")[0].lower()
    return len(name) > 1 and (
        name.endswith(_CODE_LIKE_ENDINGS)
        or not _CODE_LIKE_WORDS.isdisjoint(re.split(r"[-_.]", name))
    )


def _code_like_option(before: Sequence[str | None], prefix: str, clusters: bool = True) -> str:
    """The option spelled like a code option (see :func:`_code_like`) whose argument the value
    is: glued to it (``-c{x}``, ``--exec={x}``) or the word after it (``-c {x}``), never past
    ``--`` nor after ``--name=argument`` (that option's argument is its own word's).
    Without ``clusters``, a word after one dash is one option's name (``-hex``, no ``-he -x``)."""
    if "--" in before:
        return ""
    if prefix.startswith("-"):
        option, equals, _ = prefix.partition("=")
        if prefix[:2] in _CODE_LIKE_SHORT and not prefix.startswith("--"):
            return prefix[:2]
        return option if equals and len(option) > 2 and _code_like(option, False) else ""
    last = before[-1] if before else None
    if last is not None and "=" not in last and _code_like(last, clusters):
        return last
    return ""


def is_command_string(before: Sequence[str | None]) -> bool:
    """Whether the word after ``before`` (a shell's static arguments so far) is its ``-c``
    command string: the first operand once a ``-c`` option was given (``sh -ec {x}``), as
    POSIX ``sh -c command_string [command_name [argument...]]`` reads it.  Operands after it
    are positional parameters, which the command string reads as data (``sh -c '...' _ {x}``)."""
    given_c = expects_argument = False
    for word in before:
        if word is None:  # a word holding a value: an operand, so the string came before
            return False
        if expects_argument:
            expects_argument = False
        elif word in ("--", "-"):  # (both end the options, in dash and bash)
            continue
        elif word in _SHELL_OPTIONS_WITH_ARGUMENT:  # (`-o errexit`, `--rcfile F`)
            expects_argument = True
        elif word.startswith("--") and word not in _SHELL_LONG_OPTIONS:
            return True  # an unknown long option: any word after may be the string
        elif word[:1] in "-+" and len(word) > 1 and not word.startswith("--"):
            given_c = given_c or "c" in word[1:]
        elif not word.startswith("--"):
            return False  # an operand: the command string, or a script's name
    return given_c and not expects_argument


def _command_string_at(words: Sequence[str | None]) -> int | None:
    """Where the ``-c`` command string is in a shell's arguments ``words``: the first operand
    after the options (``sh -c -e -- S``, ``bash -c -O extglob S``: S), else None."""
    return next(
        (
            at
            for at, word in enumerate(words)
            if is_command_string(words[:at])
            and (
                word is None
                or word == EXPANDED
                or not word.startswith(("-", "+"))
                or words[at - 1] in ("--", "-")  # (after them, `-x; sh` is the string)
            )
        ),
        None,
    )


def _run_command(command: Sequence[str | None], prefix: str) -> Sequence[str | None]:
    """The command that finally runs: past ``env``, ``sudo``, ``xargs``, ``find -exec``...
    (``prefix``: as for :func:`code_argument`)."""
    return _follow(command, prefix)[0]


def _follow(command: Sequence[str | None], prefix: str) -> tuple[Sequence[str | None], str]:
    """:func:`_run_command`, and the runner that hands the command over (``""``: none)."""
    command, runner, _ = _follow_options(command, prefix)
    return command, runner


def _follow_options(
    command: Sequence[str | None], prefix: str
) -> tuple[Sequence[str | None], str, bool]:
    """:func:`_follow`, and whether the runner still read options where its command starts
    (no ``--``, no ``env NAME=value`` before it): there it reads a word starting with ``-`` as
    an option of its own, not as the command's name (``env -Scmd``)."""
    runner = ""
    options = False
    while command and command[0] is not None:
        name = program(command[0])
        if name == "find":
            action = _find_action(command)
            if action is command:
                return command, runner, options
            command, runner, options = action, name, False  # (-exec takes a name as it is)
            continue
        subcommand = (name, command[1] or "") if len(command) > 1 else (name, "")
        if subcommand in _SUBCOMMAND_RUNNERS:
            with_argument, operands = _SUBCOMMAND_RUNNERS[subcommand]
            at = 2
        elif name in _RUNNERS:
            with_argument, operands = _RUNNERS[name]
            at = 1
        else:
            return command, runner, options
        command_strings = _COMMAND_STRING_OPTIONS.get(name, frozenset())
        expects_argument = False
        options = True
        while at < len(command):
            word = command[at]
            if word is not None:
                word = _unabbreviated(word, command_strings | with_argument | _SPLIT_STRING)
            if word != command[at]:  # `env --split='sh -c' {x}`, `flock f --comm {x}`
                command = [*command[:at], word, *command[at + 1 :]]
            if expects_argument:
                expects_argument = False
            elif word is None and at == len(command) - 1 and prefix.startswith("-"):
                return command, runner, options  # the value is glued to one of its options
            elif word is None and operands:
                operands -= 1  # `timeout {t} ...`, `docker exec {container} ...`
            elif word is None:
                break
            elif name == "env" and (split := _env_split_string(command, at)) is not None:
                command, at = split, -1  # `env -S'sh -c' {x}` runs `sh -c {x}`: read again
                break
            elif _gives(word, command_strings):
                return command, runner, options  # `flock f -c {x}`: the runner's command string
            elif word == "--":
                at += 1
                options = False
                break
            elif word.startswith("-") and len(word) > 1:
                expects_argument = word in with_argument
            elif name == "env" and "=" in word:
                options = False  # env NAME=value: env reads no option after it
            elif operands:
                operands -= 1
            else:
                break
            at += 1
        if at < 0:
            continue  # (env's arguments with its split string's words in place)
        if at >= len(command):
            return command, runner, options  # still in the runner's own arguments
        command, runner = command[at:], name
    return command, runner, options


_SPLIT_STRING = _COMMAND_STRING_OPTIONS["env"]


def _env_split_string(command: Sequence[str | None], at: int) -> list[str | None] | None:
    """``command`` with the string of env's ``-S`` at ``command[at]`` (``-S STRING``,
    ``-SSTRING``, ``-iS STRING``, ``--split-string=STRING``) replaced by the words env splits it
    into (its quoting is the shell's, close enough to read which program runs): ``env -S'sh -c'
    {x}`` runs ``sh -c {x}``.  None when ``command[at]`` gives no such string written in the
    static text (a value there is refused as a command string)."""
    word = command[at]
    if word is None:
        return None
    following = at + 1
    kept: list[str | None] = []
    string: str | None = None
    if word.startswith("--split-string="):
        string = word.partition("=")[2]
    elif word[:1] == "-" and word[1:2] not in ("-", "") and "S" in word:
        letters, _, glued = word[1:].partition("S")
        if not set(letters) <= set("iv0"):
            return None  # (`-uSHELL` unsets SHELL: an option's argument, not -S)
        kept = [f"-{letters}"] if letters else []
        string = glued or None
    elif word != "--split-string":
        return None
    if string is None:
        following += 1
        string = command[at + 1] if at + 1 < len(command) else None
        if string is None or string == EXPANDED:
            return None
    try:
        words: list[str | None] = list(shlex.split(string))
    except ValueError:
        return None
    return [*command[:at], *kept, *words, *command[following:]]


def _find_action(command: Sequence[str | None]) -> Sequence[str | None]:
    """The command of find's last unfinished ``-exec`` (or ``-ok``...), else find itself."""
    start = None
    for at, word in enumerate(command):
        if word in _FIND_ACTIONS:
            start = at + 1
        elif word in (";", "+"):
            start = None
    if start is None or start >= len(command):
        return command
    return command[start:]


def find_actions(command: Sequence[str | None]) -> list[Sequence[str | None]]:
    """The commands find runs for each file it lists in ``command`` (also behind runners):
    each ``-exec``, ``-execdir``, ``-ok`` and ``-okdir`` up to its ``;`` or ``+``, where ``{}``
    stands for a listed file's name."""
    ran = _run_command(command, "")
    if not ran or ran[0] in (None, EXPANDED) or program(ran[0]) != "find":
        return []
    actions: list[Sequence[str | None]] = []
    start = None
    for at, word in enumerate(ran):
        if start is None and word in _FIND_ACTIONS:
            start = at + 1
        elif start is not None and word in (";", "+"):
            actions.append(ran[start:at])
            start = None
    if start is not None:
        actions.append(ran[start:])
    return [action for action in actions if action]


# Project runners that run a Python file given as their command (``uv run s.py``, ``pdm run
# s.py``, ``pipx run s.py``: uv's, pdm's and pipx's manuals), as ``python s.py`` does.
_PYTHON_FILE_RUNNERS = frozenset({("uv", "run"), ("pdm", "run"), ("pipx", "run")})


def find_data_argument(command: Sequence[str | None], at: int) -> bool:
    """Whether ``command[at]`` is the argument of one of find's tests, which find reads as
    data (``find . -newer notes.txt`` compares the file's time, ``-samefile`` its inode)."""
    return (
        at > 1
        and command[0] not in (None, EXPANDED)
        and program(command[0]) == "find"
        and command[at - 1] in _FIND_TESTS_WITH_ARGUMENT
    )


def python_file_run(command: Sequence[str | None]) -> str | None:
    """The word of ``command`` that a project runner may run as a Python script (``s.py`` in
    ``uv run --with x s.py``), else None.  (Their options that take an argument are many, so
    any later word ending in ``.py`` counts: ``uv run pytest t.py`` imports it too.)"""
    ran = _run_command(command, "")
    if len(ran) < 3 or ran[0] in (None, EXPANDED) or ran[1] is None:
        return None
    if (program(ran[0]), ran[1]) not in _PYTHON_FILE_RUNNERS:
        return None
    return next(
        (w for w in ran[2:] if w is not None and w[:1] != "-" and w.endswith(".py")), None
    )


def _glued_code_options(name: str) -> frozenset[str]:
    """The options of ``name`` whose argument is code or a setting, which a value may be
    glued to at the end of a cluster of short options."""
    return frozenset().union(
        _COMMAND_STRING_OPTIONS.get(name, ()),
        _PROGRAM_OPTIONS.get(name, ()),
        _CODE_OPTIONS.get(name, ()),
        _SCRIPT_FIRST[name][0] if name in _SCRIPT_FIRST else (),
        _PERL_MODULE_OPTIONS if name == "perl" else (),
        ("-o",) if name in ("ssh", "scp", "sftp") else (),
        # (`ssh -vI{lib}`, `ssh -vF{f}`; openssl's options are no clusters: see _listed_option)
        _MODULE_OPTIONS.get(name, ()) if name != "openssl" else (),
        _CONFIG_OPTIONS.get(name, ()) if name != "openssl" else (),
    )


# Options in full that begin another option's name (tar's --checkpoint[=N] and
# --checkpoint-action): no abbreviation of that other option.
_WHOLE_OPTIONS = frozenset({"--checkpoint"})


def _unabbreviated(word: str, options: frozenset[str]) -> str:
    """``word`` with its long option spelled in full when it abbreviates one of ``options``
    (``--comm`` and ``--comm=ls`` for ``--command``): GNU getopt_long and Python's argparse
    read any unambiguous prefix of a long option as that option.  An ambiguous prefix is
    read as the first option it starts: such a command fails, so refusing it is the safe
    side."""
    if not word.startswith("--") or len(word) < 3:
        return word
    name, equals, argument = word.partition("=")
    if name in options or name in _WHOLE_OPTIONS:
        return word
    full = next((option for option in sorted(options) if option.startswith(name)), None)
    return word if full is None else full + equals + argument


# Programs that parse their options with getopt_long_only, which reads a word with one dash as
# a long option (abbreviated too) before it reads it as short options: `gdb -eval-command=CMD`,
# `gdb -ex=CMD` and `gdb -eval CMD` each ran CMD's `shell` command in real gdb.
_LONG_ONLY = frozenset({"gdb"})
# Programs whose every option is a name after one dash, never a cluster of letters.
_NO_CLUSTERS = _LONG_ONLY | {"openssl"}


def _long_only(word: str) -> str:
    """``word`` as getopt_long_only reads it: ``-name`` (two letters or more after one dash)
    as ``--name``; a single letter (``-x``) stays a short option."""
    if word.startswith("--") or not word.startswith("-") or len(word) < 3:
        return word
    return "-" + word


def _clustered(prefix: str, options: frozenset[str]) -> tuple[str, str]:
    """The first of ``options`` in the cluster of short options that ``prefix`` starts with
    (``-c`` of ``-Bc``, ``-e`` of ``-ne``, ``-o`` of ``-voName=``), and ``prefix`` as if that
    option were written alone (``-c``, ``-e``, ``-oName=``); ``("", prefix)`` if none.  A
    letter before it that takes an argument would make the rest that argument: refusing then
    is the safe side."""
    cluster = _CLUSTER.match(prefix)
    if cluster is None:
        return "", prefix
    for at, letter in enumerate(cluster.group(1), 1):
        if "-" + letter in options:
            return "-" + letter, "-" + prefix[at:]
    return "", prefix


def _option_of(prefix: str) -> str:
    """The option a value is glued to: ``-e`` of ``-e{x}`` and ``-eprint({x}``, ``--eval`` of
    ``--eval={x}`` and ``--eval=f({x}``: the value is in that option's argument either way."""
    if prefix.startswith("--"):
        option, equals, _ = prefix.partition("=")
        return option if equals else ""
    return prefix[:2] if prefix.startswith("-") and len(prefix) >= 2 else ""


def _gives(word: str | None, options: frozenset[str]) -> bool:
    """Whether ``word`` is one of ``options`` (``--command=x`` too), or a cluster of short
    options ending in one (``-lc`` for ``-c``), so that the next word is its argument."""
    if word is None:
        return False
    if word.partition("=")[0] in options:
        return True
    return (
        len(word) > 2 and word[0] == "-" and word[1] != "-" and "-" + word[-1] in options
    )


def _takes_next(word: str | None, options: frozenset[str]) -> bool:
    """:func:`_gives`, but not for ``--option=argument``, whose argument is its own word's:
    ``rsync --rsh=ssh {src}`` hands rsync a source, not a command."""
    return (_gives(word, options) and not (word or "").startswith("--")) or word in options


def _sql_shell_operands(words: Sequence[str | None]) -> list[str | None]:
    """The operands (database, SQL) among the arguments ``words`` (None: a value) of the
    sqlite3 or DuckDB shell, which reads options anywhere, past each option's arguments."""
    operands: list[str | None] = []
    skip = 0
    for word in words:
        if skip:
            skip -= 1
        elif word is not None and word.startswith("-") and word != "-":
            skip = _SQL_SHELL_ARGUMENTS.get(word.lstrip("-"), 0)
        else:
            operands.append(word)
    return operands


def _operand_count(before: Sequence[str | None]) -> int:
    """How many operands (words not starting with ``-``) come before the value."""
    return sum(1 for word in before if word is None or not word.startswith("-"))


def _command_setting(
    name: str, before: Sequence[str | None], option: str, prefix: str
) -> str | None:
    """Why a value in a setting of ssh (``-o``) or git (``-c``, ``git config``) is code: the
    setting is one the program runs as a command, or the value gives the setting's name."""
    if name == "git":
        subcommand = _git_subcommand(before)
        options = _GIT_SUBCOMMAND_OPTIONS.get(subcommand or "", frozenset())
        # git's options parser reads an abbreviated long option as the option in full
        option = _unabbreviated(option, _GIT_COMMAND_OPTIONS | options)
        last = before[-1] if before else None
        last = None if last is None else _unabbreviated(last, _GIT_COMMAND_OPTIONS | options)
        if option in _GIT_COMMAND_OPTIONS or last in _GIT_COMMAND_OPTIONS:
            return f"the argument of git {option or last}, a command that git runs as code"
        if subcommand is None and (
            option in _GIT_REPOSITORY_OPTIONS or last in _GIT_REPOSITORY_OPTIONS
        ):
            return f"the repository of git {option or last}, " + CHOSEN_REPOSITORY
        if option in options or _gives(last, options):
            return (
                f"the argument of git {subcommand} {option or last}, a command that git "
                "runs as code"
            )
        if subcommand in _GIT_SUBCOMMAND_COMMANDS:
            after = before[before.index(subcommand) + 1 :]
            if _GIT_SUBCOMMAND_COMMANDS[subcommand] in after:
                return (
                    f"the command of git {subcommand} {_GIT_SUBCOMMAND_COMMANDS[subcommand]}, "
                    "which git runs as code"
                )
        if option == "--config-env":
            setting = prefix.partition("=")[2]
        elif before and before[-1] in ("-c", "--config") and _git_setting_option(before):
            setting = prefix
        elif _git_subcommand(before) == "config":
            return _git_config_operand(before)
        else:
            return None
    elif option == "-o" or (before and before[-1] == "-o"):
        setting = prefix[2:] if option == "-o" else prefix
    else:
        return None
    named = _SETTING_NAME.match(setting)
    return _setting_is_command(name, named.group(1) if named else None)


def _environment_option(
    name: str, before: Sequence[str | None], option: str, prefix: str
) -> str | None:
    """Why a value in an option that sets an environment variable for the command a program
    runs is code (``docker run -e {x}``, ``systemd-run -E X={x}``, ``bwrap --setenv X {x}``),
    or in a systemd unit property that is not plain data (``systemd-run -p ExecStartPre={x}``)."""
    last = before[-1] if before else None
    if name in _CONTAINER_TOOLS:
        operands = [word for word in before if word is None or not word.startswith("-")]
        subcommand = next((w for w in operands[:2] if w in _ENVIRONMENT_SUBCOMMANDS), None)
        if subcommand is None or _in_container_command(name, before, subcommand):
            return None
        options = _DOCKER_ENVIRONMENT
        name = f"{name} {subcommand}"
    else:
        options = _ENVIRONMENT_OPTIONS.get(name, frozenset())
    given = option if option in options else last if _takes_next(last, options) else ""
    if name == "bwrap" and len(before) > 1 and before[-2] == "--setenv":
        given = "--setenv"  # the VALUE of --setenv NAME VALUE
    if name == "tmux" and not given and not _SETENV.isdisjoint(before):
        given = "set-environment"  # the NAME or VALUE of tmux set-environment NAME VALUE
    if given:
        return (
            f"the argument of {name} {given}, an environment variable (NAME=value) that {name} "
            "sets for the command it runs, and programs run variables such as BASH_ENV, "
            "LD_PRELOAD or PAGER as code"
        )
    if name == "systemd-run" and (option in ("-p", "--property") or last in ("-p", "--property")):
        setting = prefix[2:] if option == "-p" else prefix.partition("=")[2] if option else prefix
        key = setting.partition("=")[0].lower()
        if "=" not in setting or key not in _DATA_UNIT_PROPERTIES:
            return (
                f"a unit property of systemd-run {option or last} that is not plain data "
                "(ExecStartPre= and the other Exec settings are commands, Environment= sets "
                "variables), or whose name a value gives"
            )
    return None


def _in_container_command(name: str, before: Sequence[str | None], subcommand: str) -> bool:
    """Whether the value comes after the image (or container) of ``docker run`` (``create``,
    ``exec``), in the command run inside: its options are that command's.  kubectl takes its
    options anywhere, and the command only after ``--``."""
    return _container_command(name, before, subcommand) is not None


def _container_command(
    name: str, before: Sequence[str | None], subcommand: str
) -> Sequence[str | None] | None:
    """The words of the command run inside that come before the value, when the value comes
    after the image (or container) of ``docker run`` (see :func:`_in_container_command`)."""
    start = before.index(subcommand) + 1
    after = before[start:]
    if name == "kubectl":
        return after[after.index("--") + 1 :] if "--" in after else None
    expects_argument, certain = False, True
    for at, word in enumerate(after):
        if expects_argument:
            expects_argument = False
        elif word is not None and word.startswith("-") and word != "-":
            if word in _CONTAINER_OPTIONS_WITH_ARGUMENT:
                expects_argument = True
            elif word not in _CONTAINER_FLAGS and "=" not in word:
                certain = False  # an option the table does not know: is its argument next?
        elif certain:
            return after[at + 1 :]  # the image (or container): what follows is the command
    return None


def _git_subcommand(before: Sequence[str | None]) -> str | None:
    """git's subcommand (its first operand after the global options), if written before the
    value; ``None`` while still in the global options, or when a value is the subcommand."""
    at = _git_subcommand_at(before)
    return None if at is None else before[at]


def _git_subcommand_at(before: Sequence[str | None]) -> int | None:
    """Where :func:`_git_subcommand` is in ``before`` (``git git cat``: the second word)."""
    expects_argument = False
    for at, word in enumerate(before):
        if expects_argument:
            expects_argument = False
        elif word is None:
            return None
        elif word.startswith("-"):
            expects_argument = word in _GIT_OPTIONS_WITH_ARGUMENT
        else:
            return at
    return None


def _git_setting_option(before: Sequence[str | None]) -> bool:
    """Whether the ``-c`` right before the value sets a setting: git's global ``-c``, or
    ``git clone -c``/``--config`` (``git commit -c`` names a commit)."""
    subcommand = _git_subcommand(before[:-1])
    return (subcommand is None and before[-1] == "-c") or subcommand == "clone"


def _git_config_operand(before: Sequence[str | None]) -> str | None:
    """Why a value in ``git config``'s operands is code: it gives the setting's name, or the
    value of a setting that is a command."""
    after = before[before.index("config") + 1 :]
    if any(word in _GIT_CONFIG_READING for word in after):
        return None  # reading or removing a setting runs nothing
    operands = [word for word in after if word is None or word[:1] != "-"]
    if not operands or operands == ["set"]:
        return _setting_is_command("git config", None)
    if None in operands:
        return None  # the name was a value, refused as such already
    # Any operand may be the name: an option's argument (`-f FILE`, `--type bool`) and git
    # 2.46's `set` come before it, and the tables need not know every option.
    return next(filter(None, (_setting_is_command("git", word) for word in operands)), None)


def _setting_is_command(name: str, key: str | None) -> str | None:
    """Why a value in the setting ``key`` of ``name`` (None: the value gives the name) is
    code, or None."""
    if key is None:
        where = name if " " in name else f"{name} -c" if name == "git" else f"{name} -o"
        program = name.partition(" ")[0]
        return (
            f"a setting of {where} whose name a value gives (some settings are commands "
            f"that {program} runs as code)"
        )
    lowered = key.lower()
    if name in ("ssh", "scp", "sftp") and lowered == "setenv":
        return (
            f"the {name} setting {key}, an environment variable (NAME=value) that the remote "
            "command gets, and programs run variables such as BASH_ENV, LD_PRELOAD or PAGER "
            "as code"
        )
    section, _, last = lowered.rpartition(".")
    head = lowered.partition(".")[0]
    if {lowered, f"{head}.*", f"*.{last}" if section.count(".") else ""} & _COMMAND_SETTINGS[
        name
    ] or (name == "git" and last.endswith(_GIT_COMMAND_ENDINGS)):
        return f"the {name} setting {key}, a command that {name} runs as code"
    return None


def _code_option(name: str, before: Sequence[str | None]) -> str:
    """The code option right before the value (``-c``, or a cluster ending in it: ``-Bc``)."""
    if not before or before[-1] is None:
        return ""
    last = _unabbreviated(before[-1], _CODE_OPTIONS[name])  # (`mysql --exec {x}`)
    if last in _CODE_OPTIONS[name]:
        return last
    short = [option[1] for option in _CODE_OPTIONS[name] if len(option) == 2]
    if last[:1] == "-" and last[1:2] != "-" and last[-1:] in short:
        return "-" + last[-1]
    return ""


def _is_first_operand(
    before: Sequence[str | None], giving: frozenset[str], with_argument: frozenset[str]
) -> bool:
    """Whether the value is the first operand of awk or sed with no program given by an
    option (then that operand is the program)."""
    expects_argument = False
    for word in before:
        if expects_argument:
            expects_argument = False
        elif word is None:
            return False  # an earlier value was the first operand
        elif word == "--":
            continue
        elif word.split("=")[0] in giving:
            return False
        elif word.startswith("-") and len(word) > 1:
            expects_argument = word in with_argument or word in giving
        else:
            return False
    return not expects_argument  # else the value is an option's argument


def _multiplexer_operand(name: str, before: Sequence[str | None], option: str) -> bool:
    """Whether the value is an operand (not an option's argument) of one of tmux's or
    screen's commands that run a shell command or type keys (screen: after ``-X``)."""
    commands = _MULTIPLEXER_COMMANDS[name]
    at = next((i for i, word in enumerate(before) if word in commands), None)
    if at is None or option:
        return False
    last = before[-1] if len(before) > at + 1 else None
    return last not in _MULTIPLEXER_OPTIONS_WITH_ARGUMENT


def _ssh_operands(words: Sequence[str | None]) -> int:
    """How many operands ssh's arguments hold (its destination, then the remote command)."""
    count, expects_argument = 0, False
    for word in words:
        if expects_argument:
            expects_argument = False
        elif word is not None and word.startswith("-") and len(word) > 1 and not count:
            expects_argument = word in _SSH_OPTIONS_WITH_ARGUMENT
        elif word != "--" or count:
            count += 1
    return count


def _is_destination(before: Sequence[str | None], prefix: str) -> bool:
    """Whether the value's word (after ``before``, starting with ``prefix``) is ssh's
    destination: its first operand, no option's argument."""
    expects_argument = ended = False
    for word in before:
        if expects_argument:
            expects_argument = False
        elif word == "--" and not ended:
            ended = True  # (the options end: the next word is the destination)
        elif ended or word is None or not word.startswith("-") or len(word) == 1:
            return False  # (an operand before: the destination, or a value as it)
        else:
            expects_argument = word in _SSH_OPTIONS_WITH_ARGUMENT
    return not expects_argument and (ended or not prefix.startswith("-"))


# scp's options that take an argument (OpenSSH 9.2's scp.1): -c -D -F -i -J -l -o -P -S -X.
_SCP_ARGUMENT_LETTERS = "cDFiJloPSX"


def _is_scp_operand(before: Sequence[str | None], prefix: str) -> bool:
    """Whether the value's word (after ``before``, starting with ``prefix``) is an operand of
    scp (a file, local or ``[user@]host:path``), no option nor an option's argument."""
    expects_argument = ended = False
    for word in before:
        if expects_argument:
            expects_argument = False
        elif word == "--" and not ended:
            ended = True
        elif not ended and word is not None and word.startswith("-") and len(word) > 1:
            # (getopt: the first letter that takes an argument takes the rest of the word,
            # or the next word when it is the last: `-rP 22`, `-P22`)
            letter = next((at for at, c in enumerate(word) if c in _SCP_ARGUMENT_LETTERS), None)
            expects_argument = letter == len(word) - 1
    return not expects_argument and (ended or not prefix.startswith("-"))


def _after_destination(before: Sequence[str | None]) -> bool:
    """Whether the value comes after ssh's destination (in the remote command)."""
    expects_argument = False
    for word in before:
        if expects_argument:
            expects_argument = False
        elif word is None:
            return True  # a value as the destination: anything after is the command
        elif word == "--":
            continue
        elif word.startswith("-") and len(word) > 1:
            expects_argument = word in _SSH_OPTIONS_WITH_ARGUMENT
        else:
            return True
    return False


# -- arguments a program parses further -----------------------------------------------------
#
# The value stays one word, but some programs split the argument it stands in by a grammar of
# their own, where a character of the value may give the word another structure than the
# template's: OpenSSH pastes a jump host into a command its shell runs, psql pastes a variable
# into its script as SQL and backslash commands, libpq reads a database name holding '=' as a
# connection string (another host, which gets the password), curl reads '@file' as a file to
# send, expands '{a,b}' and '[1-9]' in a URL, and writes CR LF into the request, git reads
# ':main' as a refspec that deletes a branch and '*' or ':/' as every file.  These tables say
# which arguments are parsed so, and what a value may hold there (an allow-list each).


class ArgumentRule(NamedTuple):
    """The grammar of the argument a value stands in: the checks its value must pass
    (:func:`argument_refusal`), the option or operand it is (``"ssh -J"``, for the message),
    and how many characters of its word the option's own text takes (``-J``, ``ProxyJump=``)."""

    checks: tuple[str, ...]
    where: str
    skip: int = 0


# ssh's options that take the next word as their argument, which `-J` and `-o` are part of.
_SSH_JUMP = re.compile(r"\s*proxyjump\s*(?:=\s*|\s+)", re.IGNORECASE)
# A jump host as the allow-list takes it: [user@]host[:port], host a DNS name, an IPv4 address
# or a bracketed IPv6 address (OpenSSH before 9.6 runs `ssh -W ... HOST` through a shell).
_JUMP_HOST = re.compile(
    r"(?:[A-Za-z0-9._][A-Za-z0-9._-]*@)?(?:[A-Za-z0-9][A-Za-z0-9.-]*|\[[0-9A-Fa-f:.]+\])"
    r"(?::[0-9]+)?\Z"
)
# ssh's destination: [user@]host or ssh://[user@]host[:port], host a name (a configuration's
# alias may hold '_'), an address, or an IPv6 address with or without brackets.
_SSH_DESTINATION = re.compile(
    r"(?:ssh://)?(?:[A-Za-z0-9._][A-Za-z0-9._-]*@)?"
    r"(?:[A-Za-z0-9_:][A-Za-z0-9._:%-]*|\[[0-9A-Fa-f:.]+\])(?::[0-9]+)?\Z"
)
_LIBPQ_PROGRAMS = frozenset(
    {"psql", "pg_dump", "pg_dumpall", "pg_restore", "pg_isready", "createdb", "dropdb",
     "vacuumdb", "reindexdb", "clusterdb", "pgbench", "pg_basebackup", "pg_receivewal",
     "pg_recvlogical", "createuser", "dropuser"}
)  # fmt: skip
# libpq programs whose operand is a database name read as a connection string when it holds
# '=' or starts with postgres:// (createdb's and dropdb's operand is only a name), and their
# options that take the next word as their argument.
_CONNECTION_OPERANDS: dict[str, frozenset[str]] = {
    "psql": frozenset(
        {"-c", "--command", "-d", "--dbname", "-f", "--file", "-F", "--field-separator",
         "-h", "--host", "-L", "--log-file", "-o", "--output", "-p", "--port", "-P", "--pset",
         "-R", "--record-separator", "-T", "--table-attr", "-U", "--username", "-v", "--set",
         "--variable"}
    ),
    "pg_dump": frozenset(
        {"-f", "--file", "-F", "--format", "-j", "--jobs", "-n", "--schema", "-N",
         "--exclude-schema", "-t", "--table", "-T", "--exclude-table", "-Z", "--compress",
         "-E", "--encoding", "-h", "--host", "-p", "--port", "-U", "--username", "-d",
         "--dbname", "-S", "--superuser", "--role", "--lock-wait-timeout", "--section",
         "--exclude-table-data", "--snapshot", "--extra-float-digits", "--rows-per-insert"}
    ),
    **dict.fromkeys(
        ("vacuumdb", "reindexdb", "clusterdb", "pgbench"),
        frozenset({"-h", "--host", "-p", "--port", "-U", "--username", "-d", "--dbname",
                   "-t", "--table", "-n", "--schema", "-N", "--exclude-schema", "-j", "--jobs",
                   "-i", "--index", "-S", "--tablespace", "-f", "--file", "-c", "--client",
                   "-T", "--time", "-D", "--define", "-s", "--scale", "-P", "--progress"}),
    ),
}  # fmt: skip
# The options of libpq programs whose argument is a connection string (pgbench's -d debugs).
_CONNECTION_OPTIONS = frozenset({"-d", "--dbname", "--maintenance-db"})
_PSQL_VARIABLES = frozenset({"-v", "--set", "--variable"})
# curl's options that take the next word as their argument (curl --help all, 7.88), and those
# whose argument curl reads from a file when it starts with '@' (the form fields: also '<').
_CURL_OPTIONS_WITH_ARGUMENT = frozenset(
    {"--abstract-unix-socket", "--alt-svc", "--aws-sigv4", "--cacert", "--capath", "-E",
     "--cert", "--cert-type", "--ciphers", "-K", "--config", "--connect-timeout",
     "--connect-to", "-C", "--continue-at", "-b", "--cookie", "-c", "--cookie-jar",
     "--create-file-mode", "--crlfile", "--curves", "-d", "--data", "--data-ascii",
     "--data-binary", "--data-raw", "--data-urlencode", "--delegation", "--dns-interface",
     "--dns-ipv4-addr", "--dns-ipv6-addr", "--dns-servers", "--doh-url", "-D",
     "--dump-header", "--egd-file", "--engine", "--etag-compare", "--etag-save",
     "--expect100-timeout", "-F", "--form", "--form-string", "--ftp-account",
     "--ftp-alternative-to-user", "--ftp-method", "-P", "--ftp-port", "--ftp-ssl-ccc-mode",
     "--happy-eyeballs-timeout-ms", "-H", "--header", "--hostpubmd5", "--hostpubsha256",
     "--hsts", "--interface", "--json", "--keepalive-time", "--key", "--key-type", "--krb",
     "--libcurl", "--limit-rate", "--local-port", "--login-options", "--mail-auth",
     "--mail-from", "--mail-rcpt", "--max-filesize", "--max-redirs", "-m", "--max-time",
     "--netrc-file", "--noproxy", "--oauth2-bearer", "-o", "--output", "--output-dir",
     "--parallel-max", "--pass", "--pinnedpubkey", "--proto", "--proto-default",
     "--proto-redir", "--proxy-cacert", "--proxy-capath", "--proxy-cert", "--proxy-cert-type",
     "--proxy-ciphers", "--proxy-crlfile", "--proxy-header", "--proxy-key", "--proxy-key-type",
     "--proxy-pass", "--proxy-pinnedpubkey", "--proxy-service-name", "--proxy-tls13-ciphers",
     "--proxy-tlsauthtype", "--proxy-tlspassword", "--proxy-tlsuser", "-U", "--proxy-user",
     "--proxy1", "--pubkey", "-Q", "--quote", "--random-file", "-r", "--range", "--rate",
     "-e", "--referer", "-X", "--request", "--request-target", "--resolve", "--retry",
     "--retry-delay", "--retry-max-time", "--sasl-authzid", "--service-name", "--socks4",
     "--socks4a", "--socks5", "--socks5-gssapi-service", "--socks5-hostname", "-Y",
     "--speed-limit", "-y", "--speed-time", "--stderr", "-t", "--telnet-option",
     "--tftp-blksize", "-z", "--time-cond", "--tls-max", "--tls13-ciphers", "--tlsauthtype",
     "--tlspassword", "--tlsuser", "--trace", "--trace-ascii", "--unix-socket", "-T",
     "--upload-file", "--url", "--url-query", "-u", "--user", "-A", "--user-agent", "-w",
     "--write-out", "-x", "--proxy", "--preproxy"}
)  # fmt: skip
# What curl parses in an option's argument: '@file' (read and sent), 'name@file' after no '='
# (--data-urlencode, --url-query), a form field's '=@file', '=<file' and ';type=', ';headers=',
# a line of the request (CR LF ends it), a method (a token), a cookie list (';').
_CURL_ARGUMENTS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("-d", "--data", "--data-ascii", "--data-binary", "--json"), ("file",)),
    "--data-urlencode": ("named-file",),
    "--url-query": ("named-file", "encoded"),
    **dict.fromkeys(("-F", "--form"), ("form",)),
    **dict.fromkeys(("-H", "--header", "--proxy-header"), ("file", "line")),
    **dict.fromkeys(("-A", "--user-agent", "-e", "--referer"), ("line",)),
    **dict.fromkeys(("-b", "--cookie"), ("line", "cookie")),
    **dict.fromkeys(("-X", "--request"), ("token",)),
}
_WGET_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "--method": ("token",),
    **dict.fromkeys(("--header", "-U", "--user-agent", "--referer"), ("line",)),
}
# git subcommands whose operands after the remote are refspecs, and their options that take the
# next word as their argument.
_GIT_REFSPEC_COMMANDS = frozenset({"push", "fetch", "pull"})
_GIT_REFSPEC_OPTIONS = frozenset(
    {"--repo", "-o", "--push-option", "--server-option", "--receive-pack", "--upload-pack",
     "--exec", "--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs",
     "--negotiation-tip", "--refmap", "-s", "--strategy", "-X", "--strategy-option"}
)  # fmt: skip
# git subcommands whose every operand is a pathspec, with their options that take the next
# word as their argument; other subcommands read pathspecs after `--`.
_GIT_PATHSPEC_COMMANDS: dict[str, frozenset[str]] = {
    "add": frozenset(),
    "rm": frozenset(),
    "mv": frozenset(),
    "clean": frozenset({"-e", "--exclude"}),
    "restore": frozenset({"-s", "--source"}),
}
# (those that change files, the index or a commit, or export files: `git log -- {f}` only reads)
_GIT_PATHSPEC_AFTER_DASHES = frozenset(
    {"checkout", "reset", "commit", "stash", "archive", "update-index", "sparse-checkout"}
)
# git subcommands whose first operand is the repository git connects to, with their options
# that take the next word as their argument; submodule add's options that do.
_GIT_REPOSITORY_COMMANDS: dict[str, frozenset[str]] = {
    "clone": frozenset(
        {"-o", "--origin", "-b", "--branch", "-u", "--upload-pack", "--reference",
         "--reference-if-able", "--separate-git-dir", "--depth", "--shallow-since",
         "--shallow-exclude", "-c", "--config", "--template", "-j", "--jobs", "--filter",
         "--server-option", "--bundle-uri", "--ref-format"}
    ),
    "ls-remote": frozenset({"--upload-pack", "-o", "--server-option", "--sort"}),
    **dict.fromkeys(("fetch", "pull", "push"), _GIT_REFSPEC_OPTIONS),
}  # fmt: skip
_GIT_SUBMODULE_ADD = frozenset({"-b", "--branch", "--name", "--reference", "--depth"})
_GIT_REMOTE_ADD = frozenset({"-t", "-m"})
_GIT_REMOTE = frozenset({"--remote"})
# git settings whose value is a repository's URL (remote.NAME.url, pushurl, submodule.NAME.url).
_GIT_URL_SETTING = re.compile(r"(?:remote|submodule)\.[^=]*\.(?:push)?url=", re.IGNORECASE)
# git settings whose value git writes into an HTTP request, line by line.
_GIT_HEADER_SETTING = re.compile(r"http\.(?:.*\.)?extraheader=", re.IGNORECASE)
# kill's options whose argument is a signal (or, for -l, a number to name), not a process.
_KILL_SIGNAL_OPTIONS = frozenset({"-s", "-n", "-l", "-L", "--signal", "--list", "--table"})
# pkill's and pgrep's options whose argument is a process group, session or parent, where 0
# means pkill's own.
_PKILL_PROCESS_OPTIONS = frozenset({"-g", "--pgroup", "-s", "--session", "-P", "--parent"})
_AWK = frozenset({"awk", "gawk", "mawk", "nawk"})


def argument_rule(command: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """The grammar of the argument that the value (after ``prefix`` in the last word of
    ``command``) stands in, when its program parses that argument further (see
    :class:`ArgumentRule`); None if the tables know no such reading."""
    ran = _run_command(command, prefix)
    if len(ran) < 2 or ran[0] is None or ran[0] == EXPANDED:
        return None
    name = program(ran[0])
    finder = _RULE_FINDERS.get("libpq" if name in _LIBPQ_PROGRAMS else name)
    if finder is None:
        return None
    rule: ArgumentRule | None = finder(name, ran[1:-1], prefix)
    return rule


def _argument_of(
    before: Sequence[str | None], prefix: str, options: frozenset[str]
) -> tuple[str, int] | None:
    """The one of ``options`` whose argument the value stands in, and how many characters of
    the value's word that option's own text takes: the word before (``-J {x}``), the start of
    the word (``-J{x}``, ``-vJ{x}``, ``--dbname={x}``)."""
    last = before[-1] if before else None
    if not prefix.startswith("-") and last is not None and _takes_next(last, options):
        return (last if last in options else "-" + last[-1]), 0
    if prefix.startswith("--"):
        name, equals, _ = _unabbreviated(prefix, options).partition("=")
        return (name, len(prefix.partition("=")[0]) + 1) if equals and name in options else None
    option, rest = _clustered(prefix, options)
    return (option, len(prefix) - len(rest) + 2) if option else None


def _ssh_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """``ssh -J {x}``, ``-J{x}``, ``-o ProxyJump={x}``: a jump host list; ``ssh {x}``,
    ``ssh user@{x}``, ``ssh -l {x}``: ssh's destination (a user name is one too); an operand of
    scp (``scp h:{path} .``), whose remote path the legacy protocol hands to a shell."""
    given = _argument_of(before, prefix, frozenset({"-J", "-o", "-l"}))
    if given is None and name == "ssh" and _is_destination(before, prefix):
        return ArgumentRule(("destination",), "ssh's destination")
    if given is None and name == "scp" and _is_scp_operand(before, prefix):
        return ArgumentRule(("remote-path",), "an scp operand")
    if given is None or _after_destination(before):
        return None
    option, skip = given
    if option == "-l":  # (scp's and sftp's -l is a bandwidth limit)
        user = ArgumentRule(("destination",), "ssh's destination's user", skip)
        return user if name == "ssh" else None
    if option == "-J":
        return ArgumentRule(("hosts",), f"{name} -J", skip)
    jump = _SSH_JUMP.match(prefix, skip)
    return None if jump is None else ArgumentRule(("hosts",), f"{name} -o ProxyJump", jump.end())


def _libpq_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """psql's variables (``-v NAME={x}``) and a database name (``-d {x}``, ``psql {x}``)."""
    variable = _argument_of(before, prefix, _PSQL_VARIABLES) if name == "psql" else None
    if variable is not None:
        return ArgumentRule(("variable",), f"psql {variable[0]}", variable[1])
    options = _CONNECTION_OPTIONS - {"-d"} if name == "pgbench" else _CONNECTION_OPTIONS
    connection = _argument_of(before, prefix, options)
    if connection is not None:
        return ArgumentRule(("connection",), f"{name} {connection[0]}", connection[1])
    with_argument = _CONNECTION_OPERANDS.get(name)
    last = before[-1] if before else None
    if with_argument is None or prefix.startswith("-") or _takes_next(last, with_argument):
        return None
    return ArgumentRule(("connection",), f"the database name of {name}")


def _curl_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """curl's options that read files, request lines or a method (``-d {x}``, ``-H {x}``),
    and its URLs, which it expands as patterns unless -g (``curl http://h/users/{id}``)."""
    given = _argument_of(before, prefix, frozenset(_CURL_ARGUMENTS))
    if given is not None:
        return ArgumentRule(_CURL_ARGUMENTS[given[0]], f"curl {given[0]}", given[1])
    last = before[-1] if before else None
    in_url = last == "--url" or not (
        prefix.startswith("-") or _takes_next(last, _CURL_OPTIONS_WITH_ARGUMENT)
    )
    globbing = not any(
        word == "--globoff" or (word is not None and re.fullmatch(r"-[A-Za-z]*g[A-Za-z]*", word))
        for word in before
    )
    return ArgumentRule(("glob",), "curl's URL") if in_url and globbing else None


# rsync's option whose argument is an option for the remote rsync, which rsync puts on the
# command line that the remote shell reads (escaped, unless --old-args or RSYNC_OLD_ARGS=1).
_RSYNC_REMOTE_OPTION = frozenset({"-M", "--remote-option"})


def _rsync_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """An operand of rsync (``rsync -a h:{path} .``), whose remote path an old rsync hands to
    the remote shell, and the option it passes to the remote rsync (``-M--log-file={f}``),
    which goes the same way.  Another option's own word (``--exclude={p}``) is none."""
    last = before[-1] if before else None
    if _takes_next(last, _RSYNC_REMOTE_OPTION):  # (`-M {x}`, `-M --log-file={x}`)
        return ArgumentRule(("rsync-remote-option",), "rsync -M's remote option")
    given = _argument_of(before, prefix, _RSYNC_REMOTE_OPTION)
    if given is not None:
        option, skip = given
        return ArgumentRule(("rsync-remote-option",), f"rsync {option}'s remote option", skip)
    if prefix.startswith("-"):
        return None
    return ArgumentRule(("rsync-remote-path",), "an rsync operand")


def _sox_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """A file operand of SoX (``sox {in} out.wav``, ``soxi {f}``, ``play {f}``): SoX runs a
    file name starting with ``|`` as a command, and fetches a URL with ``wget "URL"`` through a
    shell (its ``xfopen()``).  An option's own word (``-r{rate}``) is no file."""
    return None if prefix.startswith("-") else ArgumentRule(("sox-file",), f"a file of {name}")


# Ghostscript and its scripts, which pass their operands and output file on to gs.
_GHOSTSCRIPT = frozenset(
    {"gs", "ghostscript", "gsnd", "gsc", "gsx", "ps2pdf", "ps2pdf12", "ps2pdf13", "ps2pdf14",
     "ps2pdfwr", "pdf2ps", "ps2ps", "ps2ps2", "eps2eps", "ps2ascii", "ps2epsi", "pdf2dsc",
     "dvipdf"}
)  # fmt: skip
# gs's options whose argument is a file it opens as input or output: -sOutputFile=F, -fF
# (glued).  (-sstdout=F opens F as a plain file: `%pipe%cmd` there made a file so named.)
_GHOSTSCRIPT_FILE_OPTION = re.compile(r"-sOutputFile=|-f(?=.)")


def _ghostscript_rule(
    name: str, before: Sequence[str | None], prefix: str
) -> ArgumentRule | None:
    """A file of Ghostscript (``gs -o {out} {in}``, ``-sOutputFile={out}``, ``ps2pdf {in}
    {out}``), where ``%pipe%cmd`` and ``|cmd`` are a command gs runs through a shell, and the
    words after ``-c``, which are PostScript code."""
    code = False
    for word in before:
        if word == "-c":
            code = True
        elif word is not None and re.match(r"-[^0-9]", word):
            code = False
    if code and not re.match(r"-[^0-9]", prefix):
        return ArgumentRule(("postscript",), f"{name} -c's PostScript code")
    option = _GHOSTSCRIPT_FILE_OPTION.match(prefix)
    if option is not None:
        return ArgumentRule(("gs-output",), f"{name} {option.group()}", option.end())
    last = before[-1] if before else None
    if last == "-o" and not prefix:
        return ArgumentRule(("gs-output",), f"{name} -o")
    ended = next((at for at, word in enumerate(before) if word in ("--", "-+", "-_")), None)
    if ended is not None and _operands_before(before[ended + 1 :], frozenset({"-o"})):
        return None  # (`gs -- prog.ps {x}`: after the file, strings in /ARGUMENTS)
    return None if prefix.startswith("-") else ArgumentRule(("gs-file",), f"a file of {name}")


def _wget_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """wget's method and request lines (``--method={m}``, ``--header={h}``)."""
    given = _argument_of(before, prefix, frozenset(_WGET_ARGUMENTS))
    if given is None:
        return None
    return ArgumentRule(_WGET_ARGUMENTS[given[0]], f"wget {given[0]}", given[1])


def _git_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """git's refspecs (``git push origin {b}``), pathspecs (``git rm -- {f}``, ``git add
    {f}``), checkout's branch-or-path (``git checkout {b}``), and a header setting (``git -c
    http.extraHeader=X:{v}``)."""
    last = before[-1] if before else None
    if last in ("-c", "--config") and _git_setting_option(before) and (
        _GIT_HEADER_SETTING.match(prefix)
    ):
        return ArgumentRule(("line",), "git's setting http.extraHeader")
    if last in ("-c", "--config") and _git_setting_option(before) and (
        url := _GIT_URL_SETTING.match(prefix)
    ):
        return ArgumentRule(("git-url",), "git's setting of a remote's URL", url.end())
    subcommand = _git_subcommand(before)
    if subcommand == "archive" and (given := _argument_of(before, prefix, _GIT_REMOTE)):
        return ArgumentRule(("git-url",), "git archive --remote", given[1])
    if subcommand is None or prefix.startswith("-"):
        return None
    after = before[before.index(subcommand) + 1 :]
    literal = "--literal-pathspecs" in before[: before.index(subcommand)]
    if _is_git_repository(subcommand, after):
        return ArgumentRule(("git-url",), f"git {subcommand}'s repository")
    if subcommand == "config" and last is not None and _GIT_URL_SETTING.match(last + "="):
        return ArgumentRule(("git-url",), "git config's setting of a remote's URL")
    if subcommand in _GIT_REFSPEC_COMMANDS:
        if _operands_before(after, _GIT_REFSPEC_OPTIONS) >= 1:
            return ArgumentRule(("refspec",), f"git {subcommand}'s refspec")
        return None
    pathspecs = _GIT_PATHSPEC_COMMANDS.get(subcommand)
    every_operand = pathspecs is not None and not _takes_next(last, pathspecs)
    if every_operand or ("--" in after and subcommand in _GIT_PATHSPEC_AFTER_DASHES):
        return None if literal else ArgumentRule(("pathspec",), f"git {subcommand}'s pathspec")
    new_branch = frozenset({"-b", "-B", "--orphan"})
    if subcommand == "checkout" and not _takes_next(last, new_branch) and (
        _operands_before(after, new_branch) == 0
    ):
        return ArgumentRule(("checkout",), "git checkout's branch (or pathspec)")
    return None


def _is_git_repository(subcommand: str, after: Sequence[str | None]) -> bool:
    """Whether the value, after the words ``after`` of git's ``subcommand``, is the repository
    git connects to: clone's, ls-remote's, fetch's, pull's or push's first operand, ``remote
    add NAME {url}``, ``remote set-url NAME {url}``, ``submodule add {url}``, ``submodule
    set-url PATH {url}``."""
    with_argument = _GIT_REPOSITORY_COMMANDS.get(subcommand)
    if with_argument is not None:
        return _operands_before(after, with_argument) == 0
    if subcommand not in ("remote", "submodule"):
        return False
    operands = [w for w in after if w is None or not w.startswith("-")]
    if subcommand == "submodule":  # (submodule add [-b BRANCH] [--name N] [--] URL [PATH])
        count = _operands_before(after, _GIT_SUBMODULE_ADD)
        return (operands[:1] == ["add"] and count == 1) or (  # (set-url [--] PATH URL)
            operands[:1] == ["set-url"] and count == 2
        )
    count = _operands_before(after, _GIT_REMOTE_ADD)  # (remote add [-t B] [-m M] NAME URL)
    return (operands[:1] == ["add"] and count == 2) or (operands[:1] == ["set-url"] and count >= 2)


def _operands_before(words: Sequence[str | None], with_argument: frozenset[str]) -> int:
    """How many operands (not options nor their arguments) ``words`` hold."""
    count, expects_argument = 0, False
    for word in words:
        if expects_argument:
            expects_argument = False
        elif word is not None and word.startswith("-") and len(word) > 1:
            expects_argument = _takes_next(word, with_argument)
        else:
            count += word != "--"
    return count


def _kill_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """kill's process operands: ``kill {pid}``, ``kill -TERM -- {pid}``, ``kill -- -{pgid}``."""
    last = before[-1] if before else None
    ended = "--" in before
    if not ended and (prefix.startswith("-") or _takes_next(last, _KILL_SIGNAL_OPTIONS)):
        return None  # a signal (kill -{sig}, kill -s {sig})
    if not ended and any(w in ("-l", "-L", "--list", "--table") for w in before):
        return None  # kill -l {n}: a signal's number to name
    return ArgumentRule(("pid",), f"{name}'s process operand")


def _pkill_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """pkill's and pgrep's process group, session and parent (``pkill -g {pgid}``)."""
    given = _argument_of(before, prefix, _PKILL_PROCESS_OPTIONS)
    return None if given is None else ArgumentRule(("pids",), f"{name} {given[0]}", given[1])


def _openssl_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """``openssl req -subj /CN={name}/O=Org``: a value after the subject's own text."""
    last = before[-1] if before else None
    if last == "-subj" and prefix:
        return ArgumentRule(("subject",), "openssl -subj")
    return None


def _awk_rule(name: str, before: Sequence[str | None], prefix: str) -> ArgumentRule | None:
    """awk's file operands, which it reads as ``NAME=value`` assignments when so spelled."""
    giving, files, with_argument = _SCRIPT_FIRST[name]
    if prefix.startswith("-") or _is_first_operand(before, giving | files, with_argument):
        return None
    last = before[-1] if before else None
    if _takes_next(last, giving | files | with_argument):
        return None
    texts = _program_texts(name, before)
    if texts and all(text is not None and _begin_only(text) for text in texts):
        return None  # awk runs BEGIN and exits: it reads no operand (`awk 'BEGIN{...}' {x}`)
    return ArgumentRule(("assignment", "awk-socket"), f"{name}'s file operand")


_AWK_BEGIN = re.compile(r"\s*BEGIN\s*\{")
_AWK_STRING = re.compile(_AWK_LITERAL)


def _begin_only(source: str) -> bool:
    """Whether an awk program is only BEGIN actions with no ``getline`` (which reads the
    operands, assignments among them): awk then reads no operand at all."""
    if "getline" in source:
        return False
    at = 0
    while at < len(source):
        begin = _AWK_BEGIN.match(source, at)
        if begin is None:
            return not source[at:].strip()
        depth, at = 1, begin.end()
        while depth and at < len(source):
            if source[at] in "/\\#":
                return False  # (a regex, an escape or a comment may hold a brace: not followed)
            if source[at] == '"':
                string = _AWK_STRING.match(source, at)
                if string is None:
                    return False
                at = string.end()
                continue
            depth += {"{": 1, "}": -1}.get(source[at], 0)
            at += 1
        if depth:
            return False
    return True


_RULE_FINDERS: dict[
    str, Callable[[str, Sequence[str | None], str], ArgumentRule | None]
] = {
    **dict.fromkeys(("ssh", "scp", "sftp"), _ssh_rule),
    "libpq": _libpq_rule,
    "curl": _curl_rule,
    "wget": _wget_rule,
    **dict.fromkeys(("sox", "soxi", "play", "rec"), _sox_rule),
    **dict.fromkeys(_GHOSTSCRIPT, _ghostscript_rule),
    "rsync": _rsync_rule,
    "git": _git_rule,
    "kill": _kill_rule,
    **dict.fromkeys(("pkill", "pgrep"), _pkill_rule),
    "openssl": _openssl_rule,
    **dict.fromkeys(_AWK, _awk_rule),
}


_PSQL_VALUE = re.compile(r"[A-Za-z0-9_.]+|-?[0-9]+(?:\.[0-9]+)?")
_PSQL_NAME = re.compile(r"[A-Za-z0-9_]*\Z")
_HTTP_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_POSITIVE = re.compile(r"[1-9][0-9]*\Z")
_POSITIVE_LIST = re.compile(r"[1-9][0-9]*(?:,[1-9][0-9]*)*\Z")
_AWK_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_GIT_GLOB = frozenset("*?[\\")


def _destination(before: str, value: str, after: str) -> str | None:
    if _SSH_DESTINATION.match(before + value + after):
        return None
    return (
        "is the host OpenSSH (before 9.6, where a distribution has not patched it) pastes "
        "unquoted into the ProxyCommand or Match exec command of a configuration (%h, %r), "
        "which its shell runs, so a destination other than [user@]host may be code ($(cmd), "
        "`cmd`, ;cmd): the OpenSSH here refuses such a host itself"
    )


def _jump_hosts(before: str, value: str, after: str) -> str | None:
    hosts = (before + value + after).split(",")
    if all(_JUMP_HOST.match(host) and not host.startswith("-") for host in hosts):
        return None
    return (
        "is a jump host list, which OpenSSH (before 9.6) pastes unquoted into the command "
        "`ssh -W ... HOST` its shell runs, so a host other than [user@]host[:port] may be code "
        "($(cmd), `cmd`, |cmd, -oProxyCommand=cmd)"
    )


def _psql_variable(before: str, value: str, after: str) -> str | None:
    name, _, content = ("", "=", value) if "=" in before else value.partition("=")
    if _PSQL_NAME.match(name) and (not content or _PSQL_VALUE.fullmatch(content)):
        return None
    return (
        "is a psql variable, whose value psql pastes into the script as raw text where it "
        "writes :NAME (its manual: it may hold unbalanced quotes or backslash commands), so "
        "anything but a number or a plain word is SQL or a command (\\! runs a shell)"
    )


def _connection(before: str, value: str, after: str) -> str | None:
    conninfo = "=" in before and any(c.isspace() or c in "'\\" for c in value)
    uri = not before and value.lower().startswith(("postgres://", "postgresql://"))
    if "=" not in value and not conninfo and not uri:
        return None
    return (
        "is a database name, which libpq reads as a connection string when it holds '=' or "
        "starts with postgresql:// (host=, port=, options=: another server, which gets the "
        "password, and any session setting)"
    )


def _reads_file(before: str, value: str, after: str) -> str | None:
    if before or not value.startswith("@"):
        return None
    return "starts with '@', which makes curl read the file it names and send its contents"


def _reads_named_file(before: str, value: str, after: str) -> str | None:
    text = before + value
    at = next((i for i, c in enumerate(text) if c in "=@"), None)
    if at is None or text[at] == "=" or at < len(before):
        return None
    return (
        "holds '@' before any '=', which makes curl read the file named after it (name@file) "
        "and send its contents"
    )


def _unencoded(before: str, value: str, after: str) -> str | None:
    if before or not value.startswith("+"):
        return None
    return (
        "starts with '+', which makes curl add the rest to the query unencoded ('&' adds a "
        "parameter)"
    )


def _form_field(before: str, value: str, after: str) -> str | None:
    text = before + value + after
    equals = text.find("=")
    content = equals + 1
    if equals >= 0 and len(before) <= content < len(before + value) and text[content] in "@<":
        return (
            "starts a form field's content with '@' or '<', which makes curl read the file it "
            "names and send its contents"
        )
    if ";" in value:
        return (
            "holds ';', where curl reads a form field's parameters (;type=, ;filename=, "
            ";headers=@file sends a file's lines as headers)"
        )
    return None


def _request_line(before: str, value: str, after: str) -> str | None:
    if _CONTROL.search(value) is None:
        return None
    return (
        "holds a line break or another control character, which the program writes into the "
        "HTTP request as it is, where CR LF starts another header (or, after a blank line, "
        "another request)"
    )


def _method(before: str, value: str, after: str) -> str | None:
    if _HTTP_TOKEN.match(before + value + after):
        return None
    return (
        "is an HTTP method, written into the request line as it is, so anything but a token "
        "(letters, digits, !#$%&'*+.^_`|~-) adds to the request (a space, a line break)"
    )


def _cookie(before: str, value: str, after: str) -> str | None:
    if ";" not in value:
        return None
    return "holds ';', which separates cookies in curl's -b argument (a cookie of the value's)"


def _url_glob(before: str, value: str, after: str) -> str | None:
    if not before or not any(c in "{}[]" for c in value):
        return None
    return (
        "holds '{', '}', '[' or ']', which curl expands as a pattern in its URLs ({a,..} "
        "fetched another path, [1-1000000] asks a million times)"
    )


def _refspec(before: str, value: str, after: str) -> str | None:
    if ":" not in value and "*" not in value and (before or value[:1] not in ("+", "^")):
        return None
    return (
        "is a refspec, where git reads ':' as src:dst (':main' deletes the remote branch), "
        "a leading '+' as force (overwriting another branch) and '^' and '*' as patterns"
    )


def _pathspec(before: str, value: str, after: str) -> str | None:
    if (before or not value.startswith(":")) and _GIT_GLOB.isdisjoint(value):
        return None
    return (
        "is a pathspec, which git expands itself: '*', '?' and '[' match every file ('*' "
        "removes or discards the whole tree) and a leading ':' is magic (':/' is the top)"
    )


def _checkout(before: str, value: str, after: str) -> str | None:
    pathspec = _pathspec(before, value, after)
    if pathspec is None and (before or not value.startswith(".")):
        return None
    return (
        "names a branch, but git checkout reads an operand that names none as a pathspec, "
        "and checks its files out over the work tree ('.', ':/' and '*' discard every "
        "uncommitted edit)"
    )


def _pid(before: str, value: str, after: str) -> str | None:
    if _POSITIVE.match(value):
        return None
    return (
        "is a process id, where kill reads 0 as its own process group and -1 as every "
        "process (also after --: kill -- -1 stopped every process the user runs)"
    )


def _pids(before: str, value: str, after: str) -> str | None:
    if _POSITIVE_LIST.match(value):
        return None
    return "is a process group, session or parent id, where 0 means the program's own"


def _subject(before: str, value: str, after: str) -> str | None:
    if not any(c in "/+\\" for c in value):
        return None
    return (
        "holds '/', '+' or '\\', where openssl splits a subject into its fields (a value "
        "added O=... and a second CN=)"
    )


def _awk_assignment(before: str, value: str, after: str) -> str | None:
    if before or not _AWK_ASSIGNMENT.match(value):
        return None
    return (
        "starts with NAME=, which awk reads as an assignment to its variable NAME, not a file "
        "(also after --), so the value sets any variable (print > out wrote another file)"
    )


# gawk's special files (io.c's inetfile()): a name starting so is a network connection,
# /inet/tcp/LPORT/HOST/PORT, also as a file operand, where gawk reads what the host sends.
_GAWK_SOCKET = re.compile(r"/inet[46]?/")


def _awk_socket(before: str, value: str, after: str) -> str | None:
    socket = _GAWK_SOCKET.match(before + value + after)
    if socket is None or socket.end() <= len(before):
        return None  # (a file; or a connection the text itself names: /inet/tcp/0/{host}/80)
    return (
        "makes the file name start with /inet/ (or /inet4/, /inet6/), which gawk (the awk of "
        "many systems) opens as a network connection to the host and port it names, not as a "
        "file, and reads what that host sends"
    )


# bash's own names for a redirection's target (redir.c, `/dev/tcp/*/*`, `/dev/udp/*/*`): bash
# opens a network connection there instead of a file, where dash (and every program given the
# name as an argument) opens the path, which does not exist.
_BASH_SOCKETS = ("/dev/tcp/", "/dev/udp/")


def _bash_socket(before: str, value: str, after: str) -> str | None:
    if before.startswith(_BASH_SOCKETS):  # (`> /dev/tcp/{host}/80`: the text's own socket)
        return None
    # The word as rendered, and each line or word of the value (what `read` stores of it, or
    # the words an unquoted expansion is split into).
    starts = [before + value + after, *value.split()]
    if not any(start.startswith(_BASH_SOCKETS) for start in starts):
        return None
    return (
        "names /dev/tcp/HOST/PORT or /dev/udp/HOST/PORT, where bash opens a network "
        "connection to that host instead of a file (dash opens the path, which does not "
        "exist): the command's output went to, or its input came from, another host"
    )


#: The rule of a redirection's target (``> {f}``, ``< {f}``, ``exec 3<> {f}``): a file, never
#: one of bash's network names.
REDIRECTION_TARGET = ArgumentRule(("socket",), "a redirection's target")

# What a value may put in a remote operand of scp: characters that a POSIX shell (and csh,
# fish) reads as themselves in an unquoted word, or as a pattern or word split that only
# chooses files (`*.log`, `~/x`, `{a,b}`).  The legacy protocol (`scp -O`, and every scp
# before OpenSSH 9.0) runs `scp -f -- PATH` through the remote user's shell.
_REMOTE_PATH_PLAIN = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+=,-~*?[]{}# "
)


def _remote_operand(word: str, rsync: bool) -> bool:
    """Whether an operand of scp (or rsync) names a remote file that a shell on the host
    reads: a ``:`` before any ``/``, outside ``[...]`` (OpenSSH's ``colon()``), or an
    ``scp://`` URI; for rsync, not its daemon's ``host::module`` or ``rsync://``, which no
    shell reads."""
    if word.startswith("scp://"):
        return not rsync
    if word.startswith((":", "rsync://")):
        return False
    bracket = word.startswith("[")
    for at, letter in enumerate(word):
        bracket = bracket or (letter == "@" and word[at + 1 : at + 2] == "[")
        if letter == ":" and (not bracket or word[at - 1 : at] == "]"):
            return not (rsync and word[at + 1 : at + 2] == ":")
        if letter == "/":
            return False
    return False


def _remote_shell_path(before: str, value: str, after: str, rsync: bool = False) -> str | None:
    if not _remote_operand(before + value + after, rsync):
        return None
    bad = next(
        (c for c in value if c not in _REMOTE_PATH_PLAIN and not (c >= "\x80" and c.isprintable())),
        None,
    )
    if bad is None:
        return None
    return f"holds {bad!r} in a remote operand ([user@]host:path), " + (
        "which rsync before 3.2.4 (and any rsync given --old-args, or RSYNC_OLD_ARGS=1 in its "
        "environment) hands to the remote user's shell as part of a command line: $(cmd) there "
        "ran cmd on that host"
        if rsync
        else "which scp's legacy protocol (scp -O, and scp before OpenSSH 9.0) hands to the "
        "remote user's shell as part of a command line: $(cmd), `cmd` or ;cmd there ran cmd "
        "on that host"
    )


def _rsync_remote_path(before: str, value: str, after: str) -> str | None:
    return _remote_shell_path(before, value, after, rsync=True)


# What a value may put in an option for the remote rsync, after the option's own '=': no
# character a shell reads (nor a space, which would split the argument into more options).
_REMOTE_OPTION_PLAIN = re.compile(r"[A-Za-z0-9_./:@%+=,-]*\Z")


def _rsync_remote_option(before: str, value: str, after: str) -> str | None:
    if "=" not in before:
        return (
            "gives the option that the remote rsync reads (its name, or a cluster of letters), "
            "which rsync puts on the command line that the remote shell runs"
        )
    if _REMOTE_OPTION_PLAIN.match(value):
        return None
    return (
        "holds a character other than letters, digits and _./:@%+=,- there: rsync given "
        "--old-args (or RSYNC_OLD_ARGS=1 in its environment, which the template cannot see) "
        "puts that option unescaped on the command line that the remote user's shell runs, "
        "where $(cmd) ran cmd on that host"
    )


# A remote helper given by a repository's URL (transport.c): `NAME::ADDRESS`, and `NAME://...`
# for a scheme git does not know itself; git runs the program git-remote-NAME for it, and
# git-remote-ext runs ADDRESS as a command.
_GIT_HELPER = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)(::|://)")
_GIT_SCHEMES = frozenset(
    {"http", "https", "ftp", "ftps", "git", "ssh", "git+ssh", "ssh+git", "file"}
)


def _git_url(before: str, value: str, after: str) -> str | None:
    helper = _GIT_HELPER.match(before + value + after)
    if helper is None:
        return None
    name, mark = helper.groups()
    if name == "ext" or (
        helper.end() > len(before) and not (mark == "://" and name in _GIT_SCHEMES)
    ):
        return (
            f"makes the repository a remote helper's URL ({name}{mark}...), for which git runs "
            f"the program git-remote-{name}; git-remote-ext runs the rest as a command (given "
            "ext::sh -c touch% x, git -c protocol.ext.allow=always ls-remote ran touch): git's "
            "protocol.allow settings and GIT_ALLOW_PROTOCOL, which the template cannot see, "
            "are all that stop it"
        )
    return None


# SoX's URLs (its is_url(): these schemes), which it fetches with `wget ... "URL"` through
# /bin/sh, and what a value may put in one: RFC 3986's characters but '$', which with '`', '"'
# and '\\' (none of them a URL's) the shell reads inside double quotes.
_SOX_URL = re.compile(r"(?:https?|ftp):", re.IGNORECASE)
_SOX_URL_PLAIN = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!&'()*+,;=%"
)


def _sox_file(before: str, value: str, after: str) -> str | None:
    word = before + value + after
    if word.startswith("|"):  # (also `sox '|cat '{f}`: the value is in the command)
        return (
            "makes the file name start with '|', which SoX runs as a shell command and reads "
            "its output as the file"
            if not before.startswith("|")
            else "is in a file name starting with '|', which SoX runs as a shell command"
        )
    if not _SOX_URL.match(word):
        return None
    bad = next((c for c in value if c not in _SOX_URL_PLAIN), None)
    if bad is None:
        return None
    return (
        f"holds {bad!r} in a URL, which SoX fetches by running wget \"URL\" through a shell, "
        "where $(cmd) and `cmd` run and '\"' ends the quotes"
    )


def _ghostscript_output(before: str, value: str, after: str) -> str | None:
    word = before + value + after
    if word.startswith(("|", "%")):
        return (
            "makes the file name start with "
            f"{word[0]!r}: Ghostscript runs '%pipe%cmd' and '|cmd' as a shell command "
            "(popen) and '%name%' names one of its I/O devices"
            if not before
            else "is in a file name starting with "
            f"{word[0]!r}, which Ghostscript runs as a shell command ('%pipe%cmd', '|cmd') "
            "or opens as one of its I/O devices"
        )
    return None


def _ghostscript_file(before: str, value: str, after: str) -> str | None:
    if not before and value.startswith("@"):
        return "makes the operand start with '@': Ghostscript reads that file as more options"
    return _ghostscript_output(before, value, after)


def _postscript(before: str, value: str, after: str) -> str:
    return (
        "Ghostscript runs every word after -c (to the next option) as PostScript, whose "
        "'file' opens '%pipe%cmd' (a shell command) when -dNOSAFER is given"
    )


# Per check: what a value may hold (a function returning why not, or None) and what to write.
_ARGUMENT_CHECKS: dict[str, tuple[Callable[[str, str, str], str | None], str]] = {
    "destination": (
        _destination,
        "Check the value in Python against the hosts allowed (or a pattern such as "
        "[user@]host), or name the host in an ssh configuration file",
    ),
    "hosts": (
        _jump_hosts,
        "Check the value in Python against the hosts allowed (or a pattern such as "
        "[user@]host[:port]), or name the jump host in an ssh configuration file",
    ),
    "variable": (
        _psql_variable,
        "Run the SQL from Python with sql(i'...') and a database driver, which passes each "
        "value as a parameter; or check the value in Python and write :'NAME' in the script, "
        "which psql quotes",
    ),
    "connection": (
        _connection,
        "Check the value in Python (no '=', no postgresql://), or give the connection's "
        "parts in options written in the static text (-h HOST -p PORT -d NAME)",
    ),
    "file": (
        _reads_file,
        "Write --data-raw {x} for a body (curl sends it as text); for a header, check the "
        "value in Python",
    ),
    "named-file": (
        _reads_named_file,
        "Write a name and '=' before the field (--data-urlencode comment={x}), which curl "
        "reads as text",
    ),
    "encoded": (_unencoded, "Write a name and '=' before the field (--url-query q={x})"),
    "form": (
        _form_field,
        "Write --form-string name={x} (curl sends it as text), or check the value in Python",
    ),
    "line": (_request_line, "Check the value in Python: a header is one line"),
    "token": (
        _method,
        "Check the value in Python against the methods allowed (GET, POST, ...)",
    ),
    "cookie": (_cookie, "Check the value in Python, or percent-encode it"),
    "sox-file": (
        _sox_file,
        "Write ./ before a file's name (sox ./{f} out.wav), and quote a URL's part in Python "
        "(urllib.parse.quote(value, safe='')), or download it from Python and give SoX the file",
    ),
    "gs-output": (
        _ghostscript_output,
        "Write ./ before the file's name (gs -o ./{out} in.ps; in an output file's name gs "
        "reads '%' as its page number's format, so double it: '%%'), or check the value in "
        "Python",
    ),
    "gs-file": (
        _ghostscript_file,
        "Write ./ before the file's name (gs -o ./{out} ./{in}), or check the value in Python",
    ),
    "postscript": (
        _postscript,
        "Pass the value as data after the file: gs -- prog.ps {x} (in /ARGUMENTS), or "
        "check it in Python",
    ),
    "remote-path": (
        _remote_shell_path,
        "Check the value in Python (letters, digits and _./:@%+=,-~ only, say), or copy "
        "through sftp's protocol, which runs no shell: scp -s (OpenSSH 8.7+) or sftp",
    ),
    "rsync-remote-path": (
        _rsync_remote_path,
        "Check the value in Python (letters, digits and _./:@%+=,-~ only, say), or give rsync "
        "--secluded-args (-s), which sends the names over the protocol instead",
    ),
    "rsync-remote-option": (
        _rsync_remote_option,
        "Write the remote option in the static text and the value after its '=' "
        "(rsync -M--log-file={f}), checked in Python to letters, digits and _./:@%+=,- only",
    ),
    "git-url": (
        _git_url,
        "Check the value in Python (a URL of https://, ssh:// or git://, or a path), or write "
        "the helper in the static text (git clone hg::{url})",
    ),
    "socket": (
        _bash_socket,
        "Check the value in Python: a path of the machine's files (os.path.realpath, an "
        "allowed directory), never one under /dev/tcp or /dev/udp",
    ),
    "glob": (
        _url_glob,
        "Quote the value for its part of the URL (urllib.parse.quote(value, safe='') turns "
        "the brackets into %7B...), or write -g (--globoff) before the URL",
    ),
    "refspec": (
        _refspec,
        "Check the value in Python (git check-ref-format --branch), and write the refspec "
        "in the static text: git push origin HEAD:refs/heads/{branch}",
    ),
    "pathspec": (
        _pathspec,
        "Write git --literal-pathspecs (git reads every pathspec as a file name then), or "
        "check the value in Python",
    ),
    "checkout": (
        _checkout,
        "Write git switch {branch}, which never reads a path, or check the value in Python",
    ),
    "pid": (
        _pid,
        "Check in Python that the value is a positive integer (int(pid) > 0)",
    ),
    "pids": (_pids, "Check in Python that the value is a positive integer"),
    "subject": (
        _subject,
        "Escape the value for openssl (value.replace('\\\\', '\\\\\\\\').replace('/', "
        "'\\\\/').replace('+', '\\\\+')), or check it in Python",
    ),
    "assignment": (_awk_assignment, "Write ./ before the field: awk reads ./out=x as a file"),
    "awk-socket": (
        _awk_socket,
        "Write ./ before the field (awk reads ./inet/... as a file), or check the path in "
        "Python",
    ),
}


def any_whole_word(rule: ArgumentRule) -> bool:
    """Whether ``rule`` accepts any value that is its whole argument: curl's URL, which a
    value may be (``curl {url}`` goes where the value says), checked after the URL's own
    text only."""
    return rule.checks == ("glob",)


def argument_refusal(
    rule: ArgumentRule, before: str, value: str, after: str
) -> tuple[str, str] | None:
    """Why the value cannot stand in the argument ``rule`` describes, with the text of that
    argument before and after it (the option's own text left out), and what to write
    instead; None if its program reads it as the template means."""
    for check in rule.checks:
        accepts, fix = _ARGUMENT_CHECKS[check]
        why = accepts(before, value, after)
        if why is not None:
            return f"stands in {rule.where}, and {why}", fix
    return None

"""Hostile *contexts* for sh(): where in a command a field stands, by class.

``tests/hostile.py`` holds hostile values in plain positions; this corpus holds the positions.
Each case is a command written with ``§`` where a field goes.  ``probe`` is a shell function the
harness defines: it logs its arguments, so the harness sees exactly which words a command ran
with.  A case is either refused by ``sh()`` with a RenderError, or it must run in real dash and
bash with each value as exactly one word where the benign value stood and no side effect.

``NAIVE_ESCAPES`` are the cases that plain ``shlex.quote`` of each value (the renderer before the
grammar-based check) lets through; the harness must see an injection there (positive control).
"""

from __future__ import annotations

from hostile import SENTINEL

FIELD = "§"

# Values that try to leave the context each case puts them in.
PAYLOADS = [
    f"; touch {SENTINEL}",
    f"$(touch {SENTINEL})",
    f"`touch {SENTINEL}`",
    f"x\ntouch {SENTINEL}\n",
    f"EOF\ntouch {SENTINEL}\nEOF",
    f"1)); touch {SENTINEL}; ((1",
    f"a[$(touch {SENTINEL})]",
    f"b=($(touch {SENTINEL}))",
    f"'; touch {SENTINEL}; '",
    f'"; touch {SENTINEL}; "',
    f"}}; touch {SENTINEL}; {{",
    "a b",
    "*",
    "~",
    "2",
    "\\",
    "'",
    "HOME",
    "!!",
    "{a,b}",
    "=x",
    "-n",
    "",
    # code in the languages of programs that read an argument as a program
    f"__import__('os').system('touch {SENTINEL}')",
    f'BEGIN {{ system("touch {SENTINEL}") }}',
    f"system('touch {SENTINEL}')",
    f"1e touch {SENTINEL}",
    # options of programs that run a command (read as an option where a program parses them)
    f"--to-command=touch {SENTINEL}",
    f"--upload-pack=touch {SENTINEL}",
    "--pre=sh",  # ripgrep runs each file it searches through this program
    "--exec=sh",  # fd runs this command on each file it finds
    # commands of tools that read them on their standard input (ed's, dc's and ex's `!`, m4's)
    f"!touch {SENTINEL}",
    f"syscmd(touch {SENTINEL})",
    # variables that programs run as code, set where a program reads NAME=value (env, make)
    f"BASH_ENV=$(touch {SENTINEL})",
    f"MAKEFLAGS=--eval=$(shell touch {SENTINEL})",
    f"--eval=$(shell touch {SENTINEL})",
    # a file name that perl's two-argument open runs as a command
    f"touch {SENTINEL}|",
    # a builtin that runs its arguments as code, named by a value after `command`
    "eval",
    # fourth pass: socat's addresses (a whole one, and a second one joined by '!!'), a make
    # line run by --eval, and find's expression where a path stands
    f"SYSTEM:touch {SENTINEL}",
    f"x!!SYSTEM:touch {SENTINEL}",
    f"$(shell touch {SENTINEL})",
    "!",
]

# (class, template); the class names the context in the report and the docs table.
CASES: list[tuple[str, str]] = [
    # -- ordinary words: accepted ---------------------------------------------------------
    ("argument", "probe §"),
    ("argument", "probe a§b"),
    ("argument", "probe --opt=§"),
    ("argument", "probe § §"),
    ("argument", "probe §§"),
    ("argument", "probe 'a'§\"b\""),
    ("argument", "probe user@§:/p"),
    ("argument", "probe a#§"),
    ("argument", "probe \\'§"),
    ("argument", "probe $HOME/§"),
    ("argument", "probe ${HOME}/§"),
    ("argument", "probe ~/§"),
    ("argument", "probe * §"),
    ("argument", "probe §\nprobe §"),
    ("argument", "probe § \\\n  §"),
    ("argument", "probe § | cat"),
    ("argument", "echo x | probe §"),
    ("argument", "probe § && probe § || probe §; probe § &\nwait"),
    ("argument", "(probe §)"),
    ("argument", "{ probe §; }"),
    ("argument", "if probe §; then probe §; else probe §; fi"),
    ("argument", "while probe §; do break; done"),
    ("argument", "! probe §"),
    ("argument", "for f in § §; do probe \"$f\"; done"),
    ("argument", "[ § = x ] || probe §"),
    ("argument", "probe § # a comment"),
    ("argument", "probe § ; cat <<EOF\nbody\nEOF"),
    ("command substitution", "probe $(probe §)"),
    ("command substitution", "probe \"$(probe §)\""),
    # (printf appends '.' so that $( ) strips no trailing newline of a value)
    ("command substitution", "probe \"x$(printf %s. § | cat)y\""),
    ("redirection", "probe x > §"),
    ("redirection", "probe x >§; probe y"),
    ("redirection", "probe x 2>§"),
    ("redirection", "probe x >> §"),
    ("redirection", "probe < §"),
    ("command name", "§ x"),
    ("command name", "§=1 probe"),
    ("command name", "§ probe"),
    ("command name", "X=1 § x"),
    # -- here-documents: refused ----------------------------------------------------------
    ("here-document", "cat <<EOF\n§\nEOF"),
    ("here-document", "cat <<'EOF'\n§\nEOF"),
    ("here-document", "cat <<-EOF\n\t§\n\tEOF"),
    ("here-document", "cat <<\"EOF\"\nx $(probe §) y\nEOF"),
    ("here-document", "cat <<EOF §\nbody\nEOF"),
    ("here-document", "cat <<§\nx\n§"),
    ("here-document", "probe <<EOF; probe §\nbody\nEOF"),
    ("here-string", "cat <<< §"),
    ("here-string", "probe <<<§"),
    # -- backslash: refused ---------------------------------------------------------------
    ("backslash", "probe \\§"),
    ("backslash", "probe C:\\Users\\§"),
    ("backslash", "probe a\\\n§"),
    ("backslash", "probe \"\\§\""),
    # -- dollar: refused ------------------------------------------------------------------
    ("dollar", "probe $§"),
    ("dollar", "probe ${§}"),
    ("dollar", "probe ${x:-§}"),
    ("dollar", "probe $HOME§"),
    ("dollar", "probe ${HOME}§"),
    ("dollar", "probe $\\\n§"),
    ("dollar", "probe $'§'"),
    ("dollar", "probe $\"§\""),
    ("dollar", "probe $'\\'' § '"),
    # -- arithmetic: refused --------------------------------------------------------------
    ("arithmetic", "probe $((§))"),
    ("arithmetic", "probe $((1 + § + 1))"),
    ("arithmetic", "probe $[§]"),
    ("arithmetic", "probe $[ 1 + § ]"),
    ("arithmetic", "probe x $[1] §"),
    ("arithmetic", "((§)) && probe x"),
    ("arithmetic", "probe $(( $(probe §) ))"),
    # -- backquotes: refused --------------------------------------------------------------
    ("backquote", "probe `probe §`"),
    ("backquote", "probe \"`probe §`\""),
    ("backquote", "probe `true` §"),
    # -- assignments: refused -------------------------------------------------------------
    ("assignment", "X=§ probe \"$X\""),
    ("assignment", "X=§; probe \"$X\""),
    ("assignment", "X=a:§ probe"),
    # -- patterns and tests: refused ------------------------------------------------------
    ("case", "case § in x) probe;; esac"),
    ("case", "case x in §) probe;; esac"),
    ("case", "case x in y) probe;; esac; probe §"),
    ("[[", "[[ § == x ]] || probe y"),
    ("[[", "[[ x == § ]] || probe y"),
    ("bracket pattern", "probe [§]"),
    ("bracket pattern", "probe a[§"),
    # -- bash-only syntax: refused --------------------------------------------------------
    ("process substitution", "probe <(probe §)"),
    ("process substitution", "probe >(cat) §"),
    ("brace expansion", "probe {a,§}"),
    ("brace expansion", "probe {§,b}"),
    ("brace expansion", "probe §{a,b}"),
    ("brace expansion", "probe {1..2}§"),
    ("extended glob", "probe @(§)"),
    ("extended glob", "probe +(a|§)"),
    ("redirection", "probe x &> §"),
    ("redirection", "probe x &>§"),
    ("redirection", "probe x >& §"),
    ("redirection", "probe x >&§"),
    ("redirection", "probe § 2>&1 | cat; probe §"),
    ("redirection", "probe x 2>&- >&2 §"),
    ("array", "a=(§) probe"),
    ("array", "a=(x); probe §"),
    ("redirection", "probe x |& probe §"),
    ("redirection", "probe §>out"),
    ("redirection", "probe x §>out"),
    ("redirection", "probe x §<in"),
    # -- tilde and history: refused -------------------------------------------------------
    ("tilde", "probe ~§"),
    ("tilde", "probe ~root§"),
    ("tilde", "probe x=~§"),
    ("tilde", "probe §~"),
    ("history", "probe !§"),
    ("history", "probe §!"),
    # -- quotes and comments: refused -----------------------------------------------------
    ("quotes", "probe '§'"),
    ("quotes", "probe \"§\""),
    ("quotes", "probe \"a $x §\""),
    ("comment", "probe x # §"),
    ("comment", "#§\nprobe x"),
    # -- line ends: CR is a word character to a shell -------------------------------------
    ("carriage return", "probe §\r\nprobe x"),
    ("carriage return", "probe a\r§"),
    # -- code run again: refused ----------------------------------------------------------
    ("eval", "eval probe §"),
    ("eval", "command eval probe §"),
    ("eval", "trap §  EXIT"),
    ("eval", "sh -c §"),
    ("eval", "bash -ec §"),
    ("eval", "bash -o pipefail -c §"),
    ("eval", "dash -c -- §"),
    # -- other grammar the lexer does not follow: refused ---------------------------------
    ("function", "f() { probe §; }; f"),
    ("function", "function f { probe §; }; f"),
    ("loop name", "for § in a; do probe; done"),
    ("unclosed", "probe '§"),
    ("unclosed", "probe § 'x"),
    ("unclosed", "probe $(probe §"),
    ("reserved word", "time probe §"),
    ("reserved word", "select x in §; do break; done"),
    # bash: a syntax error (select wants a name), so nothing runs; dash: a command `select`
    ("reserved word", "select * from t where a = § and b; probe §"),
]

# Plain shlex.quote of every value (the renderer before this corpus) escapes in these cases,
# in at least one of dash and bash: the harness must report each as an injection.
NAIVE_ESCAPES = [
    "probe $[ 1 + § ]",
    "cat <<EOF\n§\nEOF",
    "probe \\§",
    "probe C:\\Users\\§",
    "probe $((1 + § + 1))",
    "probe `probe §`",
    "probe $'\\'' § '",
    "eval probe §",
    "sh -c §",
    "§=1 probe",
    "probe §>out",
]

CASES += [
    # -- builtins that read their arguments as code or variable names: refused -----------
    ("builtin", "'eval' probe §"),
    ("builtin", "X=1 export §"),
    ("builtin", "declare -a §"),
    ("builtin", "let §"),
    ("builtin", "unset §"),
    ("builtin", "read § </dev/null"),
    ("builtin", "printf §"),
    ("builtin", "printf -v § x"),
    ("builtin", "test -v § || probe x"),
    ("builtin", "[ -v § ] || probe x"),
    # -- builtins with plain operands: accepted (test refuses a value that is an operator) -
    ("builtin", "printf '%s.' §; probe x"),
    ("builtin", "[ § = x ] || probe y"),
    ("builtin", "test x = § || probe y"),
    ("for loop", "for f § a; do probe \"$f\"; done"),
]
NAIVE_ESCAPES += ["declare -a §", "test -v § || probe x", "let §"]

CASES += [
    # -- programs that run a command made of their arguments: followed to it -------------
    ("runner", "env sh -c §"),
    ("runner", "env -i PATH=/bin sh -c §"),
    ("runner", "/bin/sh -c §"),
    ("runner", "timeout 5 sh -c §"),
    ("runner", "nice -n 1 sh -c §"),
    ("runner", "echo | xargs sh -c §"),
    ("runner", "find . -maxdepth 0 -exec sh -c § \\;"),
    ("runner", "exec sh -c §"),
    ("runner", "sudo -u root sh -c §"),
    ("runner", "su root -c §"),
    ("runner", "flock /tmp/lock -c §"),
    ("runner", "env -S §"),
    ("runner", "watch -n 1 §"),
    ("runner", "ssh -p 22 host ls §"),
    ("runner", "§ -c §"),
    ("runner", "timeout 5 python3 -c 'import sys; print(sys.argv[1])' §"),
    ("runner", "env A=1 sh -c 'printf %s. \"$1\"' sh §"),
    # -- interpreters: their program arguments refused, their data arguments accepted ----
    ("interpreter", "python3 -c §"),
    ("interpreter", "/usr/bin/python3 -Ic §"),
    ("interpreter", "perl -e §"),
    ("interpreter", "perl -ne § /dev/null"),
    ("interpreter", "echo x | awk §"),
    ("interpreter", "awk -F: §"),
    ("interpreter", "echo x | sed §"),
    ("interpreter", "sed -e § /dev/null"),
    ("interpreter", "python3 -c 'import sys; print(sys.argv[1])' §"),
]
NAIVE_ESCAPES += [
    "env sh -c §",
    "/bin/sh -c §",
    "timeout 5 sh -c §",
    "echo | xargs sh -c §",
    "find . -maxdepth 0 -exec sh -c § \\;",
    "python3 -c §",
    "perl -e §",
    "echo x | awk §",
    "echo x | sed §",
]

CASES += [
    # -- programs that run an option's argument or a setting as a command: refused ---------
    ("command option", "tar -cf ../t.tar a-file; tar -xf ../t.tar --to-command=§"),
    ("command option", "tar -cf ../t.tar a-file; tar -xf ../t.tar --to-command=cat§"),
    ("command option", "tar -cf ../t.tar --checkpoint=1 --checkpoint-action=exec=§ a-file"),
    ("command option", "tar -cf ../t.tar -I § a-file"),
    ("command option", "script -qc § /dev/null"),
    ("command option", "su -mc §"),
    ("command option", "sg root §"),
    ("command option", "zip -q ../z.zip a-file -T -TT §"),
    ("setting", "git -c core.sshCommand=§ ls-remote ssh://h/r"),
    ("setting", "git -c § ls-remote ssh://h/r"),
    ("setting", "ssh -o ProxyCommand=§ h"),
    ("setting", "ssh -oProxyCommand=§ h"),
    ("setting", "ssh -o § h"),
    # -- their data arguments and settings: accepted ---------------------------------------
    ("setting", "git -c user.name=§ config user.name"),
    ("setting", "ssh -o ConnectTimeout=§ -G h >/dev/null; probe §"),
    ("command option", "tar -cf ../t.tar a-file; tar -tf ../t.tar; probe §"),
]
NAIVE_ESCAPES += [
    "tar -cf ../t.tar a-file; tar -xf ../t.tar --to-command=§",
    "tar -cf ../t.tar a-file; tar -xf ../t.tar --to-command=cat§",
    "tar -cf ../t.tar --checkpoint=1 --checkpoint-action=exec=§ a-file",
    "script -qc § /dev/null",
    "su -mc §",
    "sg root §",
    "zip -q ../z.zip a-file -T -TT §",
    "git -c core.sshCommand=§ ls-remote ssh://h/r",
    "ssh -o ProxyCommand=§ h",
]

CASES += [
    # -- a pipeline into a shell or interpreter that reads its program from the pipe ------
    ("pipe", "printf '%s\\n' § | sh"),
    ("pipe", "printf '%s\\n' § | bash -s -- a"),
    ("pipe", "{ printf '%s\\n' §; } | sh"),
    ("pipe", "(printf '%s\\n' §) | sh"),
    ("pipe", "printf '%s\\n' § | tee /dev/null | sh"),
    ("pipe", "printf '%s\\n' § | python3"),
    ("pipe", "printf '%s\\n' § | xargs -d '\\n' sh -c"),
    ("pipe", "printf '%s\\n' § | sh /dev/stdin"),
    ("pipe", "tar -cf ../t.tar a-file; printf '%s\\n' § | xargs -d '\\n' tar -xf ../t.tar"),
    # -- a program the tables do not know, running a shell's command string --------------
    ("runner", "setpriv sh -c §"),
    ("runner", "unshare --fork sh -c §"),
    ("runner", "busybox sh -c §"),
    # -- a pipe into a program that reads data, or a shell whose program is written ------
    ("pipe", "printf '%s\\n' § | cat"),
    ("pipe", "printf '%s\\n' § | sh -c cat"),
    ("pipe", "printf '%s\\n' § | tee /dev/null; probe §"),
]
NAIVE_ESCAPES += [
    "printf '%s\\n' § | sh",
    "{ printf '%s\\n' §; } | sh",
    "printf '%s\\n' § | python3",
    "printf '%s\\n' § | xargs -d '\\n' sh -c",
    "printf '%s\\n' § | sh /dev/stdin",
    "tar -cf ../t.tar a-file; printf '%s\\n' § | xargs -d '\\n' tar -xf ../t.tar",
    "setpriv sh -c §",
]

CASES += [
    # -- a value where a program with code-running options parses options: refused if the
    # value starts with '-', accepted otherwise, and after '--' ---------------------------
    ("option", "tar -cf ../t.tar a-file; tar -xf ../t.tar §"),
    ("option", "git init -q ../r; git ls-remote § ../r"),
    ("option", "tar -cf ../t.tar a-file; tar -xf ../t.tar -- §; probe §"),
    # programs outside the tables: any but those known to run no command from an option
    # (ls, cat, grep...) are refused a value starting with '-', as ripgrep's --pre and fd's
    # --exec run one
    ("option", f"printf 'touch {SENTINEL}' > s.txt; rg -q § s.txt"),
    ("option", f"printf 'touch {SENTINEL}' > s.txt; fdfind § s.txt"),
    ("option", f"printf 'touch {SENTINEL}' > s.txt; rg -q -- § s.txt"),
    ("option", "ls § >/dev/null 2>&1; grep -q § a-file; probe §"),
]
NAIVE_ESCAPES += [
    "tar -cf ../t.tar a-file; tar -xf ../t.tar §",
    "git init -q ../r; git ls-remote § ../r",
    f"printf 'touch {SENTINEL}' > s.txt; rg -q § s.txt",
    f"printf 'touch {SENTINEL}' > s.txt; fdfind § s.txt",
]

CASES += [
    # -- what a value's command writes reaches a program reading code on its standard input
    # other than as `| sh`: refused ---------------------------------------------------------
    # a program no table names reads the pipe: it may be a shell (this one is), so only
    # programs known to read their input as data may (the allow-list)
    ("stdin unknown program", "printf 'exec sh' > r; chmod +x r; printf '%s\\n' § | ./r"),
    ("stdin unknown program", "printf '%s\\n' § | sg root"),
    ("stdin unknown program", "printf 'exec sh' > r; chmod +x r; printf '%s\\n' § > f; ./r < f"),
    ("stdin subshell", "printf '%s\\n' § | (sh)"),
    ("stdin subshell", "printf '%s\\n' § | { true; sh; }"),
    ("stdin subshell", "printf '%s\\n' § | if true; then sh; fi"),
    ("stdin subshell", "printf '%s\\n' § | probe \"$(sh)\""),
    ("shell starter", "printf '%s\\n' § | su"),
    ("shell starter", "printf '%s\\n' § | sudo -s"),
    ("shell starter", "printf '%s\\n' § | newgrp"),
    ("shell starter", "printf '%s\\n' § | unshare"),
    ("stdin runner", "printf '%s\\n' § | busybox sh"),
    ("stdin runner", "printf '%s\\n' § | setpriv sh"),
    ("stdin runner", "printf '%s\\n' § | command -p sh"),
    ("stdin runner", "printf '%s\\n' § | sh 2>&1"),
    ("stdin runner", "printf '%s\\n' § | sh /dev/fd/3 3<&0"),
    ("stdin command string", "printf '%s\\n' § | sh -c sh"),
    ("stdin command string", "printf '%s\\n' § | bash -c 'cat | sh'"),
    ("stdin command string", "printf '%s\\n' § | sh -c 'eval \"$(cat)\"'"),
    ("stdin command string", "printf '%s\\n' § | su -c sh"),
    ("stdin command string", "printf '%s\\n' § | env -S'sh -s'"),
    ("stdin command string", "printf '%s\\n' § | split --filter=sh"),
    ("stdin expansion", "printf '%s\\n' § | \"$0\""),
    ("stdin expansion", "printf '%s\\n' § | { read -r l; eval \"$l\"; }"),
    ("stdin expansion", "printf '%s\\n' § | eval \"$(cat)\""),
    ("stdin command string", "printf '%s\\n' § | eval sh"),
    ("stdin command string", "printf '%s\\n' § | { trap sh EXIT; }"),
    ("stdin alias", "alias s=sh\nprintf '%s\\n' § | s"),
    ("command tool", "printf '%s\\n' § | ed -s"),
    ("command tool", "printf '%s\\n' § | m4"),
    ("command tool", "printf '%s\\n' § | dc"),
    ("command tool", "printf '%s\\n' § | awk -f -"),
    ("command tool", "printf '%s\\n' § | sed -n -f - /etc/passwd"),
    ("command tool", "printf '%s\\n' § | python3 -m code"),
    ("process substitution", "printf '%s\\n' § > >(sh); wait $!"),
    ("process substitution", "printf '%s\\n' § |& sh"),
    ("process substitution", "printf '%s\\n' § | time sh"),
    # -- look-alikes whose reader takes the pipe as data: accepted -------------------------
    ("pipe", "printf '%s\\n' § | (cat)"),
    ("pipe", "printf '%s\\n' § | { true; cat; }"),
    ("pipe", "printf '%s\\n' § | sh -c 'cat | cat'"),
    ("pipe", "printf '%s\\n' § | su -c cat"),
    ("pipe", "printf '%s\\n' § | env -S 'cat -u'"),
    ("pipe", "printf '%s\\n' § | split --filter=cat"),
    ("pipe", "printf '%s\\n' § 2>&1 | cat"),
    ("pipe", "printf '%s\\n' § | command -p cat"),
]
NAIVE_ESCAPES += [
    case
    for klass, case in CASES
    if klass.startswith(("stdin ", "shell starter", "command tool"))
    or case.endswith(("> >(sh); wait $!", "|& sh", "| time sh"))
]
# Programs a case needs beyond dash, bash and coreutils: its positive control is skipped on a
# machine without them (scripts/test installs them).
NEEDS = {
    "printf '%s\\n' § | sudo -s": "sudo",
    "printf '%s\\n' § | busybox sh": "busybox",
    "printf '%s\\n' § | ed -s": "ed",
    "printf '%s\\n' § | m4": "m4",
    "printf '%s\\n' § | dc": "dc",
}
NEEDS.update(
    {
        f"printf 'touch {SENTINEL}' > s.txt; rg -q § s.txt": "rg",
        f"printf 'touch {SENTINEL}' > s.txt; fdfind § s.txt": "fdfind",
    }
)

CASES += [
    # -- a value where env or make reads NAME=value: refused in the variable, and as a whole
    # word when the value holds '=' (else it names env's command, or make's target) ------
    ("environment", "env BASH_ENV=§ bash -c 'printf %s. x'"),
    ("environment", "env § bash -c 'printf %s. x'"),
    ("environment", "env -i PATH=/usr/bin:/bin § bash -c 'printf %s. x'"),
    ("make", "make -f /dev/null MAKEFLAGS=§"),
    # (make expands a target's '~' and says so on its output, which is no code: left out)
    ("make", "make -f /dev/null § >/dev/null 2>&1"),
    ("make", "make -f /dev/null -- § >/dev/null 2>&1"),
    # -- perl -n/-p and a program reading <> open each operand with the two-argument open --
    ("perl", "perl -ne 'print' §"),
    ("perl", "perl -pe '' -- §"),
    ("perl", "perl -e 'print while <>' §"),
    ("perl", "perl -e 'print @ARGV, \".\"' -- §"),
    ("perl", "perl -e 'print @ARGV, \".\";' §"),
    # -- a code option at the end of a cluster of short options, the value glued to it -----
    ("cluster", "perl -ne§ /dev/null"),
    ("cluster", "python3 -Bc§"),
    ("cluster", "perl -M§ -e 1"),
    # -- bash's completion builtins expand their word list again, or run a command --------
    ("builtin", "compgen -W § x"),
    ("builtin", "compgen -C § x"),
    # -- the command that `command` runs, named by a value: never a builtin reading code --
    ("command name", f"command § 'touch {SENTINEL}'"),
    ("command name", "command -v § >/dev/null; probe §"),
]
NAIVE_ESCAPES += [
    "env BASH_ENV=§ bash -c 'printf %s. x'",
    "env § bash -c 'printf %s. x'",
    "env -i PATH=/usr/bin:/bin § bash -c 'printf %s. x'",
    "make -f /dev/null MAKEFLAGS=§",
    "make -f /dev/null § >/dev/null 2>&1",
    "make -f /dev/null -- § >/dev/null 2>&1",
    "perl -ne 'print' §",
    "perl -pe '' -- §",
    "perl -e 'print while <>' §",
    "perl -e 'print @ARGV, \".\";' §",
    "compgen -W § x",
    "compgen -C § x",
    f"command § 'touch {SENTINEL}'",
    "perl -ne§ /dev/null",
    "python3 -Bc§",
]
NEEDS.update(
    {case: "make" for case in NAIVE_ESCAPES if case.startswith("make ")}
    | {case: "perl" for case in NAIVE_ESCAPES if case.startswith("perl ")}
)

CASES += [
    # -- a value that becomes a shell variable, which a later expansion puts where code goes
    ("variable", 'for f in §; do eval "$f"; done'),
    ("variable", 'set -- §; sh -c "$1"'),
    ("variable", 'for f in §; do printf "%s\\n" "$f"; done | sh'),
    # -- and where the expansion is data: accepted -----------------------------------------
    ("variable", 'set -- §; probe "$1"'),
    ("variable", 'for f in §; do probe "$f"; done | cat'),
]
NAIVE_ESCAPES += [
    'for f in §; do eval "$f"; done',
    'set -- §; sh -c "$1"',
    'for f in §; do printf "%s\\n" "$f"; done | sh',
]

CASES += [
    # -- third pass: a command string written in the static text that puts its positional
    # parameters where code goes (as `set -- {x}; eval "$1"` does): refused ----------------
    ("command string parameter", "sh -c 'eval \"$1\"' sh §"),
    ("command string parameter", "bash -c 'eval \"$0\"' §"),
    ("command string parameter", "sh -c 'f=$1; sh -c \"$f\"' sh §"),
    ("command string parameter", "env sh -c 'for a; do eval \"$a\"; done' sh §"),
    ("command string parameter", "printf '%s\\n' § | xargs -d '\\n' sh -c 'eval \"$1\"' sh"),
    ("command string parameter", "for f in §; do sh -c 'eval \"$1\"' sh \"$f\"; done"),
    # (bash evaluates a[$(cmd)] in arithmetic: a string the lexer does not follow is refused)
    ("command string parameter", "bash -c '[[ $1 -eq 1 ]]' _ §"),
    ("command string parameter", "bash -c 'echo $(( $1 ))' _ §"),
    # -- and one that uses them as data: accepted -----------------------------------------
    ("command string parameter", "sh -c 'printf \"%s.\" \"$1\" \"$0\"' sh §"),
    ("command string parameter", "bash -c 'f=$1; printf %s. \"$f\"' sh §"),
    # -- an awk program or a sed script written in the static text that runs its data ------
    ("data runner", "awk 'BEGIN { system(ARGV[1]) }' §"),
    ("data runner", "awk -v v=§ 'BEGIN { system(v) }'"),
    ("data runner", "printf '%s\\n' § | awk '{ system($0) }'"),
    ("data runner", "printf '%s\\n' § | awk '{ print | $0 }'"),
    ("data runner", "printf '%s\\n' § | sed e"),
    ("data runner", "printf '%s\\n' § | sed -n 's/.*/&/ep'"),
    ("data runner", "awk '{ system($0) }' < §"),
    # -- awk and sed programs that run no command made of their data: accepted -------------
    ("data runner", "awk 'BEGIN { printf \"%s.\", ARGV[1] }' §"),
    ("data runner", "printf '%s\\n' § | awk '{ print | \"cat\" }'"),
    ("data runner", "printf '%s\\n' § | sed -n 'h; g; p; y/~/~/'"),
    # (not awk -v: awk reads escapes such as \\ in a -v value, which is no code)
    ("data runner", "awk 'BEGIN { printf \"%s.\", ARGV[1]; system(\"true\") }' §"),
]
NAIVE_ESCAPES += [
    "sh -c 'eval \"$1\"' sh §",
    "bash -c 'eval \"$0\"' §",
    "env sh -c 'for a; do eval \"$a\"; done' sh §",
    "printf '%s\\n' § | xargs -d '\\n' sh -c 'eval \"$1\"' sh",
    "for f in §; do sh -c 'eval \"$1\"' sh \"$f\"; done",
    "bash -c '[[ $1 -eq 1 ]]' _ §",
    "bash -c 'echo $(( $1 ))' _ §",
    "awk 'BEGIN { system(ARGV[1]) }' §",
    "awk -v v=§ 'BEGIN { system(v) }'",
    "printf '%s\\n' § | awk '{ system($0) }'",
    "printf '%s\\n' § | sed e",
    "printf '%s\\n' § | sed -n 's/.*/&/ep'",
]

CASES += [
    # -- a value written to a file that a command of the same template runs or reads as code
    # (in any order: a loop may run it after the write): refused ---------------------------
    ("file run", "printf '%s\\n' § > s.sh; sh s.sh"),
    ("file run", "printf '%s\\n' § >> s.sh; . ./s.sh"),
    ("file run", "printf '%s\\n' § | tee s.sh >/dev/null; bash < s.sh"),
    ("file run", "{ printf '%s\\n' §; } > s.sh; chmod +x s.sh; ./s.sh"),
    ("file run", "printf '%s\\n' § > f; sed e f"),
    ("file run", "for i in 1 2; do test -f s.sh && sh s.sh; printf '%s\\n' § > s.sh; done"),
    # -- a file that the template reads as data, or a script written in the static text ----
    ("file run", "printf '%s.' § > f; probe \"$(cat f)\""),
    ("file run", "printf 'probe \"$1\"\\n' > s.sh; . ./s.sh §"),
]
NAIVE_ESCAPES += [case for klass, case in CASES[-8:-2]]

# (a program that sets its NAME=value operands in the environment of a command it runs)
_CONFIGURE = "printf 'export \"$1\"; bash -c :' > configure; chmod +x configure; ./configure §"
CASES += [
    # -- fourth pass: an option spelled like a code option of a program no table knows (this
    # one runs it, as nc -e, fd -x, yt-dlp --exec and go test -exec do): refused -----------
    ("unknown program", "printf 'sh -c \"$2\"' > t; chmod +x t; ./t -c §"),
    ("unknown program", "printf 'sh -c \"${1#*=}\"' > t; chmod +x t; ./t --exec=§"),
    # -- an upper-case NAME= word of a program not known to read it as data: it may set the
    # variable for a command it runs (strace -E, ./configure CC=, systemctl set-environment)
    ("environment", "strace -f -o /dev/null -E BASH_ENV=§ bash -c :"),
    ("environment", _CONFIGURE),
    # -- holes in known programs' tables ---------------------------------------------------
    ("make", "make -f /dev/null --eval=§ >/dev/null 2>&1"),
    ("make", "make -f /dev/null -E § >/dev/null 2>&1"),
    ("socat", "socat -u OPEN:a-file §"),
    ("socat", "socat -u OPEN:a-file OPEN:§"),
    # vim runs the rest of a '+' word as its command (`+!cmd` runs a shell)
    ("plus command", "vi -es +§ +q a-file </dev/null"),
    # find reads a path that is '!' or '(' as its expression, also after --
    ("find", "touch keep; find § -name a-file -delete"),
    ("find", "touch keep; find -- § -name a-file -delete"),
    # -- look-alikes: accepted --------------------------------------------------------------
    ("unknown program", "printf '[ \"$1\" = -c ] && sh -c \"$2\"' > t; chmod +x t; ./t -- §; "
     "probe §"),
    ("environment", "printf 'export \"$1\"; bash -c :' > c; chmod +x c; ./c lower=§; probe §"),
    ("find", "touch keep; find ./§ -name none >/dev/null 2>&1; probe §"),
    ("find", "find . -name § >/dev/null; probe §"),
]
NAIVE_ESCAPES += [
    "printf 'sh -c \"$2\"' > t; chmod +x t; ./t -c §",
    "printf 'sh -c \"${1#*=}\"' > t; chmod +x t; ./t --exec=§",
    "strace -f -o /dev/null -E BASH_ENV=§ bash -c :",
    _CONFIGURE,
    "make -f /dev/null --eval=§ >/dev/null 2>&1",
    "make -f /dev/null -E § >/dev/null 2>&1",
    "socat -u OPEN:a-file §",
    "socat -u OPEN:a-file OPEN:§",
    "touch keep; find § -name a-file -delete",
    "touch keep; find -- § -name a-file -delete",
    "vi -es +§ +q a-file </dev/null",
]
NEEDS.update(
    {
        "strace -f -o /dev/null -E BASH_ENV=§ bash -c :": "strace",
        "make -f /dev/null --eval=§ >/dev/null 2>&1": "make",
        "make -f /dev/null -E § >/dev/null 2>&1": "make",
        "socat -u OPEN:a-file §": "socat",
        "socat -u OPEN:a-file OPEN:§": "socat",
        "vi -es +§ +q a-file </dev/null": "vi",
    }
)

# fifth pass: a value that completes an option written in the static text (ssh -v{x}, tar
# --{x}), and a setting a value makes bash read as NAME=value (set -k)
PAYLOADS += [f"oProxyCommand=touch {SENTINEL}", f"to-command=touch {SENTINEL}", "BASH_ENV=e.sh"]
CASES += [
    # -- fifth pass: a value completing an option's name or cluster is read as options of its
    # own (ssh -voProxyCommand=..., tar --to-command=...): refused when it holds a letter -----
    ("option name", "ssh -v§ -o BatchMode=yes h true 2>/dev/null"),
    ("option name", "ssh -§ -o BatchMode=yes h true 2>/dev/null"),
    ("option name", "tar -cf ../t.tar a-file; tar -xf ../t.tar --§"),
    # -- bash's brace expansion makes options of a static word (`sh {-c,} {x}` is `sh -c`) ---
    ("brace expansion", "sh {-c,} §"),
    ("brace expansion", "probe §; probe a{b,c}"),
    # -- bash's keyword mode: a later argument NAME=value is a variable of its command -------
    ("keyword mode", f"printf 'touch {SENTINEL}' > e.sh; set -k; bash -c : §"),
    # -- an awk program's literal command that reads awk's input (or what it prints) as code -
    ("data runner", "printf '%s\\n' § | awk '{ print | \"sh\" }'"),
    ("data runner", "printf '%s\\n' § | awk 'BEGIN { system(\"sh\") }'"),
    ("data runner", "printf '%s\\n' § | awk 'BEGIN { \"sh\" | getline }'"),
    # -- a Python module whose operands are code -------------------------------------------
    ("python module", "python3 -m timeit -n 1 -r 1 §"),
    # -- git config, with an option's argument before the setting's name ------------------
    ("git setting", "git init -q .; git config -f .git/config alias.zz §; git zz"),
    # -- look-alikes: accepted ---------------------------------------------------------------
    ("option name", "ls -§ >/dev/null 2>&1; probe §"),
    ("git setting", "git init -q .; git config -f .git/config user.name §; probe §"),
]
NAIVE_ESCAPES += [
    "ssh -v§ -o BatchMode=yes h true 2>/dev/null",
    "ssh -§ -o BatchMode=yes h true 2>/dev/null",
    "tar -cf ../t.tar a-file; tar -xf ../t.tar --§",
    "sh {-c,} §",
    f"printf 'touch {SENTINEL}' > e.sh; set -k; bash -c : §",
    "printf '%s\\n' § | awk '{ print | \"sh\" }'",
    "printf '%s\\n' § | awk 'BEGIN { system(\"sh\") }'",
    "printf '%s\\n' § | awk 'BEGIN { \"sh\" | getline }'",
    "python3 -m timeit -n 1 -r 1 §",
    "git init -q .; git config -f .git/config alias.zz §; git zz",
]
# The benign value of a case where a value with a letter is refused when rendered (it would
# complete an option written before it): one with no letter, which the case accepts.
BENIGNS = {
    case: "9876543210"
    for case in (
        "ssh -v§ -o BatchMode=yes h true 2>/dev/null",
        "ssh -§ -o BatchMode=yes h true 2>/dev/null",
        "tar -cf ../t.tar a-file; tar -xf ../t.tar --§",
    )
}
NEEDS.update(
    {
        "ssh -v§ -o BatchMode=yes h true 2>/dev/null": "ssh",
        "ssh -§ -o BatchMode=yes h true 2>/dev/null": "ssh",
        "git init -q .; git config -f .git/config alias.zz §; git zz": "git",
    }
)
CASES += [
    # -- a value written to a file that a program of the template reads as code by its name
    # alone (make's Makefile, pytest's conftest.py, git's hooks): refused -------------------
    ("file run", "printf '%s\\n' § > Makefile; make >/dev/null 2>&1"),
    # -- a file that no program of the template reads by name: accepted --------------------
    ("file run", "printf '%s.' § > notes; make -f /dev/null >/dev/null 2>&1; probe \"$(cat n*)\""),
]
NAIVE_ESCAPES += ["printf '%s\\n' § > Makefile; make >/dev/null 2>&1"]
NEEDS["printf '%s\\n' § > Makefile; make >/dev/null 2>&1"] = "make"
CASES += [
    # -- env -S splits its string into the command it runs: `env -S'sh -c' {x}` is sh -c ----
    ("runner", "env -S'sh -c' §"),
    ("runner", "env -S'printf %s.' §"),
]
NAIVE_ESCAPES += ["env -S'sh -c' §"]
CASES += [
    # -- a string written in the static text that eval or trap parses again as code, where an
    # expansion puts a variable holding a value where code goes ---------------------------
    ("variable", "for f in §; do eval 'sh -c \"$f\"'; done"),
    ("variable", "trap 'sh -c \"$1\"' EXIT; set -- §"),
    # -- and one that uses it as data: accepted ----------------------------------------------
    ("variable", "set -- §; eval 'probe \"$1\"'"),
]
NAIVE_ESCAPES += ["for f in §; do eval 'sh -c \"$f\"'; done", "trap 'sh -c \"$1\"' EXIT; set -- §"]
_OPTION_FILES = (
    f"printf 'touch {SENTINEL}' > s; : > --checkpoint=1; : > '--checkpoint-action=exec=sh s'; "
)
CASES += [
    # -- an unquoted $( ) splits its output into words and expands them as patterns: a value
    # there may become several words, options among them (`*` names the files above) ------
    ("command substitution", _OPTION_FILES + "tar cf ../t.tar $(echo §)"),
    # -- in double quotes it stays one word: accepted ----------------------------------------
    ("command substitution", _OPTION_FILES + "tar cf ../t.tar \"$(echo §)\" 2>/dev/null; probe §"),
]
NAIVE_ESCAPES += [_OPTION_FILES + "tar cf ../t.tar $(echo §)"]
_READ_INTO_GIT = (
    "git init -q r; printf '%s\\n' § | while read -r v; do git ls-remote \"$v\" r; done "
    ">/dev/null 2>&1"
)
CASES += [
    # -- a value read from a pipe into a variable that stands where a program reads options
    ("pipe", _READ_INTO_GIT),
]
NAIVE_ESCAPES += [_READ_INTO_GIT]
NEEDS[_READ_INTO_GIT] = "git"
_GIT_REPOSITORY = "git init -q ../r; "
CASES += [
    # -- an abbreviated long option is the option in full (GNU getopt_long, git's parser):
    # `su --comm {x}` is `su --command {x}`: refused -----------------------------------------
    ("command option", "su root --comm §"),
    ("command option", "su root --session-command=§"),
    ("command option", "su root --sess §"),
    ("command option", "script -q /dev/null --comm § >/dev/null"),
    ("command option", "tar -cf ../t.tar a-file; tar --to-com=§ -xf ../t.tar"),
    ("runner", "env --spl='sh -c' §"),
    ("command option", _GIT_REPOSITORY + "git ls-remote --upload-p=§ ../r >/dev/null 2>&1"),
    # -- abbreviations of other options: accepted --------------------------------------------
    ("command option", "env --un X printf '%s.' §"),
    ("command option", "tar -cf ../t.tar a-file; tar --to-stdout -xf ../t.tar; probe §"),
]
NAIVE_ESCAPES += [
    "su root --comm §",
    "su root --session-command=§",
    "su root --sess §",
    "script -q /dev/null --comm § >/dev/null",
    "tar -cf ../t.tar a-file; tar --to-com=§ -xf ../t.tar",
    "env --spl='sh -c' §",
    _GIT_REPOSITORY + "git ls-remote --upload-p=§ ../r >/dev/null 2>&1",
]
NEEDS.update(
    {
        "su root --comm §": "su",
        "su root --session-command=§": "su",
        "su root --sess §": "su",
        "script -q /dev/null --comm § >/dev/null": "script",
        _GIT_REPOSITORY + "git ls-remote --upload-p=§ ../r >/dev/null 2>&1": "git",
    }
)
CASES += [
    # -- and where a program reads its program from a pipe: refused ---------------------------
    ("pipe", "printf '%s\\n' § | sed --expr=e"),
    ("pipe", "printf 'all:\\n\\t%s\\n' § | make -s --fi=-"),
    # -- a program it was given: accepted -------------------------------------------------------
    ("pipe", "printf '%s\\n' § | sed --expr=p >/dev/null; probe §"),
]
NAIVE_ESCAPES += [
    "printf '%s\\n' § | sed --expr=e",
    "printf 'all:\\n\\t%s\\n' § | make -s --fi=-",
]
NEEDS["printf 'all:\\n\\t%s\\n' § | make -s --fi=-"] = "make"

#!/bin/sh
# Every EXAMPLES command of every page in man/ that reads a shipped trace (traces/...) prints
# what the page shows after it: exact match after stripping trailing blanks. An example that
# shows no output must succeed. build-aux/update-man-examples rewrites the expected outputs.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
[ -d "$TOP_SRCDIR/traces" ] || skip_all "no shipped traces"

# This build's program first in PATH.
mkdir "$TMPD/bin" "$TMPD/top"
ln -s "$FOLIO_TRACE" "$TMPD/bin/folio-trace"
# The commands run "from the source tree top", but in a scratch directory that links every
# entry of it, so that files an example writes land there and the source tree stays untouched.
for f in "$TOP_SRCDIR"/* "$TOP_SRCDIR"/.[!.]*; do
	[ -e "$f" ] && ln -s "$f" "$TMPD/top/${f##*/}"
done

# Each command as PAGE-N.sh, the lines after it as PAGE-N.want (absent when the page shows
# none), in page order. A command starts with "$ " and goes on after a line ending in \ or |;
# lines starting "# " are root commands (record), which never run here.
python3 - "$TMPD/ex" "$TOP_SRCDIR"/man/*.[1-8] <<'PY'
import os, re, sys
out, pages = sys.argv[1], sys.argv[2:]
os.mkdir(out)

ESC = [("\\-", "-"), ("\\(dq", '"'), ("\\(aq", "'"), ("\\(ti", "~"), ("\\(ha", "^"),
       ("\\(rs", "\\"), ("\\~", " "), ("\\&", ""), ("\\fB", ""), ("\\fI", ""),
       ("\\fR", ""), ("\\fP", "")]

def unroff(s):
    s = s.replace("\\e", "\x00")
    for a, b in ESC:
        s = s.replace(a, b)
    return s.replace("\x00", "\\")

def examples(lines):
    """Yield (command, expected lines or None) for each "$ " command of the literal blocks."""
    block = None
    for raw in lines:
        line = raw.rstrip("\n")
        if re.match(r"\.(EX|Bd\s+-literal|nf)\b", line):
            block = []
        elif re.match(r"\.(EE|Ed|fi)\b", line) and block is not None:
            yield from commands(block)
            block = None
        elif block is not None and not line.startswith((".", "'")):
            block.append(unroff(line))

def commands(block):
    cmd, want, cont = None, [], False
    for b in block:
        if cont:
            cmd.append(b)
        elif b.startswith("$ "):
            if cmd is not None:
                yield cmd, want
            cmd, want = [b[2:]], []
        elif b.startswith("# "):
            if cmd is not None:
                yield cmd, want
            cmd, want = None, []
        elif cmd is not None:
            want.append(b.rstrip())
            continue
        else:
            continue
        cont = b.endswith("\\") or b.endswith("|")
        if cmd is None:
            cont = False
    if cmd is not None:
        yield cmd, want

for page in pages:
    name = os.path.basename(page)
    with open(page) as f:
        found = [(c, w) for c, w in examples(f) if re.search(r"(^|[\s=])traces/", "\n".join(c))]
    for n, (cmd, want) in enumerate(found, 1):
        base = f"{out}/{name}-{n:02d}"
        with open(base + ".sh", "w") as f:
            f.write("\n".join(cmd) + "\n")
        if want:
            with open(base + ".want", "w") as f:
                f.write("\n".join(want) + "\n")
PY
[ $? -eq 0 ] || { ok 1 "the pages' examples can be extracted"; done_testing; exit; }

count=0
for ex in "$TMPD"/ex/*.sh; do
	[ -e "$ex" ] || break
	count=$((count + 1))
	name=${ex##*/}
	name=${name%-*}
	got=$(cd "$TMPD/top" && PATH="$TMPD/bin:$PATH" sh "$ex" 2>&1) && rc=0 || rc=$?
	if [ -e "${ex%.sh}.want" ]; then
		is "$(printf '%s\n' "$got" | sed 's/[[:space:]]*$//')" \
			"$(sed 's/[[:space:]]*$//' "${ex%.sh}.want")" "$name: $(head -1 "$ex")"
	else
		is "$rc" 0 "$name (shows no output, runs): $(head -1 "$ex")"
	fi
done
ok $([ "$count" -ge 3 ] && echo 0 || echo 1) "the pages have examples on shipped traces ($count)"
done_testing

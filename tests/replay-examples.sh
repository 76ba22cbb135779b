#!/bin/sh
# The EXAMPLES of folio-trace-replay(1) that read a shipped trace print what the page says.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
[ -d "$TOP_SRCDIR/traces" ] || skip_all "no shipped traces"

# The page's commands find this build's program first.
mkdir "$TMPD/bin"
ln -s "$FOLIO_TRACE" "$TMPD/bin/folio-trace"

# Each example as three files: the command, the expected output, its first line (the name).
python3 - "$TOP_SRCDIR/man/folio-trace-replay.1" "$TMPD" <<'PY'
import sys
page, out = sys.argv[1], sys.argv[2]

def unroff(s):
    return s.replace("\\-", "-").replace("\\e", "\\").replace("\\(dq", '"')

n, block = 0, None
for raw in open(page):
    line = raw.rstrip("\n")
    if line == ".EX":
        block = []
    elif line == ".EE" and block is not None:
        cmd, expect, cont = [], [], False
        for b in block:
            b = unroff(b)
            if b.startswith("$ ") or cont:
                cmd.append(b[2:] if b.startswith("$ ") else b)
                cont = b.endswith("|") or b.endswith("\\")
            else:
                expect.append(b.rstrip())
        text = "\n".join(cmd)
        if "traces/" in text:
            n += 1
            open(f"{out}/ex{n}.sh", "w").write(text + "\n")
            open(f"{out}/ex{n}.want", "w").write("\n".join(expect) + "\n")
        block = None
    elif block is not None:
        block.append(line)
PY

count=0
for ex in "$TMPD"/ex*.sh; do
	[ -e "$ex" ] || break
	count=$((count + 1))
	got=$(cd "$TOP_SRCDIR" && PATH="$TMPD/bin:$PATH" sh "$ex" 2>&1 | sed 's/[[:space:]]*$//')
	is "$got" "$(cat "${ex%.sh}.want")" "example: $(head -1 "$ex")"
done
ok $([ "$count" -ge 3 ] && echo 0 || echo 1) "the page has its examples on shipped traces ($count)"
done_testing

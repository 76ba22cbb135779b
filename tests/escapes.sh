#!/bin/sh
# Strings a trace carries (hostname, release, fstype, device names, paths, counter names) and
# names given on the command line are printed escaped wherever they go: no escape sequence
# from a trace reaches a terminal, no JSON or SVG output is broken by one.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
ESC=$(printf '\033')
T=$TMPD/esc.ftr
"$TOP_BUILDDIR/tests/mktrace" escapes "$T" || exit 1

# raw TEXT: 0 when TEXT holds no ESC and no C1 control (UTF-8 c2 80..9f).
raw() { printf '%s' "$1" | LC_ALL=C grep -q -e "$ESC" -e "$(printf '\302[\200-\237]')" && echo 1 || echo 0; }

run "$FOLIO_TRACE" info "$T"
is "$rc" 0 "info exits 0"
is "$(raw "$out")" 0 "info: no escape byte reaches the output"
like "$out" '^host:       host\\x1b\]0;pwned\\x07, Linux 6\.18\\x1b\[2J\\xc2\\x9b, ' \
	"info: hostname and release escaped, the C1 control too"
like "$out" '^device:     254:0 x\\x1b\[1m block=4096 /dev/\\x1b\]0;owned\\x07$' \
	"info: fstype and device name escaped"

run "$FOLIO_TRACE" info --format=json "$T"
is "$(raw "$out")" 0 "info --format=json: no escape byte"
is "$(printf '%s\n' "$out" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(repr(d["host"]["hostname"]), repr(d["host"]["devices"][-1]["name"]))')" \
	"'host\\x1b]0;pwned\\x07' '/dev/\\x1b]0;owned\\x07'" \
	"info --format=json: the strings are valid JSON holding the bytes"

run "$FOLIO_TRACE" dump "$T"
is "$(raw "$out")" 0 "dump: no escape byte"
like "$out" ' names=nr_\\x1b\[31mdirty,a\\x22b\\x5cc$' "dump: counter names escaped"
like "$out" ' path=/data/\\x1b\[8mhidden$' "dump: the path escaped"
run "$FOLIO_TRACE" dump --format=json "$T"
is "$(raw "$out")" 0 "dump --format=json: no escape byte"
printf '%s\n' "$out" > "$TMPD/dump.jsonl"
is "$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d["type"] == "counter_names": print(d["names"])' "$TMPD/dump.jsonl")" \
	"['nr_\\x1b[31mdirty', 'a\"b\\\\c']" "dump --format=json: counter names are valid JSON strings"

run "$FOLIO_TRACE" top --from="$T" -b
is "$(raw "$out")" 0 "top: no escape byte"
like "$out" '^/data/\\x1b\[8mhidden ' "top: the file name escaped, first on its row"
run "$FOLIO_TRACE" top --from="$T" -b --by=cgroup
is "$(raw "$out")" 0 "top --by=cgroup: no escape byte"
like "$out" '^/\\x1b\[31mred ' "top --by=cgroup: the cgroup's path escaped"
for fmt in table csv json; do
	run "$FOLIO_TRACE" replay --by=cgroup --format=$fmt "$T"
	is "$(raw "$out")" 0 "replay --by=cgroup --format=$fmt: no escape byte"
done
like "$out" '"name": "/\\u001b\[31mred"' "replay --by=cgroup --format=json: a valid JSON string"
run "$FOLIO_TRACE" dump "$T"
like "$out" ' cgroup tid=0 id=77 hierarchy=v2 path=/\\x1b\[31mred$' "dump: the cgroup's path escaped"

run "$FOLIO_TRACE" calibrate "$T"
is "$(raw "$out")" 0 "calibrate: no escape byte"
like "$out" '^calibration: .*esc\.ftr (Linux 6\.18\\x1b\[2J\\xc2\\x9b)$' \
	"calibrate: the release escaped"

# A trace whose own name holds an escape: the report, the plot and the messages escape it.
N=$TMPD/$(printf 'n\033[5mame').ftr
cp "$T" "$N"
run "$FOLIO_TRACE" replay --plot="$TMPD/p.svg" "$N"
is "$(raw "$out")" 0 "replay table: the trace's name escaped"
like "$out" '^replay of .*/n\\x1b\[5mame\.ftr: 1 accesses' "replay table: shown as \\x1b"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$TMPD/p.svg"
ok $? "the SVG with that name in its title is well-formed XML"
run "$FOLIO_TRACE" replay --memory=1G,2G --curve-plot="$TMPD/c.svg" "$N"
is "$(raw "$out")" 0 "replay curves table: the trace's name escaped"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$TMPD/c.svg"
ok $? "the curve SVG with that name in its title is well-formed XML"
run "$FOLIO_TRACE" info "$N.missing"
is "$(raw "$err")" 0 "a message naming the file: no escape byte on stderr"
like "$err" '^folio-trace: .*/n\\x1b\[5mame\.ftr\.missing: cannot open' "the message escapes it"
done_testing

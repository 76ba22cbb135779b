#!/bin/sh
# Live: pages evicted before the recording whose shadow entries remain (FT_START_SHADOWS). A
# 64 MiB file read whole in a 16 MiB memory cgroup is mostly evicted, leaving shadow entries
# as far as the cgroup's shadow shrinker lets them stay; cachestat(2) counts them (nr_evicted,
# nr_recently_evicted of them). A recording that then reads the file (ftload probed-read: its
# reads start once the recorder's probe has opened the file and closed it again) has those
# pages as start_shadows ranges, as many as cachestat counted (when the reads started at the
# probe's open, a probe slowed by the sanitizers' build under load once located 3264 of the
# 3294 shadows its first call counted: reads racing its walk refault pages under it); the
# kernel refaults each (memory.stat workingset_refault_file of the recording's cgroup) and the
# default replay counts the same refaults, --start-cache=empty none; at order 0 the recently
# evicted ones come back active, the others not (no eviction in the recording moves their
# distances). The evicting cgroup
# stays until the recording ends: a refault is judged on it, and a removed one counts none.
# Only this test's file is dropped from the cache.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
memcg_hierarchy
ftload=${TOP_BUILDDIR:?run through make check}/tests/lab/ftload
[ -x "$ftload" ] || skip_all "tests/lab/ftload not built"
command -v python3 > /dev/null || skip_all "python3 not installed"

# cachestat FILE: "nr_evicted nr_recently_evicted" of the whole file, or nothing without it
cachestat() {
	python3 - "$1" <<'EOF'
import ctypes, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
out = ctypes.create_string_buffer(40)
if ctypes.CDLL(None, use_errno=True).syscall(451, fd, struct.pack("QQ", 0, 0), out, 0) == 0:
    print(*struct.unpack("5Q", out.raw)[3:5])
EOF
}

D=$(record_ext4_dir)
F=$D/file
dd if=/dev/urandom of="$F" bs=1M count=64 status=none
[ -n "$(cachestat "$F")" ] || skip_all "no cachestat(2) on this kernel (6.5 on)"
ino=$(stat -c %i "$F")
CG=$ROOT/ft-shadows.$$
mkdir "$CG" || skip_all "cannot make a memory cgroup under $ROOT"
echo $((16 << 20)) > "$CG/$MAX"

# The host's reclaim may take the cached part too, or its shrinker the shadows: made again,
# 3 times at most, until the file has shadows left (the last held).
for try in 1 2 3; do
	drop_pages "$F"
	sh -c 'echo $$ > "$1/cgroup.procs" && exec cat "$2"' sh "$CG" "$F" > /dev/null
	set -- $(cachestat "$F")
	[ "${1:-0}" -gt 0 ] && break
	diag "try $try: no shadow entry left of the file"
done
ok "$([ "${1:-0}" -gt 0 ]; echo $?)" "the file read in 16 MiB left shadow entries ($1, $2 recent)"

rec "$TMPD/t.ftr" --memory-limit=256M -- "$ftload" probed-read "$F" 1M
is "$rc" 0 "record -- ftload probed-read exits 0"

# shadows TYPE [INO]: pages of the start_shadows ranges (of the file INO), all or only the
# recent ones (TYPE recent)
shadows() {
	"$FOLIO_TRACE" dump -t start_shadows "$TMPD/t.ftr" | awk -v ino="${2:+ino=$2}" -v k="$1" '
	(ino == "" || $5 == ino) && (k != "recent" || $9 ~ /recent/) { r = $NF
		sub("ranges=", "", r); n = split(r, v, ",")
		for (i = 1; i <= n; i++) { split(v[i], p, "+"); s += p[2] } }
	END { print s + 0 }'
}
recorded=$(shadows all "$ino")
recent=$(shadows recent "$ino")
evicted=$("$FOLIO_TRACE" dump -t start_shadows "$TMPD/t.ftr" |
	awk -v ino="ino=$ino" '$5 == ino { sub("nr_evicted=", "", $6); print $6; exit }')
diag "cachestat before: $1 evicted, $2 recent; the probe: ${evicted:-none}; ranges: $recorded ($recent recent)"
ok "$([ "$recorded" -gt 0 ]; echo $?)" "the trace has the file's shadows"
is "$recorded" "${evicted:-0}" "the ranges hold every page the probe's cachestat counted"

row=$("$FOLIO_TRACE" calibrate "$TMPD/t.ftr" 2>/dev/null | awk '$1 == "refaults" { print $2, $3 }')
set -- $row
diag "refaults: model ${1:-?}, kernel ${2:-?}"
ok "$([ "${2:-0}" -gt 0 ]; echo $?)" "the kernel refaulted the file's pages"
ok "$(awk -v m="${1:-0}" -v k="${2:-0}" 'BEGIN { d = m - k; if (d < 0) d = -d
	exit !(k > 0 && d * 10 <= k) }'; echo $?)" \
	"the default replay's refaults within 10% of workingset_refault_file (${1:-?}, ${2:-?})"
is "$("$FOLIO_TRACE" replay --folio-order=0 --metrics=refaults --format=csv \
	--start-cache=empty "$TMPD/t.ftr" | awk -F, 'NR == 2 { print $NF }')" 0 \
	"--start-cache=empty: no refault"
# between N and M: the file is read whole, so each of its shadows refaults; nothing is evicted
# under 256 MiB, so only shadows of before refault (other files' only if the trace read them)
between() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; echo $?; }
n=$("$FOLIO_TRACE" replay --folio-order=0 --metrics=refaults --format=csv "$TMPD/t.ftr" |
	awk -F, 'NR == 2 { print $NF }')
ok "$(between "${n:-0}" "$recorded" "$(shadows all)")" \
	"order 0: a refault for each page of the file's shadows, and of no page without ($n)"
n=$("$FOLIO_TRACE" replay --folio-order=0 --metrics=refault_activations --format=csv \
	"$TMPD/t.ftr" | awk -F, 'NR == 2 { print $NF }')
ok "$(between "${n:-0}" "$recent" "$(shadows recent)")" \
	"order 0: the recently evicted come back active, the others not ($n)"

# A read that starts at once (cat): its first reads take their pages' shadows before the
# probe, a moment after the file's first event, can see them. On kernels that count refaults
# per folio (mod_memcg_lruvec_state, 6.14 on) the trace names the folios that refaulted
# (pagecache_refault, pagecache_activate for the recent ones) and the recorder gives their
# shadows back to the start state: the replay refaults them too (without: none of the pages
# read before the probe, 0 of 8484 in a run here).
. "$TOP_SRCDIR/tests/calib-lib.sh"
NAME="read at once"
drop_pages "$F"
sh -c 'echo $$ > "$1/cgroup.procs" && exec cat "$2"' sh "$CG" "$F" > /dev/null
rec "$TMPD/c.ftr" --memory-limit=256M -- cat "$F"
is "$rc" 0 "record -- cat exits 0"
if "$FOLIO_TRACE" info "$TMPD/c.ftr" | grep -q "^not recorded.*refaults per folio"; then
	for i in 1 2 3 4 5; do
		skip "this kernel counts no refaults per folio (6.14 on): not checked"
	done
else
	"$FOLIO_TRACE" calibrate --format=json "$TMPD/c.ftr" > "$TMPD/c.json" 2> /dev/null
	ev=$(field refaults "workingset_refault_file events" kernel)
	# per file (replay --by=file): the model's and the kernel's refaults of the file, and the
	# kernel's of the other files the recording saw (cat's own and its libraries': none unless
	# the tests running beside this one pushed them out and read them back meanwhile)
	"$FOLIO_TRACE" replay --folio-order=0 --by=file --format=csv "$TMPD/c.ftr" > "$TMPD/by.csv"
	by=$(awk -F, -v ino="$ino" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR > 1 && $(c["ino"]) == ino { print $(c["refaults"]), $(c["kernel_refaults"]) }' \
		"$TMPD/by.csv")
	others=$(awk -F, -v ino="$ino" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR > 1 && $(c["ino"]) != ino { s += $(c["kernel_refaults"]) }
		END { printf "%d\n", s }' "$TMPD/by.csv")
	set -- $by
	if [ "$others" -gt 0 ]; then
		why="other files refaulted meanwhile ($others pages): not the file's alone"
		skip "$NAME: the refault events against memory.stat: $why"
		within refaults "workingset_refault_file events"
		skip "$NAME: refaults activated: $why"
		skip "--by=file: the file's kernel refaults are all of them: $why"
	else
		is "$ev" "$(field refaults "memory.stat workingset_refault_file" kernel)" \
			"$NAME: the refault events count what memory.stat counts ($ev)"
		within refaults "workingset_refault_file events"
		within "refaults activated" "workingset_activate_file events"
		is "${2:-}" "$ev" "--by=file: the file's kernel refaults are all of them ($ev)"
	fi
	ok "$(awk -v m="${1:-0}" -v k="${2:-0}" 'BEGIN { d = m - k; if (d < 0) d = -d
		exit !(k > 0 && d * 10 <= k) }'; echo $?)" \
		"--by=file: the model's refaults of the file within 10% (${1:-?}, ${2:-?})"
fi

drop_pages "$F"
rmdir "$CG" 2> /dev/null
done_testing

#!/bin/sh
# A replay takes address space as its cache grows, not in proportion to --memory: every shipped
# trace replays with --memory=16T (2^32 pages, the model's largest) under a limit of 1 GiB of
# address space (ulimit -v, RLIMIT_AS, as batch schedulers set it), and in little memory.
. "$TOP_SRCDIR/tests/lib.sh"
cd "$TMPD" || exit 1

# AddressSanitizer reserves terabytes of shadow memory: no limit on address space can hold it.
if grep -q __asan_init "$FOLIO_TRACE"; then
	skip_all "a sanitizer build reserves more address space than any limit lets through"
fi
TIME=/usr/bin/time
for t in "$TRACES"/*.ftr; do
	name=$(basename "$t")
	if [ -x "$TIME" ]; then
		(ulimit -v 1048576 && exec "$TIME" -f %M -o rss "$FOLIO_TRACE" replay --memory=16T \
			"$t" >out 2>err)
	else
		(ulimit -v 1048576 && exec "$FOLIO_TRACE" replay --memory=16T "$t" >out 2>err)
	fi
	rc=$?
	is "$rc:$(cat err)" "0:" "$name: replay --memory=16T under ulimit -v 1048576"
	like "$(cat out)" "hit ratio" "$name: and reports"
	if [ -x "$TIME" ]; then
		kib=$(tail -n 1 rss)
		ok "$([ "$kib" -lt 65536 ]; echo $?)" "$name: peak RSS $kib KiB, below 64 MiB"
	fi
done
done_testing

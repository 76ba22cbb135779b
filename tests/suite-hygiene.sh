#!/bin/sh
# The test suite runs on someone's machine, beside other work and other test runs: no test
# empties the whole host's page cache (a test drops its own files' pages: drop_pages in
# tests/record-lib.sh).
. "$TOP_SRCDIR/tests/lib.sh"
found=$(grep -l -E '>[[:space:]]*/proc/sys/vm/drop_caches' "$TOP_SRCDIR"/tests/*.sh \
	"$TOP_SRCDIR"/tests/data/*.sh "$TOP_SRCDIR"/tests/*.c 2> /dev/null | tr '\n' ' ')
is "$found" "" "no test writes /proc/sys/vm/drop_caches"
done_testing

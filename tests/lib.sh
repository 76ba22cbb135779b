# Shell TAP helpers for folio-trace tests. Source it: . "$TOP_SRCDIR/tests/lib.sh"
# The plan is printed at the end (done_testing), so a script that dies early is an error.
set -u
: "${FOLIO_TRACE:?run through make check}"
: "${TOP_SRCDIR:?run through make check}"
TRACES="$TOP_SRCDIR/traces"
tap_n=0
tap_fail=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/ft-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT

ok() {	# ok COND-EXIT-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_fail=$((tap_fail + 1))
	fi
}

is() {	# is GOT WANT DESCRIPTION
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
	fi
}

like() {	# like TEXT PATTERN DESCRIPTION: a line of TEXT matches the grep (basic) regex PATTERN
	if printf '%s\n' "$1" | grep -q -e "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '%s\n' "$1" | sed 's/^/#   got:  /'
		printf '#   want: a line matching %s\n' "$2"
	fi
}

run() {	# run CMD...: sets $out, $err, $rc
	out=$("$@" 2>"$TMPD/stderr") && rc=0 || rc=$?
	err=$(cat "$TMPD/stderr")
}

skip_all() {	# skip the whole script: exit 77 with the reason on the plan line
	echo "1..0 # SKIP $1"
	exit 77
}

skip() {	# skip REASON: one test point that cannot run here, with the reason
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

diag() { echo "# $*"; }

done_testing() {
	echo "1..$tap_n"
	[ "$tap_fail" -eq 0 ]
}

# The kernel lab in make check (sourced by tests/kernel-6.1.sh and tests/kernel-6.12.sh, which
# set LAB_SERIES): every case of tests/lab/cases/ run on that Debian kernel under qemu
# (tests/lab/lab), each case's own checks reported here as test points. Skips where qemu or
# the kernel package is missing (build-aux/install-deps installs both), and in the
# sanitizers' build: the VMs boot under TCG, and one build's binaries prove the kernel side.
. "$TOP_SRCDIR/tests/lib.sh"
: "${LAB_SERIES:?set by tests/kernel-SERIES.sh}"
command -v qemu-system-x86_64 > /dev/null ||
	skip_all "qemu-system-x86_64 not installed (build-aux/install-deps installs it)"
cache=${FT_LAB_CACHE:-/var/cache/folio-trace/kernels}
[ -f "$cache/$LAB_SERIES/package" ] ||
	skip_all "no $LAB_SERIES kernel in $cache (build-aux/fetch-kernels fetches it)"
if ldd "$FOLIO_TRACE" 2> /dev/null | grep -q libasan; then
	skip_all "sanitizers' build: the kernel lab runs the plain build's folio-trace"
fi
ftload=${TOP_BUILDDIR:?run through make check}/tests/lab/ftload
[ -x "$ftload" ] || skip_all "tests/lab/ftload not built"
diag "$(cat "$cache/$LAB_SERIES/package")"

for c in "$TOP_SRCDIR"/tests/lab/cases/*.sh; do
	name=${c##*/}
	name=${name%.sh}
	[ "$name" = lib ] && continue
	run sh "$TOP_SRCDIR/tests/lab/lab" --cache="$cache" --kernel="$LAB_SERIES" \
		--binary="$FOLIO_TRACE" --ftload="$ftload" --case="$name" --out="$TMPD/$name"
	if [ "$rc" -eq 77 ]; then
		skip "$name: $(printf '%s\n' "$out" | sed -n 's/^lab: SKIP: //p')"
		continue
	fi
	# the case's own check lines, renumbered as this script's; its comments as diagnostics
	log=$TMPD/$name/case.log
	checks=0
	if [ -f "$log" ]; then
		while IFS= read -r line; do
			case $line in
			"ok "*) checks=$((checks + 1)); ok 0 "$name: ${line#* - }" ;;
			"not ok "*) checks=$((checks + 1)); ok 1 "$name: ${line#* - }" ;;
			"#"*) echo "$line" ;;
			esac
		done < "$log"
	fi
	# a failure's reason in the test's own line: logs are often cut to their FAIL lines
	why=""
	[ "$rc" -ne 0 ] && why=$(printf '%s\n' "$out" | sed -n 's/^lab: FAIL: [^:]*: //p' | head -n 1)
	is "$rc" 0 "$name: the case ended passing ($checks checks)${why:+: $why}"
	if [ "$rc" -ne 0 ]; then
		printf '%s\n' "$out" "$err" | sed 's/^/# /'
		[ -f "$log" ] && sed 's/^/# case: /' "$log"
		# kept for a post-mortem (its traces): the test's own directory goes at exit
		kept=$TOP_BUILDDIR/tests/lab-failed/$LAB_SERIES-$name
		rm -rf "$kept" && mkdir -p "${kept%/*}" && cp -r "$TMPD/$name" "$kept" &&
			diag "$name: its output kept in $kept"
	fi
	printf '%s\n' "$out" | sed -n 's/^lab: times: /# times: /p'
done
done_testing

#!/bin/sh
# folio-trace report's page in a real browser (headless Chromium, Debian's chromium): for
# each shipped trace, the page loads from a file:// URL without a console message (the page
# has no script and may load nothing: any message is an error or a blocked load), the DOM the
# browser built holds replay's verdict line for line, and a screenshot is a picture of the
# page: its size, and more colours than a blank or bare page has. A page that loads something
# first shows that the console check sees it. One browser loads them all, in turn, driven
# over the DevTools protocol (tests/browse.py).
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip_all "chromium not installed (Debian package chromium; build-aux/install-deps)"
PAGE="python3 $TOP_SRCDIR/tests/page-text.py"
COLOURS=$TOP_BUILDDIR/tests/png-colours
W=1024
H=1400

console() {	# console NAME: the console messages and log entries of NAME.html
	cat "$TMPD/$1.log"
}

start=$(date +%s)
# The check sees a blocked load.
printf '%s\n' '<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy"' \
	"content=\"default-src 'none'\"></head><body><p>x</p>" \
	'<img src="http://192.0.2.1/x.png"></body></html>' > "$TMPD/bad.html"
names=
for t in "$TRACES"/*.ftr; do
	n=$(basename "$t" .ftr)
	names="$names $n"
	"$FT" report -q -o "$TMPD/$n.html" "$t" 2>"$TMPD/$n.err"
	ok $? "$n: report writes the page"
done
# one browser for every page (tests/browse.py): starting it is what takes the time
pages=
for n in bad $names; do
	pages="$pages $TMPD/$n.html"
done
python3 "$TOP_SRCDIR/tests/browse.py" "$CHROMIUM" $W $H $pages
ok $? "the browser loads every page"
like "$(console bad)" 'violates the following Content Security Policy' \
	"the console check sees a load the page's policy blocks"
for n in $names; do
	is "$(console "$n")" "" "$n: no console message"
	want=$("$FT" replay -q "$TRACES/$n.ftr" | sed '/^$/q' | sed '$d')
	is "$($PAGE "$TMPD/$n.dom" verdict)" "$want" "$n: the verdict in the DOM is replay's"
	is "$($PAGE "$TMPD/$n.dom" | sed -n '1,2p' | tr '\n' ' ')" \
		"verdict orders curves time files calibration settings svg 2 " \
		"$n: every section and both plots in the DOM"
	set -- $("$COLOURS" "$TMPD/$n.png")
	is "${1:-}x${2:-}" "${W}x$H" "$n: a screenshot of the window's size"
	[ "${3:-0}" -ge 64 ] && [ "$(wc -c < "$TMPD/$n.png")" -ge 20000 ]
	ok $? "$n: the screenshot is no blank page (${3:-?} colours)"
done
diag "pages and browsers took $(($(date +%s) - start)) s for the shipped traces"
done_testing

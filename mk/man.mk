# Manual pages: the overview, the format, and checks that they stay true to the program.
dist_man_MANS += man/folio-trace.1 man/folio-trace.5 man/folio-trace-info.1 \
	man/folio-trace-dump.1
TESTS += tests/man-pages.sh
EXTRA_DIST += tests/man-pages.sh

# Manual pages: the overview, the format, the analysis walk-through, and checks that they stay
# true to the program.
dist_man_MANS += man/folio-trace.1 man/folio-trace.5 man/folio-trace-info.1 man/folio-trace-top.1 \
	man/folio-trace-dump.1 man/folio-trace-analysis.7
TESTS += tests/man-pages.sh
EXTRA_DIST += tests/man-pages.sh

# Every page's EXAMPLES run on the shipped traces. build-aux/update-man-examples refreshes
# those examples' outputs (a maintainer tool).
TESTS += tests/man-examples.sh
EXTRA_DIST += tests/man-examples.sh build-aux/update-man-examples

# make update-man-examples: rewrite those outputs from this build's program, then review them
# with git diff (never run by make check).
update-man-examples: folio-trace$(EXEEXT)
	$(srcdir)/build-aux/update-man-examples --folio-trace=./folio-trace$(EXEEXT)
.PHONY: update-man-examples

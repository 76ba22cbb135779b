# The analysis walk-through page, and the test that runs every page's EXAMPLES on the shipped
# traces. build-aux/update-man-examples refreshes those examples' outputs (a maintainer tool).
dist_man_MANS += man/folio-trace-analysis.7
TESTS += tests/man-examples.sh
EXTRA_DIST += tests/man-examples.sh build-aux/update-man-examples

# make update-man-examples: rewrite those outputs from this build's program, then review them
# with git diff (never run by make check).
update-man-examples: folio-trace$(EXEEXT)
	$(srcdir)/build-aux/update-man-examples --folio-trace=./folio-trace$(EXEEXT)
.PHONY: update-man-examples

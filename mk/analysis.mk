# The analysis walk-through page, and the test that runs every page's EXAMPLES on the shipped
# traces. build-aux/update-man-examples refreshes those examples' outputs (a maintainer tool).
dist_man_MANS += man/folio-trace-analysis.7
TESTS += tests/man-examples.sh
EXTRA_DIST += tests/man-examples.sh build-aux/update-man-examples

# Reports of replay results: table, JSON, CSV, time series, the SVG plot and heatmap.
libfoliotrace_a_SOURCES += \
	src/report/report.h src/report/metrics.h src/report/metrics.c src/report/meanings.c \
	src/report/table.c src/report/verdict.c src/report/json.c src/report/csv.c \
	src/report/series.h src/report/series.c src/report/svg.c \
	src/report/curve.h src/report/curve.c src/report/curve_ratios.c src/report/curve_svg.c \
	src/report/plot.h \
	src/report/heatmap.h src/report/heatmap.c src/report/units.h src/report/units.c \
	src/report/page.h src/report/page.c

# Tests: report formats on hand-made metrics.
check_PROGRAMS += tests/test-replay-report
tests_test_replay_report_LDADD = $(TEST_LIBS)
TESTS += tests/test-replay-report

# The report subcommand: the whole analysis on one HTML page.
folio_trace_SOURCES += src/cmd-report.c
dist_man_MANS += man/folio-trace-report.1
# Tests: the page's sections and verdict, then the page in a headless browser (skips without
# chromium); png-colours reads the browser's screenshots.
TESTS += tests/report-cli.sh tests/report-browser.sh
EXTRA_DIST += tests/report-cli.sh tests/report-browser.sh tests/page-text.py \
	tests/browse.py
check_PROGRAMS += tests/png-colours
tests_png_colours_LDADD = $(ZLIB_LIBS)

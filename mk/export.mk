# export: a trace as a libCacheSim request stream (csv or oracleGeneral).
libfoliotrace_a_SOURCES += src/export/requests.h src/export/requests.c src/export/export.h \
	src/export/csv.c src/export/oracle.c
folio_trace_SOURCES += src/cmd-export.c
dist_man_MANS += man/folio-trace-export.1

# Round trips through import, both layouts.
TESTS += tests/export-roundtrip.sh
EXTRA_DIST += tests/export-roundtrip.sh

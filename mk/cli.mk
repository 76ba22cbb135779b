# The folio-trace binary: the subcommand table and one file per subcommand.
folio_trace_SOURCES += src/folio-trace.c src/cmd.h

# Trace format: reader, writer, and the info/dump subcommands that show a trace.
libfoliotrace_a_SOURCES += src/trace/events.h src/trace/trace.h src/trace/writer.c \
	src/trace/reader.c src/trace/names.c
folio_trace_SOURCES += src/cmd-info.c src/cmd-dump.c

# Foreign record layouts shared by import and export: libCacheSim's object ids and records.
libfoliotrace_a_SOURCES += src/codec/libcachesim.h src/codec/libcachesim.c

# The kernel lab: Debian's distribution kernels (6.1, 6.12) booted under qemu, each running
# live cases of folio-trace (tests/lab/lab runs one, tests/lab/cases/ holds them).
# build-aux/fetch-kernels fetches the kernels. make check runs every case on each kernel
# (tests/kernel-SERIES.sh, side by side under make -j); make check-kernels does the same
# outside the test harness, with a summary.
# The cases are every tests/lab/cases/*.sh but lib.sh, which they share (GNU make's wildcard:
# a new case needs no line here).
LAB_CASE_FILES = $(patsubst $(srcdir)/%,%,$(wildcard $(srcdir)/tests/lab/cases/*.sh))
EXTRA_DIST += build-aux/fetch-kernels tests/lab/lab tests/lab/init tests/lab/check-kernels \
	$(LAB_CASE_FILES) tests/kernel-lab.sh tests/kernel-6.1.sh tests/kernel-6.12.sh
TESTS += tests/kernel-6.1.sh tests/kernel-6.12.sh

# ftload, the cases' workload, runs in the VMs, which have no libraries of their own: linked
# statically where the C library allows it, and so without the sanitizers and LTO.
check_PROGRAMS += tests/lab/ftload
tests_lab_ftload_SOURCES = tests/lab/ftload.c
tests_lab_ftload_CFLAGS = -std=gnu11 $(WARN_CFLAGS)
tests_lab_ftload_LDFLAGS = $(FTLOAD_STATIC)
tests_lab_ftload_LDADD = -lm
# GNU make's $(shell), expanded only when ftload is linked; with $(LIBS), which configure
# gives every program. A scratch file, not /dev/null: a linker that writes a temporary file
# and renames it would replace /dev/null.
FTLOAD_STATIC = $(shell t=$$(mktemp) && printf 'int main(void) { return 0; }\n' | \
	$(CC) -x c -static -o "$$t" - $(LIBS) 2> /dev/null && echo -static; rm -f "$$t")

# make check-kernels: every case on every kernel fetched, with a summary; the runs' output in
# lab-out/SERIES-CASE/. LAB_KERNELS and LAB_CASES pick fewer, LAB_FLAGS passes on --mem= or
# --timeout=; FT_LAB_CACHE is where fetch-kernels put the kernels.
LAB_KERNELS = 6.1 6.12
LAB_CASES = $(filter-out lib,$(basename $(notdir $(LAB_CASE_FILES))))
LAB_FLAGS =
check-kernels: folio-trace$(EXEEXT) tests/lab/ftload$(EXEEXT)
	@$(SHELL) $(srcdir)/tests/lab/check-kernels --binary=folio-trace$(EXEEXT) \
		--ftload=tests/lab/ftload$(EXEEXT) --out=$(abs_top_builddir)/lab-out \
		--kernels='$(LAB_KERNELS)' --cases='$(LAB_CASES)' $(LAB_FLAGS)
clean-local: clean-lab
clean-lab:
	-rm -rf lab-out tests/lab-failed
.PHONY: check-kernels clean-lab

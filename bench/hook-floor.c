// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hook-floor OBJECT PROGRAM|none FILE CALLS: the CPU time of one 4 KiB pread(2) of FILE at
 * random page offsets (FILE is meant to be cached), in ns, with PROGRAM of the BPF OBJECT
 * attached (none: nothing). make bench (bench/record.sh) runs it to show what a hook costs
 * before a program does any work on it.
 */
#include <bpf/libbpf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct bpf_link *attach(const char *object, const char *name)
{
	struct bpf_object *obj = bpf_object__open_file(object, NULL);
	struct bpf_program *prog;

	if (!obj)
		return NULL;
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, strcmp(bpf_program__name(prog), name) == 0);
	if (bpf_object__load(obj))
		return NULL;
	prog = bpf_object__find_program_by_name(obj, name);
	return prog ? bpf_program__attach(prog) : NULL;
}

static double thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	static char buf[4096];
	uint64_t x = 0x9e3779b97f4a7c15ull, pages;
	struct stat st;
	long calls;
	double t0;
	int fd;

	if (argc != 5 || (calls = atol(argv[4])) <= 0) {
		fprintf(stderr, "usage: hook-floor OBJECT PROGRAM|none FILE CALLS\n");
		return 2;
	}
	fd = open(argv[3], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || (pages = (uint64_t)st.st_size / 4096) == 0) {
		perror(argv[3]);
		return 1;
	}
	if (strcmp(argv[2], "none") && !attach(argv[1], argv[2])) {
		fprintf(stderr, "hook-floor: cannot attach %s of %s\n", argv[2], argv[1]);
		return 1;
	}
	t0 = thread_ns();
	for (long i = 0; i < calls; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (pread(fd, buf, sizeof(buf), (off_t)(x % pages) * 4096) != sizeof(buf)) {
			perror("pread");
			return 1;
		}
	}
	printf("%.1f\n", (thread_ns() - t0) / (double)calls);
	return 0;
}

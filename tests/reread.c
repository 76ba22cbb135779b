// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reread FILE PAUSE: reads FILE twice in 1 MiB reads with POSIX_FADV_RANDOM (so the kernel
 * reads base pages, only what is asked), sleeping PAUSE seconds between the passes. A small
 * program for tests/calibrate-live.sh: few pages of its own in the memory cgroup it runs in.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: reread FILE PAUSE\\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM)) {
		perror(argv[1]);
		return 1;
	}
	for (int pass = 0; pass < 2; pass++) {
		off_t off = 0;
		ssize_t n;

		while ((n = pread(fd, buf, sizeof(buf), off)) > 0)
			off += n;
		if (n < 0) {
			perror(argv[1]);
			return 1;
		}
		if (!pass)
			sleep((unsigned)atoi(argv[2]));
	}
	return 0;
}

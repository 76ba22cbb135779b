/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "synth/output.h"

static int clear_created_time(const char *path, struct ft_error *err)
{
	const __u64 zero = 0;
	struct stat sb;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		close(fd);
		return 0;	/* a pipe or device: nothing to patch */
	}
	if (pwrite(fd, &zero, sizeof(zero), offsetof(struct ft_file_header, created_realtime_ns))
	    != sizeof(zero))
		ret = -1;
	if (close(fd) < 0)
		ret = -1;
	if (!ret)
		return 0;
fail:
	snprintf(err->msg, sizeof(err->msg), "%s: cannot finish the header: %s", path,
		 strerror(errno));
	return -1;
}

int synthetic_output_close(struct ft_writer *w, const char *path, struct ft_error *err)
{
	if (ft_writer_close(w, err))
		return -1;
	if (strcmp(path, "-") == 0)
		return 0;
	return clear_created_time(path, err);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A libFuzzer target without libFuzzer: runs LLVMFuzzerTestOneInput once on each file named
 * on the command line, so the corpus and the regression inputs replay under make check with
 * any compiler (and its sanitizers). Exit 0 when every input ran; a finding aborts, as it
 * does under libFuzzer.
 */
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n;

	if (!f)
		return NULL;
	*size = 0;
	do {
		unsigned char *p;

		cap = cap ? 2 * cap : 65536;
		p = realloc(buf, cap);
		if (!p) {
			free(buf);
			fclose(f);
			return NULL;
		}
		buf = p;
		n = fread(buf + *size, 1, cap - *size, f);
		*size += n;
	} while (*size == cap);
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		size_t size;
		unsigned char *data = slurp(argv[i], &size);

		if (!data) {
			fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput(data, size);
		free(data);
	}
	return 0;
}

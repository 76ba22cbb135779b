#!/usr/bin/env python3
# The fragmenting workload of traces/frag-pairs.ftr (traces/record-traces.sh) and of the live
# test tests/record-frag.sh:
#   frag-pairs.py prepare DIR  1000 pairs of 64 KiB files and a 256 MiB file, written, synced,
#                              then dropped from the cache with POSIX_FADV_DONTNEED (only these
#                              files: the rest of the host's memory stays as it is)
#   frag-pairs.py run DIR [keep-big]
#                              each pair read in turn, 256 KiB of the big file (large folios)
#                              after each; then one file of each pair unlinked, and the big
#                              file too unless keep-big (the test counts its folios after)
import os
import sys


def prepare(d):
    buf = os.urandom(1 << 20)
    with open(os.path.join(d, "big"), "wb") as f:
        for _ in range(256):
            f.write(buf)
    for i in range(1000):
        for p in ("a", "b"):
            with open(os.path.join(d, "%s%04d" % (p, i)), "wb") as f:
                f.write(buf[i % 64 * 4096:][:65536])
    os.sync()
    for name in os.listdir(d):
        fd = os.open(os.path.join(d, name), os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)


def run(d, keep=""):
    fd = os.open(os.path.join(d, "big"), os.O_RDONLY)
    for i in range(1000):
        for p in ("a", "b"):
            with open(os.path.join(d, "%s%04d" % (p, i)), "rb") as f:
                f.read()
        os.pread(fd, 256 << 10, i << 18)
    os.close(fd)
    for i in range(1000):
        os.unlink(os.path.join(d, "b%04d" % i))
    if keep != "keep-big":
        os.unlink(os.path.join(d, "big"))


if __name__ == "__main__":
    {"prepare": prepare, "run": run}[sys.argv[1]](*sys.argv[2:])

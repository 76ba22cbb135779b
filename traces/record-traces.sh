#!/bin/sh
# Re-records the shipped traces: sh traces/record-traces.sh BUILDDIR/folio-trace [OUTDIR]
# Needs root (BPF), fio, git, python3. Scratch files go to a directory on the root
# filesystem (ext4 here), removed at the end. Each trace is one named workload run as
# "folio-trace record -o TRACE -- COMMAND", so only that command and its children are traced.
set -eu
FT=${1:?usage: record-traces.sh FOLIO_TRACE [OUTDIR]}
OUT=${2:-$(dirname "$0")}
W=$(mktemp -d /var/tmp/ft-traces.XXXXXX)
trap 'rm -rf "$W"' EXIT

cold() { sync; echo 3 > /proc/sys/vm/drop_caches; }

# 1. Sequential file copy: 64 MiB with dd in 128 KiB blocks, cold cache, then fsync.
dd if=/dev/urandom of="$W/src" bs=1M count=64 status=none
cold
"$FT" record -o "$OUT/seq-copy.ftr" -- \
	dd if="$W/src" of="$W/dst" bs=128k conv=fsync status=none

# 2. Random 4 KiB overwrites of a 256 MiB file with fsync every 32 writes (fio, 64 MiB of I/O).
fio --name=layout --filename="$W/big" --size=256M --bs=1M --rw=write --output=/dev/null
cold
"$FT" record -o "$OUT/rand-overwrite.ftr" -- \
	fio --name=randw --filename="$W/big" --size=256M --io_size=64M --bs=4k \
	--rw=randwrite --ioengine=psync --fsync=32 --randseed=42 --output=/dev/null

# 3. Append-only log: 20000 lines of 100 bytes, O_APPEND, fsync after every 10 lines.
"$FT" record -o "$OUT/append-log.ftr" -- python3 -c '
import os
fd = os.open("'"$W"'/log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
for i in range(20000):
    os.write(fd, b"%-99d\n" % i)
    if i % 10 == 9:
        os.fsync(fd)
os.close(fd)'

# 4. Many small files, git style: clone, status, a commit touching 200 new files, gc, delete.
git -C "$W" init -q seed
for i in $(seq 1 2000); do printf 'file %d\n%s\n' "$i" "$(seq 1 $((i % 50)))" > "$W/seed/f$i.txt"; done
git -C "$W/seed" add -A
git -C "$W/seed" -c user.name=t -c user.email=t@t commit -q -m seed
cold
"$FT" record -o "$OUT/git-small-files.ftr" -- sh -c '
	git clone -q --no-local "'"$W"'/seed" "'"$W"'/clone" && cd "'"$W"'/clone" &&
	git status --short > /dev/null &&
	for i in $(seq 1 200); do echo new $i > n$i.txt; done &&
	git add -A && git -c user.name=t -c user.email=t@t commit -q -m more &&
	git gc -q && cd / && rm -rf "'"$W"'/clone"'

# 5. Under a memory limit: random 4 KiB reads of a 256 MiB file in a 64 MiB memory cgroup.
cold
"$FT" record --memory-limit=64M -o "$OUT/randread-64M-limit.ftr" -- \
	fio --name=randr --filename="$W/big" --size=256M --io_size=32M --bs=4k \
	--rw=randread --ioengine=psync --randseed=7 --output=/dev/null

# 6. Fragmentation: 1000 pairs of 64 KiB files read one after the other, interleaved with a
#    256 MiB file read in large folios, then one file of each pair and the big file unlinked.
#    The files are dropped from the cache with POSIX_FADV_DONTNEED (the rest of the host's
#    memory stays as it is: the trace's first /proc/pagetypeinfo sample is the start state).
mkdir "$W/pairs"
python3 "$(dirname "$0")/frag-pairs.py" prepare "$W/pairs"
"$FT" record -o "$OUT/frag-pairs.ftr" -- python3 "$(dirname "$0")/frag-pairs.py" run "$W/pairs"
ls -l "$OUT"/*.ftr

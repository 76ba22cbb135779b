#!/bin/sh
# make-import-corpus.sh SRCDIR FOLIO-TRACE: writes the seeds of fuzz-import into
# SRCDIR/fuzz/corpus/import/. Each seed is one byte naming the importer (0 ftrace, 1 fio iolog,
# 2 libCacheSim csv, 3 oracleGeneral) followed by a short real input from tests/data/.
set -eu
src=$1
ft=$2
out=$src/fuzz/corpus/import
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
seed() {	# seed NAME SELECTOR < input
	{ printf "\\$(printf '%03o' "$2")"; head -c 4096; } > "$out/$1"
}
for f in trace-pipe trace-cmd perf; do
	gzip -dc "$src/tests/data/ftrace-$f.txt.gz" | head -n 40 | seed "ftrace-$f" 0
done
seed fio-v2 1 < "$src/tests/data/fio-randrw-v2.iolog"
seed fio-v3 1 < "$src/tests/data/fio-randrw-v3.iolog"
"$ft" import --from=fio-iolog -o "$tmp/t.ftr" "$src/tests/data/fio-randrw-v3.iolog" 2>/dev/null
"$ft" export --to=csv -o "$tmp/t.csv" "$tmp/t.ftr"
"$ft" export --to=oraclegeneral -o "$tmp/t.bin" "$tmp/t.ftr"
seed lcs-csv 2 < "$tmp/t.csv"
head -c 480 "$tmp/t.bin" | seed lcs-oracle 3

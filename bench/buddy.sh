#!/bin/sh
# make bench: buddy allocator events/s at orders 0, 4, 9 (24 GiB, 5% pinned). Run from the build
# directory, where make built bench/bench-buddy.
set -e
./bench/bench-buddy

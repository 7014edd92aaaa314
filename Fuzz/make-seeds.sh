#!/usr/bin/env bash
# Writes the seed corpora of the two C fuzz targets (Fuzz/corpus/offset_tree/ and
# Fuzz/corpus/reuse_pool/). The seeds are committed; run this only after changing how a target
# decodes its input, then commit the result. Each seed is a short operation stream; the byte layout
# is the one the target's decoder reads (see the op switch in LLVMFuzzerTestOneInput and the
# op_* functions). A byte past the end of an input reads as 0.
set -euo pipefail
cd "$(dirname "$0")"

seed() { # seed DIR NAME BYTES: BYTES are printf escapes, e.g. '\x00\x05'
  mkdir -p "corpus/$1"
  printf "$3" >"corpus/$1/$2"
}

# ---- offset tree: op byte % 16 = 0 build, 1-3 insert, 4-5 remove, 6-7 set, 8-11 query,
#      12-13 bad call, 14 edit under a failing allocation, 15 compare everything.
T=offset_tree
# build 5 heights byte by byte (1, 2, 0, 4, 3), then item_at and range queries, then compare
seed $T build-and-query '\x00\x05\x00\x04\x08\xc8\x10\x0c''\x08\x02\x03\x02\x00''\x08\x02\x00\x05\x00''\x0b\x03\x00\x01\x00\x01\x08\x00''\x0f'
# build 7200 pseudo-random heights (two inner levels), remove 2500 from the middle, insert 290
# at 100, set item 4, compare
seed $T big-build-remove '\x00\xf0\x20\x1c\x02\x2a\x00''\x04\x02\xb8\x0b\xf0\xc4\x09''\x01\x02\x64\x00\xc8\x22\x01\x02\x28\x00''\x06\x04\x00\x20''\x0f'
# small inserts at the front, back and middle, removes of 1..8 items, sets, zero heights
seed $T small-edits '\x01\x00\x08\x00\x04\x08\x0c\x10\xc8\xff\x14\x18''\x02\x01\x05\x03\x00\x08''\x03\x02\x03\x00\x03\x00\x01\xff\x30''\x04\x02\x02\x00\x03''\x05\x00\x01''\x06\x01\x00\xff''\x07\x03\x00\x00''\x0f'
# every kind of bad call (which % 10 = 0..9) on a small tree
seed $T bad-calls '\x00\x10\x01\x08''\x0c\x00\x00\x01\x00''\x0c\x01\x01\x02\x00''\x0c\x02\x02\x02\x03\x00\x04\x01\x08\x01\x00\x01''\x0c\x03\x03\x04\x00''\x0c\x04\x04\x01\x02''\x0c\x05\x05\x01\x00''\x0c\x06\x06\x00\x01\x00''\x0c\x07\x07\x01''\x0c\x08\x00\x03\x01\x04\x01\x00''\x0c\x09\x00\x01'
# insert, remove, set and build with the 0th..5th next allocation failing
seed $T alloc-failure '\x00\xf0\x00\x04\x02\x07\x00''\x0e\x00\x00\x02\x00\x02\xf0\x00\x02\x02\x05\x00\x04''\x0e\x01\x01\x02\x10\x00\xf0\x00\x01\x04''\x0e\x02\x02\x02\x08\x00\x08''\x0e\x03\x03\x00\xc0\x00\x01\x01\x08\x08''\x0e\x04\x00\x02\xf0\x00\xf0\x00\x10\x02\x09\x00\x04''\x0e\x05\x01\x00\xf0\x00\x0c\x04'
# offsets, heights and item lookups at special values (NaN, infinities, -0.0, DBL_MAX, ...)
seed $T special-queries '\x00\x20\x01\x06''\x08\x00\x00\x00''\x08\x01\x21\x00''\x09\x02\x06\x00\x00''\x09\x02\x0e\x00\x00''\x09\x02\x16\x00\x00''\x0a\x02\x1e\x00\x00''\x0a\x02\x26\x00\x00''\x0a\x02\x3e\x00\x00''\x0a\x02\x4e\x00\x00''\x0b\x03\x06\x00\x00\x00\x07\x00\x00''\x0b\x03\x1e\x00\x00\x00\x16\x00\x00''\x0b\x03\x36\x00\x00\x01\x08\x00'
# regression: a range from below 0 on 200 zero heights (more than one leaf) read out of bounds
seed $T regress-range-all-zero '\x00\xc0\xc8\x00\x01\xc8''\x08\x03\x36\x00\x00\x01\x08\x00'

# Two levels of inner nodes where removing a range leaves an inner node underfull next to a large
# sibling, so the two share children (fix_node's inner redistribution, in both directions): build
# 5040 heights of 1.0 (45 leaves of 112), insert 17 into 20 leaves (each splits; the root splits
# into two inner nodes), insert 299 into 8 leaves of one side (+3 leaves each), then remove 1300
# from the other side.
le16() { printf '\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8)); }
insert_ones() { printf '\\x01\\x02%s\\xc0%s\\x01\\x04' "$(le16 "$1")" "$(le16 "$2")"; } # POS K
remove_at() { printf '\\x04\\x02%s\\xf0%s' "$(le16 "$1")" "$(le16 "$2")"; }           # POS K
build_5040='\x00\xf0\xb0\x13\x01\x04'
s="$build_5040"
for j in $(seq 19 -1 0); do s+=$(insert_ones $((112 * j + 50)) 17); done
for j in $(seq 44 -1 37); do s+=$(insert_ones $((112 * j + 390)) 299); done
seed $T inner-share-left "$s$(remove_at 700 1300)\x0f"
s="$build_5040"
for j in $(seq 44 -1 25); do s+=$(insert_ones $((112 * j + 50)) 17); done
for j in $(seq 7 -1 0); do s+=$(insert_ones $((112 * j + 50)) 299); done
seed $T inner-share-right "$s$(remove_at 6000 1300)\x0f"

# ---- reuse pool: first byte = default capacity; then op byte % 16 = 0-1 intern, 2 intern many,
#      3-6 put, 7-9 take, 10 set_capacity, 11 trim, 12 drain one, 13 queries and NULL-argument
#      calls, 14 intern or put under a failing allocation, 15 drain all and recreate.
P=reuse_pool
# capacity 4: intern "a", put six (two evictions), take three, capacity 1, trim all, drain
seed $P basic '\x04''\x00\x06a''\x03\x00\x03\x00\x03\x00\x03\x00\x03\x00\x03\x00''\x07\x00\x07\x00\x07\x00''\x0a\x00\x01''\x0b\x00\x01''\x0c'
# capacity 2: 63 numbered kinds (the hash table grows), puts across them, recreate with SIZE_MAX
seed $P many-kinds '\x02''\x02\x3f''\x03\x00\x03\x05\x03\x3e\x04\x3e\x05\x3e\x06\x3e''\x07\x3e\x08\x05''\x0f\xfa\x01''\x00\x01\x05\x00\x03\x00\x03\x00'
# capacity 0: everything put is handed straight back; a later capacity keeps handles
seed $P capacity-zero '\x00''\x00\x0ax\x01''\x03\x00\x03\x00''\x0a\x00\x03''\x03\x00\x03\x00\x03\x00\x03\x00''\x0a\x00\x00''\x03\x00''\x0b\x00\x00''\x07\x00\x0c\x0c'
# unknown kinds, NULL arguments (which % 9 = 0..8)
seed $P bad-calls '\x03''\x00\x06b''\x0d\xe0\x00\x00''\x0d\xe1\x00\x01''\x0d\xf8\x00\x02''\x0d\xf9\x00\x03''\x0d\x00\x00\x04''\x0d\x00\x00\x05''\x0d\x00\x00\x06''\x0d\x00\x00\x07''\x0d\x00\x00\x08''\x03\xe0\x07\xe1\x0a\xf9\x05\x0b\xf8\x00'
# interns and puts with the 0th..5th next allocation failing, and a failing create
seed $P alloc-failure '\x04''\x0e\x00\x01\x06c''\x0e\x01\x01\x01\x07\x00''\x00\x06d''\x0e\x00\x00\x00''\x0e\x01\x00\x00''\x03\x00\x03\x00\x03\x00\x03\x00''\x0e\x00\x00\x00''\x0f\x05\x00''\x00\x06e''\x0e\x02\x01\x02''\x0e\x05\x01\x06f'

#!/usr/bin/env python3
"""Writes the handcrafted seed corpus under tests/fuzz/corpus/<target>/.

Each file: 8 bytes of level seed, then opcodes with their arguments as the
harness decodes them (see the opcode switch in each tests/fuzz/fuzz_*.c).
Run from the repository root: python3 tests/fuzz/make_corpus.py
"""
import os

SEED = bytes(8)


def write(target, name, ops):
    d = os.path.join("tests", "fuzz", "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(SEED + bytes(ops))


# ---- map: 0 insert(slot, key), 3 insert_multi(slot, key), 5 find(k),
# 6 lower/upper(k), 7 floor/below(k), 8 erase(slot), 9 erase_key(k),
# 10 pop_first / 26 pop_last, 11 walk(b, k, bits..), 12 foreach(b, k),
# 13 fail next alloc, 254 clear.
grow = [x for i in range(40) for x in (0, i, i)]
write("map", "grow", grow)
write("map", "multi", [x for i in range(48) for x in (3, i, i % 5)])
write("map", "queries", grow + [x for k in range(0, 48, 3)
                                 for x in (5, k, 6, k, 7, k)])
write("map", "shrink", grow + [x for i in range(0, 40, 2) for x in (8, i)]
      + [x for k in range(1, 40, 4) for x in (9, k)] + [10, 26] * 6)
write("map", "iter_fail", grow + [11, 0x7c, 10, 0xaa, 0x55, 0xf0,
                                  12, 0x0f, 0, 12, 0x02, 20, 13, 0, 60, 61,
                                  254])

# ---- pq: 0 push(slot, key), 4 pop, 6 remove(slot), 7 requeue(slot, key),
# 9 erase_key(k), 10 queued(slot), 11 fail next alloc.
fill = [x for i in range(40) for x in (0, i, i % 3)]
write("pq", "fill_pop", fill + [4] * 45)
write("pq", "remove", fill + [x for i in range(0, 40, 3) for x in (6, i)])
write("pq", "requeue", fill + [x for i in range(40) for x in (7, i, (i + 1) % 3)]
      + [4] * 10)
write("pq", "erase_key", fill + [9, 0, 9, 1, 9, 2, 9, 7, 10, 5, 10, 39])
write("pq", "fail", [x for i in range(30) for x in (11, 0, i, i % 2)] + [4] * 5)

# ---- extent: 0 insert(slot, point, size), 3 hole(slot, b, align, k, ...),
# 6 erase(slot, ...), 8 query(op>>4: lookup / find / overlap), 9 overlap(a, b),
# 10 window(spot), 11 fail next alloc.
ins = [x for i in range(30) for x in (0, i, i * 8, i % 7)]
write("extent", "insert", ins + [x for p in range(0, 240, 5) for x in (8, p)])
write("extent", "holes_low", [x for i in range(30) for x in (3, i, 1 + i % 5,
                                                             i % 5, 130)])
write("extent", "holes_high_top", [10, 5] + [x for i in range(30)
                                            for x in (3, i, 3, 2, 131)])
write("extent", "overlap_erase", ins + [x for p in range(0, 240, 16)
                                        for x in (9, p, p + 20)]
      + [x for i in range(0, 30, 2) for x in (6, i, 0)])
write("extent", "top_edge", [10, 1, 0, 0, 248, 3, 0, 1, 240, 3, 0, 2, 255,
                             0, 3, 0, 244, 9, 250, 255, 11, 3, 4, 0, 0,
                             224, 6, 0, 0])

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


# ---- sched: after the seed, the task count byte and two bytes per task
# (policy/rt/nice, affinity: 0xff everywhere), then op bytes: op % 13 is
# the operation, (op >> 4) % 6 the CPU; every op is followed by a task
# byte. 0 wake, 2 sleep, 3 schedule(b, ran...), 5 tick, 6 advance(step),
# 7 scaling (op >> 7: on), 8 affinity(b), 9 policy(b), 10 nice(b),
# 11 iso(pct, period), 12 fail next alloc.
def sop(code, cpu=0, high=False):
    """The op byte for operation `code` on CPU index `cpu` (0..5), with
    bit 7 set when `high` (scaling on)."""
    for op in range(256):
        if op % 13 == code and (op >> 4) % 6 == cpu and (op >> 7) == high:
            return op
    raise ValueError((code, cpu))


def tasks(specs):
    return [len(specs) - 2] + [x for s in specs for x in s]


mixed = [(i * 37 % 256, 0xff if i % 3 else (1 << (i % 6))) for i in range(12)]
wake_all = [x for i in range(12) for x in (sop(0), i)]
run = [x for r in range(6) for c in range(6)
       for x in (sop(3, c), 0, 1, 0x40, 0x1f, sop(5, c), 0, sop(6), 0, r % 8)]
write("sched", "wake_run", tasks(mixed) + wake_all + run)
iso = [(2, 0xff), (2, 0xff), (3, 0xff), (0, 0xff), (0x11, 0xff)]
write("sched", "iso_limit", tasks(iso) + [sop(11), 0, 10, 1]
      + [x for i in range(5) for x in (sop(0), i)]
      + [x for r in range(40) for x in (sop(3, r % 2), 0, 1, 0x10, 0x27,
                                        sop(5, r % 2), 0, sop(5, r % 2), 0)])
sticky = [(i * 5 % 256 | 3, 0xff) for i in range(8)]
write("sched", "sticky_scaling", tasks(sticky) + wake_all[:16]
      + [sop(7, 1, True), 0]
      + [x for r in range(30) for x in (sop(3, r % 3), r % 8, 1, 0x44, 0x02,
                                        sop(6), 0, r % 4)])
write("sched", "policy_fail", tasks(mixed) + wake_all
      + [x for i in range(12) for x in (sop(12), 0, sop(9), i, i * 11 % 256,
                                        sop(10), i, i * 7 % 41,
                                        sop(3, i % 6), 0, 1, 0, 0x30)])

# ---- rcu_map: op % 12: 0 insert(slot, key) (op & 0x20: inside a read-side
# section, op & 0x40: no *existing), 4 erase(slot; 0x80: its twin, 255:
# NULL), 6 erase_key(k), 7 queries(k), 9 walk(b, k, bits..), 10 full
# check, 11 fail the ((op >> 4) % 4 + 1)-th allocation from now.
rgrow = [x for i in range(40) for x in (0 if i % 2 else 0x24, i, i)]
write("rcu_map", "grow", rgrow)
write("rcu_map", "grow_shrink", rgrow + [x for i in range(0, 40, 2)
                                         for x in (4, i)]
      + [x for k in range(1, 40, 2) for x in (6, k)])
write("rcu_map", "queries_walk", rgrow + [x for k in range(0, 48, 5)
                                          for x in (7, k, 9, 0x7e, k, 0xa5,
                                                    0x3c, 0xff)])
write("rcu_map", "fail", [x for i in range(30)
                          for x in (11 + 12 * (i % 4), 0, i, i, 6, i // 2)])
write("rcu_map", "twins_edges", rgrow[:30] + [4, 0x81, 4, 0x83, 4, 255,
                                             0, 50, 226, 0, 51, 230, 7, 227,
                                             10])

# ---- rcu_extent: op % 12: 0 insert(slot, point, size), 3 insert_hole(slot,
# b, size, lo, hi) (op & 0x80: highest), 5 erase(slot; 255: NULL),
# 7 query(lo, hi) (op & 0x80: lo > hi allowed), 9 walk(b, k, bits..),
# 10 window(spot: 0, 2^16, 2^31, 2^32, 2^63, top), 11 fail next alloc.
xins = [x for i in range(30) for x in (0, i, i * 8, 1 + i % 7)]
write("rcu_extent", "insert_query", xins + [x for p in range(0, 240, 12)
                                            for x in (7, p, p + 20)])
write("rcu_extent", "holes", [x for i in range(30)
                              for x in (3 + 0x84 * (i % 2), i, i % 6, 3 + i,
                                        0, 255)])
write("rcu_extent", "top_edge", [10, 5] + xins[:40]
      + [0, 40, 250, 244, 0, 41, 255, 250, 3, 42, 0x40, 4, 0, 0, 9, 1, 0])
write("rcu_extent", "erase_fail", xins + [x for i in range(30)
                                          for x in (11, 5, i, 7, i * 8, 5)])
write("rcu_extent", "u32_top", [10, 2, 10, 4] + xins[:60]
      + [x for i in range(10) for x in (3 + 0x80, 30 + i, 0x40 | i, 5, 0, 0)])

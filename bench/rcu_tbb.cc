// tbb_map: Intel oneTBB's tbb::concurrent_map (a lock-free skiplist of
// pairs; Debian libtbb-dev as packaged), mapping the key to the bench's
// element pointer. C++ lives in this object only; the suite sees the C
// interface of rcu_impl.h.
//
// Lookups and inserts are safe against each other, so tbb_map runs the
// read and insert ops. Its only erase, unsafe_erase(), is not safe against
// any concurrent operation (the map frees the node at once, with no
// deferred reclamation), so it cannot run mixed90, write or mason, and the
// adapter has no erase. The insert op's untimed cleanup, with no worker
// running, goes through erase_all instead (below).
//
// Nodes come from std::allocator (glibc malloc) rather than the default
// tbb::tbb_allocator, which routes to tbbmalloc when libtbbmalloc is
// installed: mallinfo2(), which measures every other peer's bytes, cannot
// see tbbmalloc's memory, and every peer then draws from one allocator.
#include <oneapi/tbb/concurrent_map.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "bench/rcu_impl.h"

namespace
{

using map_t = tbb::concurrent_map<
    std::uint64_t, rcu_elem *, std::less<std::uint64_t>,
    std::allocator<std::pair<const std::uint64_t, rcu_elem *>>>;

map_t &map_of(void *h)
{
    return *static_cast<map_t *>(h);
}

void *tbb_create(std::size_t)
{
    return new (std::nothrow) map_t();
}

// The elements are the bench's: the map frees only its own nodes.
void tbb_destroy(void *h)
{
    delete static_cast<map_t *>(h);
}

// No registration: the map keeps no per-thread state.
void tbb_thread(void *) {}

std::size_t tbb_count(void *h)
{
    return map_of(h).size();
}

inline rcu_elem *find(map_t &m, std::uint64_t key)
{
    auto it = m.find(key);
    return it == m.end() ? nullptr : it->second;
}

rcu_elem *tbb_find(void *h, std::uint64_t key)
{
    return find(map_of(h), key);
}

std::uint64_t tbb_find_all(void *h, const std::uint64_t *q, std::size_t n)
{
    map_t &m = map_of(h);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < n; i++)
        sum += reinterpret_cast<std::uintptr_t>(find(m, q[i]));
    return sum;
}

int tbb_insert(void *h, std::uint64_t key, rcu_elem *e)
{
    try {
        return map_of(h).insert(map_t::value_type(key, e)).second ? 0 : -1;
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

// Quiescent. Not one unsafe_erase per key: in oneTBB 2021.8 it finds the
// node's predecessors by walking each of the node's levels from the head,
// so a node of height 1 costs a walk of the bottom list, O(n) a call (tens
// of ms at 10^6). A node at the front costs O(height), so every node is
// extracted from the front and moved, in key order, into a new map: the
// same nodes with the same heights, so the map comes back the same shape
// at the same addresses, less the dropped ones. O(n + m log m). The
// dropped nodes go to a map of their own, which frees them when it goes: a
// node handle would free one with the size of a node of height 1 (a
// mismatched sized delete in oneTBB 2021.8, which ASan reports).
std::size_t tbb_erase_all(void *h, const std::uint64_t *q, std::size_t m)
{
    map_t &old = map_of(h);
    std::size_t j = 0, removed = 0;
    try {
        std::vector<std::uint64_t> gone(q, q + m);
        std::sort(gone.begin(), gone.end());
        map_t kept, dropped;
        while (!old.empty()) {
            map_t::node_type nh = old.unsafe_extract(old.begin());
            while (j < m && gone[j] < nh.key())
                j++;
            bool drop = j < m && gone[j] == nh.key();
            removed += drop;
            (drop ? dropped : kept).insert(std::move(nh));
        }
        old.swap(kept);
    } catch (const std::bad_alloc &) {
        return 0; // half moved: the driver gives up on tbb_map
    }
    return removed;
}

} // namespace

extern "C" const struct rcu_impl rcu_impl_tbb_map = {
    "tbb_map",
    0,
    tbb_create,
    tbb_destroy,
    tbb_thread,
    tbb_thread,
    tbb_count,
    nullptr, // settle: nodes are freed at once
    tbb_find,
    tbb_find_all,
    tbb_insert,
    nullptr, // erase: none that may run beside other operations
    nullptr, // synchronize: no deferred reclamation
    nullptr, // report
    tbb_erase_all,
    // No extent face.
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

// cds_skiplist: libcds's cds::container::SkipListMap over its own
// user-space RCU, cds::urcu::gc<general_buffered<>> (the lock-free skiplist
// of Herlihy and Shavit; libcds-dev as packaged, default traits), mapping
// the key to the bench's element pointer. C++ lives in this object only;
// the suite sees the C interface of rcu_impl.h.
//
// libcds wants cds::Initialize(), its RCU singleton constructed before the
// map, and every thread attached to its thread manager. Its find() takes
// the RCU read lock for the one lookup, as our adapters do (libcds's
// general-purpose RCU issues a full fence per read lock, by its design);
// its erase() retires the map's own node to the general_buffered buffer
// (one grace period per 256 retired nodes, in whichever thread fills it).

// A release build, as a C++ user would measure: libcds's headers assert on
// every RCU lock and node step otherwise (ours have no asserts).
#ifndef NDEBUG
#define NDEBUG
#endif
#include <cds/init.h>
#include <cds/urcu/general_buffered.h>
#include <cds/container/skip_list_map_rcu.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "bench/rcu_impl.h"

namespace
{

using rcu_gc = cds::urcu::gc<cds::urcu::general_buffered<>>;
using map_t = cds::container::SkipListMap<rcu_gc, std::uint64_t, rcu_elem *>;

// The RCU singleton is built first and outlives the map; the map goes
// while the main thread is still attached (cds_destroy).
struct handle {
    rcu_gc rcu;
    std::unique_ptr<map_t> map{new map_t()};
};

map_t &map_of(void *h)
{
    return *static_cast<handle *>(h)->map;
}

void *cds_create(std::size_t)
{
    cds::Initialize();
    handle *h;
    try {
        h = new handle();
    } catch (const std::bad_alloc &) {
        cds::Terminate();
        return nullptr;
    }
    // After the singleton exists: attaching gives the thread its RCU record.
    cds::threading::Manager::attachThread();
    return h;
}

void cds_destroy(void *h)
{
    // Quiescent: the buffer's nodes are freed, then the map's destructor
    // frees its nodes directly; the thread detaches before the singleton
    // goes, as libcds asks.
    handle *hd = static_cast<handle *>(h);
    rcu_gc::synchronize();
    hd->map.reset();
    cds::threading::Manager::detachThread();
    delete hd;
    cds::Terminate();
}

void cds_thread_enter(void *)
{
    cds::threading::Manager::attachThread();
}

void cds_thread_leave(void *)
{
    cds::threading::Manager::detachThread();
}

// The map counts nothing by default (an item counter would be one more
// shared atomic per update); walk it.
std::size_t cds_count(void *h)
{
    map_t &m = map_of(h);
    std::size_t c = 0;
    map_t::rcu_lock lock;
    for (auto it = m.begin(); it != m.end(); ++it)
        c++;
    return c;
}

// Frees the nodes still waiting in the retire buffer.
void cds_settle(void *)
{
    rcu_gc::synchronize();
}

inline rcu_elem *find(map_t &m, std::uint64_t key)
{
    rcu_elem *e = nullptr;
    m.find(key, [&e](map_t::value_type &v) { e = v.second; });
    return e;
}

rcu_elem *cds_find(void *h, std::uint64_t key)
{
    return find(map_of(h), key);
}

std::uint64_t cds_find_all(void *h, const std::uint64_t *q, std::size_t n)
{
    map_t &m = map_of(h);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < n; i++)
        sum += reinterpret_cast<std::uintptr_t>(find(m, q[i]));
    return sum;
}

int cds_insert(void *h, std::uint64_t key, rcu_elem *e)
{
    return map_of(h).insert(key, e) ? 0 : -1;
}

rcu_elem *cds_erase(void *h, std::uint64_t key)
{
    rcu_elem *e = nullptr;
    map_of(h).erase(key, [&e](map_t::value_type &v) { e = v.second; });
    return e;
}

void cds_synchronize(void *)
{
    rcu_gc::synchronize();
}

} // namespace

extern "C" const struct rcu_impl rcu_impl_cds_skiplist = {
    "cds_skiplist",
    0,
    cds_create,
    cds_destroy,
    cds_thread_enter,
    cds_thread_leave,
    cds_count,
    cds_settle,
    cds_find,
    cds_find_all,
    cds_insert,
    cds_erase,
    cds_synchronize,
    nullptr,
    nullptr, // erase_all: erase does
    // No extent face.
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

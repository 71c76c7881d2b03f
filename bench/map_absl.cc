// absl_btree: absl::btree_map<uint64_t, map_elem *>, Abseil's cache-friendly
// B-tree (default node size). C++ lives in this object only; the suite sees
// the C interface of map_impl.h. The loops are written here, not in C, so
// the B-tree's templates inline into them as they would for a C++ user.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <utility>

#include "absl/container/btree_map.h"
#include "bench/map_impl.h"

namespace
{

// Live bytes the B-tree asked its allocator for: its node memory, the
// same accounting as the other structures' (requested, not malloc's).
std::size_t live_bytes;

template <class T> struct counting_allocator {
    using value_type = T;
    counting_allocator() = default;
    template <class U> counting_allocator(const counting_allocator<U> &) {}
    T *allocate(std::size_t n)
    {
        live_bytes += n * sizeof(T);
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T *p, std::size_t n)
    {
        live_bytes -= n * sizeof(T);
        std::allocator<T>().deallocate(p, n);
    }
    template <class U> bool operator==(const counting_allocator<U> &) const
    {
        return true;
    }
    template <class U> bool operator!=(const counting_allocator<U> &) const
    {
        return false;
    }
};

using tree_t = absl::btree_map<
    std::uint64_t, map_elem *, std::less<std::uint64_t>,
    counting_allocator<std::pair<const std::uint64_t, map_elem *>>>;

tree_t &tree(void *h)
{
    return *static_cast<tree_t *>(h);
}

void *absl_create()
{
    return new (std::nothrow) tree_t();
}

void absl_destroy(void *h)
{
    delete static_cast<tree_t *>(h);
}

std::size_t absl_count(void *h)
{
    return tree(h).size();
}

double absl_bytes(void *)
{
    return static_cast<double>(live_bytes);
}

std::size_t absl_insert_all(void *h, map_elem *const *e, std::size_t n)
{
    tree_t &t = tree(h);
    std::size_t failed = 0;
    for (std::size_t i = 0; i < n; i++)
        failed += !t.insert({e[i]->key, e[i]}).second;
    return failed;
}

inline map_elem *find(const tree_t &t, std::uint64_t key)
{
    auto it = t.find(key);
    return it == t.end() ? nullptr : it->second;
}

std::uint64_t absl_find_all(void *h, const std::uint64_t *q, std::size_t m)
{
    const tree_t &t = tree(h);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < m; i++)
        sum += reinterpret_cast<std::uintptr_t>(find(t, q[i]));
    return sum;
}

std::uint64_t absl_find_dep(void *h, const std::uint64_t *q, std::size_t m,
                            std::uint64_t zero)
{
    const tree_t &t = tree(h);
    std::uint64_t sum = 0, dep = 0;
    for (std::size_t i = 0; i < m; i++) {
        map_elem *e = find(t, q[i] + dep);
        if (!e)
            return 0;
        sum += reinterpret_cast<std::uintptr_t>(e);
        dep = e->payload & zero;
    }
    return sum;
}

std::uint64_t absl_lower_bound_all(void *h, const std::uint64_t *q,
                                   std::size_t m)
{
    const tree_t &t = tree(h);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < m; i++) {
        auto it = t.lower_bound(q[i]);
        if (it != t.end())
            sum += reinterpret_cast<std::uintptr_t>(it->second);
    }
    return sum;
}

std::size_t absl_erase_all(void *h, const std::uint64_t *q, std::size_t m)
{
    tree_t &t = tree(h);
    std::size_t failed = 0;
    for (std::size_t i = 0; i < m; i++)
        failed += t.erase(q[i]) != 1;
    return failed;
}

// An input iterator over the driver's element pointers that yields the
// tree's value_type: btree_map's range constructor takes the sorted input
// as it is, no array of pairs made beforehand.
struct elem_iter {
    using iterator_category = std::input_iterator_tag;
    using value_type = std::pair<const std::uint64_t, map_elem *>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    map_elem *const *p;
    value_type operator*() const
    {
        return {(*p)->key, *p};
    }
    elem_iter &operator++()
    {
        ++p;
        return *this;
    }
    bool operator==(const elem_iter &o) const
    {
        return p == o.p;
    }
    bool operator!=(const elem_iter &o) const
    {
        return p != o.p;
    }
};

// build: a btree_map constructed from the sorted range (Abseil has no bulk
// load: the constructor inserts each element with end() as its hint, the
// amortised constant-time path for ascending input), then swapped in.
int absl_build(void *h, map_elem *const *e, std::size_t n)
{
    tree_t t(elem_iter{e}, elem_iter{e + n});
    tree(h).swap(t);
    return tree(h).size() == n ? 0 : -1;
}

// erase_range: erase(first, last) over [lower_bound(lo), upper_bound(hi)).
std::size_t absl_erase_range(void *h, std::uint64_t lo, std::uint64_t hi)
{
    tree_t &t = tree(h);
    if (lo > hi)
        return 0;
    std::size_t before = t.size();
    t.erase(t.lower_bound(lo), t.upper_bound(hi));
    return before - t.size();
}

std::uint64_t absl_scan(void *h, std::size_t *count)
{
    std::uint64_t sum = 0;
    std::size_t c = 0;
    for (const auto &kv : tree(h)) {
        sum += reinterpret_cast<std::uintptr_t>(kv.second);
        c++;
    }
    *count = c;
    return sum;
}

// The tree object (root, rightmost, size) and the node bytes its
// allocator holds: the only tree alive while the footprint op measures.
double absl_footprint(void *)
{
    return static_cast<double>(sizeof(tree_t) + live_bytes);
}

void *absl_many(map_elem *e, std::size_t count)
{
    tree_t *a = new (std::nothrow) tree_t[count];
    if (!a)
        return nullptr;
    for (std::size_t i = 0; i < count; i++)
        if (!a[i].insert({e[i].key, &e[i]}).second) {
            delete[] a;
            return nullptr;
        }
    return a;
}

} // namespace

extern "C" const struct map_impl map_impl_absl_btree = {
    "absl_btree",
    absl_create,
    absl_destroy,
    absl_count,
    absl_bytes,
    absl_insert_all,
    absl_find_all,
    absl_find_dep,
    absl_lower_bound_all,
    absl_erase_all,
    absl_scan,
    absl_footprint,
    absl_many,
    nullptr,
    nullptr,
    nullptr, /* no order statistics */
    absl_build,
    absl_erase_range,
    nullptr, /* no batched find: its find_rand is the comparison */
};

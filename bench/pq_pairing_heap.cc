// pairing_heap: boost::heap::pairing_heap with mutable handles (libboost-dev),
// the usual C++ answer for a priority queue with erase by handle. Min-heap
// on (key, seq): FIFO among equal keys. The handle lives in the element
// (pq_elem::ph), so remove needs no search. Its loops are compiled here, in
// C++, so boost's code is inlined into them; the C driver sees only the
// extern "C" table. Node memory is counted through the allocator.
#include <boost/heap/pairing_heap.hpp>

#include <memory>
#include <new>
#include <utility>

#include "bench/pq_impl.h"

namespace
{

struct ph_cmp {
    // boost heaps are max-heaps: "less" here means "runs later".
    bool operator()(const pq_elem *a, const pq_elem *b) const
    {
        return a->key > b->key || (a->key == b->key && a->seq > b->seq);
    }
};

size_t ph_live_bytes; // node bytes held by every pairing heap of the process

template <class T> struct counting_alloc {
    using value_type = T;
    counting_alloc() = default;
    template <class U> counting_alloc(const counting_alloc<U> &) {}
    T *allocate(size_t n)
    {
        ph_live_bytes += n * sizeof(T);
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T *p, size_t n)
    {
        ph_live_bytes -= n * sizeof(T);
        std::allocator<T>().deallocate(p, n);
    }
    template <class U> bool operator==(const counting_alloc<U> &) const
    {
        return true;
    }
    template <class U> bool operator!=(const counting_alloc<U> &) const
    {
        return false;
    }
};

using heap_t = boost::heap::pairing_heap<
    pq_elem *, boost::heap::compare<ph_cmp>,
    boost::heap::allocator<counting_alloc<pq_elem *>>>;
using handle_t = heap_t::handle_type;
// A handle is a node pointer; the element keeps the pointer.
using node_ptr = decltype(std::declval<handle_t>().node_);

struct ph_queue {
    heap_t heap;
    uint64_t seq = 0;
};

inline void put_handle(pq_elem *e, handle_t h)
{
    e->ph = static_cast<void *>(h.node_);
}

inline handle_t get_handle(const pq_elem *e)
{
    return handle_t(static_cast<node_ptr>(e->ph));
}

inline int ph_push(void *q, pq_elem *e)
{
    ph_queue *p = static_cast<ph_queue *>(q);
    e->seq = ++p->seq;
    put_handle(e, p->heap.push(e));
    return 0;
}

inline pq_elem *ph_pop(void *q)
{
    ph_queue *p = static_cast<ph_queue *>(q);
    if (p->heap.empty())
        return nullptr;
    pq_elem *e = p->heap.top();
    p->heap.pop();
    return e;
}

inline int ph_remove(void *q, pq_elem *e)
{
    static_cast<ph_queue *>(q)->heap.erase(get_handle(e));
    return 0;
}

void *ph_create(size_t)
{
    return new (std::nothrow) ph_queue;
}

void ph_destroy(void *q)
{
    delete static_cast<ph_queue *>(q);
}

// Node bytes held by this queue (one queue is measured at a time) plus the
// handle stored in each element.
double ph_bytes(void *q, size_t n)
{
    (void)q;
    return static_cast<double>(ph_live_bytes + n * sizeof(void *));
}

size_t ph_push_all(void **hs, pq_elem **e, size_t m)
{
    for (size_t i = 0; i < m; i++)
        ph_push(hs[e[i]->qid], e[i]);
    return 0;
}

size_t ph_remove_all(void **hs, pq_elem **e, size_t m)
{
    for (size_t i = 0; i < m; i++)
        ph_remove(hs[e[i]->qid], e[i]);
    return 0;
}

uint64_t ph_hold(void *q, const uint64_t *inc, size_t ninc, size_t m)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < m; i++) {
        pq_elem *e = ph_pop(q);
        if (!e)
            return 0;
        sum += e->key;
        e->key += inc[i & (ninc - 1)];
        ph_push(q, e);
    }
    return sum;
}

size_t ph_drain(void *q, uint64_t *keys)
{
    size_t n = 0;
    for (pq_elem *e; (e = ph_pop(q)) != nullptr;)
        keys[n++] = e->key;
    return n;
}

// The queue object (heap and push counter), the node bytes the allocator
// holds (this is the only queue alive while the footprint op measures),
// and per element the handle and the FIFO seq (which ph_bytes leaves out).
double ph_footprint(void *q, size_t n)
{
    (void)q;
    return static_cast<double>(sizeof(ph_queue) + ph_live_bytes +
                               n * (sizeof(void *) + sizeof(uint64_t)));
}

void *ph_many(pq_elem *e, size_t count)
{
    ph_queue *a = new (std::nothrow) ph_queue[count];
    if (a)
        for (size_t i = 0; i < count; i++)
            ph_push(&a[i], &e[i]);
    return a;
}

} // namespace

extern "C" const struct pq_impl pq_impl_pairing_heap = {
    "pairing_heap", ph_create, ph_destroy, ph_bytes,     ph_push_all,
    ph_remove_all,  ph_hold,   ph_drain,   ph_footprint, ph_many};

// A result's host arrays (core/host_array.hpp): every block has whole pages of its own, so
// that it can be page-locked alone, and a block's unlock function runs once, with its
// elements, before the block is freed, and never for a copy.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cubie/core/host_array.hpp"

using namespace cubie;

namespace {

std::vector<void*> unlocked;  // what the test's unlock function was called with

void record_unlock(void* elements) noexcept {
    unlocked.push_back(elements);
}

template <class T>
host_array<T> locked_array(std::size_t n) {
    host_array<T> a(n);
    block_header(a).unlock = &record_unlock;
    return a;
}

template <class T>
bool is_locked(host_array<T>& a) {
    return block_header(a).unlock != nullptr;
}

std::uintptr_t page_of(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) / host_allocator<char>::page_bytes();
}

}  // namespace

TEST_CASE("host arrays: each block has whole pages of its own, its elements aligned") {
    const std::size_t page = host_allocator<char>::page_bytes();
    host_array<char> one(1), two(1), big(3 * page);
    host_array<double> doubles(5);
    for (const void* p :
         {static_cast<const void*>(one.data()), static_cast<const void*>(two.data()),
          static_cast<const void*>(big.data()), static_cast<const void*>(doubles.data())})
        CHECK((reinterpret_cast<std::uintptr_t>(p) - host_allocator<char>::header_bytes) % page ==
              0);
    // The last page of one block is not the first of another.
    CHECK(page_of(one.data()) != page_of(two.data()));
    CHECK(page_of(big.data() + big.size() - 1) != page_of(one.data()));
    CHECK(page_of(big.data() + big.size() - 1) != page_of(two.data()));
    CHECK_FALSE(is_locked(one));  // a new block is not locked
}

TEST_CASE("host arrays: a locked block is unlocked once, with its elements, before it is freed") {
    unlocked.clear();
    {
        host_array<float> a = locked_array<float>(100);
        void* const elements = a.data();

        host_array<float> copy = a;  // a block of its own, not locked
        CHECK_FALSE(is_locked(copy));

        a.resize(50);  // within the block: nothing freed
        a.resize(100);
        CHECK(unlocked.empty());

        host_array<float> moved = std::move(a);  // the block changes owner, not state
        CHECK(moved.data() == elements);
        CHECK(unlocked.empty());

        moved.reserve(1000);  // a new block: the old one is unlocked, then freed
        REQUIRE(unlocked.size() == 1);
        CHECK(unlocked[0] == elements);
        CHECK_FALSE(is_locked(moved));
    }
    CHECK(unlocked.size() == 1);  // the copy and the new block were never locked

    {
        host_array<std::uint32_t> b = locked_array<std::uint32_t>(10);
        void* const elements = b.data();
        b = host_array<std::uint32_t>(3);  // assigned a new block: the old one goes
        REQUIRE(unlocked.size() == 2);
        CHECK(unlocked[1] == elements);
    }
    {
        void* elements = nullptr;
        {
            host_array<double> c = locked_array<double>(7);
            elements = c.data();
        }
        REQUIRE(unlocked.size() == 3);
        CHECK(unlocked[2] == elements);
    }
}

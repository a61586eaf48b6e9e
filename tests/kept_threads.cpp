// kept_threads: jobs run side by side on threads that are kept from one call to the next.

#include "cubie/core/kept_threads.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

/// Jobs that each wait (up to 5 s) until `expected` of them have started: all of them
/// return true only where they ran at the same time.
struct meeting {
    explicit meeting(int expected) : expected(expected) {}
    bool arrive_and_wait() {
        std::unique_lock<std::mutex> lock(mutex);
        ++arrived;
        changed.notify_all();
        return changed.wait_for(lock, std::chrono::seconds(5), [&] { return arrived >= expected; });
    }
    int expected;
    int arrived = 0;
    std::mutex mutex;
    std::condition_variable changed;
};

/// Runs `count` jobs that meet, and returns the threads they ran on (the first: the caller's).
std::vector<std::thread::id> run_meeting(int count, meeting& m, std::vector<char>& met) {
    std::vector<std::thread::id> ran_on(static_cast<std::size_t>(count));
    met.assign(static_cast<std::size_t>(count), 0);
    std::vector<std::function<void()>> jobs;
    for (int k = 0; k < count; ++k)
        jobs.emplace_back([&, k] {
            ran_on[static_cast<std::size_t>(k)] = std::this_thread::get_id();
            met[static_cast<std::size_t>(k)] = m.arrive_and_wait();
        });
    cubie::kept_threads::run_together(jobs);
    return ran_on;
}

}  // namespace

TEST_CASE("kept_threads: jobs run at once, the first on the caller, the others on kept threads") {
    std::vector<char> met;
    meeting first(4);
    const std::vector<std::thread::id> a = run_meeting(4, first, met);
    CHECK(std::count(met.begin(), met.end(), 1) == 4);
    CHECK(a[0] == std::this_thread::get_id());
    std::vector<std::thread::id> others(a.begin() + 1, a.end());
    std::sort(others.begin(), others.end());
    CHECK(std::adjacent_find(others.begin(), others.end()) == others.end());  // three threads
    CHECK(std::find(others.begin(), others.end(), std::this_thread::get_id()) == others.end());

    meeting second(4);
    std::vector<std::thread::id> b = run_meeting(4, second, met);
    CHECK(std::count(met.begin(), met.end(), 1) == 4);
    std::vector<std::thread::id> again(b.begin() + 1, b.end());
    std::sort(again.begin(), again.end());
    CHECK(again == others);  // the same threads, kept
}

TEST_CASE("kept_threads: calls from two threads at once each get threads of their own") {
    meeting all(6);  // 3 jobs of each call, together
    std::vector<char> met_a, met_b;
    std::thread other([&] { run_meeting(3, all, met_a); });
    run_meeting(3, all, met_b);
    other.join();
    CHECK(std::count(met_a.begin(), met_a.end(), 1) == 3);
    CHECK(std::count(met_b.begin(), met_b.end(), 1) == 3);
}

TEST_CASE("kept_threads: one job runs on the caller alone, none is nothing to do") {
    std::thread::id ran_on;
    cubie::kept_threads::run_together({[&] { ran_on = std::this_thread::get_id(); }});
    CHECK(ran_on == std::this_thread::get_id());
    cubie::kept_threads::run_together({});
}

TEST_CASE("kept_threads: the first job's exception comes out once the others have returned") {
    std::atomic<bool> other_done{false};
    std::thread::id other;
    const std::vector<std::function<void()>> jobs{
        [] { throw std::runtime_error("first"); },
        [&] {
            other = std::this_thread::get_id();
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            other_done = true;
        }};
    CHECK_THROWS_AS(cubie::kept_threads::run_together(jobs), std::runtime_error);
    CHECK(other_done);
    // The worker went back to the pool, last: the next call takes it again (idle workers
    // go out last in, first out), where a thread made anew would be another.
    std::vector<char> met;
    meeting again(2);
    const std::vector<std::thread::id> ran_on = run_meeting(2, again, met);
    CHECK(std::count(met.begin(), met.end(), 1) == 2);
    CHECK(ran_on[1] == other);
}

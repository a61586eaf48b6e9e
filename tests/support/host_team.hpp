#pragma once
// A lane_group of G host threads (linear/lane_group.hpp), for testing cooperative code on
// the host: each lane is a thread, and every exchange a meeting of all G at a barrier.
//
// Lanes that part ways (one skips an exchange the others make) would wait for each other
// for ever: run_team ends the program with a message instead when its lanes have not
// finished within ten minutes, so that such a bug fails its test rather than hanging it. A
// lane that throws leaves the meetings; run_team rethrows its exception.

#include <array>
#include <barrier>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace cubie::testing {

template <int G>
class team_meeting {
public:
    /// Lane `lane` gives `value` and gets lane `from`'s.
    template <class T>
    T swap(int lane, T value, int from) {
        static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(slot));
        std::memcpy(&slots_[static_cast<std::size_t>(lane)], &value, sizeof(T));
        barrier_.arrive_and_wait();
        T received;
        // Through void*: a complex value's bytes are all it holds, though its class is not
        // trivial to the compiler (-Wclass-memaccess).
        std::memcpy(static_cast<void*>(&received), &slots_[static_cast<std::size_t>(from)],
                    sizeof(T));
        barrier_.arrive_and_wait();  // nobody writes again before all have read
        return received;
    }

    /// A lane that threw stops taking part: the others meet without it.
    void leave() { barrier_.arrive_and_drop(); }

private:
    /// Room for a complex double, the largest value lanes exchange (complex LU factors).
    struct slot {
        alignas(16) unsigned char bytes[16];
    };
    std::array<slot, G> slots_{};
    std::barrier<> barrier_{G};
};

template <int G>
struct host_team {
    static constexpr int size = G;
    int lane_;
    team_meeting<G>* meeting;

    int lane() const { return lane_; }
    template <class T>
    T broadcast(T value, int from) const {
        return meeting->swap(lane_, value, from);
    }
    template <class T>
    T exchange(T value, int mask) const {
        return meeting->swap(lane_, value, lane_ ^ mask);
    }
    void sync() const { meeting->swap(lane_, 0, lane_); }

    /// The lane of the calling thread inside run_team's body (as a tile's lanes find
    /// theirs, tile_lanes::of_this_thread).
    static host_team of_this_thread() { return calling(); }
    static host_team& calling() {
        thread_local host_team team{0, nullptr};
        return team;
    }
};

/// body(host_team<G>) on G threads, one per lane, joined before it returns; the first
/// exception a lane threw is rethrown here.
template <int G, class Body>
void run_team(Body&& body) {
    team_meeting<G> meeting;
    std::vector<std::exception_ptr> failures(G);
    std::mutex mutex;
    std::condition_variable finished;
    int running = G;
    std::vector<std::thread> lanes;
    for (int lane = 0; lane < G; ++lane)
        lanes.emplace_back([&, lane] {
            try {
                host_team<G>::calling() = {lane, &meeting};
                body(host_team<G>{lane, &meeting});
            } catch (...) {
                failures[static_cast<std::size_t>(lane)] = std::current_exception();
                meeting.leave();
            }
            const std::lock_guard<std::mutex> lock(mutex);
            if (--running == 0) finished.notify_one();
        });
    {
        std::unique_lock<std::mutex> lock(mutex);
        if (!finished.wait_for(lock, std::chrono::minutes(10), [&] { return running == 0; })) {
            std::fprintf(stderr,
                         "host_team: %d of %d lanes still waiting after ten minutes: the lanes "
                         "parted ways (one skipped an exchange the others made)\n",
                         running, G);
            std::abort();
        }
    }
    for (std::thread& t : lanes) t.join();
    for (const std::exception_ptr& failure : failures)
        if (failure) std::rethrow_exception(failure);
}

}  // namespace cubie::testing

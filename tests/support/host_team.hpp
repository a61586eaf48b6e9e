#pragma once
// A lane_group of G host threads (linear/lane_group.hpp), for testing cooperative code on
// the host: each lane is a thread, and every exchange a meeting of all G at a barrier.

#include <array>
#include <barrier>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace cubie::testing {

template <int G>
class team_meeting {
public:
    /// Lane `lane` gives `value` and gets lane `from`'s.
    template <class T>
    T swap(int lane, T value, int from) {
        static_assert(sizeof(T) <= sizeof(std::uint64_t));
        std::memcpy(&slots_[static_cast<std::size_t>(lane)], &value, sizeof(T));
        barrier_.arrive_and_wait();
        T received;
        std::memcpy(&received, &slots_[static_cast<std::size_t>(from)], sizeof(T));
        barrier_.arrive_and_wait();  // nobody writes again before all have read
        return received;
    }

private:
    std::array<std::uint64_t, G> slots_{};
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
};

/// body(host_team<G>) on G threads, one per lane, joined before it returns.
template <int G, class Body>
void run_team(Body&& body) {
    team_meeting<G> meeting;
    std::vector<std::thread> lanes;
    for (int lane = 0; lane < G; ++lane)
        lanes.emplace_back([&, lane] { body(host_team<G>{lane, &meeting}); });
    for (std::thread& t : lanes) t.join();
}

}  // namespace cubie::testing

#pragma once
// How a backend deals the trajectories of a batch to its threads.
//
// Adaptive trajectories take very different numbers of steps: a swept parameter moves some
// onto a fixed point and others into chaos, or stiffness from 10 steps to 10,000, and some
// fail after a few. With one trajectory per GPU thread a warp runs as long as its slowest
// lane and keeps its multiprocessor's slot until then. Balanced scheduling keeps the lanes
// busy: a grid that fills the device (one wave of resident threads) takes trajectories from
// a work counter as its lanes free up, and a lane whose trajectory ended starts the next
// one between two steps of its neighbours.
//
// Every trajectory's arithmetic is the same whichever thread runs it, so the schedules give
// the same results bit for bit, each in its own trajectory's place. Fixed steps, whose
// trajectories all take the same steps, always go one trajectory per thread; on the GPU,
// methods on several lanes (algorithms/on_lanes.hpp) one per group of lanes.
//
//   solver.solve(inputs, settings, backends::cuda{.scheduling = scheduling::static_mapping});

#include "cubie/controllers/controller.hpp"

namespace cubie {

enum class scheduling {
    /// the backend's choice for adaptive controllers: balanced on the host; on the GPU, one
    /// trajectory per thread for a first sample (a block on every multiprocessor), then
    /// balanced where that sample's lanes were idle much of the time
    /// (backends::cuda::automatic_adaptive)
    automatic,
    /// thread i integrates trajectory i (cuda); contiguous shares of the batch per OpenMP
    /// thread (host)
    static_mapping,
    /// cuda: persistent threads; a lane whose trajectory has ended takes the next from the
    /// chunk's work counter between two steps of its neighbours (one atomic for the lanes
    /// of a warp that ask together). host: OpenMP's dynamic schedule over small blocks of
    /// trajectories.
    balanced,
};

/// The schedule a solve with an adaptive controller (or not) gets when `asked` for one, on
/// a backend whose automatic choice for adaptive controllers is `automatic_adaptive`:
/// automatic itself where the backend chooses as the solve goes (cuda measures first).
constexpr scheduling resolve_scheduling(bool adaptive, scheduling asked,
                                        scheduling automatic_adaptive) {
    if (!adaptive) return scheduling::static_mapping;
    return asked == scheduling::automatic ? automatic_adaptive : asked;
}
template <step_controller Controller>
constexpr scheduling resolve_scheduling(scheduling asked, scheduling automatic_adaptive) {
    return resolve_scheduling(Controller::adaptive, asked, automatic_adaptive);
}

/// The schedule's name, as kernel reports print it.
constexpr const char* scheduling_name(scheduling s) {
    switch (s) {
        case scheduling::automatic:
            return "automatic";
        case scheduling::static_mapping:
            return "static";
        case scheduling::balanced:
            return "balanced";
    }
    return "unknown";
}

}  // namespace cubie

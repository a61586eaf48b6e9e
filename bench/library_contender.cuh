#pragma once
// The library as a contender. End to end: a solve from page-locked inputs (as the
// hand-written kernel's copies read them) into one batch_result reused across solves, as
// an application that solves one shape repeatedly does. Kernel alone: the same solve from
// inputs already in device memory into a device_result, where nothing is copied, timed by
// the backend's events from the first kernel's start to the last one's end.

#include <algorithm>
#include <memory>
#include <vector>

#include "contender.hpp"
#include "cubie/batch/device_result.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/pinned_buffer.hpp"
#include "cubie/solver/solver.hpp"

namespace bench {

template <class System, class Method, class Controller, class... Outputs>
class library_contender final : public contender {
public:
    library_contender(const ensemble& s, const cubie::solve_settings<Controller>& settings)
        : settings_(settings),
          y0_(s.y0.size()),
          params_(s.params.size()),
          d_y0_(cubie::device_buffer<float>::copy_of(s.y0)),
          d_params_(cubie::device_buffer<float>::copy_of(s.params)),
          n_(s.n) {
        std::copy(s.y0.begin(), s.y0.end(), y0_.data());
        std::copy(s.params.begin(), s.params.end(), params_.data());
    }

    void solve_once(timing& t) override {
        const double t0 = now_ms();
        solver_.solve({n_, {y0_.data(), y0_.size()}, {params_.data(), params_.size()}}, settings_,
                      result_, cubie::backends::cuda{});
        const double e2e = now_ms() - t0;
        solver_.solve_on_device(
            {n_, {d_y0_.data(), d_y0_.size()}, {d_params_.data(), d_params_.size()}}, settings_,
            on_device_);
        t.keep_best(e2e, on_device_.kernel->milliseconds);
    }

    std::vector<float> final_states() const override {
        return {result_.final_states.begin(), result_.final_states.end()};
    }
    std::vector<unsigned> steps() const override {
        std::vector<unsigned> attempted(n_);
        for (std::size_t i = 0; i < n_; ++i)
            attempted[i] = result_.accepted_steps[i] + result_.rejected_steps[i];
        return attempted;
    }
    std::vector<bool> failed() const override {
        std::vector<bool> failed(n_);
        for (std::size_t i = 0; i < n_; ++i)
            failed[i] = result_.statuses[i] != cubie::status::success;
        return failed;
    }
    std::vector<float> saved() const override {
        return {result_.saved.begin(), result_.saved.end()};
    }

private:
    cubie::solver<System, Method, Controller, Outputs...> solver_{};
    cubie::solve_settings<Controller> settings_;
    cubie::pinned_buffer<float> y0_, params_;
    cubie::device_buffer<float> d_y0_, d_params_;
    std::size_t n_;
    cubie::batch_result<float> result_{};
    cubie::device_result<float> on_device_{};
};

/// Fixed steps of dt over [0, t_end].
inline cubie::solve_settings<cubie::fixed_step> fixed_settings(double dt, double t_end) {
    cubie::solve_settings<cubie::fixed_step> settings;
    settings.dt = dt;
    settings.t_end = t_end;
    return settings;
}

/// The protocol's adaptive settings over [0, t_end]: first step dt0, atol = rtol = tolerance.
inline cubie::solve_settings<cubie::pi_controller> adaptive_settings(double dt0, double tolerance,
                                                                     double t_end) {
    cubie::solve_settings<cubie::pi_controller> settings;
    settings.dt = dt0;
    settings.t_end = t_end;
    settings.atol = settings.rtol = {tolerance};
    return settings;
}

}  // namespace bench

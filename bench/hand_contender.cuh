#pragma once
// A hand-written kernel as a contender: pinned host buffers; one copy of the inputs in, one
// launch, one copy of the final states (and saved series, where the kernel saves) out.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "contender.hpp"
#include "cubie/core/cuda_check.hpp"
#include "cubie/core/cuda_event.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/core/pinned_buffer.hpp"

namespace bench {

class hand_contender final : public contender {
public:
    /// Reads y0 [state][trajectory] and params [trajectory]; writes the final states
    /// [state][trajectory] (NaN where the trajectory failed), the saved series
    /// [save][state][trajectory] and the attempted steps per trajectory (adaptive kernels).
    using launch_type = std::function<void(const float* y0, const float* params,
                                           float* final_states, float* saved, unsigned* steps)>;

    hand_contender(const ensemble& s, launch_type launch, std::size_t saves = 0)
        : n_(s.n),
          n_in_(s.y0.size() + s.params.size()),
          n_final_(s.y0.size()),
          launch_(std::move(launch)),
          in_(n_in_),
          out_(n_final_ + saves * s.y0.size()),
          d_in_(n_in_),
          d_out_(out_.size()),
          d_steps_(n_) {
        std::copy(s.y0.begin(), s.y0.end(), in_.data());
        std::copy(s.params.begin(), s.params.end(), in_.data() + s.y0.size());
    }

    void solve_once(timing& t) override {
        const double t0 = now_ms();
        CUBIE_CUDA_CHECK(
            cudaMemcpy(d_in_.data(), in_.data(), n_in_ * sizeof(float), cudaMemcpyHostToDevice));
        start_.record();
        launch_(d_in_.data(), d_in_.data() + n_final_, d_out_.data(), d_out_.data() + n_final_,
                d_steps_.data());
        stop_.record();
        CUBIE_CUDA_CHECK(cudaGetLastError());
        CUBIE_CUDA_CHECK(cudaMemcpy(out_.data(), d_out_.data(), out_.size() * sizeof(float),
                                    cudaMemcpyDeviceToHost));
        const double e2e = now_ms() - t0;
        t.keep_best(e2e, stop_.milliseconds_since(start_));
    }

    std::vector<float> final_states() const override {
        return {out_.data(), out_.data() + n_final_};
    }
    std::vector<float> saved() const override {
        return {out_.data() + n_final_, out_.data() + out_.size()};
    }
    std::vector<bool> failed() const override {
        std::vector<bool> failed(n_, false);
        for (std::size_t k = 0; k < n_final_; ++k)
            if (!std::isfinite(out_.data()[k])) failed[k % n_] = true;
        return failed;
    }
    std::vector<unsigned> steps() const override {
        std::vector<unsigned> steps(n_);
        d_steps_.copy_to(steps);
        return steps;
    }

private:
    std::size_t n_, n_in_, n_final_;
    launch_type launch_;
    cubie::pinned_buffer<float> in_, out_;
    cubie::device_buffer<float> d_in_, d_out_;
    cubie::device_buffer<unsigned> d_steps_;
    cubie::cuda_event start_, stop_;
};

}  // namespace bench

#pragma once
// Non-owning view of a batch array laid out [variable][trajectory], the trajectory index
// fastest so that consecutive GPU threads touch consecutive addresses. A view may cover a
// chunk of a larger batch: its rows are then `stride` apart, the whole batch's length.
// Debug builds (NDEBUG undefined) check every index, on the host and on the device.

#include <cassert>
#include <cstddef>

#include "cubie/core/config.hpp"

namespace cubie {

template <class T>
class batch_view {
public:
    batch_view() = default;
    CUBIE_HD batch_view(T* data, int n_variables, std::size_t n_trajectories)
        : batch_view(data, n_variables, n_trajectories, n_trajectories) {}
    CUBIE_HD batch_view(T* data, int n_variables, std::size_t n_trajectories, std::size_t stride)
        : data_(data),
          n_variables_(n_variables),
          n_trajectories_(n_trajectories),
          stride_(stride) {}

    CUBIE_HD T& operator()(int variable, std::size_t trajectory) const {
        assert(variable >= 0 && variable < n_variables_ && trajectory < n_trajectories_);
        return data_[static_cast<std::size_t>(variable) * stride_ + trajectory];
    }

    /// Trajectory `trajectory`'s value of row 0; row r lies r * stride() further. For a
    /// caller that keeps row offsets (row * stride) rather than multiplying per access.
    CUBIE_HD T* column(std::size_t trajectory) const {
        assert(trajectory < n_trajectories_);
        return data_ + trajectory;
    }
    CUBIE_HD std::size_t stride() const { return stride_; }
    CUBIE_HD int rows() const { return n_variables_; }

private:
    T* data_ = nullptr;
    int n_variables_ = 0;
    std::size_t n_trajectories_ = 0;
    std::size_t stride_ = 0;
};

}  // namespace cubie

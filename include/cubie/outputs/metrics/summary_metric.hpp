#pragma once
// The two concepts behind summary metrics: an accumulator keeps a running state over the
// samples of one window, a metric reads its outputs from that state. Metrics that name the
// same accumulator share it, so asking for mean and std costs one running state.
//
// Accumulator A:
//   template <class T> struct state          fixed-size running state (the metric's buffer)
//   static constexpr bool needs_neighbours   false: add() sees each sample j = 1 .. K as it
//                                            comes; true: it sees x_{j-1}, x_j, x_{j+1} for
//                                            j = 1 .. K-1, one sample late
//   reset(state<T>&)                         at the start of every window
//   add(state<T>&, const sample<T>&)         one sample of the window
//   add_pair(state<T>&, const sample<T>&,    optional, without neighbours: samples n and
//            const sample<T>&)               n + 1 of the window (n odd) at once, with the
//                                            bits of add() on each; where the pair is cheaper
//
// Metric M:
//   name                                     static constexpr const char*, e.g. "mean"
//   accumulator                              the accumulator type it reads
//   n_outputs                                values per variable and window
//   output_names                             cuda::std::array<const char*, n_outputs>
//   output(const accumulator::state<T>&, T* out)   writes the n_outputs values of a window
//
// All four functions are static and CUBIE_HD: they run in kernels. A metric that only reads
// values off a state can take its accumulator, outputs and output() from
// accumulator_reads.hpp.

#include <concepts>
#include <cstddef>

#include "cubie/outputs/metrics/sample.hpp"

namespace cubie::metrics {

template <class A>
concept summary_accumulator = requires {
    { A::needs_neighbours } -> std::convertible_to<bool>;
}
&&requires(typename A::template state<float>& f, const sample<float>& xf,
           typename A::template state<double>& d, const sample<double>& xd) {
    A::reset(f);
    A::add(f, xf);
    A::reset(d);
    A::add(d, xd);
};

template <class M>
concept summary_metric = summary_accumulator<typename M::accumulator> &&(M::n_outputs >= 1) &&
                         (M::output_names.size() == static_cast<std::size_t>(M::n_outputs)) &&
                         requires(const typename M::accumulator::template state<float>& f,
                                  float* out_f,
                                  const typename M::accumulator::template state<double>& d,
                                  double* out_d) {
    { M::name } -> std::convertible_to<const char*>;
    M::output(f, out_f);
    M::output(d, out_d);
};

}  // namespace cubie::metrics

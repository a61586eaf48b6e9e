#pragma once
// accumulator_reads<Accumulator, Reads...>: the body of a metric whose outputs are values
// read off one accumulator's state, one Read per output, in order. A Read is a type with
//   name                                        the output's name
//   of(const Accumulator::state<T>&) -> T       static, CUBIE_HD: the value
// A metric derives from it and adds its own name:
//   struct mean_std : accumulator_reads<moments, mean_value, standard_deviation> {
//       static constexpr const char* name = "mean_std";
//   };

#include <cuda/std/array>

#include "cubie/core/config.hpp"

namespace cubie::metrics {

template <class Accumulator, class... Reads>
struct accumulator_reads {
    using accumulator = Accumulator;
    static constexpr int n_outputs = sizeof...(Reads);
    static constexpr cuda::std::array<const char*, n_outputs> output_names = {Reads::name...};
    template <class T>
    CUBIE_HD static void output(const typename Accumulator::template state<T>& a, T* out) {
        int i = 0;
        ((out[i++] = Reads::of(a)), ...);
    }
};

}  // namespace cubie::metrics

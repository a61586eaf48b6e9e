#pragma once
// Summary metrics: every metric and accumulator of cubie::metrics. Pass metric types to
// summaries<...> (or summary_windows); metrics/summary_metric.hpp says how to write one.
//
//   mean, std_dev ("std"), rms, mean_std, std_rms, mean_std_rms    moments (Welford); the
//                                                                    mean alone: running_sum
//   max, min, extrema, max_magnitude                                 running_extrema of x
//   dxdt_max, dxdt_min, dxdt_extrema                                 ... of dx/dt
//   d2xdt2_max, d2xdt2_min, d2xdt2_extrema                           ... of d2x/dt2
//   peaks<N>, negative_peaks<N>                                      peak_times

#include "cubie/outputs/metrics/accumulator_reads.hpp"
#include "cubie/outputs/metrics/extrema_metrics.hpp"
#include "cubie/outputs/metrics/moment_metrics.hpp"
#include "cubie/outputs/metrics/moments.hpp"
#include "cubie/outputs/metrics/numbered_names.hpp"
#include "cubie/outputs/metrics/peak_metrics.hpp"
#include "cubie/outputs/metrics/peak_times.hpp"
#include "cubie/outputs/metrics/running_extrema.hpp"
#include "cubie/outputs/metrics/running_sum.hpp"
#include "cubie/outputs/metrics/sample.hpp"
#include "cubie/outputs/metrics/sampled_quantities.hpp"
#include "cubie/outputs/metrics/summary_metric.hpp"

#pragma once
// CuBIE++: batches of independent ODE initial-value problems, integrated one trajectory
// per GPU thread (backends::cuda) or per OpenMP iteration (backends::host).
//
// Contents, by concept:
//   systems/      the System concept and hand-written example systems
//   algorithms/   Butcher tableaus and the explicit Runge-Kutta stepper
//   controllers/  fixed, I, PI, PID and Gustafsson step-size control
//   linear/       dense LU, GMRES and BiCGSTAB; the Newton linear solvers of implicit methods
//   loop/         integrate(): one trajectory, callable from user kernels
//   outputs/      output policies: saved series, observables, counters, summary metrics
//   batch/        solver<System, Algorithm, Controller, Outputs...>: validated batch solves
//   backends/     host (OpenMP) and cuda (nvcc translation units only)
//   io/           results written as CSV tables, NPY arrays or HDF5 (cubie::hdf5)

#include "cubie/algorithms/dirk/backward_euler.hpp"
#include "cubie/algorithms/dirk/hairer_wanner_sdirk4.hpp"
#include "cubie/algorithms/dirk/implicit_midpoint.hpp"
#include "cubie/algorithms/dirk/kvaerno3.hpp"
#include "cubie/algorithms/dirk/kvaerno5.hpp"
#include "cubie/algorithms/dirk/sdirk2.hpp"
#include "cubie/algorithms/dirk/sdirk3.hpp"
#include "cubie/algorithms/dirk/trapezoid.hpp"
#include "cubie/algorithms/explicit/bogacki_shampine_32.hpp"
#include "cubie/algorithms/explicit/cash_karp_54.hpp"
#include "cubie/algorithms/explicit/classical_rk4.hpp"
#include "cubie/algorithms/explicit/dormand_prince_54.hpp"
#include "cubie/algorithms/explicit/dormand_prince_853.hpp"
#include "cubie/algorithms/explicit/euler.hpp"
#include "cubie/algorithms/explicit/fehlberg_45.hpp"
#include "cubie/algorithms/explicit/heun.hpp"
#include "cubie/algorithms/explicit/ralston.hpp"
#include "cubie/algorithms/explicit/tsit5.hpp"
#include "cubie/algorithms/explicit/vern7.hpp"
#include "cubie/algorithms/explicit/vern9.hpp"
#include "cubie/algorithms/implicit_runge_kutta/gauss_legendre_2.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_3.hpp"
#include "cubie/algorithms/implicit_runge_kutta/radau_iia_5.hpp"
#include "cubie/algorithms/rosenbrock/rodas23w.hpp"
#include "cubie/algorithms/rosenbrock/rodas3p.hpp"
#include "cubie/algorithms/rosenbrock/rodas4.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/ros34pw2.hpp"
#include "cubie/algorithms/rosenbrock/ros34pw3.hpp"
#include "cubie/algorithms/rosenbrock/ros3p.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/batch/solver.hpp"
#include "cubie/controllers/digital_filter_controller.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "cubie/io/write_result.hpp"
#include "cubie/linear/newton_krylov.hpp"
#include "cubie/loop/integrate.hpp"
#include "cubie/outputs/output_policies.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/systems/exponential_decay.hpp"
#include "cubie/systems/harmonic_oscillator.hpp"
#include "cubie/systems/lorenz.hpp"
#include "cubie/systems/van_der_pol.hpp"

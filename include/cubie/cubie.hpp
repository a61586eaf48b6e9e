#pragma once
// CuBIE++: batches of independent ODE initial-value problems, integrated one trajectory
// per GPU thread or per few lanes of a warp (backends::cuda, algorithms/on_lanes.hpp) or per
// OpenMP iteration (backends::host).
//
// The library's folders, each including only those above it in this list:
//   core/         configuration, small vectors, statuses, CUDA error checks and RAII buffers
//   drivers/      cubic splines of sampled driver signals
//   systems/      the ode_system concept and right_hand_side, the adapter every method calls
//   controllers/  step-size control (fixed, I, PI, PID, Gustafsson) and the error norm
//   linear/       dense LU, sparse LU in a system's pattern, GMRES and BiCGSTAB; the Newton
//                 linear solvers of implicit methods
//   algorithms/   the stepper concept; one folder per family (explicit, dirk, rosenbrock,
//                 implicit_runge_kutta), each with its generic stepper, tableau and methods;
//                 on_lanes, the lanes of a warp that integrate one trajectory
//   events/       the event concept, events<...> lists, root location (ITP), the per-
//                 trajectory event recorder and the monitor the loop calls after each step
//   outputs/      output policies: saved series, observables, counters, summary metrics
//   loop/         integrate(): one trajectory, callable from user kernels
//   batch/        inputs, settings, output plans and results of a batch
//   backends/     the backend concept; host (OpenMP) and cuda (nvcc translation units only)
//   solver/       solver<System, Algorithm, Controller, Outputs...>: validated batch solves
//                 (events<E...> listed among the outputs)
//   io/           results written as CSV tables, NPY arrays or HDF5 (cubie::hdf5)
//   mpi/          a batch split over the ranks of an MPI job (cubie::mpi)
// Systems themselves live in the catalogue (cubie::catalogue, "cubie/catalogue/<name>.hpp"),
// generated from the model definitions in systems/.

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
#include "cubie/algorithms/on_lanes.hpp"
#include "cubie/algorithms/rosenbrock/rodas23w.hpp"
#include "cubie/algorithms/rosenbrock/rodas3p.hpp"
#include "cubie/algorithms/rosenbrock/rodas4.hpp"
#include "cubie/algorithms/rosenbrock/rodas5p.hpp"
#include "cubie/algorithms/rosenbrock/ros34pw2.hpp"
#include "cubie/algorithms/rosenbrock/ros34pw3.hpp"
#include "cubie/algorithms/rosenbrock/ros3p.hpp"
#include "cubie/algorithms/rosenbrock/rosenbrock23.hpp"
#include "cubie/controllers/fixed_step.hpp"
#include "cubie/controllers/gustafsson_controller.hpp"
#include "cubie/controllers/i_controller.hpp"
#include "cubie/controllers/pi_controller.hpp"
#include "cubie/controllers/pid_controller.hpp"
#include "cubie/events/event.hpp"
#include "cubie/events/event_list.hpp"
#include "cubie/io/write_result.hpp"
#include "cubie/linear/newton_krylov.hpp"
#include "cubie/loop/integrate.hpp"
#include "cubie/outputs/output_policies.hpp"
#include "cubie/outputs/summary_metrics.hpp"
#include "cubie/solver/solver.hpp"
#include "cubie/systems/dense_jacobian.hpp"

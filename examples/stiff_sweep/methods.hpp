#pragma once
// The methods stiff_sweep can run, one X(<folder>, <name>) entry each: the --method flag and
// the cubie type are <name>, its header cubie/algorithms/<folder>/<name>.hpp. Adding a method
// is one line here; examples/CMakeLists.txt reads this list to generate one translation unit
// per method and precision. The list holds the benchmark protocol's stiff methods and two
// more (every entry costs two nvcc translation units of a 20-state system).
#define STIFF_SWEEP_METHODS(X)  \
    X(rosenbrock, rosenbrock23) \
    X(rosenbrock, ros34pw2)     \
    X(rosenbrock, rodas5p)      \
    X(dirk, kvaerno3)           \
    X(dirk, kvaerno5)           \
    X(implicit_runge_kutta, radau_iia_5)

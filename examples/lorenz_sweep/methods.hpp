#pragma once
// The methods lorenz_sweep can run, one X entry each: the --method flag and the cubie type
// have the same name. examples/CMakeLists.txt reads this list to generate one translation
// unit per method and precision.
#define LORENZ_SWEEP_METHODS(X) \
    X(euler)                    \
    X(heun)                     \
    X(ralston)                  \
    X(bogacki_shampine_32)      \
    X(classical_rk4)            \
    X(dormand_prince_54)        \
    X(tsit5)                    \
    X(cash_karp_54)             \
    X(fehlberg_45)              \
    X(dormand_prince_853)       \
    X(vern7)                    \
    X(vern9)

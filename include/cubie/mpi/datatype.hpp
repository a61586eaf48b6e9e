#pragma once
// The MPI datatype of a value the result arrays hold, chosen at compile time: float and
// double values, 32-bit counters, statuses (an enum, sent as its underlying type) and
// 64-bit sizes. Any other type fails to compile (static_assert) rather than being sent as
// bytes of the wrong kind.

#include <mpi.h>

#include <cstdint>
#include <type_traits>

namespace cubie::mpi {

template <class T>
inline constexpr bool has_datatype =
    std::is_enum_v<T> || std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, std::uint64_t>;

/// MPI_FLOAT for float, MPI_UINT32_T for std::uint32_t, ...; an enum's underlying type's.
template <class T>
MPI_Datatype datatype_of() {
    static_assert(has_datatype<T>, "cubie::mpi::datatype_of: no MPI datatype for this type");
    if constexpr (std::is_enum_v<T>)
        return datatype_of<std::underlying_type_t<T>>();
    else if constexpr (std::is_same_v<T, float>)
        return MPI_FLOAT;
    else if constexpr (std::is_same_v<T, double>)
        return MPI_DOUBLE;
    else if constexpr (std::is_same_v<T, std::uint8_t>)
        return MPI_UINT8_T;
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return MPI_UINT32_T;
    else
        return MPI_UINT64_T;
}

}  // namespace cubie::mpi

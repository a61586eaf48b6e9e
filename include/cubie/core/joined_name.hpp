#pragma once
// Names of composed policies, joined at compile time: dirk<kvaerno5_tableau,
// newton_krylov<gmres_method<>, jacobi_preconditioning>> is "kvaerno5_gmres_jacobi". The
// parts are types with a `static constexpr const char* name`; the result is a constant
// string in static storage, so a composed policy's name is a `const char*` like any other.

#include <cstddef>

namespace cubie {

namespace detail {

constexpr std::size_t name_length(const char* s) {
    std::size_t n = 0;
    while (s[n] != '\0') ++n;
    return n;
}

template <std::size_t Size>
struct name_text {
    char text[Size];
};

}  // namespace detail

/// The names of Parts joined by '_'.
template <class... Parts>
struct joined_name {
    static_assert(sizeof...(Parts) >= 1, "joined_name needs at least one part");

private:
    // The parts' characters, a separator after each but the last, and the terminator.
    static constexpr std::size_t size = (detail::name_length(Parts::name) + ...) + sizeof...(Parts);

    static constexpr detail::name_text<size> build() {
        detail::name_text<size> out{};
        std::size_t k = 0;
        const char* parts[] = {Parts::name...};
        for (std::size_t p = 0; p < sizeof...(Parts); ++p) {
            if (p > 0) out.text[k++] = '_';
            for (const char* c = parts[p]; *c != '\0'; ++c) out.text[k++] = *c;
        }
        out.text[k] = '\0';
        return out;
    }

    static constexpr detail::name_text<size> storage = build();

public:
    static constexpr const char* value = storage.text;
};

}  // namespace cubie

#pragma once
// A system with its Jacobian's sparsity pattern hidden: stiff methods factor its iteration
// matrices as dense ones, exchanging rows (dense_lu, cooperative_lu), though the system
// declares where J's zeros are (linear/iteration_lu.hpp). For a system whose matrices the
// pattern's static pivot order refuses often (linear/sparse_lu.hpp), and to compare the two.
//
//   cubie::solver<cubie::dense_jacobian<my_system<float>>, cubie::rodas5p, ...>

namespace cubie {

template <class System>
struct dense_jacobian : System {
    /// Hides System::jacobian_pattern: not a sparsity_pattern, so has_jacobian_pattern fails.
    static constexpr bool jacobian_pattern = false;
};

}  // namespace cubie

#pragma once
// How a [row][column] array travels in messages of bounded size. MPI counts are ints:
// a message of more than INT_MAX elements, a datatype of more than INT_MAX bytes (its size
// is reported as an int) or a stride beyond INT_MAX elements would overflow them. A batch
// of 10^8 trajectories with a few hundred saved rows is far beyond that, so the array is cut
// into rectangles of at most max_elements values: whole rows where one fits, pieces of a
// row where a row alone is too long. Each rectangle is one message of one strided
// datatype whose stride is given in bytes (MPI_Aint, 64-bit).

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace cubie::mpi {

/// Rows [row, row + rows) and columns [column, column + columns) of an array.
struct message_block {
    std::size_t row = 0;
    std::size_t rows = 0;
    std::size_t column = 0;
    std::size_t columns = 0;

    std::size_t elements() const { return rows * columns; }
};

/// The rectangles, row-major, that tile a rows x columns array with at most max_elements
/// values each (none for an empty array).
inline std::vector<message_block> message_blocks(std::size_t rows, std::size_t columns,
                                                 std::size_t max_elements) {
    if (max_elements == 0)
        throw std::invalid_argument("message blocks: max_elements must be positive");
    std::vector<message_block> blocks;
    if (rows == 0 || columns == 0) return blocks;
    const std::size_t width = std::min(columns, max_elements);
    const std::size_t height = std::max<std::size_t>(1, max_elements / width);
    for (std::size_t row = 0; row < rows; row += height)
        for (std::size_t column = 0; column < columns; column += width)
            blocks.push_back(
                {row, std::min(height, rows - row), column, std::min(width, columns - column)});
    return blocks;
}

}  // namespace cubie::mpi

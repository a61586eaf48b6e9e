// cooperative_lu on tiles of 4 to 32 lanes of a warp against dense_lu on one thread, bit for
// bit, on the matrices of support/lu_test_matrices.hpp: the same verdicts (singular or not)
// and the same solutions, in float and double, for sizes that fill the lanes unevenly.

#include <doctest/doctest.h>

#include <cooperative_groups.h>
#include <cuda_runtime_api.h>

#include <cstring>
#include <vector>

#include "cubie/core/cuda_check.hpp"
#include "cubie/core/device_buffer.hpp"
#include "cubie/linear/cooperative_lu.hpp"
#include "cubie/linear/dense_lu.hpp"
#include "support/lu_test_matrices.hpp"

using namespace cubie;

namespace {

/// One matrix per tile of G lanes: its rows from a[matrix][row][column], the right-hand
/// side from b[matrix][row]; the solution into x[matrix][unknown], the verdict into regular.
template <class T, int N, int G>
__global__ void solve_on_tiles(const T* a, const T* b, T* x, int* regular, int count) {
    using lu_type = cooperative_lu<T, N, tile_lanes<G>>;
    const auto tile =
        cooperative_groups::tiled_partition<G>(cooperative_groups::this_thread_block());
    const int matrix = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / G);
    if (matrix >= count) return;  // whole tiles: blockDim.x is a multiple of G
    const tile_lanes<G> lanes{tile};
    const int lane = lanes.lane();
    typename lu_type::rows_type rows{};
    typename lu_type::part part{};
    for (int m = 0; m < lu_type::rows_per_lane; ++m) {
        const int r = lane + m * G;
        if (r >= N) continue;
        for (int j = 0; j < N; ++j) rows[m][j] = a[(matrix * N + r) * N + j];
        part[m] = b[matrix * N + r];
    }
    lu_type lu;
    const bool ok = lu.factor(lanes, rows);
    if (lane == 0) regular[matrix] = ok ? 1 : 0;
    if (!ok) return;
    lu.solve(lanes, part);
    for (int m = 0; m < lu_type::rows_per_lane; ++m)
        if (lane + m * G < N) x[matrix * N + lane + m * G] = part[m];
}

/// The same with dense_lu, a matrix per thread.
template <class T, int N>
__global__ void solve_per_thread(const T* a, const T* b, T* x, int* regular, int count) {
    const int matrix = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (matrix >= count) return;
    typename dense_lu<T, N>::matrix m{};
    vector<T, N> v{};
    for (int i = 0; i < N; ++i) {
        for (int j = 0; j < N; ++j) m[i][j] = a[(matrix * N + i) * N + j];
        v[i] = b[matrix * N + i];
    }
    dense_lu<T, N> lu;
    const bool ok = lu.factor(m);
    regular[matrix] = ok ? 1 : 0;
    if (!ok) return;
    lu.solve(v);
    for (int i = 0; i < N; ++i) x[matrix * N + i] = v[i];
}

template <class T, int N, int G>
void check_tiles_against_threads(int per_kind) {
    cubie::testing::deterministic_integers draws(N * 100 + G);
    std::vector<T> a, b;
    for (const auto k : cubie::testing::lu_matrix_kinds)
        for (int c = 0; c < per_kind; ++c) {
            const auto m = cubie::testing::draw_lu_matrix<T, N>(k, draws);
            for (const auto& row : m) a.insert(a.end(), row.begin(), row.end());
            for (int i = 0; i < N; ++i) b.push_back(T(draws(-9, 9)));
        }
    const int count = static_cast<int>(b.size() / N);
    const auto da = device_buffer<T>::copy_of(a), db = device_buffer<T>::copy_of(b);
    device_buffer<T> tile_x(b.size()), thread_x(b.size());
    device_buffer<int> tile_ok(static_cast<std::size_t>(count)),
        thread_ok(static_cast<std::size_t>(count));
    CUBIE_CUDA_CHECK(cudaMemset(tile_x.data(), 0, tile_x.bytes()));
    CUBIE_CUDA_CHECK(cudaMemset(thread_x.data(), 0, thread_x.bytes()));
    constexpr int threads = 128;  // a multiple of every G
    solve_on_tiles<T, N, G><<<(count * G + threads - 1) / threads, threads>>>(
        da.data(), db.data(), tile_x.data(), tile_ok.data(), count);
    CUBIE_CUDA_CHECK(cudaGetLastError());
    solve_per_thread<T, N><<<(count + threads - 1) / threads, threads>>>(
        da.data(), db.data(), thread_x.data(), thread_ok.data(), count);
    CUBIE_CUDA_CHECK(cudaGetLastError());
    CUBIE_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> x_tiles(b.size()), x_threads(b.size());
    std::vector<int> ok_tiles(static_cast<std::size_t>(count)),
        ok_threads(static_cast<std::size_t>(count));
    tile_x.copy_to(x_tiles);
    thread_x.copy_to(x_threads);
    tile_ok.copy_to(ok_tiles);
    thread_ok.copy_to(ok_threads);
    INFO("N " << N << ", lanes " << G);
    CHECK(ok_tiles == ok_threads);
    CHECK(std::memcmp(x_tiles.data(), x_threads.data(), x_tiles.size() * sizeof(T)) == 0);
}

}  // namespace

TEST_CASE_TEMPLATE("cooperative_lu on tiles of a warp gives dense_lu's bits", T, float, double) {
    check_tiles_against_threads<T, 8, 4>(40);    // 2 rows per lane
    check_tiles_against_threads<T, 20, 8>(40);   // 3 rows on four lanes, 2 on four
    check_tiles_against_threads<T, 20, 16>(40);  // 2 rows on four lanes, 1 on twelve
    check_tiles_against_threads<T, 20, 32>(40);  // twelve lanes hold no row
    check_tiles_against_threads<T, 32, 32>(20);  // a row per lane
}

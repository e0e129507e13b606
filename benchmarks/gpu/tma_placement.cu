// TMA loads on a Hopper GPU against the placement cute_sym predicts, element by element.
//
// Reads tma_placement_cases.txt (written by tma_placement_cases.py with cute_sym): for each case the
// cuTensorMapEncodeTiled arguments cute_sym's make_tma_copy derived (global dims, byte strides, box,
// swizzle mode), the TMA instructions of one CTA tile (smem byte offset, coordinates: cute_sym's
// partition_D / partition_S of the smem tile and the TMA coordinate tensor), and the expected smem
// content (per smem element, the gmem element index cute_sym places there; -1: not written).
// The kernel issues the instructions (cp.async.bulk.tensor, completing on one mbarrier) into a
// 1024-byte-aligned smem buffer pre-filled with a marker, copies the smem back, and the host compares.
//
//   nvcc -O2 -arch=sm_90 -std=c++17 tma_placement.cu -o tma_placement && ./tma_placement cases.txt
// (the driver's cuTensorMapEncodeTiled is reached through cudaGetDriverEntryPointByVersion: no -lcuda)
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); std::exit(2); } } while (0)

struct Case {
  std::string name, swizzle_name;
  int elem_bytes = 0, rank = 0;
  long long gsize = 0;
  std::vector<unsigned long long> gdim, gstride;
  std::vector<unsigned> box;
  int swz = 0;
  std::vector<std::vector<long long>> ops;   // smem byte offset, coords...
  std::vector<long long> expect;            // per smem element: gmem element index or -1
};

static bool read_case(std::istream& in, Case& c) {
  std::string tok;
  if (!(in >> tok)) return false;
  if (tok != "case") { std::fprintf(stderr, "bad file: %s\n", tok.c_str()); std::exit(2); }
  in >> c.name >> c.elem_bytes >> c.rank >> c.gsize >> c.swizzle_name;
  in >> tok; c.gdim.resize(c.rank); for (auto& x : c.gdim) in >> x;
  in >> tok; c.gstride.resize(c.rank - 1); for (auto& x : c.gstride) in >> x;
  in >> tok; c.box.resize(c.rank); for (auto& x : c.box) in >> x;
  in >> tok >> c.swz;
  int n; in >> tok >> n;
  c.ops.assign(n, std::vector<long long>(1 + c.rank));
  for (auto& op : c.ops) for (auto& x : op) in >> x;
  long long m; in >> tok >> m;
  c.expect.resize(m);
  for (auto& x : c.expect) in >> x;
  in >> tok;   // end
  return true;
}

// a value per gmem element that differs between neighbours in every byte of its width
__host__ __device__ inline unsigned hash_elem(unsigned long long i) {
  unsigned long long x = i * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29; x *= 0xBF58476D1CE4E5B9ull; x ^= x >> 32;
  return (unsigned)x;
}

__global__ void fill(unsigned char* g, long long n, int nb) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned h = hash_elem(i);
    for (int b = 0; b < nb; ++b) g[i * nb + b] = (unsigned char)(h >> (8 * b));
  }
}

__device__ inline void tma_load(const CUtensorMap* map, unsigned smem, unsigned mbar, int rank, const long long* c) {
  const unsigned long long m = reinterpret_cast<unsigned long long>(map);
  int c0 = (int)c[0], c1 = rank > 1 ? (int)c[1] : 0, c2 = rank > 2 ? (int)c[2] : 0,
      c3 = rank > 3 ? (int)c[3] : 0, c4 = rank > 4 ? (int)c[4] : 0;
  switch (rank) {
    case 1: asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3}], [%2];"
                         :: "r"(smem), "l"(m), "r"(mbar), "r"(c0) : "memory"); break;
    case 2: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
                         :: "r"(smem), "l"(m), "r"(mbar), "r"(c0), "r"(c1) : "memory"); break;
    case 3: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
                         :: "r"(smem), "l"(m), "r"(mbar), "r"(c0), "r"(c1), "r"(c2) : "memory"); break;
    case 4: asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2];"
                         :: "r"(smem), "l"(m), "r"(mbar), "r"(c0), "r"(c1), "r"(c2), "r"(c3) : "memory"); break;
    default: asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, %7}], [%2];"
                          :: "r"(smem), "l"(m), "r"(mbar), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4) : "memory"); break;
  }
}

__global__ void tma_kernel(const __grid_constant__ CUtensorMap map, const long long* ops, int nops, int rank,
                           unsigned tx_bytes, unsigned char* out, int smem_bytes) {
  extern __shared__ unsigned char smem_raw[];
  __shared__ alignas(8) unsigned long long mbar;
  unsigned char* smem = (unsigned char*)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
  for (int i = threadIdx.x; i < smem_bytes; i += blockDim.x) smem[i] = 0xA5;   // the "not written" marker
  unsigned mb = (unsigned)__cvta_generic_to_shared(&mbar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(mb));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(mb), "r"(tx_bytes) : "memory");
    unsigned base = (unsigned)__cvta_generic_to_shared(smem);
    for (int k = 0; k < nops; ++k) {
      const long long* op = ops + k * (1 + rank);
      tma_load(&map, base + (unsigned)op[0], mb, rank, op + 1);
    }
  }
  unsigned done = 0;
  while (!done) {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(mb) : "memory");
  }
  __syncthreads();
  for (int i = threadIdx.x; i < smem_bytes; i += blockDim.x) out[i] = smem[i];
}

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                  const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                  CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "tma_placement_cases.txt";
  std::ifstream in(path);
  if (!in) { std::fprintf(stderr, "cannot open %s\n", path); return 2; }
  int ncases; in >> ncases;
  if (argc > 2 && std::string(argv[2]) == "--parse-only") {
    Case c;
    while (read_case(in, c)) {
      long long mx = 0, wrote = 0;
      for (long long e : c.expect) { if (e > mx) mx = e; if (e >= 0) ++wrote; }
      long long maxoff = 0;
      for (auto& op : c.ops) if (op[0] > maxoff) maxoff = op[0];
      std::printf("%s rank %d gsize %lld max gmem idx %lld  smem %zu elems (%lld written)  %zu ops, last smem off %lld\n",
                  c.name.c_str(), c.rank, c.gsize, mx, c.expect.size(), wrote, c.ops.size(), maxoff);
    }
    return 0;
  }
  CK(cudaFuncSetAttribute(tma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult qr;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &qr));
  if (!fn || qr != cudaDriverEntryPointSuccess) { std::fprintf(stderr, "no cuTensorMapEncodeTiled\n"); return 2; }
  EncodeTiled encode = reinterpret_cast<EncodeTiled>(fn);
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (sm_%d%d)\n\n", prop.name, prop.major, prop.minor);
  std::printf("| case | elem | swizzle | box | TMAs | smem elements checked | mismatches | result |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  int failed = 0, total = 0;
  Case c;
  while (read_case(in, c)) {
    ++total;
    const int nb = c.elem_bytes;
    unsigned char* g = nullptr;
    CK(cudaMalloc(&g, c.gsize * nb));
    fill<<<1024, 256>>>(g, c.gsize, nb);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CUtensorMap map;
    CUtensorMapDataType dt = nb == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : nb == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                                                              : CU_TENSOR_MAP_DATA_TYPE_UINT32;
    std::vector<cuuint64_t> gdim(c.gdim.begin(), c.gdim.end()), gstr(c.gstride.begin(), c.gstride.end());
    std::vector<cuuint32_t> box(c.box.begin(), c.box.end()), estr(c.rank, 1);
    CUresult r = encode(&map, dt, c.rank, g, gdim.data(), gstr.data(), box.data(), estr.data(),
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)c.swz,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    std::string boxs;
    for (size_t i = 0; i < c.box.size(); ++i) boxs += (i ? "x" : "") + std::to_string(c.box[i]);
    if (r != CUDA_SUCCESS) {
      std::printf("| %s | %dB | %s | %s | %zu | - | - | ENCODE FAILED (CUresult %d) |\n", c.name.c_str(), nb,
                  c.swizzle_name.c_str(), boxs.c_str(), c.ops.size(), (int)r);
      ++failed; CK(cudaFree(g)); continue;
    }
    unsigned long long box_bytes = nb;
    for (unsigned b : c.box) box_bytes *= b;
    const int smem_bytes = (int)(c.expect.size() * nb);
    std::vector<long long> flat;
    for (auto& op : c.ops) flat.insert(flat.end(), op.begin(), op.end());
    long long* dops = nullptr; unsigned char* dout = nullptr;
    CK(cudaMalloc(&dops, flat.size() * sizeof(long long)));
    CK(cudaMemcpy(dops, flat.data(), flat.size() * sizeof(long long), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&dout, smem_bytes));
    tma_kernel<<<1, 128, smem_bytes + 1024>>>(map, dops, (int)c.ops.size(), c.rank,
                                             (unsigned)(box_bytes * c.ops.size()), dout, smem_bytes);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned char> out(smem_bytes);
    CK(cudaMemcpy(out.data(), dout, smem_bytes, cudaMemcpyDeviceToHost));
    long long checked = 0, bad = 0, first_bad = -1;
    for (size_t p = 0; p < c.expect.size(); ++p) {
      for (int b = 0; b < nb; ++b) {
        unsigned char want = c.expect[p] < 0 ? 0xA5 : (unsigned char)(hash_elem(c.expect[p]) >> (8 * b));
        if (out[p * nb + b] != want) { if (first_bad < 0) first_bad = (long long)p; ++bad; break; }
      }
      ++checked;
    }
    if (bad) ++failed;
    std::printf("| %s | %dB | %s | %s | %zu | %lld | %lld | %s |\n", c.name.c_str(), nb, c.swizzle_name.c_str(),
                boxs.c_str(), c.ops.size(), checked, bad, bad ? "FAIL" : "PASS");
    if (bad) std::printf("|   first mismatch at smem element %lld (expected gmem element %lld) | | | | | | | |\n",
                         first_bad, c.expect[first_bad]);
    CK(cudaFree(g)); CK(cudaFree(dops)); CK(cudaFree(dout));
  }
  std::printf("\n%d/%d cases: every smem element where cute_sym places it\n", total - failed, total);
  return failed ? 1 : 0;
}

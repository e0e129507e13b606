// Harness of the generated benchmark (benchmarks/gpu/gpu_index_bench.py): correctness
// against cs.evaluate, index arithmetic alone, and the gather beside cudaMemcpy.
#pragma once
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#define CK(x)                                                                                  \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__,                \
              cudaGetErrorString(e_));                                                         \
      exit(2);                                                                                 \
    }                                                                                          \
  } while (0)
#define CKL() CK(cudaGetLastError())

static constexpr int64_t GATHER_ELEMS = int64_t(1) << 26;   // 64 M uint32
static constexpr int ARITH_ITERS = 2048;

enum { V_SYM, V_SYM32, V_CUTE, V_CUTE64, V_NAIVE, NVAR };
static const char* VNAME[NVAR] = {"sym", "sym32", "cute", "cute64", "naive"};

struct Bind {
  int idx;
  int64_t size, cosize;
  const char* text;
};

struct Row {
  std::string name;
  int V = 1;
  bool has32 = false, dynamic = false;
  int ops = 0, canon = 0;
  long long checked = 0;
  long long bad[NVAR] = {0, 0, 0, 0, 0};     // wrong offsets (every binding)
  long long gbad[NVAR] = {0, 0, 0, 0, 0};    // wrong gathered elements
  double ps[NVAR] = {0, 0, 0, 0, 0};         // index arithmetic, ps per offset (whole GPU)
  double ps_base = 0;                        // the same loop with f(i) = i
  double gbs[NVAR] = {0, 0, 0, 0, 0};        // gather GB/s (bytes read + written)
  int nbind = 0;
};

struct Ctx {
  bool gpu = true;
  std::string expdir;
  std::vector<Row> rows;
  int sms = 0;
  double memcpy_gbs = 0;
  int32_t* d_exp = nullptr;
  int32_t* d_off = nullptr;
  uint32_t* d_in = nullptr;
  uint32_t* d_out = nullptr;
  long long* d_sink = nullptr;
  unsigned long long* d_cnt = nullptr;
};

static std::vector<int32_t> read_expected(const Ctx& ctx, const char* name, int b, int64_t n) {
  std::string path = ctx.expdir + "/" + name + "_" + std::to_string(b) + ".bin";
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", path.c_str()); exit(3); }
  std::vector<int32_t> v(n);
  size_t got = fread(v.data(), sizeof(int32_t), n, f);
  fclose(f);
  if ((int64_t)got != n) { fprintf(stderr, "%s: %zu offsets, want %lld\n", path.c_str(), got, (long long)n); exit(3); }
  return v;
}

template <class L>
static void print_cute(const char* text, const L& l) {
  printf("    cute_sym: %s\n    CuTe    : ", text);
  cute::print(l);
  printf("\n");
  fflush(stdout);
}

// ---------------------------------------------------------------- kernels
template <class F>
__global__ void offsets_kernel(F f, int64_t n, int32_t* out) {
  using I = typename F::idx_t;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    out[i] = (int32_t)f((I)i);
}

__global__ void count_diff(const int32_t* a, const int32_t* b, int64_t n, unsigned long long* cnt) {
  unsigned long long c = 0;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    c += a[i] != b[i];
  if (c) atomicAdd(cnt, c);
}

// Index arithmetic alone: every thread sums f over indices it cannot predict
// ((start + k) & mask with a run-time mask), so nothing is hoisted or folded.
// The mask is below 2^31, so the compiler knows the index is non-negative as an
// int too (no sign fix-ups for CuTe's and the naive formula's divisions).
template <class F>
__global__ void arith_kernel(F f, uint32_t mask, int iters, long long* sink) {
  using I = typename F::idx_t;
  using R = decltype(f(I(0)));
  using U = std::make_unsigned_t<R>;
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t s = tid * 2654435761u;
  mask &= 0x7fffffffu;
  U acc = 0;
#pragma unroll 4
  for (int k = 0; k < iters; ++k) acc += (U)f((I)((s + (uint32_t)k) & mask));
  sink[tid] = (long long)acc;
}

struct Ident {
  using idx_t = int32_t;
  __device__ __forceinline__ int32_t operator()(int32_t i) const { return i; }
};

// out[g] = in[t * cosize + f(j)] for g = t * size + j: each thread 4 consecutive outputs
// (one 16-byte store); one 16-byte load where the layout maps them to 4 contiguous,
// aligned inputs (V == 4), else 4 independent loads.
template <class F, int V>
__global__ void gather_kernel(F f, const uint32_t* __restrict__ in, uint32_t* __restrict__ out,
                              uint32_t log2s, uint32_t cosz, uint32_t nthr) {
  using I = typename F::idx_t;
  const uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= nthr) return;
  const uint32_t g = q * 4u;
  const uint32_t j = g & ((1u << log2s) - 1u) & 0x7fffffffu;   // non-negative as an int too
  const uint32_t base = (g >> log2s) * cosz;
  uint4 v;
  if constexpr (V == 4) {
    v = __ldg(reinterpret_cast<const uint4*>(in + base + (uint32_t)f((I)j)));
  } else {
    v.x = __ldg(in + base + (uint32_t)f((I)j));
    v.y = __ldg(in + base + (uint32_t)f((I)(j + 1)));
    v.z = __ldg(in + base + (uint32_t)f((I)(j + 2)));
    v.w = __ldg(in + base + (uint32_t)f((I)(j + 3)));
  }
  *reinterpret_cast<uint4*>(out + g) = v;
}

__global__ void iota_kernel(uint32_t* p, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    p[i] = (uint32_t)i;
}

__global__ void check_gather(const uint32_t* out, const int32_t* exp, int64_t n, uint32_t log2s, uint32_t cosz,
                             unsigned long long* cnt) {
  unsigned long long c = 0;
  for (int64_t g = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; g < n; g += (int64_t)gridDim.x * blockDim.x) {
    uint32_t want = (uint32_t)((g >> log2s) * cosz + exp[g & ((int64_t(1) << log2s) - 1)]);
    c += out[g] != want;
  }
  if (c) atomicAdd(cnt, c);
}

// ---------------------------------------------------------------- timing
template <class Launch>
static double median_ms(Launch launch, int reps) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  launch();
  CKL();
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    CKL();
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

static unsigned long long read_cnt(Ctx& ctx) {
  unsigned long long c = 0;
  CK(cudaMemcpy(&c, ctx.d_cnt, sizeof c, cudaMemcpyDeviceToHost));
  return c;
}

template <class F>
static long long gpu_check(Ctx& ctx, F f, int64_t n) {
  offsets_kernel<<<ctx.sms * 8, 256>>>(f, n, ctx.d_off);
  CKL();
  CK(cudaMemset(ctx.d_cnt, 0, sizeof(unsigned long long)));
  count_diff<<<ctx.sms * 8, 256>>>(ctx.d_off, ctx.d_exp, n, ctx.d_cnt);
  CKL();
  long long bad = (long long)read_cnt(ctx);
  CK(cudaMemset(ctx.d_off, 0xff, n * sizeof(int32_t)));    // poison for the next variant
  return bad;
}

template <class F>
static double gpu_arith(Ctx& ctx, F f, uint32_t mask) {
  const int blocks = ctx.sms * 8, threads = 256;
  double ms = median_ms([&] { arith_kernel<<<blocks, threads>>>(f, mask, ARITH_ITERS, ctx.d_sink); }, 5);
  return ms * 1e9 / ((double)blocks * threads * ARITH_ITERS);   // ps per offset
}

static int ilog2(int64_t x) { int l = 0; while ((int64_t(1) << l) < x) ++l; return l; }

template <class F>
static double gpu_gather(Ctx& ctx, F f, int V, const Bind& B, long long* wrong) {
  const int64_t E = GATHER_ELEMS;
  const uint32_t log2s = ilog2(B.size), cosz = (uint32_t)B.cosize;
  const uint32_t nthr = (uint32_t)(E / 4);
  const int threads = 256, blocks = (nthr + threads - 1) / threads;
  auto launch = [&] {
    if (V == 4) gather_kernel<F, 4><<<blocks, threads>>>(f, ctx.d_in, ctx.d_out, log2s, cosz, nthr);
    else gather_kernel<F, 1><<<blocks, threads>>>(f, ctx.d_in, ctx.d_out, log2s, cosz, nthr);
  };
  CK(cudaMemset(ctx.d_out, 0xff, E * sizeof(uint32_t)));
  launch();
  CKL();
  CK(cudaMemset(ctx.d_cnt, 0, sizeof(unsigned long long)));
  check_gather<<<ctx.sms * 8, 256>>>(ctx.d_out, ctx.d_exp, E, log2s, cosz, ctx.d_cnt);
  CKL();
  *wrong += (long long)read_cnt(ctx);
  double ms = median_ms(launch, 9);
  return 2.0 * E * sizeof(uint32_t) / (ms * 1e-3) / 1e9;
}

template <class S, class S32, class C, class C64, class Nv>
static void gpu_binding(Ctx& ctx, Row& row, const Bind& B, S sym, S32 sym32, C cute, C64 cute64, Nv naive) {
  std::vector<int32_t> exp = read_expected(ctx, row.name.c_str(), B.idx, B.size);
  CK(cudaMemcpy(ctx.d_exp, exp.data(), B.size * sizeof(int32_t), cudaMemcpyHostToDevice));
  CK(cudaMemset(ctx.d_off, 0xff, B.size * sizeof(int32_t)));
  row.checked += B.size;
  row.nbind++;
  row.bad[V_SYM] += gpu_check(ctx, sym, B.size);
  row.bad[V_SYM32] += gpu_check(ctx, sym32, B.size);
  row.bad[V_CUTE] += gpu_check(ctx, cute, B.size);
  row.bad[V_CUTE64] += gpu_check(ctx, cute64, B.size);
  row.bad[V_NAIVE] += gpu_check(ctx, naive, B.size);
  const bool last = !row.dynamic || B.idx == 1;
  if (!last) return;
  if ((B.size & (B.size - 1)) != 0 || B.size > GATHER_ELEMS) { fprintf(stderr, "%s: size must be a power of two <= 2^26\n", row.name.c_str()); exit(4); }
  const uint32_t mask = (uint32_t)(B.size - 1);
  row.ps_base = gpu_arith(ctx, Ident{}, mask);
  row.ps[V_SYM] = gpu_arith(ctx, sym, mask);
  row.ps[V_SYM32] = gpu_arith(ctx, sym32, mask);
  row.ps[V_CUTE] = gpu_arith(ctx, cute, mask);
  row.ps[V_CUTE64] = gpu_arith(ctx, cute64, mask);
  row.ps[V_NAIVE] = gpu_arith(ctx, naive, mask);
  const int64_t E = GATHER_ELEMS;
  iota_kernel<<<ctx.sms * 8, 256>>>(ctx.d_in, (E / B.size) * B.cosize);
  CKL();
  row.gbs[V_SYM] = gpu_gather(ctx, sym, row.V, B, &row.gbad[V_SYM]);
  row.gbs[V_SYM32] = gpu_gather(ctx, sym32, row.V, B, &row.gbad[V_SYM32]);
  row.gbs[V_CUTE] = gpu_gather(ctx, cute, row.V, B, &row.gbad[V_CUTE]);
  row.gbs[V_CUTE64] = gpu_gather(ctx, cute64, row.V, B, &row.gbad[V_CUTE64]);
  row.gbs[V_NAIVE] = gpu_gather(ctx, naive, row.V, B, &row.gbad[V_NAIVE]);
  printf("  %-16s bad %lld/%lld/%lld/%lld/%lld of %lld  ps base %.2f sym %.2f sym32 %.2f cute %.2f cute64 %.2f naive %.2f"
         "  gather V=%d GB/s %.0f/%.0f/%.0f/%.0f/%.0f (wrong %lld)\n",
         row.name.c_str(), row.bad[0], row.bad[1], row.bad[2], row.bad[3], row.bad[4], row.checked, row.ps_base,
         row.ps[0], row.ps[1], row.ps[2], row.ps[3], row.ps[4], row.V, row.gbs[0], row.gbs[1], row.gbs[2], row.gbs[3],
         row.gbs[4], row.gbad[0] + row.gbad[1] + row.gbad[2] + row.gbad[3] + row.gbad[4]);
  fflush(stdout);
}

template <class F>
static long long cpu_check(F f, const std::vector<int32_t>& exp) {
  using I = typename F::idx_t;
  long long bad = 0;
  for (int64_t i = 0; i < (int64_t)exp.size(); ++i) bad += (int32_t)f((I)i) != exp[i];
  return bad;
}

template <class S, class S32, class C, class C64, class Nv>
static void cpu_binding(Ctx& ctx, Row& row, const Bind& B, S sym, S32 sym32, C cute, C64 cute64, Nv naive) {
  std::vector<int32_t> exp = read_expected(ctx, row.name.c_str(), B.idx, B.size);
  row.checked += B.size;
  row.nbind++;
  row.bad[V_SYM] += cpu_check(sym, exp);
  row.bad[V_SYM32] += cpu_check(sym32, exp);
  row.bad[V_CUTE] += cpu_check(cute, exp);
  row.bad[V_CUTE64] += cpu_check(cute64, exp);
  row.bad[V_NAIVE] += cpu_check(naive, exp);
  printf("  %-16s binding %d: %lld offsets, wrong sym %lld sym32 %lld cute %lld cute64 %lld naive %lld (cumulative)\n",
         row.name.c_str(), B.idx, (long long)B.size, row.bad[0], row.bad[1], row.bad[2], row.bad[3], row.bad[4]);
  fflush(stdout);
}

static double memcpy_gbs(Ctx& ctx) {
  const size_t bytes = GATHER_ELEMS * sizeof(uint32_t);
  double ms = median_ms([&] { CK(cudaMemcpyAsync(ctx.d_out, ctx.d_in, bytes, cudaMemcpyDeviceToDevice)); }, 15);
  return 2.0 * bytes / (ms * 1e-3) / 1e9;
}

static void print_table(Ctx& ctx) {
  // Ratios compare like with like: CuTe `int` and naive (int) against sym i32 (index_type="int32",
  // the same statement as CuTe's int extents; emit's default where that is already 32-bit), and
  // CuTe `int64_t` against emit's default text (64-bit on the dynamic layouts).
  printf("\n| layout | V | wrong offsets sym/CuTe/naive (of) | ps/offset sym | sym i32 | CuTe int | CuTe i64 | naive | loop only"
         " | naive/sym i32 | CuTe int/sym i32 | CuTe i64/sym | gather GB/s sym | CuTe | naive | vs memcpy |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  long long total_bad = 0;
  for (auto& r : ctx.rows) {
    total_bad += r.bad[0] + r.bad[1] + r.bad[2] + r.bad[3] + r.bad[4] + r.gbad[0] + r.gbad[1] + r.gbad[2] + r.gbad[3] + r.gbad[4];
    const bool emit64 = r.has32;
    const double sym32 = emit64 ? r.ps[V_SYM32] : r.ps[V_SYM];
    char r64[32] = "=";
    if (r.dynamic) snprintf(r64, sizeof r64, "%.2fx", r.ps[V_CUTE64] / r.ps[V_SYM]);
    printf("| %s | %d | %lld/%lld/%lld (%lld) | %.3f | %s | %.3f | %s | %.3f | %.3f | %.2fx | %.2fx | %s | %.0f | %.0f | %.0f | %.0f%% |\n",
           r.name.c_str(), r.V, r.bad[V_SYM] + r.bad[V_SYM32], r.bad[V_CUTE] + r.bad[V_CUTE64], r.bad[V_NAIVE],
           r.checked, r.ps[V_SYM], emit64 ? std::to_string(r.ps[V_SYM32]).substr(0, 5).c_str() : "=",
           r.ps[V_CUTE], r.dynamic ? std::to_string(r.ps[V_CUTE64]).substr(0, 5).c_str() : "=", r.ps[V_NAIVE],
           r.ps_base, r.ps[V_NAIVE] / sym32, r.ps[V_CUTE] / sym32, r64, r.gbs[V_SYM], r.gbs[V_CUTE],
           r.gbs[V_NAIVE], 100.0 * r.gbs[V_SYM] / ctx.memcpy_gbs);
  }
  printf("\ncudaMemcpy device-to-device, %lld MB: %.0f GB/s (bytes read + written)\n",
         (long long)(GATHER_ELEMS * 4 >> 20), ctx.memcpy_gbs);
  printf("wrong offsets + wrong gathered elements, all variants: %lld\n", total_bad);
}

static int bench_main(int argc, char** argv, void (*const* runners)(Ctx&), int n) {
  if (argc < 3) { fprintf(stderr, "usage: %s --gpu|--cpu EXPDIR\n", argv[0]); return 1; }
  Ctx ctx;
  ctx.gpu = std::string(argv[1]) == "--gpu";
  ctx.expdir = argv[2];
  if (ctx.gpu) {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    ctx.sms = p.multiProcessorCount;
    printf("device: %s, %d SMs, L2 %d MB, CUDA %d.%d\n", p.name, p.multiProcessorCount, p.l2CacheSize >> 20,
           CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    const int64_t E = GATHER_ELEMS;
    CK(cudaMalloc(&ctx.d_exp, E * sizeof(int32_t)));
    CK(cudaMalloc(&ctx.d_off, E * sizeof(int32_t)));
    CK(cudaMalloc(&ctx.d_in, 2 * E * sizeof(uint32_t)));
    CK(cudaMalloc(&ctx.d_out, E * sizeof(uint32_t)));
    CK(cudaMalloc(&ctx.d_sink, (size_t)ctx.sms * 8 * 256 * sizeof(long long)));
    CK(cudaMalloc(&ctx.d_cnt, sizeof(unsigned long long)));
    iota_kernel<<<ctx.sms * 8, 256>>>(ctx.d_in, 2 * E);
    CKL();
    for (int w = 0; w < 200; ++w)   // let the clocks come up from idle before the first timing
      CK(cudaMemcpyAsync(ctx.d_out, ctx.d_in, E * sizeof(uint32_t), cudaMemcpyDeviceToDevice));
    CK(cudaDeviceSynchronize());
    ctx.memcpy_gbs = memcpy_gbs(ctx);
    printf("memcpy D2D: %.0f GB/s\n", ctx.memcpy_gbs);
  }
  for (int k = 0; k < n; ++k) runners[k](ctx);
  if (ctx.gpu) {
    double again = memcpy_gbs(ctx);
    printf("memcpy D2D again: %.0f GB/s\n", again);
    ctx.memcpy_gbs = std::max(ctx.memcpy_gbs, again);
    print_table(ctx);
  } else {
    long long bad = 0;
    for (auto& r : ctx.rows) for (int v = 0; v < NVAR; ++v) bad += r.bad[v];
    printf("CPU check: %zu layouts, wrong offsets (all variants): %lld\n", ctx.rows.size(), bad);
    return bad != 0;
  }
  return 0;
}

// Chapter 11 benchmark: every step of the exercise and the solution at FlashAttention-3's shapes
// (batch x tokens = 16K, heads x head_dim = 2048; head_dim 128 and 64; 1K, 4K and 16K tokens;
// causal or not), beside cuDNN's fused attention (SDPA through the cudnn-frontend headers, where
// the build found them) and, as the tensor cores' ceiling, one cuBLAS FP16 GEMM of the same FLOPs.
// Each sample times one call on the GPU with CUDA events, L2 flushed before it. Counters:
// GFLOP/s (attention::flops: 4 batch heads N^2 d, half of it when causal; the GEMM row: its own
// 2 m n k, the same number), %ref (of the cuDNN row's median at the same shape, same run).
// A step's output is checked on a sample of rows against the CPU's double-precision attention
// before it is timed: a wrong result is never timed.
//   meson test -C build --benchmark --suite 11-attention --verbose
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>
#if COURSE_HAVE_CUDNN_FRONTEND
#include <cudnn_frontend.h>
#endif

#include "attention.cuh"
#include "course/benchmark.hpp"
#include "course/cublas.hpp"
#include "course/device_buffer.hpp"
#include "course/watchdog.hpp"

namespace {

using namespace attention;

constexpr int kRepetitions = 3;
constexpr benchmark::IterationCount kSamples = 10;
constexpr int kTotalTokens = 16384;  // batch x tokens
constexpr int kHeadsTimesDim = 2048;

Shape shape_of(int tokens, int head_dim, bool causal) {
  return {kTotalTokens / tokens, kHeadsTimesDim / head_dim, tokens, head_dim, causal};
}

std::string case_name(const Shape& shape) {
  return "d=" + std::to_string(shape.head_dim) + "/tokens=" + std::to_string(shape.tokens) +
         (shape.causal ? "/causal" : "/full");
}

// One shape's inputs and output on the GPU, made once and shared by its rows; the inputs also
// kept on the host for the checks.
struct Problem {
  Shape shape;
  std::vector<float> q, k, v;
  course::DeviceBuffer<__half> dq, dk, dv, o;
};

course::DeviceBuffer<__half> on_gpu(const std::vector<float>& values) {
  return course::DeviceBuffer<__half>(to_fp16(values));
}

std::unique_ptr<Problem> make_problem(const Shape& shape) {
  const std::size_t n = static_cast<std::size_t>(shape.elements());
  auto p = std::make_unique<Problem>();
  p->shape = shape;
  p->q = fp16_values(n, 1.0, 11 + n);
  p->k = fp16_values(n, 1.0, 22 + n);
  p->v = fp16_values(n, 1.0, 33 + n);
  p->dq = on_gpu(p->q);
  p->dk = on_gpu(p->k);
  p->dv = on_gpu(p->v);
  p->o = course::DeviceBuffer<__half>(n);
  return p;
}

// The rows of a shape run one after another: one problem is kept at a time.
Problem& problem(const Shape& shape) {
  static std::unique_ptr<Problem> slot;
  if (!slot || slot->shape.tokens != shape.tokens || slot->shape.head_dim != shape.head_dim ||
      slot->shape.causal != shape.causal) {
    slot.reset();  // the previous shape's buffers go first
    slot = make_problem(shape);
  }
  return *slot;
}

// O (as the last call left it) against the CPU on rows 0, the middle and the last of the first
// and the last (batch, head): "" when within error_bound() (the tests' bound), else what differs.
std::string check_output(Problem& p) {
  const std::vector<__half> got = p.o.to_host();
  const Shape& s = p.shape;
  const std::vector<int> rows = {0, s.tokens / 2, s.tokens - 1};
  for (const auto& [b, h] : {std::pair<int, int>{0, 0}, {s.batch - 1, s.heads - 1}}) {
    const std::vector<double> want = cpu_attention_rows(p.q, p.k, p.v, s, b, h, rows);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (int c = 0; c < s.head_dim; ++c) {
        const std::size_t at =
            ((static_cast<std::size_t>(b) * s.tokens + rows[r]) * s.heads + h) * s.head_dim + c;
        const double value = __half2float(got[at]);
        if (!(std::fabs(value - want[r * s.head_dim + c]) <= error_bound())) {
          return "O(batch " + std::to_string(b) + ", head " + std::to_string(h) + ", token " +
                 std::to_string(rows[r]) + ", dim " + std::to_string(c) + ") = " +
                 std::to_string(value) + ", expected " + std::to_string(want[r * s.head_dim + c]) +
                 ": run the tests (./course test 11)";
        }
      }
    }
  }
  return "";
}

course::bench::ReferenceRates<std::string>& cudnn_rates() {
  static course::bench::ReferenceRates<std::string> rates;
  return rates;
}

// GFLOP/s for `work` FLOPs per call, and %ref against the cuDNN row of the same shape.
void set_counters(benchmark::State& state, const course::bench::GpuTiming& timing,
                  const Shape& shape, double work) {
  course::bench::set_flops_counters(state, timing, work, cudnn_rates().median(case_name(shape)));
}

// One call of `function` on p's inputs into p.o (poisoned first), waited for: "" or why it failed.
std::string run_once(AttentionFn function, int step, Problem& p, Workspace& workspace) {
  try {
    p.o.fill_bytes(0xFF);
    function(p.dq.data(), p.dk.data(), p.dv.data(), p.o.data(), p.shape, workspace);
    course::synchronize_or_stop(kStepFunctions[step - kFirstStep].name,
                                "Run the tests: ./course test 11." + std::to_string(step),
                                std::string("exercises/11-attention/") +
                                    kSteps[step - kFirstStep].file);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

// A step of the exercise or the solution: checked, then timed. It is checked first on one
// sequence of 64 tokens, a single tile of keys: a pipeline that is not written yet, whose
// copies may wait for a stage that is never given back, cannot wait there, and its row is
// skipped before the full shape, where it could wait forever. Under the profiler that check is
// left out (course::bench::profiling()): the first launch of the step's kernel, the one
// profiled, must be the row's own shape (a hang there still ends the program after
// course::kHangSeconds).
void run_step(benchmark::State& state, AttentionFn function, int step, const Shape& shape) {
  const std::string why = why_step_cannot_run(step);
  if (!why.empty()) return state.SkipWithError(("this GPU cannot run this step: " + why).c_str());
  Workspace workspace;
  if (!course::bench::profiling()) {
    const std::unique_ptr<Problem> one_tile =
        make_problem({1, 1, 64, shape.head_dim, shape.causal});
    const std::string failed = run_once(function, step, *one_tile, workspace);
    if (!failed.empty()) return state.SkipWithError(failed.c_str());
    const std::string wrong = check_output(*one_tile);
    if (!course::bench::skip_unless_correct(state, wrong.empty(), "on 64 tokens, " + wrong)) {
      return;
    }
  }
  Problem& p = problem(shape);
  const std::string failed = run_once(function, step, p, workspace);
  if (!failed.empty()) return state.SkipWithError(failed.c_str());
  const std::string wrong = check_output(p);
  if (!course::bench::skip_unless_correct(state, wrong.empty(), wrong)) return;
  const auto call = [&] {
    function(p.dq.data(), p.dk.data(), p.dv.data(), p.o.data(), shape, workspace);
  };
  set_counters(state, course::bench::time_gpu(state, call), shape, flops(shape));
}

// The tensor cores' ceiling: one cuBLAS GEMM, FP16 in, FP32 accumulation, FP16 out, m = n =
// 8192 and k chosen so that 2 m n k equals the attention's FLOPs.
void run_gemm_ceiling(benchmark::State& state, const Shape& shape) {
  constexpr int kSide = 8192;
  const double k_exact = flops(shape) / (2.0 * kSide * kSide);
  const int k = static_cast<int>(std::lround(k_exact / 64) * 64);
  static course::DeviceBuffer<__half> a, b, c;
  const std::size_t need = static_cast<std::size_t>(kSide) * k;
  if (a.size() < need) {
    a = course::DeviceBuffer<__half>(need);
    b = course::DeviceBuffer<__half>(need);
    a.fill_bytes(0x3C);  // 0x3C3C: about 1.06, any finite value does
    b.fill_bytes(0x3C);
  }
  if (c.size() == 0) c = course::DeviceBuffer<__half>(static_cast<std::size_t>(kSide) * kSide);
  static course::CublasHandle handle(CUBLAS_DEFAULT_MATH);
  const float one = 1.0f, zero = 0.0f;
  const auto call = [&] {
    COURSE_CHECK_CUBLAS(cublasGemmEx(handle.get(), CUBLAS_OP_T, CUBLAS_OP_N, kSide, kSide, k,
                                     &one, a.data(), CUDA_R_16F, k, b.data(), CUDA_R_16F, k,
                                     &zero, c.data(), CUDA_R_16F, kSide, CUBLAS_COMPUTE_32F,
                                     CUBLAS_GEMM_DEFAULT));
  };
  call();
  set_counters(state, course::bench::time_gpu(state, call), shape,
               2.0 * kSide * kSide * static_cast<double>(k));
}

#if COURSE_HAVE_CUDNN_FRONTEND
namespace fe = cudnn_frontend;
using Uid = fe::graph::Tensor_attributes::uid_t;
constexpr Uid kQ = 1, kK = 2, kV = 3, kO = 4;

void check_fe(fe::error_t status, const char* what) {
  if (status.is_bad()) throw std::runtime_error(std::string(what) + ": " + status.get_message());
}

// cuDNN's scaled dot product attention, forward, inference (no softmax statistics), for the
// course's layout: logical dimensions (batch, heads, tokens, head_dim), strides of
// [batch][tokens][heads][head_dim]. Causal: the diagonal aligned top-left, nothing to its right.
struct CudnnAttention {
  cudnnHandle_t handle = nullptr;
  std::unique_ptr<fe::graph::Graph> graph;
  course::DeviceBuffer<unsigned char> workspace;
  std::string plan;

  explicit CudnnAttention(const Shape& s) {
    if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS) throw std::runtime_error("cudnnCreate failed");
    graph = std::make_unique<fe::graph::Graph>();
    graph->set_io_data_type(fe::DataType_t::HALF)
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);
    const int64_t b = s.batch, h = s.heads, n = s.tokens, d = s.head_dim;
    const std::vector<int64_t> dim{b, h, n, d}, stride{n * h * d, d, h * d, 1};
    const auto tensor = [&](const char* name, Uid uid) {
      return graph->tensor(fe::graph::Tensor_attributes().set_name(name).set_uid(uid)
                               .set_dim(dim).set_stride(stride));
    };
    auto options = fe::graph::SDPA_attributes().set_name("sdpa").set_generate_stats(false)
                       .set_attn_scale(static_cast<float>(1.0 / std::sqrt(static_cast<double>(d))));
    if (s.causal) {
      options.set_diagonal_alignment(fe::DiagonalAlignment_t::TOP_LEFT)
          .set_diagonal_band_right_bound(0);
    }
    auto outputs = graph->sdpa(tensor("Q", kQ), tensor("K", kK), tensor("V", kV), options);
    outputs[0]->set_output(true).set_dim(dim).set_stride(stride).set_uid(kO);
    check_fe(graph->validate(), "validate");
    check_fe(graph->build_operation_graph(handle), "build_operation_graph");
    check_fe(graph->create_execution_plans({fe::HeurMode_t::A, fe::HeurMode_t::FALLBACK}),
             "create_execution_plans");
    check_fe(graph->check_support(), "check_support");
    check_fe(graph->build_plans(), "build_plans");
    int64_t bytes = 0;
    check_fe(graph->get_workspace_size(bytes), "get_workspace_size");
    if (bytes > 0) workspace = course::DeviceBuffer<unsigned char>(static_cast<std::size_t>(bytes));
    (void)graph->get_plan_name(plan);
  }
  ~CudnnAttention() { cudnnDestroy(handle); }
  void run(const __half* q, const __half* k, const __half* v, __half* o) {
    std::unordered_map<Uid, void*> pack{{kQ, const_cast<__half*>(q)}, {kK, const_cast<__half*>(k)},
                                        {kV, const_cast<__half*>(v)}, {kO, o}};
    check_fe(graph->execute(handle, pack, workspace.data()), "execute");
  }
};
#endif

void run_cudnn(benchmark::State& state, const Shape& shape) {
#if COURSE_HAVE_CUDNN_FRONTEND
  Problem& p = problem(shape);
  try {
    // Built once per shape (building may compile kernels: seconds), outside the timed loop.
    static std::unique_ptr<CudnnAttention> built;
    static std::string built_for;
    if (!built || built_for != case_name(shape)) {
      built.reset();
      built = std::make_unique<CudnnAttention>(shape);
      built_for = case_name(shape);
    }
    CudnnAttention& sdpa = *built;
    const auto call = [&] { sdpa.run(p.dq.data(), p.dk.data(), p.dv.data(), p.o.data()); };
    p.o.fill_bytes(0xFF);
    call();
    COURSE_CHECK(cudaDeviceSynchronize());
    const std::string wrong = check_output(p);
    if (!wrong.empty()) return state.SkipWithError(("cuDNN's output differs: " + wrong).c_str());
    const course::bench::GpuTiming timing = course::bench::time_gpu(state, call);
    course::bench::set_flops_counters(state, timing, flops(shape));
    cudnn_rates().add(case_name(shape), state.counters["GFLOP/s"]);
    state.SetLabel(sdpa.plan);
  } catch (const std::exception& error) {
    state.SkipWithError((std::string("cuDNN cannot run this attention: ") + error.what()).c_str());
  }
#else
  (void)shape;
  state.SkipWithError("cuDNN's fused attention is not in this build: " COURSE_CUDNN_FRONTEND_MISSING);
#endif
}

}  // namespace

namespace course::bench {

void register_chapter_benchmarks() {
  for (const int head_dim : {128, 64}) {
    for (const bool causal : {false, true}) {
      for (const int tokens : {1024, 4096, 16384}) {
        const Shape shape = shape_of(tokens, head_dim, causal);
        const std::string at = "/" + case_name(shape);
        const auto add = [&](const std::string& name, auto&& body) {
          sampled(benchmark::RegisterBenchmark((name + at).c_str(), body), kSamples)
              ->Repetitions(kRepetitions)
              ->ReportAggregatesOnly(true)
              ->UseManualTime()
              ->Unit(benchmark::kMillisecond);
        };
        add("cuDNN/sdpa", [shape](benchmark::State& state) { run_cudnn(state, shape); });
        add("cuBLAS/gemm_same_flops",
            [shape](benchmark::State& state) { run_gemm_ceiling(state, shape); });
        for (int index = 0; index < kStepFunctionCount; ++index) {
          const StepFunction& step = kStepFunctions[index];
          if (tokens > step.max_tokens) continue;
          add(std::string("Solution/") + step.name, [shape, index](benchmark::State& state) {
            run_step(state, solution_step(index), kStepFunctions[index].number, shape);
          });
          add(std::string("Exercise/") + step.name, [shape, index](benchmark::State& state) {
            run_step(state, exercise_step(index), kStepFunctions[index].number, shape);
          });
        }
      }
    }
  }
}

}  // namespace course::bench

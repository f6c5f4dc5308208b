#include "course/machine_code.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>
#include <utility>

namespace course {

// ---- Reading this program's machine code with cuobjdump -------------------------------------

namespace {

std::string find_cuobjdump() {
  std::vector<std::string> folders;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream entries(path);
    for (std::string folder; std::getline(entries, folder, ':');) folders.push_back(folder);
  }
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* home = std::getenv(variable)) folders.push_back(std::string(home) + "/bin");
  }
  folders.push_back("/usr/local/cuda/bin");
  for (const std::string& folder : folders) {
    const std::string candidate = folder + "/cuobjdump";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// Splits lines into kernels: a line matching `kernel_start` (group 1: the mangled name) starts
// one; the lines after it, up to the next such line, are its instructions.
void add_line(std::vector<MachineCode>& functions, const std::string& line,
              const std::regex& kernel_start) {
  std::smatch match;
  if (std::regex_search(line, match, kernel_start)) {
    functions.push_back({match[1].str(), {}, {}});
  } else if (!functions.empty()) {
    functions.back().instructions.push_back(line);
  }
}

const std::regex& ptx_kernel_start() {
  static const std::regex start(R"(\.entry\s+([A-Za-z_][\w$]*))");
  return start;
}

// A PTX module names its source files after its last function (`.file 1 "/path/x.cu"`), and
// the next module starts with `.version`: give every kernel its module's file table.
void attach_source_files(std::vector<MachineCode>& kernels) {
  static const std::regex file_line(R"(^\s*\.file\s+(\d+)\s+\"([^\"]*)\")");
  static const std::regex version(R"(^\s*\.version\b)");
  std::map<int, std::string> table;
  std::size_t first = 0;
  const auto assign_up_to = [&](std::size_t last) {
    for (std::size_t k = first; k <= last && k < kernels.size(); ++k) kernels[k].files = table;
    table.clear();
    first = last + 1;
  };
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    for (const std::string& line : kernels[k].instructions) {
      std::smatch match;
      if (std::regex_search(line, match, file_line)) {
        table[std::stoi(match[1].str())] = match[2].str();
      } else if (std::regex_search(line, version)) {
        assign_up_to(k);
      }
    }
  }
  if (!kernels.empty() && first < kernels.size()) assign_up_to(kernels.size() - 1);
}

// Runs cuobjdump with `option` (-sass or -ptx) on this program and splits its output into
// kernels. `none_found` (may be null): what to say when the output holds no kernel at all.
std::vector<MachineCode> dump_kernels(const char* option, const std::regex& kernel_start,
                                      std::string* failure, const char* none_found = nullptr) {
  std::vector<MachineCode> functions;
  const std::string tool = find_cuobjdump();
  if (tool.empty()) {
    *failure = "cuobjdump (part of the CUDA toolkit, next to nvcc) was not found on PATH, in "
               "$CUDA_HOME/bin or in /usr/local/cuda/bin";
    return functions;
  }
  // /proc/self/exe read by cuobjdump would be cuobjdump itself: resolve it here.
  char program[4096] = {};
  const ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
  if (length <= 0) {
    *failure = "could not find this program's path (/proc/self/exe)";
    return functions;
  }
  const std::string command =
      tool + " " + option + " '" + std::string(program, length) + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    *failure = "could not run " + command;
    return functions;
  }
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    add_line(functions, std::string(buffer), kernel_start);
  }
  if (pclose(pipe) != 0 && functions.empty()) {
    *failure = "cuobjdump " + std::string(option) + " failed";
  }
  if (functions.empty() && none_found != nullptr) *failure = none_found;
  return functions;
}

// Every kernel's SASS and PTX in this program, each read once.
const std::vector<MachineCode>& all_machine_code(std::string* why_not) {
  static std::string failure;
  static const std::vector<MachineCode> code =
      dump_kernels("-sass", std::regex(R"(Function\s*:\s*(\S+))"), &failure);
  if (why_not != nullptr) *why_not = failure;
  return code;
}

const std::vector<MachineCode>& all_ptx(std::string* why_not) {
  static std::string failure;
  static const std::vector<MachineCode> code = [] {
    // nvcc -arch=sm_XY embeds the PTX (compute_XY) beside the machine code; -arch=native
    // embeds only the machine code of this machine's GPU.
    std::vector<MachineCode> kernels = dump_kernels(
        "-ptx", ptx_kernel_start(), &failure,
        "this program holds no PTX to read: it was built with gpu_arch=native, which embeds "
        "only this GPU's machine code. Build for your GPU's architecture instead: "
        "meson configure build -Dgpu_arch=sm_XY, where X.Y is what nvidia-smi "
        "--query-gpu=compute_cap --format=csv prints (8.6 -> sm_86)");
    attach_source_files(kernels);
    return kernels;
  }();
  if (why_not != nullptr) *why_not = failure;
  return code;
}

std::vector<MachineCode> matching(const std::vector<MachineCode>& all,
                                  const std::vector<std::string>& name_parts) {
  std::vector<MachineCode> found;
  for (const MachineCode& function : all) {
    bool every = true;
    for (const std::string& part : name_parts) {
      every &= function.kernel.find(part) != std::string::npos;
    }
    if (every) found.push_back(function);
  }
  return found;
}

}  // namespace

std::vector<MachineCode> machine_code_of(const std::vector<std::string>& name_parts,
                                         std::string* why_not) {
  return matching(all_machine_code(why_not), name_parts);
}

std::vector<MachineCode> ptx_of(const std::vector<std::string>& name_parts, std::string* why_not) {
  return matching(all_ptx(why_not), name_parts);
}

std::vector<MachineCode> kernels_in_ptx(const std::string& ptx_text) {
  std::vector<MachineCode> kernels;
  std::istringstream lines(ptx_text);
  for (std::string line; std::getline(lines, line);) add_line(kernels, line, ptx_kernel_start());
  attach_source_files(kernels);
  return kernels;
}

// ---- Barriers in divergent code -------------------------------------------------------------

namespace {

// Why a value differs between the threads of a block (bits, combined).
constexpr int kThreadIndex = 1;  // computed from %tid, %laneid, ...
constexpr int kData = 2;         // from memory, atomics, shuffles, clocks: may differ per thread

struct Location {
  int file = 0, line = 0;
  // The last line before it in the kernel's own file (that of its first line): where the
  // learner's code called the inlined function (a header's helper, cooperative groups) that
  // holds the instruction.
  int own_file = 0, own_line = 0;
};

struct Statement {
  std::string guard;  // the predicate register of `@%p` / `@!%p`, "" when unconditional
  std::string opcode;  // e.g. "setp.ge.u32", "bar.sync", "@"-free
  std::vector<std::string> operands;
  Location where;
  bool block_answer = false;  // the result of a __syncthreads_count/or/and call
};

struct Body {
  std::vector<Statement> statements;
  std::map<std::string, std::size_t> labels;  // label: index of the statement after it
  std::map<std::string, std::vector<std::string>> branch_targets;  // .branchtargets lists
};

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const auto end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

std::string root_of(const std::string& opcode) { return opcode.substr(0, opcode.find('.')); }

bool has_part(const std::string& opcode, const char* part) {
  return (opcode + ".").find(std::string(".") + part + ".") != std::string::npos;
}

// Splits "a, {b, c}, [d+4]" at the commas outside braces, brackets and parentheses.
std::vector<std::string> split_operands(const std::string& text) {
  std::vector<std::string> operands;
  int depth = 0;
  std::string current;
  for (const char c : text) {
    if (c == '{' || c == '[' || c == '(') ++depth;
    if (c == '}' || c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      operands.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty()) operands.push_back(trim(current));
  return operands;
}

std::vector<std::string> registers_in(const std::string& operand) {
  static const std::regex reg(R"(%[A-Za-z_$][\w$]*)");
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(operand.begin(), operand.end(), reg);
       it != std::sregex_iterator(); ++it) {
    found.push_back(it->str());
  }
  return found;
}

// A call that is a block-wide barrier: debug builds (-G) call __syncthreads_count/or/and and
// cooperative groups' __barrier_sync instead of inlining them.
bool calls_block_barrier(const std::string& callee) {
  return callee.find("__syncthreads") != std::string::npos ||
         (callee.find("__barrier_sync") != std::string::npos &&
          callee.find("__barrier_sync_count") == std::string::npos);
}

std::string callee_of(const Statement& call) {
  for (const std::string& operand : call.operands) {
    if (!operand.empty() && operand.front() != '(') return operand;
  }
  return "";
}

// The statements of the kernel's body (its outermost { }), with labels and source lines.
// Registers declared in an inner scope (`{ .reg .b64 %tmp; ... }`, which debug builds repeat
// many times) are renamed apart, so that one scope's %tmp is not taken for another's.
Body parse_body(const MachineCode& ptx) {
  static const std::regex loc(R"(^\.loc\s+(\d+)\s+(\d+))");
  static const std::regex label(R"(^(\$?[A-Za-z_][\w$]*)\s*:(?!:)\s*(.*)$)");
  static const std::regex guarded(R"(^@(!?)(%[\w$]+)\s+(.*)$)");
  static const std::regex reg(R"(%[A-Za-z_$][\w$]*)");
  Body body;
  Location where;
  bool started = false;
  std::vector<std::map<std::string, std::string>> scopes;  // declared name: renamed
  int renamed = 0;
  std::string pending;  // a statement that goes on over several lines (a call's parameters)
  bool after_barrier_call = false;

  const auto rename = [&](const std::string& text) {
    if (scopes.size() < 2) return text;
    std::string result;
    auto last = text.cbegin();
    for (auto it = std::sregex_iterator(text.begin(), text.end(), reg);
         it != std::sregex_iterator(); ++it) {
      result.append(last, text.cbegin() + it->position());
      std::string name = it->str();
      for (auto scope = scopes.rbegin(); scope != scopes.rend(); ++scope) {
        if (const auto found = scope->find(name); found != scope->end()) {
          name = found->second;
          break;
        }
      }
      result += name;
      last = text.cbegin() + it->position() + it->length();
    }
    result.append(last, text.cend());
    return result;
  };
  const auto add_statement = [&](std::string piece) {
    piece = trim(piece);
    if (piece.empty()) return;
    std::smatch match;
    Statement statement;
    statement.where = where;
    if (std::regex_match(piece, match, guarded)) {
      statement.guard = rename(match[2].str());
      piece = match[3].str();
    }
    const auto space = piece.find_first_of(" \t");
    statement.opcode = piece.substr(0, space);
    if (space != std::string::npos) {
      for (const std::string& operand : split_operands(piece.substr(space))) {
        statement.operands.push_back(rename(operand));
      }
    }
    const std::string root = root_of(statement.opcode);
    if (root == "call") after_barrier_call = calls_block_barrier(callee_of(statement));
    // What __syncthreads_count/or/and return (debug builds read it from the call's retval).
    statement.block_answer = after_barrier_call && root == "ld" && statement.operands.size() > 1 &&
                             statement.operands[1].find("retval") != std::string::npos;
    body.statements.push_back(std::move(statement));
  };

  for (const std::string& raw : ptx.instructions) {
    std::string text = raw;
    if (const auto comment = text.find("//"); comment != std::string::npos) text.erase(comment);
    text = trim(text);
    while (!text.empty() && text.front() == '{') {  // a scope opens: the body, a call's
      scopes.emplace_back();
      started = true;
      text = trim(text.substr(1));
    }
    int closing = 0;  // scopes that close at the end of this line
    while (!text.empty() && text.back() == '}') {
      const std::string before = trim(text.substr(0, text.size() - 1));
      if (!before.empty() && before.back() != ';' && before.back() != '}') break;
      ++closing;
      text = before;
    }
    std::smatch match;
    if (!started || text.empty()) {
      // nothing to read
    } else if (std::regex_search(text, match, loc)) {
      where.file = std::stoi(match[1].str());
      where.line = std::stoi(match[2].str());
      if (where.own_file == 0) where.own_file = where.file;
      if (where.file == where.own_file) where.own_line = where.line;
    } else {
      if (std::regex_match(text, match, label)) {
        const std::string name = match[1].str();
        body.labels[name] = body.statements.size();
        text = trim(match[2].str());
        if (text.rfind(".branchtargets", 0) == 0) {
          std::string list = text.substr(std::string(".branchtargets").size());
          if (const auto end = list.find(';'); end != std::string::npos) list.erase(end);
          body.branch_targets[name] = split_operands(list);
          text.clear();
        }
      }
      if (text.rfind(".reg", 0) == 0 && scopes.size() >= 2) {
        // .reg .b64 %tmp;  or  .reg .b32 %a, %b;  (ranges such as %r<4> are not renamed)
        std::string names = text.substr(4);
        if (const auto end = names.find(';'); end != std::string::npos) names.erase(end);
        for (auto it = std::sregex_iterator(names.begin(), names.end(), reg);
             it != std::sregex_iterator(); ++it) {
          const std::size_t after = it->position() + it->length();
          if (after < names.size() && names[after] == '<') continue;
          scopes.back()[it->str()] = it->str() + "$scope" + std::to_string(++renamed);
        }
      } else if (!text.empty() && text.front() != '.') {  // .shared, .pragma, ...: nothing to run
        pending += " " + text;
        for (auto end = pending.find(';'); end != std::string::npos; end = pending.find(';')) {
          add_statement(pending.substr(0, end));
          pending.erase(0, end + 1);
        }
      }
    }
    for (int i = 0; i < closing && !scopes.empty(); ++i) {
      scopes.pop_back();
      if (started && scopes.empty()) return body;  // the end of the kernel's body
    }
  }
  return body;
}

bool is_block_barrier(const Statement& s) {
  const std::string root = root_of(s.opcode);
  if (root == "call") return calls_block_barrier(callee_of(s));
  if (root != "bar" && root != "barrier") return false;
  if (s.opcode.rfind("bar.warp", 0) == 0) return false;  // __syncwarp(): one warp
  // An explicit thread count (bar.sync 1, 64): a named barrier for part of the block.
  const bool reduction = has_part(s.opcode, "red");
  const std::size_t without_count = reduction ? 3 : 1;
  return s.operands.size() <= without_count;
}

bool is_branch(const Statement& s) { return root_of(s.opcode) == "bra"; }
bool is_exit(const Statement& s) {
  const std::string root = root_of(s.opcode);
  return root == "ret" || root == "exit" || root == "trap";
}
bool is_indirect_branch(const Statement& s) { return root_of(s.opcode) == "brx"; }

bool reads_memory(const Statement& s) {
  static const std::set<std::string> loads = {"ld", "ldu", "ldmatrix", "atom", "tex", "tld4",
                                              "suld", "mbarrier"};
  return loads.count(root_of(s.opcode)) != 0;
}

// The registers an instruction writes: those of its first operand, except where the first
// operand is an address or a barrier number, or the instruction writes no register.
std::vector<std::string> destinations(const Statement& s) {
  static const std::set<std::string> no_destination = {
      "st", "red", "membar", "fence", "bra", "brx", "ret", "exit", "call", "trap",
      "prefetch", "prefetchu", "nanosleep", "cp", "pmevent", "griddepcontrol", "setmaxnreg",
      "discard", "applypriority", "stmatrix", "multimem", "tensormap"};
  const std::string root = root_of(s.opcode);
  if (s.operands.empty() || no_destination.count(root) != 0) return {};
  if ((root == "bar" || root == "barrier") && !has_part(s.opcode, "red")) return {};
  if (s.operands.front().empty() || s.operands.front().front() == '[') return {};
  return registers_in(s.operands.front());
}

// The registers an instruction reads: its guard and its operands but the destination.
std::vector<std::string> registers_read(const Statement& s) {
  std::vector<std::string> read;
  if (!s.guard.empty()) read.push_back(s.guard);
  const std::size_t first = destinations(s).empty() ? 0 : 1;
  for (std::size_t k = first; k < s.operands.size(); ++k) {
    for (const std::string& reg : registers_in(s.operands[k])) read.push_back(reg);
  }
  return read;
}

// Why the values an instruction produces differ between threads, whatever its inputs.
int inherent_variation(const Statement& s) {
  static const std::set<std::string> thread_index = {
      "%tid", "%laneid", "%warpid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt",
      "%lanemask_ge", "%lanemask_gt"};
  static const std::set<std::string> per_thread = {
      "%clock", "%clock_hi", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
      "%smid"};
  const std::string root = root_of(s.opcode);
  int bits = 0;
  for (std::size_t i = 0; i < s.operands.size(); ++i) {
    for (const std::string& reg : registers_in(s.operands[i])) {
      if (thread_index.count(reg) != 0) bits |= kThreadIndex;
      if (per_thread.count(reg) != 0 || reg.rfind("%pm", 0) == 0) bits |= kData;
    }
  }
  if (root == "ld" || root == "ldu") {
    const bool call_result =
        has_part(s.opcode, "param") && s.operands.size() > 1 &&
        s.operands[1].find("retval") != std::string::npos;
    if (call_result || has_part(s.opcode, "volatile") ||
        has_part(s.opcode, "relaxed") || has_part(s.opcode, "acquire") ||
        has_part(s.opcode, "mmio")) {
      bits |= kData;
    }
  }
  if (root == "atom" || root == "shfl" || root == "mbarrier") bits |= kData;
  if (root == "activemask" || root == "elect") bits |= kThreadIndex;
  return bits;
}

// Basic blocks, their successors, and each block's immediate post-dominator.
struct ControlFlow {
  std::vector<std::size_t> begin, end;  // block b: statements [begin[b], end[b])
  std::vector<std::vector<std::size_t>> successors;  // the exit is block count()
  std::vector<std::size_t> block_of;  // statement -> block
  std::vector<std::size_t> post_dominator;  // immediate, exit = count()
  std::size_t count() const { return begin.size(); }
};

ControlFlow control_flow(const Body& body) {
  const std::vector<Statement>& code = body.statements;
  const std::size_t n = code.size();
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (const auto& [name, index] : body.labels) leader[std::min(index, n)] = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (is_branch(code[i]) || is_exit(code[i]) || is_indirect_branch(code[i])) leader[i + 1] = true;
  }
  ControlFlow flow;
  flow.block_of.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (leader[i]) {
      if (!flow.begin.empty()) flow.end.push_back(i);
      flow.begin.push_back(i);
    }
    flow.block_of[i] = flow.begin.size() - 1;
  }
  if (!flow.begin.empty()) flow.end.push_back(n);
  const std::size_t blocks = flow.count(), exit = blocks;
  const auto block_at = [&](std::size_t index) { return index >= n ? exit : flow.block_of[index]; };
  const auto target = [&](const std::string& label) -> std::size_t {
    const auto found = body.labels.find(label);
    return found == body.labels.end() ? exit : block_at(found->second);
  };
  flow.successors.assign(blocks, {});
  for (std::size_t b = 0; b < blocks; ++b) {
    const Statement& last = code[flow.end[b] - 1];
    std::vector<std::size_t>& next = flow.successors[b];
    const bool conditional = !last.guard.empty();
    if (is_branch(last) && !last.operands.empty()) {
      next.push_back(target(last.operands.front()));
      if (conditional) next.push_back(block_at(flow.end[b]));
    } else if (is_exit(last)) {
      next.push_back(exit);
      if (conditional) next.push_back(block_at(flow.end[b]));
    } else if (is_indirect_branch(last) && last.operands.size() > 1) {
      const auto list = body.branch_targets.find(last.operands[1]);
      if (list != body.branch_targets.end()) {
        for (const std::string& label : list->second) next.push_back(target(label));
      }
      if (next.empty() || conditional) next.push_back(block_at(flow.end[b]));
    } else {
      next.push_back(block_at(flow.end[b]));
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
  }

  // Post-dominators: dominators of the reversed graph, rooted at the exit (Cooper, Harvey and
  // Kennedy's iterative algorithm). A block that cannot reach the exit (an endless loop) is
  // given an edge to it.
  std::vector<std::vector<std::size_t>> predecessors(blocks + 1);
  const auto build_predecessors = [&] {
    for (auto& list : predecessors) list.clear();
    for (std::size_t b = 0; b < blocks; ++b) {
      for (std::size_t s : flow.successors[b]) predecessors[s].push_back(b);
    }
  };
  std::vector<std::size_t> order;            // post-order of the reversed graph from the exit
  std::vector<std::size_t> position;         // block -> index in `order`
  const std::size_t unvisited = static_cast<std::size_t>(-1);
  const auto number = [&] {
    order.clear();
    position.assign(blocks + 1, unvisited);
    std::vector<bool> seen(blocks + 1, false);
    std::vector<std::pair<std::size_t, std::size_t>> stack = {{exit, 0}};
    seen[exit] = true;
    while (!stack.empty()) {
      const std::size_t node = stack.back().first;
      std::size_t& next_child = stack.back().second;
      if (next_child < predecessors[node].size()) {
        const std::size_t child = predecessors[node][next_child++];
        if (!seen[child]) {
          seen[child] = true;
          stack.push_back({child, 0});
        }
      } else {
        position[node] = order.size();
        order.push_back(node);
        stack.pop_back();
      }
    }
  };
  build_predecessors();
  number();
  bool added = false;
  for (std::size_t b = 0; b < blocks; ++b) {
    if (position[b] == unvisited) {
      flow.successors[b].push_back(exit);
      added = true;
    }
  }
  if (added) {
    build_predecessors();
    number();
  }
  std::vector<std::size_t>& ipdom = flow.post_dominator;
  ipdom.assign(blocks + 1, unvisited);
  ipdom[exit] = exit;
  const auto intersect = [&](std::size_t a, std::size_t b) {
    while (a != b) {
      while (position[a] < position[b]) a = ipdom[a];
      while (position[b] < position[a]) b = ipdom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const std::size_t b = *it;
      if (b == exit) continue;
      std::size_t candidate = unvisited;
      for (std::size_t s : flow.successors[b]) {
        if (ipdom[s] == unvisited) continue;
        candidate = candidate == unvisited ? s : intersect(s, candidate);
      }
      if (candidate != unvisited && ipdom[b] != candidate) {
        ipdom[b] = candidate;
        changed = true;
      }
    }
  }
  return flow;
}

// A divergent branch or return, and the blocks that only some threads run because of it: those
// reachable from it before the paths meet again at its immediate post-dominator.
struct Divergence {
  std::size_t statement;  // the branch
  int bits;               // why its condition differs between threads
  std::vector<bool> region;  // per block
  bool loop = false;      // the branch lies in its own region: the number of rounds differs
  bool early_return = false;  // some threads leave the kernel
  bool meets_at_the_end = false;  // the paths meet only where the kernel returns
};

Divergence divergence_of(const ControlFlow& flow, const Body& body, std::size_t statement,
                         int bits) {
  const std::size_t blocks = flow.count(), exit = blocks;
  const std::size_t from = flow.block_of[statement], meet = flow.post_dominator[from];
  Divergence d{statement, bits, std::vector<bool>(blocks, false)};
  std::deque<std::size_t> work;
  for (std::size_t s : flow.successors[from]) {
    if (s == exit) d.early_return = true;
    if (s != meet && s != exit) work.push_back(s);
  }
  while (!work.empty()) {
    const std::size_t b = work.front();
    work.pop_front();
    if (d.region[b]) continue;
    d.region[b] = true;
    for (std::size_t s : flow.successors[b]) {
      if (s == exit && is_exit(body.statements[flow.end[b] - 1])) d.early_return = true;
      if (s != meet && s != exit && !d.region[s]) work.push_back(s);
    }
  }
  d.loop = d.region[from];
  d.meets_at_the_end = meet == exit || is_exit(body.statements[flow.begin[meet]]);
  return d;
}

std::string file_name(const MachineCode& ptx, int file) {
  const auto found = ptx.files.find(file);
  if (found == ptx.files.end()) return "";
  const std::string& path = found->second;
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string place(const MachineCode& ptx, int file, int line) {
  if (line <= 0) return "";
  const std::string name = file_name(ptx, file);
  return name.empty() ? "line " + std::to_string(line) : name + ":" + std::to_string(line);
}

// The line to show: in the kernel's own file where possible (the learner's line, not one in a
// library header it called).
std::pair<int, int> shown_line(const Location& where) {
  if (where.file != where.own_file && where.own_line > 0) return {where.own_file, where.own_line};
  return {where.file, where.line};
}

std::string barrier_place(const MachineCode& ptx, const Location& where) {
  const auto [file, line] = shown_line(where);
  return place(ptx, file, line);
}

// The condition's line, "" when it is the barrier's own line.
std::string condition_place(const MachineCode& ptx, const Location& barrier,
                            const Location& condition) {
  const auto [file, line] = shown_line(condition);
  if (line <= 0 || shown_line(barrier) == std::make_pair(file, line)) return "";
  if (file == shown_line(barrier).first) return "line " + std::to_string(line);
  return place(ptx, file, line);
}

// A load or store in the thread's own local memory (its stack frame: local arrays, spilled
// values, and every variable of a debug build). A frame address is the same number in every
// thread, but each thread has its own frame: what a slot holds is followed like a register.
struct LocalSlot {
  bool known = false;  // the offset in the frame is known
  long long offset = 0, size = 0;
};

bool overlap(const LocalSlot& a, const LocalSlot& b) {
  return !a.known || !b.known || (a.offset < b.offset + b.size && b.offset < a.offset + a.size);
}

std::optional<long long> literal(const std::string& text) {
  static const std::regex number(R"(^-?(0[xX][0-9a-fA-F]+|\d+)[uU]?$)");
  if (!std::regex_match(text, number)) return std::nullopt;
  return std::stoll(text, nullptr, 0);
}

// The bytes an ld or st moves: .v4.f32 -> 16.
long long access_size(const std::string& opcode) {
  static const std::regex type(R"(\.[bsuf](8|16|32|64|128)\b)");
  static const std::regex vector(R"(\.v(2|4|8)\b)");
  std::smatch match;
  long long bytes = 8;
  if (std::regex_search(opcode, match, type)) bytes = std::stoll(match[1].str()) / 8;
  if (std::regex_search(opcode, match, vector)) bytes *= std::stoll(match[1].str());
  return std::max(bytes, 1LL);
}

// For each statement, its local-memory access, if it has one. `escapes`: a frame address is
// passed to a function call, which may write anything there.
std::vector<std::optional<LocalSlot>> local_accesses(const std::vector<Statement>& code,
                                                     bool* escapes) {
  // Registers that hold a frame address: the offset, or nullopt when it is not a constant.
  std::unordered_map<std::string, std::optional<long long>> frame;
  static const std::set<std::string> moves = {"mov", "cvta", "cvt", "add", "sub"};
  for (int pass = 0; pass < 2; ++pass) {
    for (const Statement& s : code) {
      const std::string root = root_of(s.opcode);
      if (moves.count(root) == 0) continue;
      const std::vector<std::string> written = destinations(s);
      if (written.size() != 1) continue;
      bool in_frame = false, other_register = false;
      std::optional<long long> base, constant;
      for (std::size_t k = 1; k < s.operands.size(); ++k) {
        const std::string& operand = s.operands[k];
        const std::vector<std::string> regs = registers_in(operand);
        if (operand.find("__local_depot") != std::string::npos) {
          in_frame = true;
          base = 0;
        } else if (!regs.empty() && frame.count(regs.front()) != 0) {
          in_frame = true;
          base = frame.at(regs.front());
        } else if (!regs.empty()) {
          other_register = true;
        } else {
          constant = literal(operand);
        }
      }
      if (!in_frame) continue;
      std::optional<long long> offset = base;
      if (root == "add" || root == "sub") {
        offset = base && constant && !other_register
                     ? std::optional<long long>(root == "add" ? *base + *constant
                                                              : *base - *constant)
                     : std::nullopt;
      }
      const auto [entry, added] = frame.try_emplace(written.front(), offset);
      if (!added && entry->second != offset) entry->second = std::nullopt;
    }
  }
  std::vector<std::optional<LocalSlot>> accesses(code.size());
  *escapes = false;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const Statement& s = code[i];
    const std::string root = root_of(s.opcode);
    if (root == "st" && has_part(s.opcode, "param") && s.operands.size() > 1) {
      for (const std::string& reg : registers_in(s.operands[1])) *escapes |= frame.count(reg) != 0;
    }
    const std::size_t address = root == "ld" ? 1 : root == "st" ? 0 : s.operands.size();
    if (address >= s.operands.size()) continue;
    if (has_part(s.opcode, "param") || has_part(s.opcode, "const") ||
        has_part(s.opcode, "shared") || has_part(s.opcode, "global")) {
      continue;
    }
    std::string inside = s.operands[address];
    if (inside.size() < 2 || inside.front() != '[') continue;
    inside = trim(inside.substr(1, inside.size() - 2));
    long long displacement = 0;
    if (const auto sign = inside.find_first_of("+-", 1); sign != std::string::npos) {
      displacement = literal(trim(inside.substr(sign + 1))).value_or(0);
      if (inside[sign] == '-') displacement = -displacement;
      inside = trim(inside.substr(0, sign));
    }
    LocalSlot slot;
    slot.size = access_size(s.opcode);
    if (inside.find("__local_depot") != std::string::npos) {
      slot.known = true;
      slot.offset = displacement;
    } else if (const auto found = frame.find(inside); found != frame.end()) {
      slot.known = found->second.has_value();
      slot.offset = found->second.value_or(0) + displacement;
    } else if (!has_part(s.opcode, "local")) {
      continue;  // a generic address outside the frame
    }
    accesses[i] = slot;
  }
  return accesses;
}

}  // namespace

bool built_with_device_debug(const MachineCode& ptx) {
  // -G gives every function a $L__func_begin label for its debug information.
  return std::any_of(ptx.instructions.begin(), ptx.instructions.end(), [](const std::string& line) {
    return line.find("$L__func_begin") != std::string::npos;
  });
}

std::string divergent_barrier_problem(const MachineCode& ptx) {
  const Body body = parse_body(ptx);
  const std::vector<Statement>& code = body.statements;
  if (std::none_of(code.begin(), code.end(), is_block_barrier)) return "";
  const ControlFlow flow = control_flow(body);

  // Taint, to a fixed point: an instruction's results differ between threads when something it
  // reads does, when its guard does, or when only some threads run it.
  std::unordered_map<std::string, int> varies;
  const auto bits_of = [&](const std::string& reg) {
    const auto found = varies.find(reg);
    return found == varies.end() ? 0 : found->second;
  };
  const auto condition_bits = [&](const Statement& s) {
    return s.guard.empty() ? 0 : bits_of(s.guard);
  };
  bool changed = true;
  const auto mark = [&](const std::string& reg, int bits) {
    int& known = varies[reg];
    if ((known | bits) != known) {
      known |= bits;
      changed = true;
    }
  };
  // The blocks where each register is read.
  std::unordered_map<std::string, std::vector<std::size_t>> read_in;
  for (std::size_t i = 0; i < code.size(); ++i) {
    for (const std::string& reg : registers_read(code[i])) {
      read_in[reg].push_back(flow.block_of[i]);
    }
  }
  // Local memory: which stores each load may read, and in which blocks each store is read.
  bool frame_escapes = false;
  const std::vector<std::optional<LocalSlot>> local = local_accesses(code, &frame_escapes);
  std::vector<std::vector<std::size_t>> may_read(code.size()), read_in_blocks(code.size());
  for (std::size_t load = 0; load < code.size(); ++load) {
    if (!local[load] || root_of(code[load].opcode) != "ld") continue;
    for (std::size_t store = 0; store < code.size(); ++store) {
      if (!local[store] || root_of(code[store].opcode) != "st") continue;
      if (!overlap(*local[load], *local[store])) continue;
      may_read[load].push_back(store);
      read_in_blocks[store].push_back(flow.block_of[load]);
    }
  }
  std::vector<int> stored(code.size(), 0);  // why what each local store writes varies
  const auto mark_stored = [&](std::size_t store, int bits) {
    if ((stored[store] | bits) != stored[store]) {
      stored[store] |= bits;
      changed = true;
    }
  };
  // A frame address computed from a value that varies: each thread reaches another slot.
  const auto address_bits = [&](const std::string& operand) {
    int bits = 0;
    for (const std::string& reg : registers_in(operand)) bits |= bits_of(reg);
    return bits != 0 ? kData : 0;
  };
  std::vector<Divergence> divergences;
  while (changed) {
    changed = false;
    divergences.clear();
    for (std::size_t b = 0; b < flow.count(); ++b) {
      const std::size_t last = flow.end[b] - 1;
      const Statement& s = code[last];
      if (!(is_branch(s) || is_exit(s) || is_indirect_branch(s))) continue;
      int bits = condition_bits(s);
      if (is_indirect_branch(s)) {
        for (std::size_t i = 0; i < s.operands.size(); ++i) {
          for (const std::string& reg : registers_in(s.operands[i])) bits |= bits_of(reg);
        }
      }
      if (bits == 0 || flow.successors[b].size() < 2) continue;
      divergences.push_back(divergence_of(flow, body, last, bits));
    }
    for (std::size_t i = 0; i < code.size(); ++i) {
      const Statement& s = code[i];
      if (local[i] && root_of(s.opcode) == "st") {
        int bits = condition_bits(s) | (local[i]->known ? 0 : address_bits(s.operands[0]));
        for (std::size_t k = 1; k < s.operands.size(); ++k) {
          for (const std::string& reg : registers_in(s.operands[k])) bits |= bits_of(reg);
        }
        mark_stored(i, bits);
        continue;
      }
      const std::vector<std::string> written = destinations(s);
      if (written.empty()) continue;
      // __syncthreads_count/and/or: the whole block's answer, the same in every thread.
      const std::string root = root_of(s.opcode);
      if (root == "bar" || root == "barrier" || s.block_answer) continue;
      int read = 0;
      for (std::size_t k = 1; k < s.operands.size(); ++k) {
        for (const std::string& reg : registers_in(s.operands[k])) read |= bits_of(reg);
      }
      // What a load reads at an address that differs between threads is data, not an index.
      if (read != 0 && reads_memory(s)) read = kData;
      if (local[i]) {  // a slot of the thread's own frame: what the stores put there
        read = (local[i]->known ? 0 : address_bits(s.operands[1])) | (frame_escapes ? kData : 0);
        for (std::size_t store : may_read[i]) read |= stored[store];
      }
      const int bits = inherent_variation(s) | condition_bits(s) | read;
      if (bits == 0) continue;
      for (const std::string& reg : written) mark(reg, bits);
    }
    // A value that only the threads on one side of a divergent branch set, read where the
    // paths have met again (or after the loop), differs between threads: which value a thread
    // holds depends on the way it went.
    for (const Divergence& d : divergences) {
      for (std::size_t b = 0; b < flow.count(); ++b) {
        if (!d.region[b]) continue;
        for (std::size_t i = flow.begin[b]; i < flow.end[b]; ++i) {
          const std::string root = root_of(code[i].opcode);
          if (root == "bar" || root == "barrier") continue;
          if (local[i] && root == "st") {
            const auto& readers = read_in_blocks[i];
            if (std::any_of(readers.begin(), readers.end(),
                            [&](std::size_t use) { return !d.region[use]; })) {
              mark_stored(i, d.bits);
            }
            continue;
          }
          for (const std::string& reg : destinations(code[i])) {
            const auto uses = read_in.find(reg);
            if (uses == read_in.end()) continue;
            if (std::any_of(uses->second.begin(), uses->second.end(),
                            [&](std::size_t use) { return !d.region[use]; })) {
              mark(reg, d.bits);
            }
          }
        }
      }
    }
  }

  for (std::size_t i = 0; i < code.size(); ++i) {
    const Statement& barrier = code[i];
    if (!is_block_barrier(barrier)) continue;
    const std::string at = barrier_place(ptx, barrier.where);
    const std::string where = at.empty() ? "" : " (" + at + ")";
    // The cause to name: a loop whose rounds differ, else the innermost if (the branch that
    // comes last before the barrier).
    const Divergence* cause = nullptr;
    const auto rank = [&](const Divergence& d) {
      return std::make_pair(d.loop ? 1 : 0,
                            d.statement < i ? static_cast<long long>(d.statement)
                                            : -static_cast<long long>(d.statement));
    };
    for (const Divergence& d : divergences) {
      if (!d.region[flow.block_of[i]]) continue;
      if (cause == nullptr || rank(d) > rank(*cause)) cause = &d;
    }
    int bits = condition_bits(barrier);
    Location condition = barrier.where;
    if (bits == 0 && cause == nullptr) continue;
    if (bits == 0) {
      bits = cause->bits;
      condition = code[cause->statement].where;
    }
    const std::string if_at = condition_place(ptx, barrier.where, condition);
    const std::string on = (bits & kThreadIndex) != 0
                               ? "on the thread index"
                               : "on data each thread loaded for itself";
    // "a __syncthreads() <what> (file:line), <the condition> at <if_at>: every thread of the
    // block must reach every barrier<then>"
    const auto problem = [&](const std::string& what, const std::string& condition,
                             const std::string& then) {
      return "a __syncthreads() " + what + where +
             (if_at.empty() ? "" : ", " + condition + " at " + if_at) +
             ": every thread of the block must reach every barrier" + then;
    };
    if (cause != nullptr && cause->loop) {
      return problem("inside a loop whose number of rounds differs between threads",
                     "the loop's condition",
                     ", and as often as the others; give the loop a bound that is the same for "
                     "the whole block (blockDim.x, n) and guard the work inside it, not the "
                     "barrier");
    }
    if (cause != nullptr && cause->early_return) {
      return problem("after a `return` that only some threads of the block take",
                     "the return's condition",
                     ", and the threads that returned never do; keep every thread to the last "
                     "barrier and guard the work, not the whole kernel");
    }
    if (cause != nullptr && cause->meets_at_the_end) {
      return "a __syncthreads() that only some threads of the block reach" + where +
             ": it sits inside an `if` " + on + (if_at.empty() ? "" : " (" + if_at + ")") +
             ", or after a `return` that some threads take; every thread of the block must "
             "reach every barrier: put the barrier where all threads meet, and guard the work, "
             "not the barrier";
    }
    return problem("inside an `if` " + on, "the if",
                   ", and the threads that skip the if never reach this one; put the barrier "
                   "after the if, where all threads meet");
  }
  return "";
}

std::string barrier_problem_of(const std::vector<std::string>& name_parts,
                               std::string* skipped) {
  std::string why_not;
  const std::vector<MachineCode> kernels = ptx_of(name_parts, &why_not);
  if (why_not.empty() && kernels.empty()) {
    why_not = "no kernel whose name holds all of the given parts is in this program's PTX";
  }
  for (const MachineCode& kernel : kernels) {
    if (!why_not.empty()) break;
    if (built_with_device_debug(kernel)) {
      why_not = "the kernels were compiled with -G (meson's buildtype=debug), whose helper calls "
                "the barrier check cannot read; reconfigure with --buildtype=release to run it";
      break;
    }
  }
  if (!why_not.empty()) {
    if (skipped != nullptr) *skipped = why_not;
    return "";
  }
  for (const MachineCode& kernel : kernels) {
    const std::string problem = divergent_barrier_problem(kernel);
    if (!problem.empty()) return problem;  // one message: the instantiations agree
  }
  return "";
}

}  // namespace course

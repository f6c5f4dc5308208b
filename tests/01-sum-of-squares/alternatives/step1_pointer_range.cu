// ALTERNATIVE 01.1 step1_one_thread.cu
// A pointer walks [input, input + n) and squares each value itself, widened to long long before
// the multiply (exact: |x|^2 <= 2^62), added into an unsigned 64-bit total that wraps mod 2^64.
// @region
  unsigned long long total = 0;
  for (const int* p = input; p != input + n; ++p) {
    const long long x = *p;
    total += static_cast<unsigned long long>(x * x);
  }
  partials[0] = total;

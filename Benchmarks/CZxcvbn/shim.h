// zxcvbn-c (Debian's libzxcvbn-dev): the strength tests' oracle and the
// strength benchmarks' baseline. No product links it.
#include <zxcvbn.h>

// libdeflate (Debian's libdeflate-dev): whole-buffer gzip, about twice as fast as zlib at a
// smaller size for the server's large JSON answers (docs/benchmarks.md).
#include <libdeflate.h>

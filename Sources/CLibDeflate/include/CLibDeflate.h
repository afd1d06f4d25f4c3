#ifndef CLIBDEFLATE_H
#define CLIBDEFLATE_H

/// libdeflate, Debian's libdeflate-dev: whole-buffer gzip for SplitServer's large answers, about
/// half zlib's time for fewer bytes (ResponseCompression.swift has the measurements). This target
/// only brings its header to Swift and links the library.
#include <libdeflate.h>

#endif

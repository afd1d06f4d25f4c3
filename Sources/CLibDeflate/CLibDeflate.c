// A C target needs a source file; everything this one offers is in include/CLibDeflate.h.
#include "CLibDeflate.h"

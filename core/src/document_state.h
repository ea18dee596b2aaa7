// SPDX-License-Identifier: Apache-2.0
// What a simdbridge::document owns. Internal: only the core's sources see simdjson.
#ifndef SIMDBRIDGE_SRC_DOCUMENT_STATE_H
#define SIMDBRIDGE_SRC_DOCUMENT_STATE_H

#include <simdjson.h>

#include "simdbridge/document.h"

namespace simdbridge {

struct document::state {
  simdjson::dom::document dom;
  bool parsed = false;
};

} // namespace simdbridge

#endif // SIMDBRIDGE_SRC_DOCUMENT_STATE_H

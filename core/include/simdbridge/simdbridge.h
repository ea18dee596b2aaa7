// SPDX-License-Identifier: Apache-2.0
// The umbrella header of the simdbridge core: include this, or the one header you need.
#ifndef SIMDBRIDGE_H
#define SIMDBRIDGE_H

#include "simdbridge/binding_plan.h"
#include "simdbridge/error.h"
#include "simdbridge/input.h"
#include "simdbridge/json_pointer.h"
#include "simdbridge/msgpack.h"
#include "simdbridge/parser.h"
#include "simdbridge/result.h"
#include "simdbridge/stack.h"
#include "simdbridge/writer.h"

#endif // SIMDBRIDGE_H

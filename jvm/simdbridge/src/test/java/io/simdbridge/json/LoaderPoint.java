// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.util.List;

/** A record for OtherLoaderTest (top level: a nested class's nest host would be in the other loader). */
public record LoaderPoint(int x, double y, String label, List<Long> ids) {}

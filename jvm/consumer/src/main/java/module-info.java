// SPDX-License-Identifier: Apache-2.0
/** A user's named module: it opens its model to simdbridge, as the data binding asks. */
module probe.app {
    requires io.simdbridge;
    opens probe.model to io.simdbridge;
}

// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Locale;

import org.junit.jupiter.api.Test;

/** ErrorCode mirrors the C API's simdbridge_error by hand: this fails when the two drift. */
class ErrorCodeTest {
    @Test
    void everyOrdinalIsTheNativeCodeOfTheSameName() {
        for (ErrorCode code : ErrorCode.values()) {
            assertEquals(code.name().toLowerCase(Locale.ROOT), JniBridge.errorName0(code.ordinal()),
                    "ErrorCode." + code + " is not native code " + code.ordinal());
            assertNotEquals("unknown error", code.message());
        }
        // No native code past the last one Java knows.
        assertEquals("unknown", JniBridge.errorName0(ErrorCode.values().length));
    }
}

// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

/** UTF-8 the JDK's decoder does not take: the generalized form of lone surrogates (WTF-8). */
final class Utf8 {
    private Utf8() {}

    /** Decodes valid UTF-8 in which a lone surrogate is written in 3 bytes (ED A0 80 ...). */
    static String decodeGeneralized(byte[] b, int offset, int length) {
        StringBuilder sb = new StringBuilder(length);
        int i = offset, end = offset + length;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                sb.append((char) c);
                i += 1;
            } else if (c < 0xE0) {
                sb.append((char) (((c & 0x1F) << 6) | (b[i + 1] & 0x3F)));
                i += 2;
            } else if (c < 0xF0) {
                sb.append((char) (((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F)));
                i += 3;
            } else {
                int cp = ((c & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6) | (b[i + 3] & 0x3F);
                sb.appendCodePoint(cp);
                i += 4;
            }
        }
        return sb.toString();
    }
}

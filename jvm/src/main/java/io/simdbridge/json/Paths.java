// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.util.ArrayList;
import java.util.List;

/**
 * JSON paths for error messages ({@code $.users[3].age}), worked out only when an error is
 * thrown: from the tape, for the value at a word index, or from the input's valid prefix, for
 * the place where malformed JSON stops being JSON.
 */
final class Paths {
    private Paths() {}

    /** The path of the value at word {@code target} of the tape. */
    static String ofWord(Tape t, int target) {
        StringBuilder path = new StringBuilder("$");
        int w = 0;
        while (w != target) {
            int kind = t.kind(w);
            if (kind == Tape.OBJECT) {
                int k = w + 2, end = t.next(w);
                boolean found = false;
                while (k < end) {
                    int v = k + 2, after = t.next(v);
                    if (target >= k && target < after) {
                        appendKey(path, t.text(k));
                        w = target == k ? target : v; // a key's own error: its member's path
                        found = true;
                        break;
                    }
                    k = after;
                }
                if (!found) {
                    break;
                }
            } else if (kind == Tape.ARRAY) {
                int e = w + 2, end = t.next(w), index = 0;
                boolean found = false;
                while (e < end) {
                    int after = t.next(e);
                    if (target >= e && target < after) {
                        path.append('[').append(index).append(']');
                        w = e;
                        found = true;
                        break;
                    }
                    e = after;
                    index++;
                }
                if (!found) {
                    break;
                }
            } else {
                break;
            }
        }
        return path.toString();
    }

    static void appendKey(StringBuilder path, String key) {
        boolean identifier = !key.isEmpty() && Character.isJavaIdentifierStart(key.charAt(0));
        for (int i = 1; identifier && i < key.length(); i++) {
            identifier = Character.isJavaIdentifierPart(key.charAt(i));
        }
        if (identifier) {
            path.append('.').append(key);
        } else {
            path.append("['").append(key.replace("\\", "\\\\").replace("'", "\\'")).append("']");
        }
    }

    /**
     * The path at byte {@code offset} of malformed input: the bytes before it are a valid prefix
     * of JSON text, scanned here for the containers still open, their keys and indices.
     */
    static String ofOffset(Reader in, long offset) {
        final class Level {
            final boolean object;
            String key;
            int index = -1;

            Level(boolean object) {
                this.object = object;
            }
        }
        List<Level> stack = new ArrayList<>();
        long i = 0;
        boolean expectKey = false;
        while (i < offset) {
            int c = in.at(i);
            if (c < 0) {
                break;
            }
            switch (c) {
                case '{' -> {
                    stack.add(new Level(true));
                    expectKey = true;
                    i++;
                }
                case '[' -> {
                    Level l = new Level(false);
                    l.index = 0;
                    stack.add(l);
                    i++;
                }
                case '}', ']' -> {
                    if (!stack.isEmpty()) {
                        stack.remove(stack.size() - 1);
                    }
                    i++;
                }
                case ',' -> {
                    if (!stack.isEmpty()) {
                        Level top = stack.get(stack.size() - 1);
                        if (top.object) {
                            expectKey = true;
                            top.key = null;
                        } else {
                            top.index++;
                        }
                    }
                    i++;
                }
                case '"' -> {
                    StringBuilder s = new StringBuilder();
                    long j = i + 1;
                    while (j < offset) {
                        int d = in.at(j);
                        if (d < 0 || d == '"') {
                            break;
                        }
                        if (d == '\\') {
                            j++;
                        }
                        s.append((char) d);
                        j++;
                    }
                    if (expectKey && !stack.isEmpty()) {
                        stack.get(stack.size() - 1).key = s.toString();
                        expectKey = false;
                    }
                    i = j + 1;
                }
                default -> i++;
            }
        }
        StringBuilder path = new StringBuilder("$");
        for (Level l : stack) {
            if (l.object) {
                if (l.key != null) {
                    appendKey(path, l.key);
                }
            } else {
                path.append('[').append(l.index).append(']');
            }
        }
        return path.toString();
    }

    /** Bytes of the input by offset; -1 past the end. */
    interface Reader {
        int at(long offset);
    }
}

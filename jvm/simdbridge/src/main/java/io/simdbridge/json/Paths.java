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
    static String ofWord(BindingTape t, int target) {
        List<String> path = new ArrayList<>();
        int w = 0;
        while (w != target) {
            int kind = t.kind(w);
            if (kind == BindingTape.OBJECT) {
                int k = w + 2, end = t.next(w);
                boolean found = false;
                while (k < end) {
                    int v = k + 2, after = t.next(v);
                    if (target >= k && target < after) {
                        path.add(key(t.text(k)));
                        w = target == k ? target : v; // a key's own error: its member's path
                        found = true;
                        break;
                    }
                    k = after;
                }
                if (!found) {
                    break;
                }
            } else if (kind == BindingTape.ARRAY) {
                int e = w + 2, end = t.next(w), index = 0;
                boolean found = false;
                while (e < end) {
                    int after = t.next(e);
                    if (target >= e && target < after) {
                        path.add("[" + index + "]");
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
        return join(path);
    }

    /** The steps of a path a message shows: the first and last ones of a deep path. */
    private static final int SHOWN = 8;

    /**
     * "$" and the steps; past 2 * SHOWN steps, the first and last SHOWN with the count of those
     * between ("$[0][0]…(984 more)…[0][0]"), so that an error deep in a document stays a line.
     */
    static String join(List<String> steps) {
        StringBuilder path = new StringBuilder("$");
        if (steps.size() <= 2 * SHOWN) {
            steps.forEach(path::append);
        } else {
            steps.subList(0, SHOWN).forEach(path::append);
            path.append("\u2026(").append(steps.size() - 2 * SHOWN).append(" more)\u2026");
            steps.subList(steps.size() - SHOWN, steps.size()).forEach(path::append);
        }
        return path.toString();
    }

    static String key(String key) {
        boolean identifier = !key.isEmpty() && Character.isJavaIdentifierStart(key.charAt(0));
        for (int i = 1; identifier && i < key.length(); i++) {
            identifier = Character.isJavaIdentifierPart(key.charAt(i));
        }
        if (identifier) {
            return "." + key;
        }
        return "['" + key.replace("\\", "\\\\").replace("'", "\\'") + "']";
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
        List<String> path = new ArrayList<>();
        for (Level l : stack) {
            if (l.object) {
                if (l.key != null) {
                    path.add(key(l.key));
                }
            } else {
                path.add("[" + l.index + "]");
            }
        }
        return join(path);
    }

    /** Bytes of the input by offset; -1 past the end. */
    interface Reader {
        int at(long offset);
    }
}

// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import io.simdbridge.internal.ParserInternals;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A read's binding plan in native memory (core/include/simdbridge/binding_plan.h), compiled once
 * per root type from its codecs: each planned bean (Codec.planned) as its property names in
 * declared order, each planned list as its element. With it, the native parse checks those
 * keys as it reads them and leaves them off the tape, and the generated readPlanned reads the
 * values one after the other with no key compared in Java. A document whose objects do not
 * hold exactly those keys, in that order, is written as without a plan, and read as always.
 */
final class BindingPlan {
    private static final ParserInternals.Access PARSER = ParserInternals.get();
    private static final Cleaner CLEANER = Cleaner.create();
    private static final int OBJECT = 1, ARRAY = 2, NO_NODE = -1;

    static {
        ParserInternals.registerPlans(type -> {
            BindingPlan p = Codecs.forType(type).plan();
            return p == null ? null : p.segment;
        });
    }

    /** The native plan, freed when this is unreachable (a codec keeps it for as long as it lives). */
    final MemorySegment segment;

    private BindingPlan(MemorySegment segment) {
        this.segment = segment;
        CLEANER.register(this, () -> PARSER.freeBindingPlan(segment));
    }

    /**
     * How well the documents read match the plan: one more for a read that followed it, four
     * fewer for one that did not (within [-128, 256]). A document that does not match costs the
     * native walk up to where it stops matching, then the walk without the plan: where most do
     * not (a producer leaving out null properties, or writing them in another order), the plan is
     * tried on one read in 64 only, until enough of those match again. Updated without
     * synchronization by every thread that reads the type: a lost update only moves the count.
     */
    private int score;
    private int skipped;

    /** Whether this read should follow the plan. */
    boolean worthTrying() {
        return score > -64 || (++skipped & 63) == 0;
    }

    /** What a read that tried the plan found: whether the document matched it. */
    void tried(boolean followed) {
        int s = Math.max(-128, Math.min(256, score + (followed ? 1 : -4)));
        if (s != score) { // written only when it moves: every thread reading the type shares it
            score = s;
        }
    }

    /** The plan of reads whose root is {@code root}, or null where it is not planned. */
    static BindingPlan of(Codec<?> root) {
        byte[] spec = spec(root);
        return spec == null ? null : new BindingPlan(PARSER.newBindingPlan(spec));
    }

    /** Whether a plan can hold this name: one a key writes as it is (no '"', '\\' or control character). */
    static boolean holds(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    /** The serialized form, node 0 the root's; null where the root is not planned. */
    static byte[] spec(Codec<?> root) {
        if (!root.planned()) {
            return null;
        }
        Map<Codec<?>, Integer> index = new IdentityHashMap<>();
        List<Codec<?>> nodes = new ArrayList<>();
        index.put(root, 0);
        nodes.add(root);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        // Nodes are numbered as they are first met and written in that order: a node's children
        // are numbered before it is written, and written after it.
        for (int i = 0; i < nodes.size(); i++) {
            Codec<?> c = nodes.get(i);
            if (c instanceof BeanCodec<?> b) {
                String[] names = b.readNames();
                Codec<?>[] codecs = b.readCodecs();
                int32(body, OBJECT);
                int32(body, names.length);
                for (int p = 0; p < names.length; p++) {
                    byte[] name = names[p].getBytes(StandardCharsets.UTF_8);
                    int32(body, name.length);
                    body.writeBytes(name);
                    int32(body, node(codecs[p], index, nodes));
                }
            } else {
                int32(body, ARRAY);
                int32(body, node(((ContainerCodecs.CollectionCodec<?, ?>) c).element(), index, nodes));
            }
        }
        ByteArrayOutputStream spec = new ByteArrayOutputStream();
        int32(spec, nodes.size());
        spec.writeBytes(body.toByteArray());
        return spec.toByteArray();
    }

    private static int node(Codec<?> c, Map<Codec<?>, Integer> index, List<Codec<?>> nodes) {
        if (c == null || !c.planned()) {
            return NO_NODE;
        }
        Integer i = index.get(c);
        if (i == null) {
            i = nodes.size();
            index.put(c, i);
            nodes.add(c);
        }
        return i;
    }

    private static void int32(ByteArrayOutputStream out, int v) {
        out.write(v);
        out.write(v >>> 8);
        out.write(v >>> 16);
        out.write(v >>> 24);
    }
}

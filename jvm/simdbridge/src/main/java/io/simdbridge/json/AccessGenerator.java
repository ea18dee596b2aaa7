// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import io.simdbridge.internal.BeanAccess;
import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_String;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_byte;
import static java.lang.constant.ConstantDescs.CD_double;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;

import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Generates a bean's {@link BeanAccess} with the ClassFile API: a hidden class, nestmate of the
 * bean, with the constructor call; setters that switch on the property index to a direct field
 * store or a setter call; a reader of the properties in declared order (readInOrder) and a
 * writer of all of them (writeProperties), unrolled, one typed read or write per property.
 * Defined once per class; the JIT inlines it like hand-written code.
 */
final class AccessGenerator {
    private static final ClassDesc CD_ACCESS = ClassDesc.of(BeanAccess.class.getName());
    private static final ClassDesc CD_RUNTIME_EXCEPTION = ClassDesc.of(RuntimeException.class.getName());

    /** The accessor method families: a property's kind decides which one carries it. */
    enum Family {
        INT("setInt", int.class, CD_int), LONG("setLong", long.class, CD_long), DOUBLE("setDouble", double.class, CD_double),
        BOOLEAN("setBoolean", boolean.class, CD_boolean), OBJECT("setObject", Object.class, CD_Object);

        final String setter;
        /** The type the setter takes (ReflectiveAccess's handles are cast to it). */
        final Class<?> type;
        final ClassDesc value;

        Family(String setter, Class<?> type, ClassDesc value) {
            this.setter = setter;
            this.type = type;
            this.value = value;
        }

        static Family of(Class<?> c) {
            if (c == int.class || c == short.class || c == byte.class || c == char.class) {
                return INT;
            }
            if (c == long.class) {
                return LONG;
            }
            if (c == double.class || c == float.class) {
                return DOUBLE;
            }
            if (c == boolean.class) {
                return BOOLEAN;
            }
            return OBJECT;
        }
    }

    private AccessGenerator() {}

    static BeanAccess generate(BeanModel model) {
        Class<?> bean = model.type;
        MethodHandles.Lookup lookup;
        try {
            // simdbridge, a named module on the module path, reads the bean's module before it
            // reaches in (a no-op on the class path).
            AccessGenerator.class.getModule().addReads(bean.getModule());
            lookup = MethodHandles.privateLookupIn(bean, MethodHandles.lookup());
        } catch (IllegalAccessException e) {
            throw unreachable(bean, e);
        }
        if (!lookup.hasFullPrivilegeAccess()) {
            // Another module or class loader: no class can be defined in the bean's nest.
            try {
                return new ReflectiveAccess(model, lookup);
            } catch (IllegalAccessException e) {
                throw unreachable(bean, e);
            }
        }
        ClassDesc beanDesc = desc(bean);
        ClassDesc self = ClassDesc.of(bean.getName() + "$$SimdbridgeAccess");
        byte[] bytes = ClassFile.of().build(self, cb -> {
            cb.withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC);
            cb.withSuperclass(CD_ACCESS);
            cb.withMethodBody(INIT_NAME, MTD_void, ClassFile.ACC_PUBLIC, code -> {
                code.aload(0);
                code.invokespecial(CD_ACCESS, INIT_NAME, MTD_void);
                code.return_();
            });
            if (model.noArgs != null) {
                cb.withMethodBody("create", MethodTypeDesc.of(CD_Object), ClassFile.ACC_PUBLIC, code -> {
                    code.new_(beanDesc);
                    code.dup();
                    code.invokespecial(beanDesc, INIT_NAME, MTD_void);
                    code.areturn();
                });
            }
            if (model.creator != null) {
                Constructor<?> c = model.creator;
                cb.withMethodBody("construct", MethodTypeDesc.of(CD_Object, CD_Object.arrayType()), ClassFile.ACC_PUBLIC, code -> {
                    code.new_(beanDesc);
                    code.dup();
                    Class<?>[] params = c.getParameterTypes();
                    for (int i = 0; i < params.length; i++) {
                        code.aload(1);
                        code.loadConstant(i);
                        code.aaload();
                        unbox(code, params[i]);
                    }
                    code.invokespecial(beanDesc, INIT_NAME, MethodTypeDesc.of(CD_void, descs(params)));
                    code.areturn();
                });
            }
            cb.withMethodBody("writeProperties", MTD_WRITE_PROPERTIES, ClassFile.ACC_PUBLIC,
                    code -> writeProperties(code, beanDesc, model));
            if (readsInOrder(model)) {
                int n = model.read.size();
                for (int from = 0; from == 0 || from < n; from += READ_CHUNK) {
                    int start = from;
                    cb.withMethodBody(chunkMethod(start), MTD_READ_IN_ORDER,
                            start == 0 ? ClassFile.ACC_PUBLIC : ClassFile.ACC_PRIVATE,
                            code -> readInOrder(code, self, beanDesc, model, start));
                }
            }
            if (readsInOrder(model)) { // what the in-order reader reads, a plan covers
                int n = model.read.size();
                for (int from = 0; from == 0 || from < n; from += READ_CHUNK) {
                    int start = from;
                    cb.withMethodBody(plannedChunkMethod(start), MTD_READ_PLANNED,
                            start == 0 ? ClassFile.ACC_PUBLIC : ClassFile.ACC_PRIVATE,
                            code -> readPlanned(code, self, beanDesc, model, start));
                }
            }
            for (Family f : Family.values()) {
                List<Integer> setters = new ArrayList<>();
                for (int p = 0; p < model.read.size(); p++) {
                    BeanModel.Property prop = model.read.get(p);
                    if (prop.access != null && Family.of(prop.raw) == f) {
                        setters.add(p);
                    }
                }
                if (!setters.isEmpty()) {
                    cb.withMethodBody(f.setter, MethodTypeDesc.of(CD_void, CD_Object, CD_int, f.value), ClassFile.ACC_PUBLIC,
                            code -> switchOn(code, setters, p -> store(code, beanDesc, model.read.get(p), f)));
                }
            }
        });
        try {
            MethodHandles.Lookup hidden = lookup.defineHiddenClass(bytes, true, MethodHandles.Lookup.ClassOption.NESTMATE);
            return (BeanAccess) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (IllegalAccessException e) {
            throw unreachable(bean, e);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static IllegalArgumentException unreachable(Class<?> bean, IllegalAccessException e) {
        return new IllegalArgumentException("simdbridge cannot reach the members of " + bean.getName()
                + ": its module must open its package to simdbridge (in module-info.java: opens "
                + bean.getPackageName() + " to io.simdbridge;)", e);
    }

    private static final ClassDesc CD_VALUE = ClassDesc.of(BeanAccess.Value.class.getName());
    private static final MethodTypeDesc MTD_READ_IN_ORDER = MethodTypeDesc.of(CD_long, CD_Object, CD_int, CD_int, CD_Object,
            CD_VALUE.arrayType(), CD_byte.arrayType(2));

    /**
     * Classes of up to 64 properties, each with a name: made by a creator (records), or by a
     * no-argument constructor with a setter or field for each.
     */
    static boolean readsInOrder(BeanModel model) {
        if (model.read.size() > 64 || (model.creator == null && model.noArgs == null)) {
            return false;
        }
        for (BeanModel.Property p : model.read) {
            if (p.name == null || (model.creator == null && p.access == null)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Properties per method of the in-order reader. The JIT inlines about 8000 bytecodes into one
     * compiled method (DesiredMethodLimit). A property's key check, read and store inline to 600
     * to 800 of them (the key check's VarHandle reads alone to about 530), and the String read
     * that a method's String properties share to about 420: eleven properties fit. In one method,
     * a class's later properties were left as calls (past the twelfth for java-json-benchmark's
     * User). Each chunk is its own method, with its own budget, and calls the next.
     */
    static final int READ_CHUNK = 11;

    /** The planned reader's method for the chunk from property {@code from}: readPlanned, then readPlanned1, 2... */
    private static String plannedChunkMethod(int from) {
        return from == 0 ? "readPlanned" : "readPlanned" + from / READ_CHUNK;
    }

    /** The typed read of BeanAccess for a property of this class, or null for one read through its codec. */
    private static String typedRead(Class<?> raw) {
        return raw == int.class ? "readInt" : raw == short.class ? "readShort" : raw == byte.class ? "readByte"
                : raw == char.class ? "readChar" : raw == long.class ? "readLong" : raw == double.class ? "readDouble"
                : raw == float.class ? "readFloat" : raw == boolean.class ? "readBoolean" : raw == String.class ? "readString"
                : null;
    }

    /** The in-order reader's method for the chunk from property {@code from}: readInOrder, then readInOrder1, 2... */
    private static String chunkMethod(int from) {
        return from == 0 ? "readInOrder" : "readInOrder" + from / READ_CHUNK;
    }

    /**
     * BeanAccess.readInOrder(tape 1, k 2, end 3, bean 4, codecs 5, names 6), properties
     * {@code from} to {@code from + READ_CHUNK}: per property, in order, the key compared with its
     * name's length and first 16 bytes as constants (and its tail, past 16 bytes), the value read
     * by the property's own typed read and stored directly (a creator's class: boxed into the
     * arguments array, which {@code bean} is then). The first key that is not the expected one
     * ends it; past the chunk's last property, the next chunk's method goes on and its result is
     * returned. Locals: 7 the value's word, 8 the number of properties read, 9 and 10 the shared
     * String read's way back and result.
     */
    private static void readInOrder(CodeBuilder code, ClassDesc self, ClassDesc beanDesc, BeanModel model, int from) {
        Label done = code.newLabel();
        int to = Math.min(from + READ_CHUNK, model.read.size());
        // The chunk's String properties, where it has more than one, share one read, at the end
        // of the method: each jumps there with its index in local 9, and the read jumps back to it
        // through a table with the String in local 10. Inlined at each property, that read (a
        // String and its array allocated, the bytes copied) made each property's compiled code
        // about 2 KB; on a small document, read once after the native parse, all of it ran cold.
        SharedStringRead strings = new SharedStringRead(code, model, from, to);
        for (int p = from; p < to; p++) {
            BeanModel.Property prop = model.read.get(p);
            byte[] name = BeanCodec.utf8(prop.name);
            code.loadConstant(p);
            code.istore(8);
            code.iload(2);
            code.iload(3);
            code.if_icmpge(done);
            code.aload(1);
            code.iload(2);
            code.loadConstant(name.length);
            code.loadConstant(Keys.firstWord(name));
            code.loadConstant(Keys.secondWord(name));
            code.invokestatic(CD_ACCESS, "keyIs", MethodTypeDesc.of(CD_boolean, CD_Object, CD_int, CD_int, CD_long, CD_long));
            code.ifeq(done);
            if (name.length > 16) {
                code.aload(1);
                code.iload(2);
                code.aload(6);
                code.loadConstant(p);
                code.aaload();
                code.invokestatic(CD_ACCESS, "keyTailIs", MethodTypeDesc.of(CD_boolean, CD_Object, CD_int, CD_byte.arrayType()));
                code.ifeq(done);
            }
            code.iload(2);
            code.iconst_2();
            code.iadd();
            code.istore(7);
            Class<?> raw = prop.raw;
            boolean shared = strings.jump(raw, 9);
            String read = typedRead(raw);
            readAndStore(code, beanDesc, model, p, new Locals(4, 5, 7, shared ? 10 : -1), "readValue");
            if (read != null) { // a typed read takes scalars only (two words), or throws
                code.iload(7);
                code.iconst_2();
                code.iadd();
            } else {
                code.aload(1);
                code.iload(7);
                code.invokestatic(CD_ACCESS, "next", MethodTypeDesc.of(CD_int, CD_Object, CD_int));
            }
            code.istore(2);
        }
        if (to < model.read.size()) {
            code.aload(0);
            for (int local = 1; local <= 6; local++) {
                code.loadLocal(local == 2 || local == 3 ? TypeKind.INT : TypeKind.REFERENCE, local);
            }
            code.invokespecial(self, chunkMethod(to), MTD_READ_IN_ORDER);
            code.lreturn();
        }
        code.loadConstant(to);
        code.istore(8);
        code.labelBinding(done);
        code.iload(8);
        code.i2l();
        code.loadConstant(32);
        code.lshl();
        code.iload(2);
        code.i2l();
        code.loadConstant(0xFFFFFFFFL);
        code.land();
        code.lor();
        code.lreturn();
        strings.read(7, 9, 10);
    }

    /**
     * A reader chunk's shared String read: where the chunk has more than one String property,
     * each jumps to one read at the end of the method with its index in a local, and the read
     * jumps back to it through a table with the String in another local (see readInOrder).
     */
    private static final class SharedStringRead {
        private final CodeBuilder code;
        private final List<Label> back = new ArrayList<>();
        private final Label read;
        private int next;

        SharedStringRead(CodeBuilder code, BeanModel model, int from, int to) {
            this.code = code;
            this.read = code.newLabel();
            for (int p = from; p < to; p++) {
                if (model.read.get(p).raw == String.class) {
                    back.add(code.newLabel());
                }
            }
        }

        /** For a property of this type: the jump to the read and the label back, where the read is shared (then true). */
        boolean jump(Class<?> raw, int indexLocal) {
            if (back.size() < 2 || raw != String.class) {
                return false;
            }
            code.loadConstant(next);
            code.istore(indexLocal);
            code.goto_(read);
            code.labelBinding(back.get(next++));
            return true;
        }

        /** The read itself, after the method's last return: the String at the word in valueLocal into stringLocal. */
        void read(int valueLocal, int indexLocal, int stringLocal) {
            if (back.size() < 2) {
                return;
            }
            code.labelBinding(read);
            code.aload(1);
            code.iload(valueLocal);
            code.invokestatic(CD_ACCESS, "readString", MethodTypeDesc.of(CD_String, CD_Object, CD_int));
            code.astore(stringLocal);
            code.iload(indexLocal);
            List<SwitchCase> cases = new ArrayList<>();
            for (int i = 0; i < back.size(); i++) {
                cases.add(SwitchCase.of(i, back.get(i)));
            }
            code.tableswitch(0, back.size() - 1, back.get(0), cases);
        }
    }

    /** Where a generated reader keeps the bean (or a creator's arguments), the codecs, the value's word, and the shared String (-1: none). */
    private record Locals(int bean, int codecs, int value, int sharedString) {}

    /**
     * Property p's value at the word in {@code at.value} read (by its typed read, the shared
     * String read's result, or its codec's {@code codecRead}) and stored: by its accessor, or
     * boxed into a creator's arguments as BeanCodec.readBoxed does (construct() unboxes it).
     */
    private static void readAndStore(CodeBuilder code, ClassDesc beanDesc, BeanModel model, int p, Locals at, String codecRead) {
        BeanModel.Property prop = model.read.get(p);
        Class<?> raw = prop.raw;
        boolean creator = model.creator != null;
        code.aload(at.bean());
        if (creator) {
            code.checkcast(CD_Object.arrayType());
            code.loadConstant(p);
        } else {
            code.checkcast(beanDesc);
        }
        String read = typedRead(raw);
        if (at.sharedString() >= 0) {
            code.aload(at.sharedString());
        } else if (read != null) {
            code.aload(1);
            code.iload(at.value());
            code.invokestatic(CD_ACCESS, read, MethodTypeDesc.of(desc(raw), CD_Object, CD_int));
        } else {
            code.aload(at.codecs());
            code.loadConstant(p);
            code.aaload();
            code.aload(1);
            code.iload(at.value());
            code.invokevirtual(CD_VALUE, codecRead, MethodTypeDesc.of(CD_Object, CD_Object, CD_int));
            if (!creator) {
                code.checkcast(desc(raw));
            }
        }
        if (creator) {
            if (raw.isPrimitive()) {
                Class<?> box = MethodType.methodType(raw).wrap().returnType();
                code.invokestatic(desc(box), "valueOf", MethodTypeDesc.of(desc(box), desc(raw)));
            }
            code.aastore();
        } else {
            put(code, prop.access);
        }
    }

    private static final MethodTypeDesc MTD_READ_PLANNED = MethodTypeDesc.of(CD_void, CD_Object, CD_int, CD_Object,
            CD_VALUE.arrayType());

    /**
     * BeanAccess.readPlanned(tape 1, w 2, bean 3 (a creator's class: its arguments array, each
     * value boxed), codecs 4), properties {@code from} to
     * {@code from + READ_CHUNK}: the object's values with no keys between them (a binding plan
     * checked the keys natively), so per property, in order, the value at w read by the
     * property's typed read (or its codec's readPlannedValue) and stored, then w moved past it;
     * past the chunk's last property, the next chunk's method goes on from w. The String
     * properties of a chunk share one read, as in readInOrder. Locals: 5 the shared String read's
     * way back, 6 its String.
     */
    private static void readPlanned(CodeBuilder code, ClassDesc self, ClassDesc beanDesc, BeanModel model, int from) {
        int n = model.read.size();
        int to = Math.min(from + READ_CHUNK, n);
        SharedStringRead strings = new SharedStringRead(code, model, from, to);
        for (int p = from; p < to; p++) {
            Class<?> raw = model.read.get(p).raw;
            boolean shared = strings.jump(raw, 5);
            String read = typedRead(raw);
            readAndStore(code, beanDesc, model, p, new Locals(3, 4, 2, shared ? 6 : -1), "readPlannedValue");
            if (p + 1 == n) {
                continue; // the last value's end is not needed
            }
            if (read != null) { // a typed read takes scalars only (two words), or throws
                code.iinc(2, 2);
            } else {
                code.aload(1);
                code.iload(2);
                code.invokestatic(CD_ACCESS, "next", MethodTypeDesc.of(CD_int, CD_Object, CD_int));
                code.istore(2);
            }
        }
        if (to < n) {
            code.aload(0);
            code.aload(1);
            code.iload(2);
            code.aload(3);
            code.aload(4);
            code.invokespecial(self, plannedChunkMethod(to), MTD_READ_PLANNED);
        }
        code.return_();
        strings.read(2, 5, 6);
    }

    private static final MethodTypeDesc MTD_WRITE_PROPERTIES = MethodTypeDesc.of(CD_void, CD_Object, CD_Object,
            CD_VALUE.arrayType(), CD_byte.arrayType(2), CD_byte.arrayType(2));

    /** Whether a key written is known to be the object's first, known not to be, or known only at run time. */
    private enum KeyState { FIRST, NOT_FIRST, MAYBE }

    /**
     * BeanAccess.writeProperties(bean 1, out 2, codecs 3, firstKeys 4, nextKeys 5): per written
     * property, its value loaded from its field or getter and written by its typed write, a null
     * (where it may be one) written or left out as the writer says. Whether a key takes its
     * comma is known at generation from the first property that is always written on; before
     * that, local 6 says whether nothing is written yet. A value is kept on the stack, never in a
     * local, so that no two property types ever meet in the frames (no class hierarchy to resolve).
     */
    private static void writeProperties(CodeBuilder code, ClassDesc beanDesc, BeanModel model) {
        code.iconst_1();
        code.istore(6);
        KeyState state = KeyState.FIRST;
        for (int p = 0; p < model.write.size(); p++) {
            BeanModel.Property prop = model.write.get(p);
            Class<?> raw = prop.raw;
            if (raw.isPrimitive()) {
                key(code, model, p, state);
                code.aload(2);
                loadValue(code, beanDesc, prop);
                String write = raw == long.class ? "writeLong" : raw == double.class ? "writeDouble"
                        : raw == float.class ? "writeFloat" : raw == boolean.class ? "writeBoolean"
                        : raw == char.class ? "writeChar" : "writeInt";
                ClassDesc type = raw == short.class || raw == byte.class ? CD_int : desc(raw); // writeInt takes them
                code.invokestatic(CD_ACCESS, write, MethodTypeDesc.of(CD_void, CD_Object, type));
                state = KeyState.NOT_FIRST;
                continue;
            }
            Label nonNull = code.newLabel();
            Label end = code.newLabel();
            loadValue(code, beanDesc, prop); // [v]
            code.dup();
            code.ifnonnull(nonNull);
            code.pop(); // []
            code.aload(2);
            code.invokestatic(CD_ACCESS, "omitsNulls", MethodTypeDesc.of(CD_boolean, CD_Object));
            code.ifne(end);
            key(code, model, p, state);
            code.aload(2);
            code.invokestatic(CD_ACCESS, "writeNull", MethodTypeDesc.of(CD_void, CD_Object));
            code.goto_(end);
            code.labelBinding(nonNull); // [v]
            key(code, model, p, state);
            if (raw == String.class) {
                code.aload(2);
                code.swap(); // [out, v]
                code.checkcast(desc(String.class));
                code.invokestatic(CD_ACCESS, "writeString", MethodTypeDesc.of(CD_void, CD_Object, desc(String.class)));
            } else {
                code.aload(3);
                code.loadConstant(p);
                code.aaload(); // [v, codec]
                code.swap();
                code.aload(2);
                code.swap(); // [codec, out, v]
                code.invokevirtual(CD_VALUE, "writeValue", MethodTypeDesc.of(CD_void, CD_Object, CD_Object));
            }
            code.labelBinding(end);
            if (state == KeyState.FIRST) {
                state = KeyState.MAYBE;
            }
        }
        code.return_();
    }

    /** Writes property p's key, with its comma where another property came before it. */
    private static void key(CodeBuilder code, BeanModel model, int p, KeyState state) {
        switch (state) {
            case FIRST -> {
                keyFrom(code, model, 4, p);
                code.iconst_0();
                code.istore(6);
            }
            case NOT_FIRST -> keyFrom(code, model, 5, p);
            case MAYBE -> {
                Label next = code.newLabel();
                Label done = code.newLabel();
                code.iload(6);
                code.ifeq(next);
                keyFrom(code, model, 4, p);
                code.iconst_0();
                code.istore(6);
                code.goto_(done);
                code.labelBinding(next);
                keyFrom(code, model, 5, p);
                code.labelBinding(done);
            }
        }
    }

    /**
     * Writes key p from local {@code keys} (4: firstKeys, 5: nextKeys). A key of up to 16 bytes
     * is written from constants in the code, two word stores, where a copy from the array would
     * cost a call to the copy stub for every key.
     */
    private static void keyFrom(CodeBuilder code, BeanModel model, int keys, int p) {
        byte[] key = BeanCodec.key(model.write.get(p).name, keys == 5);
        code.aload(2);
        if (key.length <= 16) {
            byte[] padded = Arrays.copyOf(key, 16);
            code.loadConstant((long) BindingTape.LONGS.get(padded, 0));
            code.loadConstant((long) BindingTape.LONGS.get(padded, 8));
            code.loadConstant(key.length);
            code.invokestatic(CD_ACCESS, "writeKey", MethodTypeDesc.of(CD_void, CD_Object, CD_long, CD_long, CD_int));
            return;
        }
        code.aload(keys);
        code.loadConstant(p);
        code.aaload();
        code.invokestatic(CD_ACCESS, "writeKey", MethodTypeDesc.of(CD_void, CD_Object, CD_byte.arrayType()));
    }

    /** Pushes the property's value, from the bean in local 1, as its field or getter gives it. */
    private static void loadValue(CodeBuilder code, ClassDesc beanDesc, BeanModel.Property prop) {
        code.aload(1);
        code.checkcast(beanDesc);
        BeanModel.Access a = prop.access;
        if (a.field() != null) {
            code.getfield(desc(a.field().getDeclaringClass()), a.field().getName(), desc(a.field().getType()));
        } else {
            invoke(code, a.method());
        }
    }

    /** lookupswitch on the property index (slot 2); each case ends in a return. */
    private static void switchOn(CodeBuilder code, List<Integer> properties, java.util.function.IntConsumer body) {
        Label fallback = code.newLabel();
        List<SwitchCase> cases = new ArrayList<>();
        List<Label> labels = new ArrayList<>();
        for (int p : properties) {
            Label l = code.newLabel();
            labels.add(l);
            cases.add(SwitchCase.of(p, l));
        }
        code.iload(2);
        code.lookupswitch(fallback, cases);
        for (int i = 0; i < properties.size(); i++) {
            code.labelBinding(labels.get(i));
            body.accept(properties.get(i));
        }
        code.labelBinding(fallback);
        code.iload(2);
        code.invokestatic(CD_ACCESS, "noProperty", MethodTypeDesc.of(CD_RUNTIME_EXCEPTION, CD_int));
        code.athrow();
    }

    /** setX(Object bean, int p, value): value in slot 3. */
    private static void store(CodeBuilder code, ClassDesc beanDesc, BeanModel.Property prop, Family f) {
        Class<?> raw = prop.raw;
        code.aload(1);
        code.checkcast(beanDesc);
        switch (f) {
            case INT -> {
                code.iload(3);
                if (raw == short.class) {
                    code.i2s();
                } else if (raw == byte.class) {
                    code.i2b();
                } else if (raw == char.class) {
                    code.i2c();
                }
            }
            case LONG -> code.lload(3);
            case DOUBLE -> {
                code.dload(3);
                if (raw == float.class) {
                    code.d2f();
                }
            }
            case BOOLEAN -> code.iload(3);
            case OBJECT -> {
                code.aload(3);
                code.checkcast(desc(raw));
            }
        }
        put(code, prop.access);
        code.return_();
    }

    /** Stores the value on the stack (above the bean) in the property's field, or calls its setter. */
    private static void put(CodeBuilder code, BeanModel.Access a) {
        if (a.field() != null) {
            code.putfield(desc(a.field().getDeclaringClass()), a.field().getName(), desc(a.field().getType()));
        } else {
            invoke(code, a.method());
            if (a.method().getReturnType() != void.class) {
                pop(code, a.method().getReturnType());
            }
        }
    }

    private static void invoke(CodeBuilder code, Method m) {
        ClassDesc owner = desc(m.getDeclaringClass());
        MethodTypeDesc type = MethodTypeDesc.of(desc(m.getReturnType()), descs(m.getParameterTypes()));
        if (m.getDeclaringClass().isInterface()) {
            code.invokeinterface(owner, m.getName(), type);
        } else {
            code.invokevirtual(owner, m.getName(), type);
        }
    }

    private static void pop(CodeBuilder code, Class<?> type) {
        if (type == long.class || type == double.class) {
            code.pop2();
        } else {
            code.pop();
        }
    }

    /** An Object[] element to a parameter's type: unboxed for a primitive (never null: defaults are filled in). */
    private static void unbox(CodeBuilder code, Class<?> type) {
        if (!type.isPrimitive()) {
            code.checkcast(desc(type));
            return;
        }
        Class<?> box = java.lang.invoke.MethodType.methodType(type).wrap().returnType();
        code.checkcast(desc(box));
        code.invokevirtual(desc(box), type.getName() + "Value", MethodTypeDesc.of(desc(type)));
    }

    static ClassDesc desc(Class<?> c) {
        return ClassDesc.ofDescriptor(c.descriptorString());
    }

    private static ClassDesc[] descs(Class<?>[] classes) {
        ClassDesc[] out = new ClassDesc[classes.length];
        for (int i = 0; i < classes.length; i++) {
            out[i] = desc(classes[i]);
        }
        return out;
    }
}

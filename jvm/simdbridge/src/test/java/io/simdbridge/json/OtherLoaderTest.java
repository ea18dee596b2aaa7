// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Classes bound from another class loader's unnamed module, as in jshell or a single-file launch
 * ({@code java Main.java}): simdbridge cannot define a class in their nest there, and reaches
 * their members through method handles instead (ReflectiveAccess). The values read and written
 * must be those of the generated code, byte for byte.
 */
class OtherLoaderTest {
    /** Defines the named classes itself (child first); everything else comes from its parent. */
    private static final class ChildFirst extends ClassLoader {
        private final String prefix;

        ChildFirst(String prefix) {
            super(OtherLoaderTest.class.getClassLoader());
            this.prefix = prefix;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                if (!name.startsWith(prefix)) {
                    return super.loadClass(name, resolve);
                }
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        byte[] bytes = in.readAllBytes();
                        c = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException | NullPointerException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                return c;
            }
        }
    }

    @Test
    void beansAsTheGeneratedCodeDoes() throws Exception {
        Class<?> other = new ChildFirst(LoaderBean.class.getName()).loadClass(LoaderBean.class.getName());
        assertNotSame(LoaderBean.class, other);
        Random r = new Random(20261202);
        for (int i = 0; i < 200; i++) {
            String json = Json.writeString(LoaderBean.random(r, 2)); // generated code
            Object read = Json.read(json, other);                     // method handles
            assertEquals(other, read.getClass());
            assertEquals(json, Json.writeString(read));
            assertEquals(json, Json.writeString(Json.read(json, LoaderBean.class)));
        }
    }

    @Test
    void recordsToo() throws Exception {
        Class<?> other = new ChildFirst(LoaderPoint.class.getName()).loadClass(LoaderPoint.class.getName());
        String json = "{\"x\":-3,\"y\":2.5,\"label\":\"\u00e9\\n\",\"ids\":[1,9007199254740993]}";
        Object read = Json.read(json, other);
        assertEquals(other, read.getClass());
        assertEquals(json, Json.writeString(read));
    }
}

// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

/**
 * Runs one library on the 1000 KB Users payload in the bean model (reads, and writes where it writes) in a JVM
 * started with a given -Xmx: exit 0 if every round succeeded, 3 on OutOfMemoryError. The bench
 * runner looks for the smallest heap that passes.
 *
 * <pre>java -Xmx32m -cp benchmarks.jar io.simdbridge.bench.databind.HeapProbe simdbridge 20</pre>
 */
public final class HeapProbe {
    private HeapProbe() {}

    public static void main(String[] args) throws Exception {
        String library = args[0];
        int rounds = Integer.parseInt(args[1]);
        try {
            Users users = UsersGenerator.generate(1000, DatabindGate.SEED);
            byte[] json = Libraries.JACKSON.writeValueAsBytes(users);
            Libraries.Reader reader = Libraries.readers(Libraries.Model.BEANS).get(library);
            Libraries.Writer writer = Libraries.writers(Libraries.Model.BEANS).get(library);
            for (int i = 0; i < rounds; i++) {
                UsersBean back = (UsersBean) reader.read(json);
                if (back.getUsers().size() != users.users.size()) {
                    System.exit(4);
                }
                if (writer != null && writer.write(back).length < json.length / 2) {
                    System.exit(4);
                }
            }
        } catch (OutOfMemoryError e) {
            System.exit(3);
        }
        System.exit(0);
    }
}

// SPDX-License-Identifier: Apache-2.0
package probe;


import io.simdbridge.NativeParser;
import io.simdbridge.json.Json;
import io.simdbridge.json.JsonBindException;
import java.nio.charset.StandardCharsets;
import probe.model.User;

/** Reads a document into a bean and writes it back; checksums; reports an error's offset. */
public final class Main {
    static final String DOC = "{\"id\":\"u1\",\"age\":41,\"isActive\":true,\"balance\":12.5,"
            + "\"friends\":[{\"id\":7,\"name\":\"Zo\\u00eb\"},{\"id\":-1,\"name\":\"\"}]}";

    public static void main(String[] args) {
        User u = Json.read(DOC.getBytes(StandardCharsets.UTF_8), User.class);
        String written = new String(Json.write(u), StandardCharsets.UTF_8);
        String expected = DOC.replace("\\u00eb", "\u00eb");
        long checksum = NativeParser.forCurrentThread().checksum(DOC.getBytes(StandardCharsets.UTF_8));
        long offset = -1;
        try {
            Json.read("{\"id\":\"u1\",\"age\":}", User.class);
        } catch (JsonBindException e) {
            offset = e.offset();
        }
        boolean ok = written.equals(expected) && u.getFriends().get(0).name().equals("Zo\u00eb") && offset == 17;
        System.out.println((ok ? "ok " : "WRONG ") + written + " " + Long.toHexString(checksum) + " error at " + offset
                + " in " + (Main.class.getModule().isNamed() ? "module " + Main.class.getModule().getName() : "the class path"));
        if (!ok) {
            System.exit(1);
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
// A single-file program (java -cp simdbridge.jar Probe.java): its classes live in the source
// launcher's own class loader, which the data binding must reach too.
import io.simdbridge.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;

public class Probe {
    public record Friend(long id, String name) {}

    public static class User {
        private String id;
        private int age;
        private List<Friend> friends;

        public String getId() { return id; }
        public void setId(String id) { this.id = id; }
        public int getAge() { return age; }
        public void setAge(int age) { this.age = age; }
        public List<Friend> getFriends() { return friends; }
        public void setFriends(List<Friend> friends) { this.friends = friends; }
    }

    public static void main(String[] args) {
        String doc = "{\"id\":\"u1\",\"age\":41,\"friends\":[{\"id\":7,\"name\":\"Zoë\"}]}";
        User u = Json.read(doc.getBytes(StandardCharsets.UTF_8), User.class);
        String written = new String(Json.write(u), StandardCharsets.UTF_8);
        System.out.println((written.equals(doc) ? "ok " : "WRONG ") + written + " single-file");
        if (!written.equals(doc)) {
            System.exit(1);
        }
    }
}

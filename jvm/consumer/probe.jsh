// jshell --class-path simdbridge.jar: the same read and write, typed at the prompt.
import io.simdbridge.json.Json;
record Friend(long id, String name) {}
String doc = "{\"id\":7,\"name\":\"Zoë\"}";
Friend f = Json.read(doc.getBytes(java.nio.charset.StandardCharsets.UTF_8), Friend.class);
String written = new String(Json.write(f), java.nio.charset.StandardCharsets.UTF_8);
System.out.println((written.equals(doc) && f.name().equals("Zoë") ? "ok " : "WRONG ") + written + " jshell");
/exit

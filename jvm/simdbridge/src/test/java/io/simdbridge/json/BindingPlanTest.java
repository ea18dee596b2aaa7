// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.simdbridge.NativeParser;
import io.simdbridge.internal.ParserInternals;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Reads through a binding plan (BindingPlan): a document whose objects hold their class's
 * properties in declared order is read with its keys checked natively and left off the tape;
 * any other is read as before. Either way the objects, and the errors, must be the ones the
 * read without a plan gives.
 */
class BindingPlanTest {
    public static class Friend {
        private int id;
        private String name;

        public int getId() {
            return id;
        }

        public void setId(int id) {
            this.id = id;
        }

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Friend f && id == f.id && Objects.equals(name, f.name);
        }

        @Override
        public int hashCode() {
            return id;
        }
    }

    public enum Shade { LIGHT, DARK }

    public static class User {
        private String name;
        private int age;
        private boolean isActive;
        public double score;
        public long big;
        public List<String> tags;
        public List<Friend> friends;
        public Friend best;
        public Map<String, Friend> byName; // not planned: its objects keep their keys
        public Shade shade;
        public String aPropertyNameLongerThanSixteen;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public int getAge() {
            return age;
        }

        public void setAge(int age) {
            this.age = age;
        }

        public boolean getIsActive() {
            return isActive;
        }

        public void setIsActive(boolean isActive) {
            this.isActive = isActive;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof User u && Objects.equals(name, u.name) && age == u.age && isActive == u.isActive
                    && Double.compare(score, u.score) == 0 && big == u.big && Objects.equals(tags, u.tags)
                    && Objects.equals(friends, u.friends) && Objects.equals(best, u.best) && Objects.equals(byName, u.byName)
                    && shade == u.shade && Objects.equals(aPropertyNameLongerThanSixteen, u.aPropertyNameLongerThanSixteen);
        }

        @Override
        public int hashCode() {
            return age;
        }
    }

    public static class Users {
        public List<User> users;

        @Override
        public boolean equals(Object o) {
            return o instanceof Users u && Objects.equals(users, u.users);
        }

        @Override
        public int hashCode() {
            return 1;
        }

        @Override
        public String toString() {
            return Json.writeString(this);
        }
    }

    public static class Node {
        public int v;
        public List<Node> children;
    }

    public static class Quoted {
        @JsonProperty("a\"b")
        public int x;
    }

    record Rec(int a, String b) {}

    private static Users random(Random r) {
        Users all = new Users();
        all.users = new ArrayList<>();
        for (int u = r.nextInt(4); u >= 0; u--) {
            User user = new User();
            user.setName(r.nextInt(5) == 0 ? null : "n\u00e9" + r.nextInt(100) + (r.nextBoolean() ? "\"q\\\n" : ""));
            user.setAge(r.nextInt());
            user.setIsActive(r.nextBoolean());
            user.score = r.nextDouble();
            user.big = r.nextLong();
            user.tags = r.nextInt(5) == 0 ? null : new ArrayList<>();
            for (int t = r.nextInt(3); user.tags != null && t > 0; t--) {
                user.tags.add("t" + t);
            }
            user.friends = r.nextInt(6) == 0 ? null : new ArrayList<>();
            for (int f = r.nextInt(4); user.friends != null && f > 0; f--) {
                user.friends.add(friend(r));
            }
            user.best = r.nextBoolean() ? friend(r) : null;
            if (r.nextBoolean()) {
                user.byName = new LinkedHashMap<>();
                user.byName.put("k" + r.nextInt(9), friend(r));
            }
            user.shade = r.nextBoolean() ? Shade.DARK : null;
            user.aPropertyNameLongerThanSixteen = "long" + r.nextInt(10);
            all.users.add(user);
        }
        return all;
    }

    private static Friend friend(Random r) {
        Friend f = new Friend();
        f.setId(r.nextInt(1000));
        f.setName(r.nextBoolean() ? "f" + r.nextInt(100) : null);
        return f;
    }

    /** What the native read makes of json with the plan of type: 1 where it follows the plan, 0 where not. */
    private static int followed(String json, Type type) {
        BindingPlan plan = Codecs.forType(type).plan();
        assertNotNull(plan, type.getTypeName());
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        try (NativeParser p = new NativeParser()) {
            return ParserInternals.get().bindingTapePlanned(p, plan.segment, bytes, 0, bytes.length, new long[4 * bytes.length + 64],
                    new byte[bytes.length + 64], true);
        }
    }

    private static java.nio.ByteBuffer direct(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return java.nio.ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    /** The byte offset of the character at index: errors name bytes. */
    private static long utf8Offset(String s, int index) {
        return s.substring(0, index).getBytes(StandardCharsets.UTF_8).length;
    }

    /** The same JSON with every object's members in reverse order. */
    @SuppressWarnings("unchecked")
    private static Object reversed(Object v) {
        if (v instanceof Map<?, ?> m) {
            List<Map.Entry<String, Object>> entries = new ArrayList<>(((Map<String, Object>) m).entrySet());
            Collections.reverse(entries);
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : entries) {
                out.put(e.getKey(), reversed(e.getValue()));
            }
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            for (Object o : l) {
                out.add(reversed(o));
            }
            return out;
        }
        return v;
    }

    @Test
    void eitherOrderReadsTheSameObjects() {
        Random r = new Random(20261205);
        JsonMapper strict = JsonMapper.builder().unknownProperties(JsonMapper.Policy.FAIL)
                .duplicateKeys(JsonMapper.Policy.FAIL).build();
        int followedCount = 0;
        for (int i = 0; i < 300; i++) {
            Users users = random(r);
            String inOrder = Json.writeString(users); // declared order: the plan's
            int f = followed(inOrder, Users.class);
            followedCount += f;
            assertEquals(users, Json.read(inOrder, Users.class), inOrder);
            assertEquals(users, strict.read(inOrder, Users.class), inOrder);
            assertEquals(users, Json.mapper().read(direct(inOrder), Users.class), inOrder); // native memory, by address
            String other = Json.writeString(reversed(Json.read(inOrder, Object.class)));
            assertEquals(0, followed(other, Users.class), other); // every user has more than one property
            assertEquals(users, Json.read(other, Users.class), other);
            assertEquals(users, strict.read(other, Users.class), other);
        }
        assertEquals(300, followedCount, "every document in declared order follows the plan");
    }

    @Test
    void errorsNameThePathAsWithoutAPlan() {
        Users users = random(new Random(7));
        users.users = new ArrayList<>(List.of(random(new Random(8)).users.get(0), random(new Random(9)).users.get(0)));
        users.users.get(0).setAge(11);
        users.users.get(1).setAge(22);
        Friend f = new Friend();
        f.setId(333);
        users.users.get(1).friends = new ArrayList<>(List.of(f, friend(new Random(3))));
        String json = Json.writeString(users);
        assertEquals(1, followed(json, Users.class));

        String wrongAge = json.replace("\"age\":22", "\"age\":\"x\"");
        assertEquals(1, followed(wrongAge, Users.class)); // the plan is followed: the binding finds the mismatch
        JsonBindException e = assertThrows(JsonBindException.class, () -> Json.read(wrongAge, Users.class));
        assertEquals("$.users[1].age", e.path());
        assertEquals(e.getMessage(), assertThrows(JsonBindException.class,
                () -> Json.mapper().read(direct(wrongAge), Users.class)).getMessage());
        assertEquals(utf8Offset(wrongAge, wrongAge.indexOf("\"x\"")), e.offset());
        assertEquals("expected an int, found a string", e.reason());

        String wrongId = json.replace("\"id\":333", "\"id\":true");
        e = assertThrows(JsonBindException.class, () -> Json.read(wrongId, Users.class));
        assertEquals("$.users[1].friends[0].id", e.path());
        assertEquals(utf8Offset(wrongId, wrongId.indexOf("\"id\":true") + 5), e.offset());
        assertEquals("$.users: expected an array, found an object (byte 9)",
                assertThrows(JsonBindException.class, () -> Json.read("{\"users\":{}}", Users.class)).getMessage());
        assertEquals("$.users[0]: expected an object (User), found an integer (byte 10)",
                assertThrows(JsonBindException.class, () -> Json.read("{\"users\":[1]}", Users.class)).getMessage());
    }

    @Test
    void unknownAndDuplicateKeysAsWithoutAPlan() {
        String one = "{\"users\":[{\"name\":\"a\",\"age\":1,\"isActive\":true,\"score\":0.5,\"big\":2,\"tags\":[],\"friends\":[],"
                + "\"best\":null,\"byName\":null,\"shade\":null,\"aPropertyNameLongerThanSixteen\":\"x\"}]}";
        assertEquals(1, followed(one, Users.class));
        String extra = one.replace("\"x\"}]}", "\"x\",\"extra\":[1]}]}");
        String twice = one.replace("\"age\":1,", "\"age\":1,\"age\":2,");
        assertEquals(0, followed(extra, Users.class));
        assertEquals(0, followed(twice, Users.class));
        assertEquals(Json.read(one, Users.class), Json.read(extra, Users.class));
        assertEquals(2, Json.read(twice, Users.class).users.get(0).getAge());
        JsonMapper strict = JsonMapper.builder().unknownProperties(JsonMapper.Policy.FAIL)
                .duplicateKeys(JsonMapper.Policy.FAIL).build();
        assertEquals("$.users[0].extra: unknown property 'extra' of User (byte " + extra.indexOf("\"extra\"") + ")",
                assertThrows(JsonBindException.class, () -> strict.read(extra, Users.class)).getMessage());
        assertEquals("$.users[0].age: duplicate key 'age' (byte " + twice.indexOf("\"age\":2") + ")",
                assertThrows(JsonBindException.class, () -> strict.read(twice, Users.class)).getMessage());
        // A null for a primitive, under each policy, with the plan followed.
        String nullAge = one.replace("\"age\":1", "\"age\":null");
        assertEquals(1, followed(nullAge, Users.class));
        assertEquals(0, Json.read(nullAge, Users.class).users.get(0).getAge());
        JsonMapper noNulls = JsonMapper.builder().nullForPrimitives(JsonMapper.Policy.FAIL).build();
        assertEquals("$.users[0].age", assertThrows(JsonBindException.class, () -> noNulls.read(nullAge, Users.class)).path());
    }

    @Test
    void whatAPlanCannotHoldIsReadWithoutOne() {
        assertNotNull(BindingPlan.spec(Codecs.forType(Rec.class)), "records are read in order too");
        assertEquals(1, followed("{\"a\":1,\"b\":\"x\"}", Rec.class));
        assertEquals(new Rec(1, "x"), Json.read("{\"a\":1,\"b\":\"x\"}", Rec.class));
        assertEquals(new Rec(1, "x"), Json.read("{\"b\":\"x\",\"a\":1}", Rec.class));
        assertEquals("$.a: expected an int, found a string (byte 5)",
                assertThrows(JsonBindException.class, () -> Json.read("{\"a\":\"1\",\"b\":\"x\"}", Rec.class)).getMessage());
        assertEquals(new Rec(0, null), Json.read("{\"a\":null,\"b\":null}", Rec.class));
        assertNull(BindingPlan.spec(Codecs.forType(Quoted.class)), "a name with a quote is escaped in JSON");
        assertEquals(5, Json.read("{\"a\\\"b\":5}", Quoted.class).x);
        assertNotNull(BindingPlan.spec(Codecs.forType(new TypeRef<List<User>>() {}.type())));
        assertEquals(1, followed("[{\"name\":null,\"age\":3,\"isActive\":false,\"score\":1,\"big\":1,\"tags\":null,\"friends\":null,"
                + "\"best\":{\"id\":1,\"name\":\"b\"},\"byName\":{\"z\":{\"name\":\"n\",\"id\":2}},\"shade\":\"DARK\","
                + "\"aPropertyNameLongerThanSixteen\":null}]", new TypeRef<List<User>>() {}.type()));
        // The map's Friend keeps its keys in any order: the plan says nothing of a map's values.
        List<User> read = Json.read("[{\"name\":null,\"age\":3,\"isActive\":false,\"score\":1,\"big\":1,\"tags\":null,\"friends\":null,"
                + "\"best\":{\"id\":1,\"name\":\"b\"},\"byName\":{\"z\":{\"name\":\"n\",\"id\":2}},\"shade\":\"DARK\","
                + "\"aPropertyNameLongerThanSixteen\":null}]", new TypeRef<List<User>>() {});
        assertEquals(2, read.get(0).byName.get("z").getId());
        assertEquals(Shade.DARK, read.get(0).shade);
    }

    @Test
    void aCycleIsPlannedOnce() {
        byte[] spec = BindingPlan.spec(Codecs.forType(Node.class));
        assertNotNull(spec);
        assertEquals(2, spec[0]); // the node and its list
        Node root = new Node();
        Node at = root;
        for (int i = 0; i < 300; i++) {
            Node child = new Node();
            child.v = i;
            at.children = new ArrayList<>(List.of(new Node(), child));
            at = child;
        }
        String json = Json.writeString(root);
        assertEquals(1, followed(json, Node.class));
        assertEquals(json, Json.writeString(Json.read(json, Node.class)));
    }

    @Test
    void documentsThatRarelyMatchStopBeingTriedAndComeBack() {
        BindingPlan plan = Codecs.forType(Friend.class).plan();
        for (int i = 0; i < 200; i++) {
            assertEquals(i, Json.read("{\"name\":\"x\",\"id\":" + i + "}", Friend.class).getId());
        }
        int tried = 0;
        for (int i = 0; i < 640; i++) {
            tried += plan.worthTrying() ? 1 : 0;
        }
        assertTrue(tried <= 20, "tried " + tried + " of 640");
        for (int i = 0; i < 20_000; i++) {
            assertEquals(i, Json.read("{\"id\":" + i + ",\"name\":\"x\"}", Friend.class).getId());
        }
        assertTrue(plan.worthTrying());
    }
}

// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** @JsonAlias: a property read by other names too, written by its own. */
class AliasTest {
    public record User(@JsonAlias({"user_name", "login"}) String name, @JsonProperty("_id") @JsonAlias("id") long id,
                       List<String> tags) {}

    public static class Bean {
        private String name;
        public int count;

        public String getName() {
            return name;
        }

        @JsonAlias("label")
        public void setName(String name) {
            this.name = name;
        }
    }

    public record Clash(@JsonAlias("b") int a, int b) {}

    @Test
    void recordsReadEveryNameAndWriteTheirOwn() {
        for (String doc : new String[] {"{\"name\":\"x\",\"_id\":7,\"tags\":[]}", "{\"user_name\":\"x\",\"id\":7,\"tags\":[]}",
                "{\"tags\":[],\"login\":\"x\",\"_id\":7}"}) {
            User u = Json.read(doc, User.class);
            assertEquals(new User("x", 7, List.of()), u, doc);
            assertEquals("{\"name\":\"x\",\"_id\":7,\"tags\":[]}", Json.writeString(u));
        }
    }

    @Test
    void beansThroughTheirSetters() {
        Bean b = Json.read("{\"label\":\"y\",\"count\":2}", Bean.class);
        assertEquals("y", b.getName());
        assertEquals(2, b.count);
        assertEquals("{\"name\":\"y\",\"count\":2}", Json.writeString(b));
    }

    @Test
    void twoNamesOfOnePropertyAreDuplicates() {
        assertEquals("second", Json.read("{\"name\":\"first\",\"login\":\"second\",\"_id\":1}", User.class).name());
        JsonMapper strict = JsonMapper.builder().duplicateKeys(JsonMapper.Policy.FAIL).build();
        JsonBindException e = assertThrows(JsonBindException.class,
                () -> strict.read("{\"name\":\"first\",\"login\":\"second\"}", User.class));
        assertTrue(e.getMessage().contains("duplicate key"), e.getMessage());
    }

    @Test
    void anAliasThatIsAnotherPropertysNameIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.read("{}", Clash.class));
        assertTrue(e.getMessage().contains("the alias 'b' of property 'a'"), e.getMessage());
    }
}

// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import com.dslplatform.json.CompiledJson;
import io.avaje.jsonb.Json;
import java.util.List;
import java.util.Objects;

/**
 * The Users model of java-json-benchmark, written here: public fields, a no-argument
 * constructor, and the annotations dsl-json's and avaje-jsonb's code generators look for, so that
 * every library reads and writes the same class.
 */
@CompiledJson
@Json
public final class Users {
    public List<User> users;

    @Override
    public boolean equals(Object o) {
        return o instanceof Users u && Objects.equals(users, u.users);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(users);
    }

    @CompiledJson
    @Json
    public static final class User {
        public String _id;
        public int index;
        public String guid;
        public boolean isActive;
        public String balance;
        public String picture;
        public int age;
        public String eyeColor;
        public String name;
        public String gender;
        public String company;
        public String email;
        public String phone;
        public String address;
        public String about;
        public String registered;
        public double latitude;
        public double longitude;
        public List<String> tags;
        public List<Friend> friends;
        public String greeting;
        public String favoriteFruit;

        @Override
        public boolean equals(Object o) {
            return o instanceof User u && index == u.index && isActive == u.isActive && age == u.age
                    && Double.compare(latitude, u.latitude) == 0 && Double.compare(longitude, u.longitude) == 0
                    && Objects.equals(_id, u._id) && Objects.equals(guid, u.guid) && Objects.equals(balance, u.balance)
                    && Objects.equals(picture, u.picture) && Objects.equals(eyeColor, u.eyeColor)
                    && Objects.equals(name, u.name) && Objects.equals(gender, u.gender) && Objects.equals(company, u.company)
                    && Objects.equals(email, u.email) && Objects.equals(phone, u.phone) && Objects.equals(address, u.address)
                    && Objects.equals(about, u.about) && Objects.equals(registered, u.registered)
                    && Objects.equals(tags, u.tags) && Objects.equals(friends, u.friends)
                    && Objects.equals(greeting, u.greeting) && Objects.equals(favoriteFruit, u.favoriteFruit);
        }

        @Override
        public int hashCode() {
            return Objects.hash(_id, index, name);
        }
    }

    @CompiledJson
    @Json
    public static final class Friend {
        public String id;
        public String name;

        @Override
        public boolean equals(Object o) {
            return o instanceof Friend f && Objects.equals(id, f.id) && Objects.equals(name, f.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(id, name);
        }
    }
}

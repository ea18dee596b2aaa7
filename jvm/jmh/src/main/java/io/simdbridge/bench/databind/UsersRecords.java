// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import java.util.List;

/**
 * The same model as records: simdjson-java's schema-based reader takes records (or classes with
 * annotated constructors), not public fields.
 */
public final class UsersRecords {
    private UsersRecords() {}

    public record UsersR(List<UserR> users) {}

    public record FriendR(String id, String name) {}

    public record UserR(String _id, int index, String guid, boolean isActive, String balance, String picture, int age,
                        String eyeColor, String name, String gender, String company, String email, String phone,
                        String address, String about, String registered, double latitude, double longitude,
                        List<String> tags, List<FriendR> friends, String greeting, String favoriteFruit) {}

    /** The records as the POJO model, to compare with the other libraries' results. */
    public static Users toUsers(UsersR r) {
        Users out = new Users();
        out.users = new java.util.ArrayList<>();
        for (UserR u : r.users()) {
            Users.User p = new Users.User();
            p._id = u._id();
            p.index = u.index();
            p.guid = u.guid();
            p.isActive = u.isActive();
            p.balance = u.balance();
            p.picture = u.picture();
            p.age = u.age();
            p.eyeColor = u.eyeColor();
            p.name = u.name();
            p.gender = u.gender();
            p.company = u.company();
            p.email = u.email();
            p.phone = u.phone();
            p.address = u.address();
            p.about = u.about();
            p.registered = u.registered();
            p.latitude = u.latitude();
            p.longitude = u.longitude();
            p.tags = u.tags();
            p.friends = new java.util.ArrayList<>();
            for (FriendR f : u.friends()) {
                Users.Friend q = new Users.Friend();
                q.id = f.id();
                q.name = f.name();
                p.friends.add(q);
            }
            p.greeting = u.greeting();
            p.favoriteFruit = u.favoriteFruit();
            out.users.add(p);
        }
        return out;
    }
}

// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Users payloads of a target size, from a fixed seed: the same bytes on every run. The values
 * look like the generated people of java-json-benchmark's Users (ids, GUIDs, e-mail addresses,
 * coordinates, a paragraph of lorem ipsum, a few tags and friends); the text is made here.
 */
public final class UsersGenerator {
    private static final String[] WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
            + "incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris "
            + "nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla "
            + "pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est").split(" ");
    private static final String[] FIRST = {"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "John", "Margaret",
            "Ken", "Niklaus", "Radia", "Tony", "Sophie", "Dennis", "Hedy", "Claude", "Katherine", "Linus", "Guido"};
    private static final String[] LAST = {"Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Backus",
            "Hamilton", "Thompson", "Wirth", "Perlman", "Hoare", "Wilson", "Ritchie", "Lamarr", "Shannon", "Johnson"};
    private static final String[] COLORS = {"blue", "brown", "green"};
    private static final String[] FRUITS = {"apple", "banana", "strawberry"};

    private UsersGenerator() {}

    /** Users whose JSON (as Jackson writes it, compact) is about {@code kilobytes} KB. */
    public static Users generate(int kilobytes, long seed) {
        Random r = new Random(seed);
        Users users = new Users();
        users.users = new ArrayList<>();
        long target = kilobytes * 1024L;
        long size = 12; // {"users":[]}
        while (users.users.isEmpty() || size < target * 0.97) {
            Users.User u = user(r, users.users.size(), kilobytes == 1 ? 280 : 560);
            users.users.add(u);
            size += approximateSize(u) + 1;
        }
        return users;
    }

    private static Users.User user(Random r, int index, int aboutLength) {
        Users.User u = new Users.User();
        u._id = hex(r, 24);
        u.index = index;
        u.guid = hex(r, 8) + "-" + hex(r, 4) + "-" + hex(r, 4) + "-" + hex(r, 4) + "-" + hex(r, 12);
        u.isActive = r.nextBoolean();
        u.balance = String.format(Locale.ROOT, "$%,.2f", 1000 + r.nextDouble() * 3000);
        u.picture = "http://placehold.it/32x32";
        u.age = 20 + r.nextInt(50);
        u.eyeColor = COLORS[r.nextInt(COLORS.length)];
        String first = FIRST[r.nextInt(FIRST.length)], last = LAST[r.nextInt(LAST.length)];
        u.name = first + " " + last;
        u.gender = r.nextBoolean() ? "female" : "male";
        u.company = LAST[r.nextInt(LAST.length)].toUpperCase(Locale.ROOT);
        u.email = first.toLowerCase(Locale.ROOT) + last.toLowerCase(Locale.ROOT) + "@" + u.company.toLowerCase(Locale.ROOT) + ".com";
        u.phone = String.format(Locale.ROOT, "+1 (%03d) %03d-%04d", 800 + r.nextInt(200), r.nextInt(1000), r.nextInt(10000));
        u.address = (100 + r.nextInt(900)) + " " + LAST[r.nextInt(LAST.length)] + " Street, " + FIRST[r.nextInt(FIRST.length)]
                + "ville, Oregon, " + (1000 + r.nextInt(9000));
        u.about = sentence(r, aboutLength) + "\r\n";
        u.registered = String.format(Locale.ROOT, "20%02d-%02d-%02dT%02d:%02d:%02d -01:00", r.nextInt(25), 1 + r.nextInt(12),
                1 + r.nextInt(28), r.nextInt(24), r.nextInt(60), r.nextInt(60));
        u.latitude = Math.round((r.nextDouble() * 180 - 90) * 1e6) / 1e6;
        u.longitude = Math.round((r.nextDouble() * 360 - 180) * 1e6) / 1e6;
        u.tags = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            u.tags.add(WORDS[r.nextInt(WORDS.length)]);
        }
        u.friends = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Users.Friend f = new Users.Friend();
            f.id = Integer.toString(i);
            f.name = FIRST[r.nextInt(FIRST.length)] + " " + LAST[r.nextInt(LAST.length)];
            u.friends.add(f);
        }
        u.greeting = "Hello, " + first + " " + last + "! You have " + (1 + r.nextInt(10)) + " unread messages.";
        u.favoriteFruit = FRUITS[r.nextInt(FRUITS.length)];
        return u;
    }

    private static String hex(Random r, int digits) {
        StringBuilder sb = new StringBuilder(digits);
        for (int i = 0; i < digits; i++) {
            sb.append(Character.forDigit(r.nextInt(16), 16));
        }
        return sb.toString();
    }

    private static String sentence(Random r, int length) {
        StringBuilder sb = new StringBuilder(length + 16);
        while (sb.length() < length) {
            String w = WORDS[r.nextInt(WORDS.length)];
            sb.append(sb.isEmpty() ? Character.toUpperCase(w.charAt(0)) + w.substring(1) : w).append(' ');
        }
        sb.setLength(sb.length() - 1);
        return sb.append('.').toString();
    }

    /** The compact JSON size of a user, counted without a library (close enough to size payloads). */
    private static long approximateSize(Users.User u) {
        long n = 260; // keys, quotes, punctuation, numbers
        for (String s : List.of(u._id, u.guid, u.balance, u.picture, u.eyeColor, u.name, u.gender, u.company, u.email,
                u.phone, u.address, u.about, u.registered, u.greeting, u.favoriteFruit)) {
            n += s.length();
        }
        for (String t : u.tags) {
            n += t.length() + 3;
        }
        for (Users.Friend f : u.friends) {
            n += f.id.length() + f.name.length() + 20;
        }
        return n;
    }
}

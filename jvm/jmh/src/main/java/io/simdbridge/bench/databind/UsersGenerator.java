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

    /**
     * Users shaped as java-json-benchmark generates them (its data/gen/UsersGenerator, its
     * RandomUtils over commons-lang's RandomStringUtils), rewritten here from their rules: a
     * payload of {@code kilobytes * 1000} bytes by the generator's own size estimate; per user,
     * random alphanumeric strings of 20 characters (the picture 100, the id 20 digits), an index
     * up to 2^31, an age below 100, full-precision coordinates, up to 49 tags of 10 characters
     * and up to 49 friends (an id below 10000, a name of 30 letters), tags and friends stopping
     * where the payload is full. At 1 KB that is one user with many short strings and small
     * objects, where {@link #generate} makes three users with a long paragraph each.
     */
    public static Users generateJjb(int kilobytes, long seed) {
        Random r = new Random(seed);
        Users users = new Users();
        users.users = new ArrayList<>();
        int size = kilobytes * 1000;
        int approx = 12; // {"users":[]}
        while (approx < size) {
            approx += jjbUser(r, users, size - approx) + 1;
        }
        return users;
    }

    private static int jjbUser(Random r, Users users, int available) {
        Users.User u = new Users.User();
        u._id = random(r, 20, false, true);
        u.index = r.nextInt(Integer.MAX_VALUE);
        u.guid = random(r, 20, true, true);
        u.isActive = r.nextInt(2) == 1;
        u.balance = random(r, 20, true, true);
        u.picture = random(r, 100, true, true);
        u.age = r.nextInt(100);
        u.eyeColor = random(r, 20, true, true);
        u.name = random(r, 20, true, true);
        u.gender = random(r, 20, true, true);
        u.company = random(r, 20, true, true);
        u.email = random(r, 20, true, true);
        u.phone = random(r, 20, true, true);
        u.address = random(r, 20, true, true);
        u.about = random(r, 20, true, true);
        u.registered = random(r, 20, true, true);
        u.latitude = r.nextDouble() * 90;
        u.longitude = r.nextDouble() * 180;
        // The estimate as java-json-benchmark counts it: keys and punctuation, then the values.
        int size = 2 + 9 + u._id.length() + 11 + Integer.toString(u.index).length() + 10 + 20 + 17 + (u.isActive ? 4 : 5)
                + 16 + 20 + 16 + 100 + 9 + Integer.toString(u.age).length() + 17 + 20 + 10 + 20 + 12 + 20 + 13 + 20 + 11
                + 20 + 11 + 20 + 13 + 20 + 11 + 20 + 16 + 20 + 14 + Double.toString(u.latitude).length() + 15
                + Double.toString(u.longitude).length() + 10;
        u.tags = new ArrayList<>();
        int tags = r.nextInt(50);
        for (int i = 0; i < tags && size <= available; i++) {
            u.tags.add(random(r, 10, true, true));
            size += 10;
        }
        u.friends = new ArrayList<>();
        size += 13;
        int friends = r.nextInt(50);
        for (int i = 0; i < friends && size <= available; i++) {
            Users.Friend f = new Users.Friend();
            f.id = Integer.toString(r.nextInt(10000));
            f.name = random(r, 30, true, false);
            u.friends.add(f);
            size += f.id.length() + f.name.length() + 20;
        }
        u.greeting = random(r, 20, true, true);
        u.favoriteFruit = random(r, 20, true, true);
        size += 14 + 20 + 19 + 20;
        users.users.add(u);
        return size;
    }

    private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final String DIGITS = "0123456789";

    /** {@code count} characters drawn uniformly from the letters, the digits or both. */
    private static String random(Random r, int count, boolean letters, boolean digits) {
        String from = (letters ? LETTERS : "") + (digits ? DIGITS : "");
        char[] out = new char[count];
        for (int i = 0; i < count; i++) {
            out[i] = from.charAt(r.nextInt(from.length()));
        }
        return new String(out);
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

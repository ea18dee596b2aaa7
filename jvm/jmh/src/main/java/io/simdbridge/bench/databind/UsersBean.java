// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import com.dslplatform.json.CompiledJson;
import io.avaje.jsonb.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The Users model as java-json-benchmark (and most application code) writes it: private fields,
 * getters and setters ({@code getIsActive}/{@code setIsActive} for the boolean), nested static
 * classes and Lists. The JSON is the same as {@link Users}'s, key for key, so the same payloads
 * serve both models. The binding targets are judged on this model.
 */
@CompiledJson
@Json
public class UsersBean {
    private List<User> users;

    public List<User> getUsers() {
        return users;
    }

    public void setUsers(List<User> users) {
        this.users = users;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UsersBean u && Objects.equals(users, u.users);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(users);
    }

    /** The same users as beans. */
    public static UsersBean of(Users from) {
        UsersBean out = new UsersBean();
        out.users = new ArrayList<>(from.users.size());
        for (Users.User u : from.users) {
            User b = new User();
            b._id = u._id;
            b.index = u.index;
            b.guid = u.guid;
            b.isActive = u.isActive;
            b.balance = u.balance;
            b.picture = u.picture;
            b.age = u.age;
            b.eyeColor = u.eyeColor;
            b.name = u.name;
            b.gender = u.gender;
            b.company = u.company;
            b.email = u.email;
            b.phone = u.phone;
            b.address = u.address;
            b.about = u.about;
            b.registered = u.registered;
            b.latitude = u.latitude;
            b.longitude = u.longitude;
            b.tags = new ArrayList<>(u.tags);
            b.friends = new ArrayList<>(u.friends.size());
            for (Users.Friend f : u.friends) {
                Friend g = new Friend();
                g.id = f.id;
                g.name = f.name;
                b.friends.add(g);
            }
            b.greeting = u.greeting;
            b.favoriteFruit = u.favoriteFruit;
            out.users.add(b);
        }
        return out;
    }

    @CompiledJson
    @Json
    public static final class User {
        private String _id;
        private int index;
        private String guid;
        private boolean isActive;
        private String balance;
        private String picture;
        private int age;
        private String eyeColor;
        private String name;
        private String gender;
        private String company;
        private String email;
        private String phone;
        private String address;
        private String about;
        private String registered;
        private double latitude;
        private double longitude;
        private List<String> tags;
        private List<Friend> friends;
        private String greeting;
        private String favoriteFruit;

        public String get_id() {
            return _id;
        }

        public void set_id(String _id) {
            this._id = _id;
        }

        public int getIndex() {
            return index;
        }

        public void setIndex(int index) {
            this.index = index;
        }

        public String getGuid() {
            return guid;
        }

        public void setGuid(String guid) {
            this.guid = guid;
        }

        public boolean getIsActive() {
            return isActive;
        }

        public void setIsActive(boolean isActive) {
            this.isActive = isActive;
        }

        public String getBalance() {
            return balance;
        }

        public void setBalance(String balance) {
            this.balance = balance;
        }

        public String getPicture() {
            return picture;
        }

        public void setPicture(String picture) {
            this.picture = picture;
        }

        public int getAge() {
            return age;
        }

        public void setAge(int age) {
            this.age = age;
        }

        public String getEyeColor() {
            return eyeColor;
        }

        public void setEyeColor(String eyeColor) {
            this.eyeColor = eyeColor;
        }

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public String getGender() {
            return gender;
        }

        public void setGender(String gender) {
            this.gender = gender;
        }

        public String getCompany() {
            return company;
        }

        public void setCompany(String company) {
            this.company = company;
        }

        public String getEmail() {
            return email;
        }

        public void setEmail(String email) {
            this.email = email;
        }

        public String getPhone() {
            return phone;
        }

        public void setPhone(String phone) {
            this.phone = phone;
        }

        public String getAddress() {
            return address;
        }

        public void setAddress(String address) {
            this.address = address;
        }

        public String getAbout() {
            return about;
        }

        public void setAbout(String about) {
            this.about = about;
        }

        public String getRegistered() {
            return registered;
        }

        public void setRegistered(String registered) {
            this.registered = registered;
        }

        public double getLatitude() {
            return latitude;
        }

        public void setLatitude(double latitude) {
            this.latitude = latitude;
        }

        public double getLongitude() {
            return longitude;
        }

        public void setLongitude(double longitude) {
            this.longitude = longitude;
        }

        public List<String> getTags() {
            return tags;
        }

        public void setTags(List<String> tags) {
            this.tags = tags;
        }

        public List<Friend> getFriends() {
            return friends;
        }

        public void setFriends(List<Friend> friends) {
            this.friends = friends;
        }

        public String getGreeting() {
            return greeting;
        }

        public void setGreeting(String greeting) {
            this.greeting = greeting;
        }

        public String getFavoriteFruit() {
            return favoriteFruit;
        }

        public void setFavoriteFruit(String favoriteFruit) {
            this.favoriteFruit = favoriteFruit;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof User u && Objects.equals(_id, u._id) && index == u.index
                    && Objects.equals(guid, u.guid) && isActive == u.isActive && Objects.equals(balance, u.balance)
                    && Objects.equals(picture, u.picture) && age == u.age && Objects.equals(eyeColor, u.eyeColor)
                    && Objects.equals(name, u.name) && Objects.equals(gender, u.gender)
                    && Objects.equals(company, u.company) && Objects.equals(email, u.email)
                    && Objects.equals(phone, u.phone) && Objects.equals(address, u.address)
                    && Objects.equals(about, u.about) && Objects.equals(registered, u.registered)
                    && Double.compare(latitude, u.latitude) == 0 && Double.compare(longitude, u.longitude) == 0
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
        private String id;
        private String name;

        public String getId() {
            return id;
        }

        public void setId(String id) {
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
            return o instanceof Friend f && Objects.equals(id, f.id) && Objects.equals(name, f.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(id, name);
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.util.List;
import java.util.Random;

/**
 * A bean for OtherLoaderTest, with every kind the accessors store: public fields of each
 * primitive type, private fields behind getters and setters, a list, a nested bean, nulls.
 */
public class LoaderBean {
    public int i;
    public long l;
    public short s;
    public byte b;
    public char c;
    public double d;
    public float f;
    public boolean z;
    public String str;
    public List<Integer> list;
    public LoaderBean child;
    private String name;
    private long count;
    private boolean active;
    private double ratio;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    public boolean isActive() {
        return active;
    }

    public void setActive(boolean active) {
        this.active = active;
    }

    public double getRatio() {
        return ratio;
    }

    public void setRatio(double ratio) {
        this.ratio = ratio;
    }

    static LoaderBean random(Random r, int depth) {
        LoaderBean x = new LoaderBean();
        x.i = r.nextInt();
        x.l = r.nextLong();
        x.s = (short) r.nextInt();
        x.b = (byte) r.nextInt();
        x.c = (char) ('a' + r.nextInt(26));
        x.d = r.nextDouble() * 1e6;
        x.f = r.nextFloat();
        x.z = r.nextBoolean();
        x.str = r.nextBoolean() ? null : "s\u00e9\"" + r.nextInt(100);
        x.list = List.of(r.nextInt(), r.nextInt(10));
        x.child = depth > 0 && r.nextBoolean() ? random(r, depth - 1) : null;
        x.name = r.nextBoolean() ? null : "n" + r.nextInt(1000);
        x.count = r.nextLong();
        x.active = r.nextBoolean();
        x.ratio = r.nextGaussian();
        return x;
    }
}

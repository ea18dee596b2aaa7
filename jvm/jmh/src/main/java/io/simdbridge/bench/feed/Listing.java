// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.feed;

/**
 * A vehicle listing: a dozen fields of the feed. {@code cylinders} and {@code displacement} come
 * from string columns (the feed holds "NA" there): null where the cell is empty or "NA".
 */
public record Listing(
        long id,
        int year,
        String make,
        String model,
        String vehicleClass,
        String fuelType,
        String drive,
        String transmission,
        Integer cylinders,
        Double displacement,
        int city08,
        int highway08,
        int comb08,
        double co2TailpipeGpm) {

    /** The feed's JSON Pointers, in the order of the record's components. */
    public static final String[] POINTERS = {
        "/id", "/year", "/make", "/model", "/VClass", "/fuelType", "/drive", "/trany", "/cylinders", "/displ",
        "/city08", "/highway08", "/comb08", "/co2TailpipeGpm"};

    /** "NA" or empty: no value. */
    public static Integer cylinders(String cell) {
        return cell == null || cell.isEmpty() || cell.equals("NA") ? null : Integer.valueOf(cell);
    }

    public static Double displacement(String cell) {
        return cell == null || cell.isEmpty() || cell.equals("NA") ? null : Double.valueOf(cell);
    }

    /** The validation stage's rules: a plausible year, and no negative consumption or CO2. */
    public boolean valid() {
        return year >= 1984 && year <= 2030
                && city08 >= 0 && highway08 >= 0 && comb08 >= 0
                && co2TailpipeGpm >= 0
                && make != null && !make.isEmpty() && model != null && !model.isEmpty()
                && (cylinders == null || (cylinders > 0 && cylinders <= 16))
                && (displacement == null || (displacement > 0 && displacement < 10));
    }
}

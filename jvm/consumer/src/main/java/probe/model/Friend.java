// SPDX-License-Identifier: Apache-2.0
package probe.model;

/** A record, read through its canonical constructor. */
public record Friend(long id, String name) {}

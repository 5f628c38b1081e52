/**
 * The controller's durable log: {@link org.corral.ctld.journal.Journal} (group-committed records in
 * checksummed segment files, snapshots, crash recovery). Single-threaded by design.
 */
package org.corral.ctld.journal;

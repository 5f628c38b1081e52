/**
 * The scheduler without processes: the controller's own state machine and planner driven by a
 * virtual clock over a workload (Standard Workload Format, or one generated after Lublin and
 * Feitelson), reporting utilization, waits, bounded slowdown and the planner's time per cycle.
 */
package org.corral.ctld.sim;

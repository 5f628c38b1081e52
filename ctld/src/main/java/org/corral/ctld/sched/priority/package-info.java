/**
 * Job priority: priority/basic (first in, first out) and priority/multifactor (age, fairshare,
 * job size, partition, QOS, association, TRES, site and nice, as priority_multifactor.html
 * describes them), computed by the scheduler thread and published with each job for squeue,
 * scontrol and sprio.
 */
package org.corral.ctld.sched.priority;

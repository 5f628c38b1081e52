-- Node events (sacctmgr show event, sreport's Down time): a period a node was down, drained or
-- failing, known by (cluster, node, start), time_end 0 while it lasts. last_event is the newest
-- controller event applied to the row, so an event sent again changes nothing.
CREATE TABLE corral_node_event (
  cluster VARCHAR(64) NOT NULL,
  node_name VARCHAR(128) NOT NULL,
  time_start BIGINT NOT NULL,
  time_end BIGINT NOT NULL,
  state BIGINT NOT NULL,
  reason VARCHAR(1024) NOT NULL,
  reason_uid BIGINT NOT NULL,
  tres VARCHAR(1024) NOT NULL,
  cpus BIGINT NOT NULL,
  last_event BIGINT NOT NULL,
  PRIMARY KEY (cluster, node_name, time_start)
);

CREATE INDEX corral_node_event_end ON corral_node_event (cluster, time_end);

-- A cluster event's TRES and nodes, beside the CPUs the rollups use.
ALTER TABLE corral_cluster_cpus ADD tres VARCHAR(1024) DEFAULT '' NOT NULL;
ALTER TABLE corral_cluster_cpus ADD nodes VARCHAR(4096) DEFAULT '' NOT NULL;

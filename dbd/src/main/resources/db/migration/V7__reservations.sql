-- Reservation periods (Slurm's resv table): the rollups count a MAINT reservation's CPU time as
-- planned down (sreport's PLND Down). Known by (cluster, name, time_start); last_event is the
-- newest controller event applied to the row, so an event sent again changes nothing.
CREATE TABLE corral_resv (
  cluster VARCHAR(64) NOT NULL,
  resv_name VARCHAR(255) NOT NULL,
  time_start BIGINT NOT NULL,
  time_end BIGINT NOT NULL,
  nodes VARCHAR(4096) NOT NULL,
  cpus BIGINT NOT NULL,
  flags VARCHAR(1024) NOT NULL,
  deleted INT NOT NULL,
  last_event BIGINT NOT NULL,
  PRIMARY KEY (cluster, resv_name, time_start)
);

CREATE INDEX corral_resv_end ON corral_resv (cluster, time_end);

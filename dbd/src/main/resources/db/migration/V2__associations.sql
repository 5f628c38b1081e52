-- What sacctmgr manages: clusters, accounts, users, coordinators, associations and QOS. Each
-- row keeps its key columns (what lookups and uniqueness need) and the whole record as a
-- protobuf message (AcctCluster, AcctAccount, AcctUser, AcctAssoc, AcctQos) in `record`.
-- Names are at most 128 characters so the composite keys fit MariaDB's index limit.
CREATE TABLE acct_cluster (
  name VARCHAR(128) NOT NULL PRIMARY KEY,
  record ${blob} NOT NULL
);

CREATE TABLE acct_account (
  name VARCHAR(128) NOT NULL PRIMARY KEY,
  record ${blob} NOT NULL
);

CREATE TABLE acct_user (
  name VARCHAR(128) NOT NULL PRIMARY KEY,
  record ${blob} NOT NULL
);

CREATE TABLE acct_coord (
  user_name VARCHAR(128) NOT NULL,
  account VARCHAR(128) NOT NULL,
  PRIMARY KEY (user_name, account)
);

CREATE TABLE acct_assoc (
  id BIGINT NOT NULL PRIMARY KEY,
  cluster VARCHAR(128) NOT NULL,
  account VARCHAR(128) NOT NULL,
  user_name VARCHAR(128) NOT NULL,
  partition_name VARCHAR(128) NOT NULL,
  record ${blob} NOT NULL,
  UNIQUE (cluster, account, user_name, partition_name)
);

CREATE TABLE acct_qos (
  id BIGINT NOT NULL PRIMARY KEY,
  name VARCHAR(128) NOT NULL UNIQUE,
  record ${blob} NOT NULL
);
